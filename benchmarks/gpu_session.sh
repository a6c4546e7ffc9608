#!/usr/bin/env bash
# One GPU session's work, for the device tool: the test suite, the demo and the benchmarks,
# with everything written under $OUT (or ./gpu-out). Run as: bash .gpu/on-gpu.sh bash benchmarks/gpu_session.sh
# SKIP_TESTS=1 skips the test suite (a benchmark-only session).
# SUITE=1 also runs the cross-library suite (benchmarks/suite.py) at the end, into $out/suite/;
# SUITE=only runs just the suite (no tests, no other benchmarks); SUITE_PREPASS=1 runs ours once
# through it first, in its own process, so that the suite's process finds its pipelines cached
# (see run_suite). SUITE_ARGS passes options to it
# (e.g. "--libs ours,cupy,torch --only dataops,linalg"); SUITE_TIMEOUT (s, default 540) bounds it:
# it saves its JSON and report after each library, so a cut-off run keeps what it finished. For the
# plot on a host without registry access, matplotlib's wheels would have to travel in .gpu
# (bash ../shared/gpu/prepare.sh $(cat benchmarks/plot-wheels.txt)), but with them the tree is
# over the device tool's 64 MiB: carry .gpu without them and redraw the plot here:
#   python benchmarks/suite.py --replot DIR
# TUNE=only runs just the families' tuning scripts (benchmarks/tune_*.py, each into
# $out/tune_<name>.json), benchmarks/diag_latency.py and benchmarks/diag_fresh.py: the first thing to run on a GPU after
# kernels changed without one (their defaults then come from these numbers). TUNE_NAMES="reduce sort"
# limits it to those scripts; SKIP_DIAG=1 skips the latency diagnostic (to split it over two calls).
# TUNE_PREPASS=1 runs each tuning script once first (its output kept as tune_<name>_first.json),
# so that the measured run makes its pipelines from the cache (run 12 blamed compiles for slow
# settings; run 13 found the GPU's clocks, which the runtime now holds up: docs/benchmarks.md).
# REMAKE=only runs benchmarks/diag_remake.py twice with fresh cache directories (cold, then
# warm, with the driver's statistics) into $out/remake_{cold,warm}.json: the cold-pipeline
# effect of run 12 (REMAKE_ARGS passes options, e.g. "--quick --pause 1" for a smoke test).
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
git log -1 --format='%H %s' > "$out/commit.txt" 2>/dev/null
run_suite() {
  if [ -n "${SUITE_PREPASS:-}" ]; then
    # One pass of ours through every workload first fills the pipeline caches, so that the suite
    # measures a warm process (run 12's 2-5x "cold process" was the GPU clocking down while
    # pipelines compiled: run 13, now held up by the runtime); the pre-pass's report is kept.
    timeout "${SUITE_PREPASS_TIMEOUT:-240}" python3 benchmarks/suite.py --libs ours --repeats 1 \
      --out "$out/suite_prepass" > "$out/suite_prepass.log" 2>&1
    echo "prepass exit $?" >> "$out/suite_prepass.log"
  fi
  timeout "${SUITE_TIMEOUT:-540}" python3 benchmarks/suite.py --out "$out/suite" ${SUITE_ARGS:-} > "$out/suite.log" 2>&1
  echo "suite exit $?" >> "$out/suite.log"
  tail -3 "$out/suite.log"; cat "$out/suite/suite.md" 2>/dev/null
}
if [ "${SUITE:-}" = only ]; then run_suite; exit 0; fi
if [ "${REMAKE:-}" = only ]; then
  d=$(mktemp -d)
  mkdir -p "$d/c" "$d/nv"
  for phase in cold warm; do
    ARRAY_API_VULKAN_CACHE_DIR=$d/c __GL_SHADER_DISK_CACHE_PATH=$d/nv timeout 200 \
      python3 benchmarks/diag_remake.py --stats ${REMAKE_ARGS:-} > "$out/remake_$phase.json" 2> "$out/remake_$phase.err"
    echo "diag_remake $phase exit $?"
  done
  exit 0
fi
if [ "${TUNE:-}" = only ]; then
  for t in benchmarks/tune_*.py; do
    name=$(basename "$t" .py)
    case " ${TUNE_NAMES:-${name#tune_}} " in *" ${name#tune_} "*) ;; *) continue ;; esac
    if [ -n "${TUNE_PREPASS:-}" ]; then
      timeout "${TUNE_TIMEOUT:-150}" python3 "$t" > "$out/${name}_first.json" 2> "$out/${name}_first.err"
      echo "$name first pass exit $?"
    fi
    timeout "${TUNE_TIMEOUT:-150}" python3 "$t" > "$out/$name.json" 2> "$out/$name.err"
    echo "$name exit $?"
  done
  if [ -z "${SKIP_DIAG:-}" ]; then
    timeout 150 python3 benchmarks/diag_latency.py > "$out/diag_latency.json" 2> "$out/diag_latency.err"
    echo "diag_latency exit $?"
    timeout 150 python3 benchmarks/diag_fresh.py > "$out/diag_fresh.json" 2> "$out/diag_fresh.err"
    echo "diag_fresh exit $?"
  fi
  exit 0
fi
start=$(date +%s)
if [ -z "${SKIP_TESTS:-}" ]; then
  timeout 330 python3 -m pytest tests -q -p no:cacheprovider -x --ignore=tests/test_install.py > "$out/tests.txt" 2>&1
  echo "tests exit $? in $(( $(date +%s) - start )) s" >> "$out/tests.txt"
fi
python3 -m array_api_vulkan > "$out/demo.txt" 2>&1
python3 benchmarks/diag_context.py > "$out/diag_context.json" 2>&1
python3 benchmarks/engine.py --out "$out/engine.json" > "$out/engine.log" 2>&1
python3 benchmarks/dataops.py --out "$out/dataops.json" > "$out/dataops.log" 2>&1
python3 benchmarks/run.py --out "$out/bench.json" > "$out/bench.log" 2>&1
python3 benchmarks/linalg.py --out "$out/linalg.json" > "$out/linalg.log" 2>&1
python3 benchmarks/fft.py --out "$out/fft.json" > "$out/fft.log" 2>&1
python3 benchmarks/diag_upload.py > "$out/diag_upload.json" 2>&1
[ -z "${SKIP_MICRO:-}" ] && python3 benchmarks/runtime_micro.py > "$out/runtime_micro.json" 2>&1
[ -z "${SKIP_MICRO:-}" ] && python3 benchmarks/kernel_bench.py > "$out/kernel_bench.json" 2>&1
grep -E "^(FAILED|ERROR)|^E  " "$out/tests.txt" 2>/dev/null | head -20; cat "$out/diag_context.json"; tail -3 "$out/tests.txt" 2>/dev/null; cat "$out/engine.json"; cat "$out/dataops.json"; grep -E "_us\"|chain" "$out/bench.json"
grep -E "device|chain|GBps|submit" "$out/runtime_micro.json"; cat "$out/kernel_bench.json"
if [ -n "${SUITE:-}" ]; then run_suite; fi
