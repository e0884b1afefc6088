// pass@1 per version over time with the noise band around the served version, within the platform's figure rules.
import { describe, expect, it } from 'vitest';
import { checkFigure } from '../../../shared/platform/figure-rules';
import { versionHistory, versionsOverTime } from '../../../renderer/src/pages/compare/agent-figure';

const run = (id: string, version: string, at: string, score: number) => ({ id, version, createdAt: at, evals: [{ behavior: 'policy', score, ci: 2, n: 100, createdAt: at }] });

describe('versions over time', () => {
  it('orders the scored runs by time and draws the band around the served score', () => {
    const points = versionHistory([run('r3', 'v3', '2026-12-03', 80), run('r1', 'v1', '2026-12-01', 70), { id: 'r0', version: 'v0', evals: [] }], 'policy');
    expect(points.map((p) => p.version)).toEqual(['v1', 'v3']);
    const { data, layout } = versionsOverTime(points, { behavior: 'policy', serving: 'v1', floor: 5 });
    expect(data).toHaveLength(3);
    expect(data[0].y).toEqual([65, 65]);
    expect(data[1]).toMatchObject({ y: [75, 75], fill: 'tonexty' });
    expect(data[2]).toMatchObject({ y: [70, 80], text: ['v1 (serving)', 'v3'] });
    expect(checkFigure('versions-over-time', { data, layout }).ok).toBe(true);
  });

  it('has no band without a floor or a served version', () => {
    const points = versionHistory([run('r1', 'v1', '2026-12-01', 70)], 'policy');
    expect(versionsOverTime(points, { behavior: 'policy', serving: null, floor: 5 }).data).toHaveLength(1);
    expect(versionsOverTime(points, { behavior: 'policy', serving: 'v1', floor: null }).data).toHaveLength(1);
  });
});
