// Finds GGUF models where people keep them: LM Studio's models folders, Ollama's blobs (named from their
// manifests) and folders the person added; each with its size and the quantization read from its header.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModelFile, ModelSource } from '../../../shared/api/models';
import { readGgufHeader } from './gguf-header';
import { architectureOf, quantizationOf } from './gguf-info';

export type { ModelFile, ModelSource };

export interface FindOptions {
  home?: string;
  extraFolders?: string[];
  /** Environment to read OLLAMA_MODELS from (default process.env). */
  env?: Record<string, string | undefined>;
}

const MAX_DEPTH = 6;
const MAX_ENTRIES = 20_000;
const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/i;

interface Candidate {
  file: string;
  name: string;
  source: ModelSource;
}

/** A folder's entries, or none when it cannot be read (missing, no permission). */
function readEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Every .gguf under root (symlinks followed once, hidden folders skipped), with its path relative to root. */
function walkGguf(root: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  let budget = MAX_ENTRIES;
  const visit = (dir: string, depth: number) => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real) || depth > MAX_DEPTH) return;
    seen.add(real);
    const entries = readEntries(dir);
    for (const entry of entries) {
      if (--budget < 0) return;
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const directory = entry.isDirectory() || (entry.isSymbolicLink() && isDir(full));
      if (directory) visit(full, depth + 1);
      else if (entry.name.toLowerCase().endsWith('.gguf')) found.push(full);
    }
  };
  visit(root, 0);
  return found;
}

function folderCandidates(root: string, source: ModelSource): Candidate[] {
  return walkGguf(root)
    .filter((file) => {
      const part = SPLIT_PART.exec(file);
      return !part || Number(part[1]) === 1;
    })
    .map((file) => ({ file, source, name: path.relative(root, file).replace(/\.gguf$/i, '').split(path.sep).join('/') }));
}

/** Ollama: manifests/<host>/<namespace>/<model>/<tag> name the model layer's blob (blobs/sha256-<hex>). */
function ollamaCandidates(modelsDir: string): Candidate[] {
  const manifests = path.join(modelsDir, 'manifests');
  const out: Candidate[] = [];
  const walk = (dir: string, parts: string[]) => {
    const entries = readEntries(dir);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && parts.length < 3) walk(full, [...parts, entry.name]);
      else if (entry.isFile() && parts.length === 3) {
        const digest = modelDigest(full);
        if (!digest) continue;
        const [host, namespace, model] = parts;
        const base = host === 'registry.ollama.ai' ? (namespace === 'library' ? model : `${namespace}/${model}`) : `${host}/${namespace}/${model}`;
        out.push({ file: path.join(modelsDir, 'blobs', digest.replace(':', '-')), name: `${base}:${entry.name}`, source: 'ollama' });
      }
    }
  };
  walk(manifests, []);
  return out;
}

function modelDigest(manifestFile: string): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { layers?: Array<{ mediaType?: unknown; digest?: unknown }> };
    const layer = manifest.layers?.find((item) => item.mediaType === 'application/vnd.ollama.image.model');
    return typeof layer?.digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(layer.digest) ? layer.digest : null;
  } catch {
    return null;
  }
}

function splitSize(file: string, firstSize: number): number {
  const part = SPLIT_PART.exec(file);
  if (!part) return firstSize;
  let total = firstSize;
  for (let i = 2; i <= Number(part[2]); i++) {
    const sibling = file.replace(SPLIT_PART, `-${String(i).padStart(5, '0')}-of-${part[2]}.gguf`);
    try {
      total += fs.statSync(sibling).size;
    } catch {
      break;
    }
  }
  return total;
}

function describeFile(candidate: Candidate): ModelFile | null {
  let size: number;
  try {
    size = fs.statSync(candidate.file).size;
  } catch {
    return null;
  }
  const model: ModelFile = { path: candidate.file, name: candidate.name, size_bytes: splitSize(candidate.file, size), quantization: null, architecture: null, source: candidate.source, problem: null };
  try {
    const header = readGgufHeader(candidate.file);
    model.quantization = quantizationOf(header);
    model.architecture = architectureOf(header);
  } catch (error) {
    model.problem = error instanceof Error ? error.message : String(error);
  }
  return model;
}

export function standardFolders(home: string, env: Record<string, string | undefined>): Array<{ dir: string; source: ModelSource }> {
  return [
    { dir: path.join(home, '.lmstudio', 'models'), source: 'lmstudio' },
    { dir: path.join(home, '.cache', 'lm-studio', 'models'), source: 'lmstudio' },
    { dir: env.OLLAMA_MODELS || path.join(home, '.ollama', 'models'), source: 'ollama' },
  ];
}

/** All models found, LM Studio first, then Ollama, then added folders; each file once; projectors (clip) left out. */
export function findModelFiles(options: FindOptions = {}): ModelFile[] {
  const home = options.home ?? os.homedir();
  const env = options.env ?? process.env;
  const candidates: Candidate[] = [];
  for (const { dir, source } of standardFolders(home, env)) {
    if (!isDir(dir)) continue;
    candidates.push(...(source === 'ollama' ? ollamaCandidates(dir) : folderCandidates(dir, source)));
  }
  for (const folder of options.extraFolders ?? []) if (isDir(folder)) candidates.push(...folderCandidates(path.resolve(folder), 'folder'));

  const seen = new Set<string>();
  const models: ModelFile[] = [];
  for (const candidate of candidates) {
    let real: string;
    try {
      real = fs.realpathSync(candidate.file);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const model = describeFile(candidate);
    if (model && model.architecture !== 'clip') models.push(model);
  }
  return models;
}
