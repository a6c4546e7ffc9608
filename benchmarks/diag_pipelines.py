"""The driver's compiler statistics (registers, spills, shared memory, as the driver names them)
of every pipeline a few calls record: the sort's radix passes at several KPT, with and without
subgroupPartitionNV, and the float32/float64 matmul kernels (with their speed); then a survey of
the pipelines a range of calls record, listing those with local memory (spilled registers or
indexed arrays: NVIDIA's float64 matmul accumulators were, at a fifteenth of the speed). Needs a driver with
VK_KHR_pipeline_executable_properties (NVIDIA has it; lavapipe prints nothing). Not a test;
prints one JSON object.

    python3 benchmarks/diag_pipelines.py [--quick]
    python3 benchmarks/diag_pipelines.py --small-linalg   (only: the kernels of stacks of small
        linalg calls, one workgroup a matrix, with their GPU time: a line each)
    python3 benchmarks/diag_pipelines.py --large-linalg   (only: the steps' kernels of the float64
        1024^2 solve, qr and cholesky: a line each)
"""
import os
import statistics

os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"

import numpy as np  # noqa: E402

from _common import emit, ours_gpu, parser, use_checkout, warm_up  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _sort  # noqa: E402
from array_api_vulkan._runtime import device as _device  # noqa: E402


def recorded(fn):
    """The (shader, spec) pairs fn() records, in order, without repeats."""
    seen = []
    launch, plan = _device.Device.launch, _device.Device.compile_plan

    def spy_launch(self, shader, spec, *a, **k):
        seen.append((shader, tuple(spec)))
        return launch(self, shader, spec, *a, **k)

    def spy_plan(self, array_type, args, outputs, temps, steps):
        for st in steps:
            seen.append((st[0], tuple(st[1])))
        return plan(self, array_type, args, outputs, temps, steps)

    _device.Device.launch, _device.Device.compile_plan = spy_launch, spy_plan
    try:
        r = fn()
        xp.synchronize()
        del r
    finally:
        _device.Device.launch, _device.Device.compile_plan = launch, plan
    out = []
    for s in seen:
        if s not in out:
            out.append(s)
    return out


# NVIDIA's "Local Memory Size" is 2^36 plus the bytes an invocation keeps in local memory
LOCAL_BASE = 1 << 36


def brief_stats(dev, shader, spec):
    """(registers, shared bytes, local bytes an invocation) of a pipeline, its executables'
    statistics merged (None where the driver reports none)."""
    st = {k: v for _, stats in dev.pipeline_statistics(shader, spec) for k, v in stats.items()}
    return (st.get("Register Count"), st.get("Shared Memory Size"),
            st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE)


def survey(dev, n):
    """Every pipeline a range of calls records (reductions, scans, sorts, products, linalg,
    elementwise in float32, float64 and complex128): those with local memory (spills or indexed
    arrays), and how many were looked at."""
    rng = np.random.default_rng(1)
    calls = []
    for dt in ("float32", "float64"):
        a = xp.asarray(rng.random(n).astype(dt))
        m = xp.reshape(xp.asarray(rng.random(256 * 256).astype(dt)), (256, 256))
        s = m @ m.T + 256 * xp.eye(256, dtype=getattr(xp, dt))
        calls += [lambda a=a: xp.sum(a), lambda a=a: xp.mean(a), lambda a=a: xp.var(a),
                  lambda a=a: xp.argmax(a), lambda a=a: xp.max(a), lambda a=a: xp.cumulative_sum(a),
                  lambda a=a: xp.sort(a), lambda a=a: xp.argsort(a), lambda a=a: xp.exp(a),
                  lambda a=a: xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0),
                  lambda m=m: xp.sum(m, axis=0), lambda m=m: m @ m, lambda m=m: m[:, :7] @ m[:7, :],
                  lambda s=s: xp.linalg.cholesky(s), lambda m=m: xp.linalg.qr(m),
                  lambda s=s, m=m: xp.linalg.solve(s, m[:, :16]), lambda s=s: xp.linalg.inv(s),
                  lambda m=m: xp.linalg.det(m),
                  lambda a=a: a[a > 0.5], lambda a=a: xp.unique_values(xp.round(a * 100))]
    if n >= 1 << 20:
        # the blocked factorizations' panel kernels (chol_panel, qr_sgp, lu_reg) start at 1024^2
        g = xp.reshape(xp.asarray(rng.random(1024 * 1024)), (1024, 1024))
        spd = g @ g.T + 1024 * xp.eye(1024)
        calls += [lambda: xp.linalg.cholesky(spd), lambda: xp.linalg.qr(g),
                  lambda: xp.linalg.solve(spd, g[:, :16])]
    c = xp.asarray((rng.random(4096) + 1j * rng.random(4096)).astype(np.complex128))
    cm = xp.reshape(c, (64, 64))
    calls += [lambda: cm @ cm, lambda: xp.sum(c), lambda: xp.exp(c), lambda: xp.linalg.inv(cm)]
    seen = []
    for fn in calls:
        try:
            for p in recorded(fn):
                if p not in seen:
                    seen.append(p)
        except Exception as e:
            seen.append(("error", repr(e)[:200]))
    spills = []
    for shader, spec in seen:
        if shader == "error":
            spills.append({"error": spec})
            continue
        for exe, st in dev.pipeline_statistics(shader, spec):
            local = st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE
            if local > 0:
                spills.append({"pipeline": shader, "spec": list(spec), "local_bytes": local,
                               "registers": st.get("Register Count")})
    return {"pipelines": len(seen), "with_local_memory": spills}


def small_linalg(dev):
    """Registers, shared and local memory of the kernels a stack of small matrices takes (a
    workgroup a matrix: how many fit an SM decides their speed), with the call's GPU time."""
    rng = np.random.default_rng(0)
    la = xp.linalg
    for shape, dt in (((4096, 32, 32), "float32"), ((1000, 32, 32), "float32"), ((1000, 32, 32), "float64")):
        a = rng.standard_normal(shape).astype(dt)
        sym = a + np.swapaxes(a, -1, -2)
        spd = a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1], dtype=dt)
        x, s, p = xp.asarray(a), xp.asarray(sym), xp.asarray(spd)
        for name, fn in (("inv", lambda: la.inv(x)), ("det", lambda: la.det(x)),
                         ("cholesky", lambda: la.cholesky(p)), ("solve", lambda: la.solve(x, x)),
                         ("eigh", lambda: la.eigh(s)), ("svd", lambda: la.svd(x))):
            for shader, spec in recorded(fn):
                regs, shared, local = brief_stats(dev, shader, spec)
                warm_up(fn, (), xp.synchronize, n=1)
                t = statistics.median(ours_gpu(fn) for _ in range(5))
                print(f"{name} {dt} {'x'.join(map(str, shape))} {shader} spec={list(spec)} regs={regs} "
                      f"shared={shared} local={local} gpu={t * 1e6:.0f}us", flush=True)


def large_linalg(dev, n=1024):
    """Registers, shared and local memory of the steps of the blocked float64 factorizations."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)
    x, p, b = xp.asarray(a), xp.asarray(a @ a.T + np.eye(n)), xp.asarray(rng.standard_normal((n, 16)))
    la = xp.linalg
    for name, fn in (("solve", lambda: la.solve(x, b)), ("qr", lambda: la.qr(x)),
                     ("cholesky", lambda: la.cholesky(p))):
        for shader, spec in recorded(fn):
            regs, shared, local = brief_stats(dev, shader, spec)
            print(f"{name} {shader} spec={list(spec)} regs={regs} shared={shared} local={local}",
                  flush=True)


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--small-linalg", action="store_true")
    ap.add_argument("--large-linalg", action="store_true")
    args = ap.parse_args()
    dev = xp.__array_namespace_info__().default_device()
    if args.small_linalg:
        small_linalg(dev)
        return
    if args.large_linalg:
        large_linalg(dev, 256 if args.quick else 1024)
        return
    rng = np.random.default_rng(0)
    n = (1 << 16) if args.quick else (16 << 20)
    k = 256 if args.quick else 4096
    x = xp.asarray(rng.random(n, dtype=np.float32))
    calls = {}
    timing = {}
    for part in (False, True):
        for kpt in (4, 8, 12, 16):
            def sort(part=part, kpt=kpt):
                _sort.USE_PARTITIONED = part
                _sort.KPT = _sort.KPT_GPU = kpt
                return xp.sort(x)
            calls[f"sort_kpt{kpt}_{'sgp' if part else 'sg'}"] = sort
    from array_api_vulkan._kernels import _matmul
    for dt in ("float32", "float64"):
        a = xp.reshape(xp.asarray(rng.random(k * k).astype(dt)), (k, k))
        calls[f"matmul_{dt}_{k}"] = lambda a=a: a @ a
        for kk in (k // 4, k):
            b = xp.reshape(xp.asarray(rng.random(kk * kk).astype(dt)), (kk, kk))

            def family(b=b):
                # the matmul family's own kernel, not the linalg GEMM step (float64)
                saved, _matmul.GEMM_STEP_CODES = _matmul.GEMM_STEP_CODES, ""
                _matmul._plans.clear()
                try:
                    return b @ b
                finally:
                    _matmul.GEMM_STEP_CODES = saved
                    _matmul._plans.clear()
            calls[f"matmul_{dt}_{kk}_family"] = family
            timing[f"matmul_{dt}_{kk}_family"] = (family, 2 * kk ** 3)
            timing[f"matmul_{dt}_{kk}"] = (lambda b=b: _matmul._plans.clear() or b @ b, 2 * kk ** 3)
    res = {"device": dev.name, "pipelines": {}}
    names = {c: nm for nm, c in _sort.CODES.items()}
    for name, fn in calls.items():
        rows = []
        for shader, spec in recorded(fn):
            label = shader
            if shader.startswith("sort_") and spec:
                label += ":" + names.get(spec[0], str(spec[0]))
            stats = dev.pipeline_statistics(shader, spec)
            rows.append({"pipeline": label, "spec": list(spec),
                         "stats": {e: s for e, s in stats}})
        res["pipelines"][name] = rows
    res["survey"] = survey(dev, 1 << 12 if args.quick else 1 << 20)
    res["tflops"] = {}
    for name, (fn, flops) in timing.items():
        warm_up(fn, (), xp.synchronize, n=2)
        t = statistics.median(ours_gpu(fn) for _ in range(5))
        res["tflops"][name] = round(flops / t / 1e12, 2)
    emit(res)


if __name__ == "__main__":
    main()
