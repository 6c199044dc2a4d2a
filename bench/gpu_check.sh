#!/usr/bin/env bash
# The one prepared GPU check of the LLM and encoder scorers (docs/models.md#performance), run where a CUDA
# device is lent:  bash bench/gpu_check.sh            (results also under $OUT, default /tmp/gpu-check)
#
# 1. the CUDA unit tests of the LLM scorer (bf16/fp16 close to CPU fp32, cache = no cache, real OOM back-off);
# 2. bench_llm_scoring.py: a Qwen2-0.5B-shaped model with random weights built from its config, fp32/bf16/fp16,
#    exact labels with and without the prefix cache and the first-token reading, length-sorted batches;
#    sentences/s, tokens/s, share of peak FLOP/s; GPU scores against CPU fp32 on the first sentences;
# 3. bench_scoring.py: a BERT-base-shaped encoder built from its config, fp32/bf16/fp16 on CUDA, against CPU fp32.
# Knobs (environment): PY (python), LIMIT (sentences, default 2048), BATCH (64), BIG_BATCH (256), LLM_ARGS (model shape, default
# "--preset qwen2-0.5b"), DEVICE (cuda), TEXTS (a file of sentences instead of the built-in corpus), COMPARE (32).
set -u
PY=${PY:-python3}
OUT=${OUT:-/tmp/gpu-check}
LIMIT=${LIMIT:-2048}
BATCH=${BATCH:-64}
BIG_BATCH=${BIG_BATCH:-256}
DEVICE=${DEVICE:-cuda}
COMPARE=${COMPARE:-32}
LLM_ARGS=${LLM_ARGS:---preset qwen2-0.5b}
TEXTS_ARG=${TEXTS:+--texts $TEXTS}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_PROGRESS_BARS=1
export HF_MODULES_CACHE=${HF_MODULES_CACHE:-/tmp/eec-hf-modules}
cd "$(dirname "$0")/.."

{ command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv
  $PY -c "import torch, transformers, tokenizers; print('torch', torch.__version__, 'transformers', transformers.__version__,
'tokenizers', tokenizers.__version__, 'cuda', torch.cuda.is_available() and torch.cuda.get_device_name(0))"; } 2>&1 | tee "$OUT/versions.txt"

if $PY -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"; then
  $PY -m pytest -q -p no:cacheprovider tests/test_models_llm_cuda.py 2>&1 | tail -5 | tee "$OUT/cuda_tests.txt"
fi
# shellcheck disable=SC2086
$PY bench/bench_llm_scoring.py $LLM_ARGS --device "$DEVICE" --limit "$LIMIT" --batch-size "$BATCH" \
    --compare-cpu "$COMPARE" $TEXTS_ARG 2>&1 | grep -v "Writing model shards" | tee "$OUT/bench_llm_scoring.txt"
# larger batches (bf16), and the encoder with torch's default attention kernels and with cuDNN's turned off
# shellcheck disable=SC2086
$PY bench/bench_llm_scoring.py $LLM_ARGS --device "$DEVICE" --limit "$LIMIT" --batch-size "$BIG_BATCH" \
    --precisions bf16 $TEXTS_ARG 2>&1 | grep -v "Writing model shards" | tee "$OUT/bench_llm_scoring_big_batch.txt"
for flag in "" --no-cudnn-attention; do
  # shellcheck disable=SC2086
  $PY bench/bench_scoring.py --encoder-from-config bert-base --cuda-only --compare-cpu "$COMPARE" \
      --batch-size "$BATCH" $flag $TEXTS_ARG 2>&1 | grep -v "Writing model shards" | tee -a "$OUT/bench_scoring.txt"
done
