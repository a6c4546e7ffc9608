"""Where calls whose results are kept lose time (run 8's open question, docs/benchmarks.md).

In run 8 on the H100, the suite (which keeps every result of a repeat until its end) measured
add float32 16M at 200 us synchronised against 94-135 us in diag_latency.py (which frees each
result), the batched sort of 16M float32 at 6.3 ms against 2.0 synchronised, and the batched
4096^2 float32 matmul at 20.8 ms against 3.8; tune_matmul.py saw the same matmul at 21 ms or
3.7 ms depending on the order of its variants. This script times each of those calls four ways:
synchronised or batched, with the results freed at once or held until the end of the repeat,
and reports wall time and GPU time per call (runtime_stats()["gpu_seconds"], from the
runtime's per-batch timestamps) and the pool's reserved bytes, so that a GPU-side slowdown
(kernel, memory) can be told from a host-side one (allocation, recording, waiting). The matmul
runs twice, first and last, to see an order effect. Prints one JSON object.

    python3 benchmarks/diag_fresh.py [--quick]
"""
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics
import sys
import time

import numpy as np

from _common import emit, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402


def stats():
    s = xp.runtime_stats()
    return s.get("gpu_seconds", 0.0), s.get("pool_bytes_reserved", s.get("pool_bytes_in_use", 0))


def measure(call, mode, hold, inner, repeats):
    """Per-call wall and GPU seconds (medians over repeats) of `inner` calls."""
    walls, gpus = [], []
    call()
    xp.synchronize()
    for _ in range(repeats):
        kept = []
        g0, _ = stats()
        t = time.perf_counter()
        for _ in range(inner):
            r = call()
            if mode == "sync":
                xp.synchronize()
            if hold or mode == "batched":  # a batched result must live until the synchronize
                kept.append(r)
            del r
        xp.synchronize()
        walls.append((time.perf_counter() - t) / inner)
        g1, _ = stats()
        gpus.append((g1 - g0) / inner)
        del kept
    return {"wall_us": round(statistics.median(walls) * 1e6, 1),
            "gpu_us": round(statistics.median(gpus) * 1e6, 1),
            "pool_bytes": stats()[1]}


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    q = 64 if args.quick else 1
    n, k = (1 << 24) // q, 4096 // int(q ** 0.5)
    rng = np.random.default_rng(0)
    a = xp.asarray(rng.standard_normal(n).astype(np.float32))
    b = xp.asarray(rng.standard_normal(n).astype(np.float32))
    m1 = xp.asarray(rng.standard_normal((k, k)).astype(np.float32))
    m2 = xp.asarray(rng.standard_normal((k, k)).astype(np.float32))
    xp.synchronize()
    cases = [("matmul_f32_first", lambda: m1 @ m2, 5),
             ("add_f32", lambda: a + b, 20),
             ("sort_f32", lambda: xp.sort(a), 5),
             ("matmul_f32_last", lambda: m1 @ m2, 5)]
    out = {"n": n, "k": k, "device": str(a.device), "cases": {}}
    t0 = time.perf_counter()
    for name, call, inner in cases:
        row = {}
        for mode in ("sync", "batched"):
            for hold in (False, True):
                if mode == "batched" and not hold:
                    continue  # (batched results are always held until the synchronize)
                label = f"{mode}_{'held' if hold else 'freed'}"
                row[label] = measure(call, mode, hold, inner, 3 if args.quick else 7)
                print(name, label, row[label], file=sys.stderr)
        out["cases"][name] = row
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit(out, args.out)


if __name__ == "__main__":
    main()
