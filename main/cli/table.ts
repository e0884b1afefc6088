// Plain-text tables for list commands: columns padded to their widest cell, two spaces apart.
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd() + '\n').join('');
}
