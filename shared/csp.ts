// The renderer's Content Security Policy, one definition for the desktop window and for `while-desk serve`.
// plotly.js needs inline styles, and its PNG export loads the chart's SVG as a blob: image; nothing else is
// loosened. `connect` names where the page may open connections.
export function contentSecurityPolicy(connect: string = "'self'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
