"""Why a workload runs slower batched (calls back to back, one synchronise) than synchronised
after every call (the suite of session 7 on the H100: matmul float32 4096^2 13.9 ms against
3.85, k-means 33.8 against 9.7): both modes timed as suite.measure does, with the runtime's
counters (submits, dispatches, barriers, GPU seconds) per call. Run it under different
ARRAY_API_VULKAN_* settings to compare. In its own process it found batched no slower (run 10):
the suite's figures came from timing a workload's first mode too soon, which suite.py's
warm-up now prevents. Prints JSON and a table (stderr).

    python3 benchmarks/diag_batched.py [--quick] [--only matmul_f32_4096,kmeans]
"""
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics
import sys
import time

import numpy as np

from _common import emit, only_set, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from workloads import FULL, QUICK, kmeans, make_data, mlp_step  # noqa: E402

KEYS = ("submits", "dispatches", "barriers", "gpu_seconds", "wait_seconds")


def cases(sizes, quick):
    rng = np.random.default_rng(0)
    n = 512 if quick else 4096
    a = xp.asarray(rng.standard_normal((n, n), dtype=np.float32))
    b = xp.asarray(rng.standard_normal((n, n), dtype=np.float32))
    km = {k: xp.asarray(v) for k, v in make_data("kmeans", sizes, rng).items()}
    ml = {k: xp.asarray(v) for k, v in make_data("mlp_step", sizes, rng).items()}
    s = xp.asarray(rng.standard_normal(1 << (16 if quick else 24), dtype=np.float32))
    return {"matmul_f32_4096": lambda: a @ b, "kmeans": lambda: kmeans(xp, km),
            "mlp_step": lambda: mlp_step(xp, ml), "sort_f32_16M": lambda: xp.sort(s)}


def run(call, mode, inner, reps):
    ts, stats = [], []
    for _ in range(reps):
        s0 = xp.runtime_stats()
        rs = []
        t = time.perf_counter()
        for _ in range(inner):
            rs.append(call())
            if mode == "sync":
                xp.synchronize()
        xp.synchronize()
        ts.append((time.perf_counter() - t) / inner)
        s1 = xp.runtime_stats()
        stats.append({k: (s1[k] - s0[k]) / inner for k in KEYS})
        del rs
    i = ts.index(statistics.median(ts)) if reps % 2 else 0
    return {"per_call_s": statistics.median(ts), "all_s": ts, **stats[i]}


def main():
    args = parser(__doc__, libs=None).parse_args()
    only = only_set(args)
    out = {}
    for name, call in cases(QUICK if args.quick else FULL, args.quick).items():
        if only and name not in only:
            continue
        call()
        xp.synchronize()
        row = {}
        for inner in (1, 2, 5):
            for mode in ("sync", "batched"):
                row[f"{mode}x{inner}"] = run(call, mode, inner, 5)
        out[name] = row
        for k, v in row.items():
            print(f"{name:16s} {k:10s} {v['per_call_s'] * 1e3:9.3f} ms/call  gpu "
                  f"{v['gpu_seconds'] * 1e3:8.3f} ms  submits {v['submits']:.1f} dispatches "
                  f"{v['dispatches']:.1f} barriers {v['barriers']:.1f}", file=sys.stderr)
    emit(out, args.out)


if __name__ == "__main__":
    main()
