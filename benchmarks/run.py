"""GPU benchmarks of array_api_vulkan against CuPy and torch on the same GPU.

    python benchmarks/run.py [--out results.json] [--quick]

Each figure is a median over repeats of a batch of ops, timed from before the first op is
recorded to after synchronize(): what a user waiting on the result sees, per op. The *_gpu_us
figures are GPU time per op over such a batch: our runtime's batch timestamps, CUDA events
for CuPy and torch. Not a test.
"""
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics

import numpy as np

import array_api_vulkan as xp

from _common import (chain_per_op, cuda_gpu, cupy_device, emit, ours_gpu, parser, per_op_batch,
                     torch_cuda)


# Elements of the big arrays (the names keep "16M": --quick shrinks them for a lavapipe smoke test).
N = 16 << 20


def timed(fn, sync, repeats=7, inner=20, gpu=None):
    """Median wall seconds per op; with gpu (a function timing a batch on the GPU: it takes a
    callable running the batch and returns its GPU seconds), also the median GPU seconds."""
    wall = per_op_batch(fn, sync, repeats, inner)
    if gpu is None:
        return wall

    def batch():
        return [fn() for _ in range(inner)]

    return wall, statistics.median([gpu(batch) / inner for _ in range(repeats)])


def chain5(m, a):
    """The fusion row's chain (issue 10): 6 elementwise ops, 5 of them intermediates."""
    return m.sqrt(m.abs(m.sin(a) * 3.0 + a) + 1.0)


def bench_fusion(results, a32):
    """chain5 on 16M float32: fused (one generated kernel) and unfused (one static dispatch per
    op). Each repeat keeps its result and records it at once (flush_all), as a following read
    would; a dropped result would never be computed."""
    from array_api_vulkan._kernels import _fuse

    holder = [None]

    def fn():
        holder[0] = chain5(xp, a32)
        _fuse.flush_all()

    for label, on in (("fused", True), ("unfused", False)):
        prev = _fuse.set_enabled(on)
        try:
            if on and not _fuse.enabled():
                results["ours_fused5_f32_16M"] = "unavailable: no run-time compiler"
                continue
            wall, gpu = timed(fn, xp.synchronize, gpu=ours_gpu)
            results[f"ours_{label}5_f32_16M_us"] = wall * 1e6
            results[f"ours_{label}5_f32_16M_gpu_us"] = gpu * 1e6
            xp.synchronize()
            xp.reset_runtime_stats()
            fn()
            xp.synchronize()
            results[f"ours_{label}5_f32_16M_dispatches"] = xp.runtime_stats()["dispatches"]
            small = xp.ones(1000, dtype=xp.float32)
            results[f"ours_chain1000_small_per_op_{label}_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6
        finally:
            _fuse.set_enabled(prev)
    holder[0] = None


def bench_ours(results):
    dev = xp.__array_namespace_info__().default_device()
    results["device"] = str(dev)
    n = N
    rng = np.random.default_rng(0)
    a32 = xp.asarray(rng.random(n, dtype=np.float32))
    b32 = xp.asarray(rng.random(n, dtype=np.float32))
    a64 = xp.asarray(rng.random(n) * 10 - 5)
    for name, fn in (("add_f32_16M", lambda: xp.add(a32, b32)), ("exp_f64_16M", lambda: xp.exp(a64)),
                     ("multiply_f64_16M", lambda: xp.multiply(a64, a64))):
        wall, gpu = timed(fn, xp.synchronize, gpu=ours_gpu)
        results[f"ours_{name}_us"] = wall * 1e6
        results[f"ours_{name}_gpu_us"] = gpu * 1e6
    # 1000 small dependent ops, then one read: amortised per op.
    small = xp.ones(1000, dtype=xp.float32)
    results["ours_chain1000_small_per_op_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6
    xp.reset_runtime_stats()
    x = small
    for _ in range(1000):
        x = x + 1.0
    float(x[0])
    s = xp.runtime_stats()
    results["ours_chain1000_stats"] = {k: s[k] for k in ("submits", "dispatches", "barriers", "pipelines_created",
                                                         "gpu_seconds")}
    results["ours_host_fallbacks"] = s["host_fallbacks"]
    bench_fusion(results, a32)


def bench_cupy(results):
    try:
        cp, sync = cupy_device()
    except Exception as e:  # not on every host
        results["cupy"] = f"unavailable: {e}"
        return
    n = N
    a32 = cp.random.random(n, dtype=cp.float32)
    b32 = cp.random.random(n, dtype=cp.float32)
    a64 = cp.random.random(n) * 10 - 5
    gpu = cuda_gpu(cp.cuda.Event, sync)
    for name, fn in (("add_f32_16M", lambda: cp.add(a32, b32)), ("exp_f64_16M", lambda: cp.exp(a64)),
                     ("multiply_f64_16M", lambda: cp.multiply(a64, a64))):
        wall, g = timed(fn, sync, gpu=gpu)
        results[f"cupy_{name}_us"] = wall * 1e6
        results[f"cupy_{name}_gpu_us"] = g * 1e6
    wall, g = timed(lambda: chain5(cp, a32), sync, gpu=gpu)
    results["cupy_chain5_f32_16M_us"], results["cupy_chain5_f32_16M_gpu_us"] = wall * 1e6, g * 1e6
    small = cp.ones(1000, dtype=cp.float32)
    results["cupy_chain1000_small_per_op_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6


def bench_torch(results):
    try:
        torch = torch_cuda()
    except Exception as e:
        results["torch"] = f"unavailable: {e}"
        return
    n = N
    sync = torch.cuda.synchronize
    a32 = torch.rand(n, device="cuda")
    b32 = torch.rand(n, device="cuda")
    a64 = torch.rand(n, device="cuda", dtype=torch.float64) * 10 - 5
    gpu = cuda_gpu(lambda: torch.cuda.Event(enable_timing=True), sync)
    for name, fn in (("add_f32_16M", lambda: torch.add(a32, b32)), ("exp_f64_16M", lambda: torch.exp(a64))):
        wall, g = timed(fn, sync, gpu=gpu)
        results[f"torch_{name}_us"] = wall * 1e6
        results[f"torch_{name}_gpu_us"] = g * 1e6
    wall, g = timed(lambda: chain5(torch, a32), sync, gpu=gpu)
    results["torch_chain5_f32_16M_us"], results["torch_chain5_f32_16M_gpu_us"] = wall * 1e6, g * 1e6


def main():
    global N
    args = parser(__doc__, only=False, libs=None).parse_args()
    if args.quick:
        N = 1 << 16
    results = {}
    for fn in (bench_ours, bench_cupy, bench_torch):
        try:
            fn(results)
        except Exception as e:
            results[fn.__name__] = f"failed: {type(e).__name__}: {e}"
    emit(results, args.out)


if __name__ == "__main__":
    main()
