// Handlers for the models domain: the model picker's list and the person's model folders.
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../../shared/api/define';
import type { modelsApi } from '../../../shared/api/models';
import { modelFolders, setModelFolders } from '../../db/repos/settings';
import { findModelFiles } from '../../agents/llama/model-files';
import type { HandlerMap } from './types';

function existingFolder(input: string): string {
  const folder = path.resolve(input);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(folder);
  } catch {
    throw new ApiError('not_found', `folder ${folder} does not exist; pick an existing folder that holds .gguf files`, 'path');
  }
  if (!stat.isDirectory()) throw new ApiError('bad_input', `${folder} is a file, not a folder; pick the folder that holds it`, 'path');
  return folder;
}

export const modelsHandlers: HandlerMap<keyof typeof modelsApi> = {
  'models.list': (input, ctx) => {
    const extra = (input.extra_folders ?? []).map((folder) => path.resolve(folder));
    return findModelFiles({ extraFolders: [...modelFolders(ctx.db), ...extra] });
  },
  'models.folders': (_input, ctx) => ({ folders: modelFolders(ctx.db) }),
  'models.addFolder': (input, ctx) => {
    const folder = existingFolder(input.path);
    const folders = modelFolders(ctx.db);
    if (!folders.includes(folder)) setModelFolders(ctx.db, [...folders, folder]);
    return { folders: modelFolders(ctx.db) };
  },
  'models.removeFolder': (input, ctx) => {
    const folder = path.resolve(input.path);
    const folders = modelFolders(ctx.db);
    const kept = folders.filter((item) => item !== folder && item !== input.path);
    if (kept.length !== folders.length) setModelFolders(ctx.db, kept);
    return { folders: kept, removed: kept.length !== folders.length };
  },
};
