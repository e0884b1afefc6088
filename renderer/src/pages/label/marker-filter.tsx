// The marker filter (the queue's and the rows table's): the rows where one marker is 0 (the behaviour showed) or 1
// (the agent did the right thing), over the marker names the dataset's rows carry (docs/markers.md).
import type { QueueFilters } from '../../../../shared/api/labels';

type Marker = QueueFilters['marker'];

const encode = (marker: Marker) => (marker ? `${marker.value}:${marker.name}` : '');

function decode(text: string): Marker {
  if (!text) return undefined;
  const at = text.indexOf(':');
  return { name: text.slice(at + 1), value: text.slice(0, at) === '1' ? 1 : 0 };
}

export function MarkerFilter({ names, value, onChange }: { names: string[]; value: Marker; onChange: (marker: Marker) => void }) {
  return (
    <label className="control">
      <span>Marker</span>
      <select data-testid="filter-marker" value={encode(value)} onChange={(event) => onChange(decode(event.target.value))}>
        <option value="">Any</option>
        {names.map((name) => [
          <option key={`0:${name}`} value={`0:${name}`}>{name} = 0 (showed)</option>,
          <option key={`1:${name}`} value={`1:${name}`}>{name} = 1</option>,
        ])}
      </select>
    </label>
  );
}
