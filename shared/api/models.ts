// The models domain: GGUF files found in LM Studio's and Ollama's folders and in folders the person added.
import { z } from '../schema/zod';
import { method } from './define';

export const modelSource = z.enum(['lmstudio', 'ollama', 'folder']);
export type ModelSource = z.infer<typeof modelSource>;

export const modelFile = z.object({
  path: z.string(),
  name: z.string(),
  size_bytes: z.number().int().min(0),
  /** From the GGUF header (general.file_type, else the dominant tensor type), e.g. "Q4_K_M"; null when unreadable. */
  quantization: z.string().nullable(),
  architecture: z.string().nullable(),
  source: modelSource,
  /** Why the header could not be read (truncated, not GGUF); null for a good file. */
  problem: z.string().nullable(),
});
export type ModelFile = z.infer<typeof modelFile>;

const folderPath = z.string().trim().min(1, 'a folder path is required').max(4096);
const folders = z.object({ folders: z.array(z.string()) });

export const modelsApi = {
  'models.list': method(
    z.object({ extra_folders: z.array(folderPath).max(64).optional() }).default({}),
    z.array(modelFile),
    'List GGUF models found in LM Studio, Ollama and the added folders (plus extra_folders for this call)',
  ),
  'models.folders': method(z.object({}).default({}), folders, 'The model folders the person added'),
  'models.addFolder': method(z.object({ path: folderPath }), folders, 'Add a folder to search for GGUF models'),
  'models.removeFolder': method(z.object({ path: folderPath }), folders.extend({ removed: z.boolean() }), 'Stop searching a folder for models'),
} as const;

export const modelsEvents = {} as const;
