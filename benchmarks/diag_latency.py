"""Where a large elementwise op synchronised after every call spends its time (issue 10's
per-call latency): fusion off or on; with fusion, ops held always, or the first after a host
wait recorded at once ("wait"), or any finding the GPU idle (_fuse.EAGER); the first op after
a wait submitted at once or at the synchronize (Recorder.kick_after_wait); and a 16M sum;
then the 1000-op chain with the early submit at several dispatch counts, made by the submit
thread or by the recording thread (Recorder.early_inline). torch in the same process for
reference.
JSON on stdout. Not a test.

    python benchmarks/diag_latency.py [--quick]
"""
import json
import sys
import time

import numpy as np

from _common import median_time, torch_cuda

QUICK = "--quick" in sys.argv
N = (1 << 20) if QUICK else (1 << 24)
REPS = 5 if QUICK else 30


def median_us(fn, reps=REPS):
    return median_time(fn, reps) * 1e6


def ours():
    import array_api_vulkan as xp
    from array_api_vulkan._kernels import _fuse

    rng = np.random.default_rng(0)
    a = xp.asarray(rng.random(N, dtype=np.float32))
    b = xp.asarray(rng.random(N, dtype=np.float32))
    small = xp.asarray(rng.random(1000, dtype=np.float32))
    dev = a.device
    keep = []

    def add_sync():
        keep.append(a + b)
        xp.synchronize()
        keep.clear()

    def add_call():  # host time of the call alone (what the caller waits for before its next op)
        t = time.perf_counter()
        keep.append(a + b)
        dt = time.perf_counter() - t
        xp.synchronize()
        keep.clear()
        return dt

    def chain_sync():
        keep.append(xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0))
        xp.synchronize()
        keep.clear()

    def chain_batched():
        for _ in range(20):
            keep.append(xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0))
        xp.synchronize()
        keep.clear()

    def add_batched():
        for _ in range(20):
            keep.append(a + b)
        xp.synchronize()
        keep.clear()

    def small_sync():
        keep.append(small + 1.0)
        xp.synchronize()
        keep.clear()

    def sum_sync():
        keep.append(xp.sum(a))
        xp.synchronize()
        keep.clear()

    out = {}
    for fusion, eager, kick in ((False, False, False), (False, False, True), (True, False, False),
                                (True, False, True), (True, "wait", True), (True, True, True)):
        _fuse.set_enabled(fusion)
        _fuse.EAGER = eager
        dev._rec.kick_after_wait = kick
        xp.synchronize()  # (the kick flag is read at a wait)
        name = f"fusion={int(fusion)} eager={eager} kick={int(kick)}"
        calls = sorted(add_call() for _ in range(REPS))
        out[name] = {
            "add_sync_us": median_us(add_sync),
            "add_call_host_us": calls[len(calls) // 2] * 1e6,
            "add_batched_us_per_call": median_us(add_batched, max(3, REPS // 5)) / 20,
            "chain5_sync_us": median_us(chain_sync),
            "chain5_batched_us_per_chain": median_us(chain_batched, max(3, REPS // 5)) / 20,
            "small_op_sync_us": median_us(small_sync, REPS * 3),
            "sum_sync_us": median_us(sum_sync),
        }
        print(name, out[name], file=sys.stderr)

    # The 1000-op small chain (run.py's): one submission at the end (early_dispatches above 1000)
    # against early submits every k dispatches while the GPU is idle, so that it runs while the
    # host records the rest.
    def chain1000():
        x = small
        for _ in range(1000):
            x = x + 1.0
        return float(x[0])

    for inline in (False, True):
        for k in (1024, 256, 128, 64, 32):
            dev._rec.early_inline = inline
            dev._rec.early_dispatches = k
            out[f"chain1000_per_op_us early_dispatches={k} inline={int(inline)}"] = \
                median_us(chain1000, max(3, REPS // 5)) / 1000
    return out


def torch_ref():
    try:
        torch = torch_cuda()
    except Exception:
        return None
    a = torch.rand(N, device="cuda")
    b = torch.rand(N, device="cuda")
    small = torch.rand(1000, device="cuda")
    keep = []
    sync = torch.cuda.synchronize

    def add_sync():
        keep.append(a + b)
        sync()
        keep.clear()

    def chain_sync():
        keep.append(torch.sqrt(torch.abs(torch.sin(a) * 3.0 + a) + 1.0))
        sync()
        keep.clear()

    def small_sync():
        keep.append(small + 1.0)
        sync()
        keep.clear()

    def sum_sync():
        keep.append(torch.sum(a))
        sync()
        keep.clear()

    def chain1000():
        x = small
        for _ in range(1000):
            x = x + 1.0
        return float(x[0])

    return {"chain1000_per_op_us": median_us(chain1000, max(3, REPS // 5)) / 1000,
            "add_sync_us": median_us(add_sync), "chain5_sync_us": median_us(chain_sync),
            "small_op_sync_us": median_us(small_sync, REPS * 3), "sum_sync_us": median_us(sum_sync)}


def main():
    print(json.dumps({"n": N, "ours": ours(), "torch": torch_ref()}, indent=1))


if __name__ == "__main__":
    main()
