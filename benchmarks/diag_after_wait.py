"""What the host's first calls after a synchronize cost (issue 10's synchronised calls): in a loop
of `op; synchronize()`, the time of the device pool's allocations and of a trivial runtime call
made right after the synchronize, against the same calls made again at once.

    python3 benchmarks/diag_after_wait.py [--quick] [--rounds 200]

Prints one JSON object: per case, the median µs of the first, second and third call after the
synchronize. Cases: `alloc` (16 MB, then 16 MB, then 16 MB), `trivial_then_alloc`
(Device.after_wait(), then two allocations), `sleep_then_alloc` (1 ms asleep first), each after
the op `a + b` on 2^24 float32 (`--quick`: 2^16).
"""
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import emit, parser, use_checkout, where_steps  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    n = (1 << 16) if args.quick else (1 << 24)
    a = xp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    b = xp.asarray(np.random.default_rng(1).random(n, dtype=np.float32))
    dev = a.device
    pool = dev.pool
    box = [None]
    out = {"n": n, "device": str(dev), "cases": {}}
    clock = time.perf_counter
    for case in ("alloc", "trivial_then_alloc", "sleep_then_alloc", "no_op_before"):
        rows = []
        for i in range(args.rounds):
            if case != "no_op_before":
                box[0] = a + b
            xp.synchronize()
            if case == "sleep_then_alloc":
                time.sleep(0.001)
            t0 = clock()
            if case == "trivial_then_alloc":
                dev.after_wait()
            else:
                x0 = pool.alloc(1 << 24)
            t1 = clock()
            x1 = pool.alloc(1 << 24)
            t2 = clock()
            x2 = pool.alloc(1 << 24)
            t3 = clock()
            rows.append((t1 - t0, t2 - t1, t3 - t2))
            x0 = x1 = x2 = None  # noqa: F841
        rows = rows[5:]
        out["cases"][case] = [round(statistics.median(r[k] for r in rows) * 1e6, 2) for k in range(3)]
    # the allocations fusion's held ops make (where(a > 0.5, a, b): the mask's, then the
    # result's), each timed inside Device.alloc
    times = []
    orig = type(dev).alloc

    def timed(self, nbytes):
        t0 = clock()
        r = orig(self, nbytes)
        times.append(clock() - t0)
        return r

    type(dev).alloc = timed
    try:
        rows = []
        for i in range(args.rounds):
            times.clear()
            xp.synchronize()
            box[0] = xp.where(a > 0.5, a, b)
            rows.append(list(times[:2]) + [0.0] * (2 - len(times[:2])))
        xp.synchronize()
    finally:
        type(dev).alloc = orig
    rows = rows[5:]
    out["cases"]["where_held_allocs"] = [round(statistics.median(r[k] for r in rows) * 1e6, 2)
                                         for k in range(2)]
    # where(a > 0.5, a, b) a step at a time: the comparison's call, where's call, the
    # synchronize (which records the held ops), with fusion on and off
    from array_api_vulkan._kernels import _fuse

    for fused in (True, False):
        was = _fuse.set_enabled(fused)
        try:
            rows = where_steps(xp, a, b, args.rounds, xp.synchronize, box)
        finally:
            _fuse.set_enabled(was)
        rows = rows[5:]
        out["cases"]["where_steps_" + ("fused" if fused else "unfused")] = [
            round(statistics.median(r[k] for r in rows) * 1e6, 2) for k in range(3)]
    emit(out, args.out)


if __name__ == "__main__":
    main()
