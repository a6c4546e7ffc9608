"""GPU benchmarks of array_api_vulkan against CuPy and torch on the same GPU.

    python benchmarks/run.py [--out results.json]

Each figure is a median over repeats of a batch of ops, timed from before the first op is
recorded to after synchronize(): what a user waiting on the result sees, per op. Not a test.
"""
import argparse
import json
import statistics
import time

import numpy as np

import array_api_vulkan as xp


def timed(fn, sync, repeats=7, inner=20):
    fn()
    sync()
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        ts.append((time.perf_counter() - t) / inner)
    return statistics.median(ts)


def chain_per_op(small, read):
    """Seconds per op of 1000 dependent `x = x + 1.0` from `small`, then one element read."""

    def chain():
        x = small
        for _ in range(1000):
            x = x + 1.0
        return x

    read(chain())
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        read(chain())
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) / 1000


def bench_ours(results):
    dev = xp.__array_namespace_info__().default_device()
    results["device"] = str(dev)
    n = 16 << 20
    rng = np.random.default_rng(0)
    a32 = xp.asarray(rng.random(n, dtype=np.float32))
    b32 = xp.asarray(rng.random(n, dtype=np.float32))
    results["ours_add_f32_16M_us"] = timed(lambda: xp.add(a32, b32), xp.synchronize) * 1e6
    a64 = xp.asarray(rng.random(n) * 10 - 5)
    results["ours_exp_f64_16M_us"] = timed(lambda: xp.exp(a64), xp.synchronize) * 1e6
    results["ours_multiply_f64_16M_us"] = timed(lambda: xp.multiply(a64, a64), xp.synchronize) * 1e6
    # 1000 small dependent ops, then one read: amortised per op.
    small = xp.ones(1000, dtype=xp.float32)
    results["ours_chain1000_small_per_op_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6
    xp.reset_runtime_stats()
    x = small
    for _ in range(1000):
        x = x + 1.0
    float(x[0])
    s = xp.runtime_stats()
    results["ours_chain1000_stats"] = {k: s[k] for k in ("submits", "dispatches", "barriers", "pipelines_created")}
    results["ours_host_fallbacks"] = s["host_fallbacks"]


def bench_cupy(results):
    try:
        import cupy as cp
    except Exception as e:  # not on every host
        results["cupy"] = f"unavailable: {e}"
        return
    n = 16 << 20
    sync = cp.cuda.Device().synchronize
    a32 = cp.random.random(n, dtype=cp.float32)
    b32 = cp.random.random(n, dtype=cp.float32)
    results["cupy_add_f32_16M_us"] = timed(lambda: cp.add(a32, b32), sync) * 1e6
    a64 = cp.random.random(n) * 10 - 5
    results["cupy_exp_f64_16M_us"] = timed(lambda: cp.exp(a64), sync) * 1e6
    results["cupy_multiply_f64_16M_us"] = timed(lambda: cp.multiply(a64, a64), sync) * 1e6
    small = cp.ones(1000, dtype=cp.float32)
    results["cupy_chain1000_small_per_op_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6


def bench_torch(results):
    try:
        import torch
        assert torch.cuda.is_available()
    except Exception as e:
        results["torch"] = f"unavailable: {e}"
        return
    n = 16 << 20
    sync = torch.cuda.synchronize
    a32 = torch.rand(n, device="cuda")
    b32 = torch.rand(n, device="cuda")
    results["torch_add_f32_16M_us"] = timed(lambda: torch.add(a32, b32), sync) * 1e6
    a64 = torch.rand(n, device="cuda", dtype=torch.float64) * 10 - 5
    results["torch_exp_f64_16M_us"] = timed(lambda: torch.exp(a64), sync) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    results = {}
    for fn in (bench_ours, bench_cupy, bench_torch):
        try:
            fn(results)
        except Exception as e:
            results[fn.__name__] = f"failed: {type(e).__name__}: {e}"
    text = json.dumps(results, indent=1, default=str)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
