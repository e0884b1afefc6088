// The browser sets up each font face the first time it lays out text in it: on this 2-core machine the first layout
// of the app shell took 45-105 ms, most of it that setup (the same shell as a static page: some 21 ms), and it was the
// one task over 50 ms as the compare screen opened with no debugger attached (test/bench/compare-screen.bench.mjs).
// Laying out a word in each face the shell and its pages use, off screen, one face per task, moves that setup out
// of the render's task: all four faces in one task were themselves a task of 65-75 ms.

/** The faces to set up: the body text, its semibold and bold, and the monospace of ids and code. */
const FACES: Array<{ weight?: string; mono?: boolean }> = [{}, { weight: '600' }, { weight: '700' }, { mono: true }];

/** Lays out a word in one face, off screen, now. */
function layOutWordIn(face: (typeof FACES)[number]): void {
  const word = document.createElement('span');
  word.setAttribute('aria-hidden', 'true');
  if (face.mono) word.className = 'mono';
  // Hidden, not display:none: hidden text is still laid out, so its face is set up.
  word.style.cssText = `position:absolute;left:-10000px;top:0;visibility:hidden;font-weight:${face.weight ?? 'inherit'}`;
  word.textContent = 'Aa…';
  document.body.append(word);
  word.getBoundingClientRect();
  word.remove();
}

/** Sets up each face in a task of its own, starting with the next task. */
export function prewarmFonts(faces = FACES): void {
  if (faces.length === 0) return;
  setTimeout(() => {
    layOutWordIn(faces[0]);
    prewarmFonts(faces.slice(1));
  }, 0);
}
