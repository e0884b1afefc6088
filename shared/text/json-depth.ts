// How deeply a JSON text nests, found by a cheap scan before JSON.parse: a row or task nested deeper than any
// real one would make later recursive code (validation, export, JSON.stringify) overflow the stack.

/** The deepest nesting a row or task line may have ([ and { count one level each); real rows stay under 20. */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** At most `limit` opening brackets in all: then no nesting can exceed it. Native indexOf, many times faster than a loop. */
function fewBrackets(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > limit) return false;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > limit) return false;
  return true;
}

/** True when the JSON text nests [ and { (outside strings) more than `limit` levels deep. */
export function nestsTooDeep(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Real rows hold a few dozen brackets: they never pay for the character-by-character scan below.
  if (text.length <= limit || fewBrackets(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The line error for such a text, the same in `import`, `run` and `stats`. */
export function tooDeepMessage(limit: number = MAX_JSON_DEPTH): string {
  return `nested more than ${limit} levels deep (arrays and objects inside each other); flatten it`;
}
