// Handlers for the training export: a client of main/training (the pipeline, the files, the downloads).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { trainingApi } from '../../../shared/api/training';
import { runTrainingJob } from '../../training/export-job';
import { cancelJob } from '../../training/jobs';
import { runPreferenceJob } from '../../training/preference-job';
import { runDefaults } from '../../training/run-defaults';
import { requireDataset } from './require-dataset';
import type { HandlerMap } from './types';

export const trainingHandlers: HandlerMap<keyof typeof trainingApi> = {
  'training.defaults': (input, ctx) => {
    requireDataset(ctx, input.dataset_id);
    return runDefaults(ctx.db, input.dataset_id);
  },
  'training.preview': (input, ctx) => runTrainingJob(ctx, { datasetId: input.dataset_id, settings: input.settings, jobId: input.job_id ?? randomUUID(), destination: null }),
  'training.export': (input, ctx) =>
    runTrainingJob(ctx, {
      datasetId: input.dataset_id,
      settings: input.settings,
      jobId: input.job_id ?? randomUUID(),
      destination: input.download ? { download: true } : { path: path.resolve(input.path as string) },
    }),
  'training.exportPreference': (input, ctx) =>
    runPreferenceJob(ctx, {
      datasetId: input.dataset_id,
      format: input.format,
      systemPrompt: input.system_prompt,
      validate: input.validate,
      jobId: input.job_id ?? randomUUID(),
      destination: input.download ? { download: true } : { path: path.resolve(input.path as string) },
    }),
  'training.cancel': (input, ctx) => ({ cancelled: cancelJob(ctx, input.job_id) }),
};
