// "Type: message" for any thrown value, safe on hostile errors (a getter that throws, a huge message).
const MAX_CHARS = 2000;

export function errorText(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an error that could not be printed';
  }
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}...` : text;
}
