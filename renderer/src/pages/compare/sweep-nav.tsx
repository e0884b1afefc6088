// The compare section's own links: paired compare, sweeps, agents' verdicts.
import { hrefFor } from '../../store/route-store';

export function CompareNav({ current }: { current: 'compare' | 'sweeps' | 'agents' }) {
  const links = [
    { key: 'compare', label: 'Compare two runs', href: hrefFor({ section: 'compare' }) },
    { key: 'sweeps', label: 'Sweeps', href: hrefFor({ section: 'compare', page: 'sweeps' }) },
    { key: 'agents', label: 'Agents and verdicts', href: hrefFor({ section: 'compare', page: 'agents' }) },
  ];
  return (
    <nav className="compare-nav" aria-label="Compare and sweeps">
      {links.map((l) => (
        <a key={l.key} href={l.href} aria-current={current === l.key ? 'page' : undefined}>{l.label}</a>
      ))}
    </nav>
  );
}
