// Text a person (or a hostile file) wrote, made safe to echo on a terminal: control characters are shown
// as escapes (\x1b, \u009b), never sent raw, so no escape sequence from a bad line reaches the screen.

// C0 controls, DEL, C1 controls, and the bidirectional overrides/isolates that can reorder what a line shows.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character escaped, newlines and tabs too: for user text quoted inside one message line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escapeOne);
}

/** Controls escaped but newlines and tabs kept: for a whole message of several lines we wrote ourselves. */
export function escapeControlsKeepLines(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, escapeOne);
}
