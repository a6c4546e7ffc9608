#!/usr/bin/env bash
# A GPU session comparing two shader builds: the tree's spv/ against one in $1 (a directory of
# .spv files), with benchmarks/kernel_bench.py, after the usual session (gpu_session.sh).
# Run as: bash .gpu/on-gpu.sh bash benchmarks/gpu_ab.sh DIR
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
bash benchmarks/gpu_session.sh
python3 benchmarks/kernel_bench.py > "$out/kernel_bench.json" 2>&1
ARRAY_API_VULKAN_SPV_DIR="$1" python3 benchmarks/kernel_bench.py > "$out/kernel_bench_other.json" 2>&1
echo "== kernels, tree spv/"; cat "$out/kernel_bench.json"
echo "== kernels, $1"; cat "$out/kernel_bench_other.json"
