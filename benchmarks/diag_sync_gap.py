"""Where a synchronised call's time goes, against torch in the same process: an add, a copy and
a sum of float32 at 2^16 ... 2^26 elements, synchronised after every call, each call's result
held until the next round; wall µs a call, medians of interleaved blocks. Run it in
alternating processes for A/B runs of an environment knob. Not a test; prints JSON.

With --gpu it gives each call's GPU time instead (ours: the batch's timestamps, torch: CUDA
events around the call), still synchronised after every call: whether a gap in wall time is
the kernel's or the submission's. With --split, each of ours' rows also gives [the call's own
time, its vkQueueSubmit's, the wait's, the synchronize's], medians in µs.

    python3 benchmarks/diag_sync_gap.py [--quick] [--gpu] [--split] [--out F]
"""
import os
import sys

if "--gpu" in sys.argv:
    os.environ["ARRAY_API_VULKAN_GPU_TIMING"] = "1"
import statistics
import time

import numpy as np

from _common import emit, parser, torch_cuda, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402


def _time(fn, sync, rounds, gpu=None, split=None):
    held = [fn()]
    sync()
    walls = []
    for _ in range(rounds):
        if gpu == "ours":
            g = xp.runtime_stats()["gpu_seconds"]
            r = fn()
            sync()
            walls.append((xp.runtime_stats()["gpu_seconds"] - g) * 1e6)
        elif gpu is not None:  # torch
            e0, e1 = gpu.cuda.Event(enable_timing=True), gpu.cuda.Event(enable_timing=True)
            e0.record()
            r = fn()
            e1.record()
            sync()
            walls.append(e0.elapsed_time(e1) * 1e3)
        elif split is not None:  # ours: the call's return, the submit inside it, the wait
            st = xp.runtime_stats()
            t = time.perf_counter()
            r = fn()
            t1 = time.perf_counter()
            sync()
            t2 = time.perf_counter()
            st2 = xp.runtime_stats()
            split.append(((t1 - t) * 1e6, (st2["submit_seconds"] - st["submit_seconds"]) * 1e6,
                          (st2["wait_seconds"] - st["wait_seconds"]) * 1e6, (t2 - t1) * 1e6))
            walls.append((t2 - t) * 1e6)
        else:
            t = time.perf_counter()
            r = fn()
            sync()
            walls.append((time.perf_counter() - t) * 1e6)
        held[0] = r
    return walls


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--gpu", action="store_true", help="GPU time a call instead of wall")
    ap.add_argument("--split", action="store_true",
                    help="also ours' call, submit, wait and synchronize µs a call (medians)")
    args = ap.parse_args()
    exps, rounds = ((10, 12), 20) if args.quick else ((16, 20, 22, 24, 26), 200)
    libs = {"ours": (xp, xp.synchronize)}
    try:
        torch = torch_cuda()
        libs["torch"] = (torch, torch.cuda.synchronize)
    except Exception:
        pass
    rng = np.random.default_rng(0)
    res = {"rounds": rounds, "time": "gpu" if args.gpu else "wall"}
    for e in exps:
        n = 1 << e
        a_np, b_np = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        for lib, (m, sync) in libs.items():
            if lib == "torch":
                a, b = m.from_numpy(a_np).cuda(), m.from_numpy(b_np).cuda()
                calls = {"add": lambda: a + b, "copy": lambda: a.clone(), "sum": lambda: m.sum(a)}
            else:
                a, b = xp.asarray(a_np), xp.asarray(b_np)
                calls = {"add": lambda: a + b, "copy": lambda: xp.asarray(a, copy=True), "sum": lambda: xp.sum(a)}
            walls = {k: [] for k in calls}
            splits = {k: [] for k in calls}
            for _ in range(3):  # interleaved blocks: a drift of the machine hits every call alike
                for k, fn in calls.items():
                    gpu = (lib if lib == "ours" else m) if args.gpu else None
                    walls[k] += _time(fn, sync, rounds // 3, gpu,
                                      splits[k] if args.split and lib == "ours" else None)
            for k in calls:
                res[f"{k}_2^{e}_{lib}"] = round(statistics.median(walls[k]), 2)
                if splits[k]:
                    res[f"{k}_2^{e}_split"] = [round(statistics.median(c), 2) for c in zip(*splits[k])]
            del a, b
            sync()
    emit(res, args.out)


if __name__ == "__main__":
    main()
