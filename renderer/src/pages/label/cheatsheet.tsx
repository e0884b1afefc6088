// The keys of the labeling desk (?), as a dialog.
export const KEYS: Array<[string, string]> = [
  ['1 or p', 'pass'],
  ['0 or f', 'fail'],
  ['s', 'skip (nothing stored)'],
  ['u', 'undo your last label (appends a withdrawal)'],
  ['n', 'note on your label (Enter saves, Esc cancels)'],
  ['j / ↓ / →', 'next row'],
  ['k / ↑ / ←', 'previous row'],
  ['v', "show or hide the judge's verdict"],
  ['?', 'this sheet'],
];

export function Cheatsheet({ onClose }: { onClose: () => void }) {
  return (
    <div className="cheatsheet" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="cheatsheet">
      <h2>Keys</h2>
      <table className="plain">
        <tbody>
          {KEYS.map(([key, what]) => (
            <tr key={key}><td><kbd>{key}</kbd></td><td>{what}</td></tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose} autoFocus>Close (Esc)</button>
    </div>
  );
}
