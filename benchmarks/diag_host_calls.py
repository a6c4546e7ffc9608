"""Host time of repeated small calls (issue 10's per-call latency, and the general paths of the
data ops): each function on 4096 float32 elements or a 64 x 64 matrix, called 50 times in a row
with the results kept (no synchronize inside the timing), the median of 7 such rounds per call,
in µs. It also reports which calls went through a host fallback. Where importable, torch and CuPy
make the same calls on their GPU (their host time of an asynchronous launch).

    python3 benchmarks/diag_host_calls.py [--only take,getitem_int] [--libs ours,torch,cupy]

Prints one JSON object. Not a test.
"""
import statistics
import time

import numpy as np

from _common import emit, parser, use_checkout

use_checkout()


def calls(xp, asarray, int_index):
    rng = np.random.default_rng(0)
    a = asarray(rng.random(4096, dtype=np.float32))
    b = asarray(rng.random(4096, dtype=np.float32))
    m = asarray(rng.random((64, 64), dtype=np.float32))
    idx = asarray(rng.integers(0, 4096, 4096).astype(int_index))
    srt = xp.sort(a)
    f32 = xp.float32
    return {
        "add": lambda: a + b,
        "add_scalar": lambda: a + 1.0,
        "sum": lambda: xp.sum(a),
        "argmax": lambda: xp.argmax(a),
        "mean": lambda: xp.mean(a),
        "std": lambda: xp.std(a),
        "max_axis0": lambda: xp.max(m, axis=0),
        "cumulative_sum": lambda: xp.cumulative_sum(a),
        "matmul": lambda: m @ m,
        "vecdot": lambda: xp.vecdot(m, m),
        "zeros": lambda: xp.zeros(4096, dtype=f32),
        "full_like": lambda: xp.full_like(a, 2.0),
        "linspace": lambda: xp.linspace(0, 1, 4096, dtype=f32),
        "take": lambda: xp.take(a, idx),
        "getitem_int": lambda: a[idx],
        "getitem_slice": lambda: a[1:100],
        "where": lambda: xp.where(a > 0.5, a, b),
        "clip": lambda: xp.clip(a, 0.2, 0.8),
        "astype": lambda: xp.astype(a, xp.int32),
        "concat": lambda: xp.concat([a, b]),
        "stack": lambda: xp.stack([a, b]),
        "transpose_copy": lambda: xp.asarray(xp.matrix_transpose(m), copy=True),
        "asarray_copy": lambda: xp.asarray(a, copy=True),
        "reshape": lambda: xp.reshape(m, (4096,)),
        "flip": lambda: xp.flip(a),
        "roll": lambda: xp.roll(a, 3),
        "repeat": lambda: xp.repeat(a, 2),
        "tile": lambda: xp.tile(a, (2,)),
        "tril": lambda: xp.tril(m),
        "diff": lambda: xp.diff(a),
        "searchsorted": lambda: xp.searchsorted(srt, b),
        "sort": lambda: xp.sort(a),
        "argsort": lambda: xp.argsort(a),
        "count_nonzero": lambda: xp.count_nonzero(a > 0.5),
        "any": lambda: xp.any(a > 0.5),
    }


def host_us(fn, sync, rounds=7, per=50):
    keep = [fn() for _ in range(10)]
    sync()
    ts = []
    for _ in range(rounds):
        keep = []
        t = time.perf_counter()
        for _ in range(per):
            keep.append(fn())
        ts.append((time.perf_counter() - t) / per)
        sync()
    del keep
    return round(statistics.median(ts) * 1e6, 2)


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--only", default="", help="comma-separated call names (default all)")
    ap.add_argument("--libs", default="ours,torch,cupy")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    res = {"us": {}}
    for lib in args.libs.split(","):
        try:
            if lib == "ours":
                import array_api_vulkan as xp

                sync, asarray = xp.synchronize, xp.asarray
                res["device"] = xp.__array_namespace_info__().default_device().name
                xp.reset_runtime_stats()
                ix = np.int64 if xp.int64 in xp.__array_namespace_info__().dtypes().values() else np.int32
            elif lib == "torch":
                import torch
                from array_api_compat import torch as xp

                if not torch.cuda.is_available():
                    continue
                sync = torch.cuda.synchronize
                asarray = lambda h: torch.as_tensor(h, device="cuda")  # noqa: E731
                ix = np.int64
            elif lib == "cupy":
                import cupy
                from array_api_compat import cupy as xp

                sync = cupy.cuda.Device().synchronize
                asarray, ix = cupy.asarray, np.int64
            else:
                continue
        except Exception as e:  # (a library that is not there is left out)
            res.setdefault("skipped", {})[lib] = f"{type(e).__name__}: {e}"[:200]
            continue
        out = res["us"][lib] = {}
        for name, fn in calls(xp, asarray, ix).items():
            if only and name not in only:
                continue
            try:
                out[name] = host_us(fn, sync)
            except Exception as e:
                out[name] = f"{type(e).__name__}: {e}"[:200]
        if lib == "ours":
            res["host_fallbacks"] = xp.runtime_stats()["host_fallbacks"]
    emit(res, args.out)


if __name__ == "__main__":
    main()
