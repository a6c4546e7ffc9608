"""Whether a synchronised call pays for the bytes it leaves written in the GPU's cache: the same
two ops (an add of 2^22 float32, which writes 16 MB, and a sum of 2^24 float32, which reads
64 MB and writes nothing) synchronised each round, in either order. The GPU does the same work
both ways; if the fence waits for dirty cache lines to be written back, the order whose last op
wrote them waits longer past the GPU's own time. Fusion off, so the ops record in call order.
Wall and GPU time (runtime_stats()["gpu_seconds"]) per round, medians. Not a test; prints JSON.

    python3 benchmarks/diag_sync_tail.py [--quick]
"""
import os

os.environ["ARRAY_API_VULKAN_FUSION"] = "0"
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from _common import emit, parser, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402


def main():
    ap = parser(__doc__, only=False, libs=None)
    args = ap.parse_args()
    n_add, n_sum, rounds = ((1 << 12, 1 << 14, 20) if args.quick else (1 << 22, 1 << 24, 300))
    rng = np.random.default_rng(0)
    a, b = (xp.asarray(rng.random(n_add, dtype=np.float32)) for _ in range(2))
    d = xp.asarray(rng.random(n_sum, dtype=np.float32))
    held = []

    def add():
        held.append(a + b)

    def red():
        held.append(xp.sum(d))

    orders = {"add": [add], "sum": [red], "add_then_sum": [add, red], "sum_then_add": [red, add],
              "add_twice": [add, add]}
    res = {"n_add": n_add, "n_sum": n_sum, "rounds": rounds}
    walls = {k: [] for k in orders}
    gpus = {k: [] for k in orders}
    for _ in range(3):  # interleaved blocks, so a drift of the machine hits every order alike
        for name, ops in orders.items():
            for i in range(rounds // 3 + 5):
                held.clear()
                xp.synchronize()
                g0 = xp.runtime_stats()["gpu_seconds"]
                t = time.perf_counter()
                for op in ops:
                    op()
                xp.synchronize()
                w = time.perf_counter() - t
                if i >= 5:
                    walls[name].append(w * 1e6)
                    gpus[name].append((xp.runtime_stats()["gpu_seconds"] - g0) * 1e6)
    for name in orders:
        wm, gm = statistics.median(walls[name]), statistics.median(gpus[name])
        res[name] = {"wall_us": round(wm, 2), "gpu_us": round(gm, 2), "wall_minus_gpu_us": round(wm - gm, 2)}
    emit(res, args.out)


if __name__ == "__main__":
    main()
