#!/usr/bin/env bash
# GPU check for local GGUF inference (run on a CUDA machine, from anywhere): writes the tiny model, measures
# tokens/s with gpu 'cuda' and 'auto' (printing llama.gpu and the layers offloaded), then runs the llama agent's
# integration test with the model on the GPU. Needs node_modules installed (node-llama-cpp's CUDA prebuilt).
set -uo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0

echo "== machine"
node --version
(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null) || echo "nvidia-smi not available"
ls node_modules/@node-llama-cpp/ 2>/dev/null | sed 's/^/prebuilt: /'

echo "== tiny model"
npm run --silent make-tiny-model -- "$work/tiny.gguf" || exit 1

for gpu in cuda auto; do
  echo "== bench gpu=$gpu"
  timeout 300 node test/bench/llama-tokens.bench.mjs --gpu "$gpu" --threads 1,2 --tokens 512 --model "$work/tiny.gguf" || { echo "bench gpu=$gpu FAILED"; status=1; }
done
echo "== bench gpu=cpu (for comparison)"
timeout 300 node test/bench/llama-tokens.bench.mjs --gpu cpu --threads 1,2 --tokens 512 --model "$work/tiny.gguf" || status=1

echo "== agent on the GPU (integration test, WHILE_LLAMA_TEST_GPU=cuda)"
WHILE_LLAMA_TEST_GPU=cuda timeout 300 npx vitest run test/integration/llama.test.ts || { echo "agent test on cuda FAILED"; status=1; }

exit $status
