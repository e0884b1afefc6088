// Text over a cap is cut in the middle, not refused (platform-api §4.6 `trim_text`): the head and the tail are
// kept around a marker that says how many characters were cut. Lengths count code points, as Python does.
const MARKER = /\n\[\.\.\. (\d+) chars cut \.\.\.\]\n/g;

export const ROW_TEXT_MAX = 2000;
export const EXAMPLE_WHY_MAX = 400;
export const EXAMPLE_TEXT_MAX = 1200;

export function trimText(text: string, cap: number): string {
  const chars = Array.from(text);
  const length = chars.length;
  if (length <= cap) return text;
  let cut = length - cap;
  let head = 0;
  let tail = 0;
  let marker = '';
  for (let round = 0; round < 4; round++) {
    marker = `\n[... ${cut} chars cut ...]\n`;
    const keep = cap - Array.from(marker).length;
    head = Math.floor(keep * 0.5);
    tail = keep - head;
    let prior = 0;
    for (const match of chars.slice(head, length - tail).join('').matchAll(MARKER)) prior += Number(match[1]);
    if (length - keep + prior === cut) break;
    cut = length - keep + prior;
  }
  return chars.slice(0, head).join('') + marker + chars.slice(length - tail).join('');
}
