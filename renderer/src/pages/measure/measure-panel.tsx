// The Measure tab of a dataset or run: pass rates, the reliability plot and the curriculum, all computed by the engine.
import { useEffect, useMemo, useState } from 'react';
import { desk } from '../../api/desk';
import { CurriculumPanel } from './curriculum-panel';
import { JobPending } from './job-pending';
import { MeasureControls, defaultSettings, type MeasureSettings } from './measure-controls';
import { PassAtCard } from './pass-at-card';
import { ReliabilityPlot } from './reliability-plot';
import { useStatsJob } from './use-stats-job';
import './measure.css';

/** Task lists arrive cut to this many entries (a 25,000-task run would otherwise send megabytes); counts stay whole. */
const LIST_LIMIT = 200;

export function MeasurePanel({ datasetId }: { datasetId: string }) {
  const [settings, setSettings] = useState<MeasureSettings>(defaultSettings);
  const [version, setVersion] = useState(0);
  useEffect(() => desk.on('datasets.changed', (event) => event.id === datasetId && setVersion((v) => v + 1)), [datasetId]);

  const passInput = useMemo(
    () => ({ dataset_id: datasetId, k: settings.k, min_k: settings.min_k, unanimous_short: settings.unanimous_short }),
    [datasetId, settings.k, settings.min_k, settings.unanimous_short],
  );
  const curriculumInput = useMemo(
    () => ({
      dataset_id: datasetId,
      solved: settings.solved,
      floor: settings.floor,
      band: settings.band,
      tiers: settings.tiers,
      min_rollouts: settings.min_rollouts,
      list_limit: LIST_LIMIT,
    }),
    [datasetId, settings.solved, settings.floor, settings.band, settings.tiers, settings.min_rollouts],
  );
  const base = `${datasetId}|${version}`;
  // Queued in this order on the engine's pool: the quick numbers first, the k-by-k curve last.
  const passAt = useStatsJob('stats.passAt', passInput, `${base}|${JSON.stringify(passInput)}`);
  const curriculum = useStatsJob('stats.curriculum', curriculumInput, `${base}|${JSON.stringify(curriculumInput)}`);
  const reliability = useStatsJob('stats.reliability', { dataset_id: datasetId, max_k: settings.k ?? undefined }, `${base}|${settings.k}`);

  return (
    <div className="measure-panel" data-dataset={datasetId}>
      <MeasureControls value={settings} onChange={setSettings} />
      <JobPending state={passAt} what="pass rates" />
      {passAt.status === 'done' && <PassAtCard report={passAt.value.report} />}
      <JobPending state={reliability} what="the reliability curve" />
      {reliability.status === 'done' && <ReliabilityPlot points={reliability.value.points} />}
      <JobPending state={curriculum} what="the curriculum" />
      {curriculum.status === 'done' && <CurriculumPanel report={curriculum.value.report} tierSizes={curriculum.value.tier_sizes} listLimit={LIST_LIMIT} />}
    </div>
  );
}
