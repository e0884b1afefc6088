// What a GGUF header says about a model: quantization name, architecture, and whether the tensor data is all there.
import type { GgufHeader } from './gguf-header';
import { metaNumber, metaString } from './gguf-header';

/** llama.cpp's LLAMA_FTYPE values (general.file_type). */
const FILE_TYPES: Record<number, string> = {
  0: 'F32', 1: 'F16', 2: 'Q4_0', 3: 'Q4_1', 7: 'Q8_0', 8: 'Q5_0', 9: 'Q5_1', 10: 'Q2_K', 11: 'Q3_K_S', 12: 'Q3_K_M',
  13: 'Q3_K_L', 14: 'Q4_K_S', 15: 'Q4_K_M', 16: 'Q5_K_S', 17: 'Q5_K_M', 18: 'Q6_K', 19: 'IQ2_XXS', 20: 'IQ2_XS',
  21: 'Q2_K_S', 22: 'IQ3_XS', 23: 'IQ3_XXS', 24: 'IQ1_S', 25: 'IQ4_NL', 26: 'IQ3_S', 27: 'IQ3_M', 28: 'IQ2_S',
  29: 'IQ2_M', 30: 'IQ4_XS', 31: 'IQ1_M', 32: 'BF16', 36: 'TQ1_0', 37: 'TQ2_0', 38: 'MXFP4_MOE',
};

/** ggml tensor types: [name, elements per block, bytes per block]. */
const TENSOR_TYPES: Record<number, [string, number, number]> = {
  0: ['F32', 1, 4], 1: ['F16', 1, 2], 2: ['Q4_0', 32, 18], 3: ['Q4_1', 32, 20], 6: ['Q5_0', 32, 22], 7: ['Q5_1', 32, 24],
  8: ['Q8_0', 32, 34], 9: ['Q8_1', 32, 36], 10: ['Q2_K', 256, 84], 11: ['Q3_K', 256, 110], 12: ['Q4_K', 256, 144],
  13: ['Q5_K', 256, 176], 14: ['Q6_K', 256, 210], 15: ['Q8_K', 256, 292], 16: ['IQ2_XXS', 256, 66], 17: ['IQ2_XS', 256, 74],
  18: ['IQ3_XXS', 256, 98], 19: ['IQ1_S', 256, 50], 20: ['IQ4_NL', 32, 18], 21: ['IQ3_S', 256, 110], 22: ['IQ2_S', 256, 82],
  23: ['IQ4_XS', 256, 136], 24: ['I8', 1, 1], 25: ['I16', 1, 2], 26: ['I32', 1, 4], 27: ['I64', 1, 8], 28: ['F64', 1, 8],
  29: ['IQ1_M', 256, 56], 30: ['BF16', 1, 2], 34: ['TQ1_0', 256, 54], 35: ['TQ2_0', 256, 66], 39: ['MXFP4', 32, 17],
};

/** The quantization: general.file_type when present, else the tensor type holding most weights. */
export function quantizationOf(header: GgufHeader): string | null {
  const fileType = metaNumber(header, 'general.file_type');
  if (fileType !== undefined && FILE_TYPES[fileType]) return FILE_TYPES[fileType];
  const weightByType = new Map<number, number>();
  for (const tensor of header.tensors) {
    if (tensor.dims.length < 2) continue;
    const elements = tensor.dims.reduce((a, b) => a * b, 1);
    weightByType.set(tensor.type, (weightByType.get(tensor.type) ?? 0) + elements);
  }
  let best: number | null = null;
  for (const [type, weight] of weightByType) if (best === null || weight > (weightByType.get(best) ?? 0)) best = type;
  return best === null ? null : (TENSOR_TYPES[best]?.[0] ?? `type ${best}`);
}

export function architectureOf(header: GgufHeader): string | null {
  return metaString(header, 'general.architecture') ?? null;
}

/** Null when every tensor's data lies inside the file, else what is missing (a truncated download, a cut copy). */
export function missingTensorData(header: GgufHeader): string | null {
  let end = header.dataOffset;
  let last = '';
  for (const tensor of header.tensors) {
    const info = TENSOR_TYPES[tensor.type];
    const elements = tensor.dims.reduce((a, b) => a * b, 1);
    const bytes = info ? Math.ceil(elements / info[1]) * info[2] : 0;
    const tensorEnd = header.dataOffset + Number(tensor.offset) + bytes;
    if (tensorEnd > end) {
      end = tensorEnd;
      last = tensor.name;
    }
  }
  if (end <= header.fileSize) return null;
  return `tensor "${last}" needs the file to be ${end} bytes but it is ${header.fileSize}; the file is truncated (download or copy it again)`;
}
