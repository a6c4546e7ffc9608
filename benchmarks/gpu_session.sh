#!/usr/bin/env bash
# One GPU session's work, for the device tool: the test suite, the demo and the benchmarks,
# with everything written under $OUT (or ./gpu-out). Run as: bash .gpu/on-gpu.sh bash benchmarks/gpu_session.sh
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
start=$(date +%s)
python3 -m pytest tests -q -p no:cacheprovider > "$out/tests.txt" 2>&1
echo "tests exit $? in $(( $(date +%s) - start )) s" >> "$out/tests.txt"
python3 -m array_api_vulkan > "$out/demo.txt" 2>&1
python3 benchmarks/run.py --out "$out/bench.json" > "$out/bench.log" 2>&1
python3 benchmarks/runtime_micro.py > "$out/runtime_micro.json" 2>&1
tail -3 "$out/tests.txt"; cat "$out/bench.json"; grep -E "device|chain|copy_GBps" "$out/runtime_micro.json"
