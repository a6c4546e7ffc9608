"""Why a synchronised small op's wall time is bimodal across processes (run 22: `small_add`
21 or 50 us in diag_split.py, the same code, process to process). Times `S + 1.0` (1000
float32) and `A + B` (16M) synchronised after every call, in this process, and prints with
them the CPU the main thread ran on, the NUMA node of that CPU, and (ARRAY_API_VULKAN_PROFILE_HOST=1)
the C++ hot path's stages per call: where the extra time goes (the call, the submit, the wait).

    python3 benchmarks/diag_sync_modes.py [--reps 400]
"""
import glob
import json
import os
import statistics
import time

import numpy as np

from _common import cpu_now, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._runtime import _vkcore  # noqa: E402


def threads():
    """This process's threads: (name, the CPU each last ran on, its user + system ticks)."""
    rows = []
    for path in glob.glob("/proc/self/task/*/stat"):
        try:
            text = open(path).read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        f = text.rsplit(")", 1)[1].split()
        rows.append((name, int(f[36]), int(f[11]) + int(f[12])))
    return sorted(rows)


def node_of(cpu):
    for path in glob.glob("/sys/devices/system/node/node*/cpulist"):
        for part in open(path).read().strip().split(","):
            lo, _, hi = part.partition("-")
            if int(lo) <= cpu <= int(hi or lo):
                return int(path.split("/node")[-1].split("/")[0])
    return None


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--torch", action="store_true", help="the same calls in torch (CUDA), for comparison")
    ap.add_argument("--main-cpu", type=int, default=None,
                    help="pin the main thread alone to this CPU (after the device's threads start)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    m, sync, conv = xp, xp.synchronize, xp.asarray
    if args.torch:
        import torch
        m, sync = torch, torch.cuda.synchronize
        conv = lambda v: torch.asarray(v, device="cuda")  # noqa: E731
    s = conv(rng.random(1000, dtype=np.float32))
    a = conv(rng.random(1 << 24, dtype=np.float32))
    b = conv(rng.random(1 << 24, dtype=np.float32))
    if args.main_cpu is not None:  # (Linux: pid 0 is the calling thread, the others stay free)
        s.__add__(1.0) if not args.torch else None
        sync()
        os.sched_setaffinity(0, {args.main_cpu})
    out = {"lib": m.__name__, "main_cpu": args.main_cpu,
           "env": {k: v for k, v in os.environ.items() if k.startswith("ARRAY_API_VULKAN")}}
    for name, fn in (("small_add", lambda: s + 1.0), ("add_f32_16M", lambda: a + b)):
        for _ in range(20):
            r = fn()
            sync()
        del r
        _vkcore.host_profile(True)
        walls, calls, cpus = [], [], []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            r = fn()
            t1 = time.perf_counter()
            sync()
            t2 = time.perf_counter()
            del r
            walls.append(t2 - t0)
            calls.append(t1 - t0)
            cpus.append(cpu_now())
        on, stages = _vkcore.host_profile(True)
        row = {"wall_us": round(statistics.median(walls) * 1e6, 1),
               "call_us": round(statistics.median(calls) * 1e6, 1),
               "wall_p10_p90_us": [round(np.percentile(walls, q) * 1e6, 1) for q in (10, 90)],
               "cpus": sorted(set(cpus)), "nodes": sorted({node_of(c) for c in cpus})}
        if on:
            row["stages_us"] = {k: round(v[0] / args.reps * 1e6, 2) for k, v in stages.items() if v[1]}
        out[name] = row
    out["threads"] = threads()
    if not args.torch:
        out["stats"] = {k: v for k, v in xp.runtime_stats().items() if k in ("cuda_clock_hold",)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
