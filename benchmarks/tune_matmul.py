"""Tuning run of the matmul kernels (issue 9/10): every tile configuration / variant worth choosing
between, on the shapes of issue 9 (f32/f64 4096^2, f32 1024^2, batched 64 x 256^2) and issue 10's
workloads (logistic regression X @ w and X.T @ r, k-means, MLP products and their transposes),
each timed with a synchronize after every call (median of the timed calls after a warm-up,
results kept until their synchronize), against CuPy and torch (TF32 off) where importable.
Variants are set through _kernels._matmul's module-level knobs. Prints ONE JSON object.

    python3 benchmarks/tune_matmul.py [--quick] [--budget SECONDS]

--quick shrinks every size (a lavapipe check of the script); the default sizes are the real ones.
Each result row: median seconds, TFLOP/s, the relative error of a sample of rows against a
float64 host reference, and host fallbacks seen (must be none).
"""
import os
import statistics
import time

import numpy as np

from _common import (cupy_device, emit, fallbacks, only_set, parser, timed_calls, torch_cuda,
                     use_checkout, warm_up)

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _matmul  # noqa: E402

T0 = time.perf_counter()
KNOBS = ("USE_FAST", "FORCE_FAST", "FORCE_TILES", "BIG_MIN_GROUPS", "DIRECT_SPLIT_THREADS",
         "DIRECT_MIN_CHUNK", "SPLIT_SINGLE_PASS", "SPLIT_WORK", "SPLIT_TARGET", "SPLIT_MIN_K",
         "SPLIT_MIN_CHUNK",
         "MAX_SPLITS", "DIRECT_LOCAL", "SMALL_MN", "DIRECT_KL",
         "SWIZZLE", "NVIDIA", "GEMM_STEP_CODES", "STATIC_MODES", "EXACT_TILES")
DEFAULTS = {k: getattr(_matmul, k) for k in KNOBS}


def set_knobs(knobs):
    for k in KNOBS:
        setattr(_matmul, k, DEFAULTS[k])
    dp = knobs.get("denorm_preserve")
    if dp is None:
        os.environ.pop("ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE", None)
    else:
        os.environ["ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE"] = "1" if dp else "0"
    for k, v in knobs.items():
        if k not in ("denorm_preserve", "_vendor"):
            setattr(_matmul, k, v)
    if knobs.get("_vendor") is False:
        _matmul.NVIDIA = {}  # (the variant's knobs apply as set, on every device)
    _matmul._plans.clear()


def n_fallbacks():
    return sum(fallbacks().values())


def med_time(fn, sync, reps):
    t0 = time.perf_counter()
    warm_up(fn, (), sync)
    if time.perf_counter() - t0 > 0.3:
        reps = min(reps, 3)  # slow ones (a badly chosen f64 tile): a few calls
    return statistics.median(timed_calls(fn, (), sync, reps, warmups=0)[0])


def cases(q):
    """name -> (A shape, B shape, dtype, A transposed?, B transposed?, reps); q: shrink factor."""
    s4, s1, b, kb = 4096 // q, 1024 // q, 64 // min(q, 8), 256 // q
    big = (1 << 20) // (q * q)
    return {
        "f32_4096": ((s4, s4), (s4, s4), "float32", False, False, 7),
        "f64_4096": ((s4, s4), (s4, s4), "float64", False, False, 5),
        "f32_1024": ((s1, s1), (s1, s1), "float32", False, False, 15),
        "f32_batched_64x256": ((b, kb, kb), (b, kb, kb), "float32", False, False, 15),
        "logreg_Xw_1Mx64": ((big, 64), (64, 1), "float32", False, False, 9),
        "logreg_XTr_64x1M": ((big, 64), (big, 1), "float32", True, False, 9),
        "kmeans_1Mx16_16x32": ((big, 16), (16, 32), "float32", False, False, 9),
        "mlp_4096x1024_1024sq": ((s4, s1), (s1, s1), "float32", False, False, 9),
        "mlp_XT_G_1024x4096": ((s4, s1), (s4, s1), "float32", True, False, 9),
        "mlp_G_WT_4096x1024": ((s4, s1), (s1, s1), "float32", False, True, 9),
        "f64_1024": ((s1, s1), (s1, s1), "float64", False, False, 9),
        "mlp_f64_4096x1024_1024sq": ((s4, s1), (s1, s1), "float64", False, False, 5),
        "pca_XcT_Xc_64x1M": ((big, 64), (big, 64), "float32", True, False, 9),
        "kmeans_onehotT_X_32x1M": ((big, 32), (big, 16), "float32", True, False, 9),
        "logreg_rX_1M_1Mx64": ((1, big), (big, 64), "float32", False, False, 9),
    }


F32_BIG = [(16, 16, 8, 8, 16), (16, 16, 8, 8, 8), (16, 16, 8, 4, 16), (16, 16, 4, 8, 16),
           (16, 16, 4, 4, 16), (16, 16, 4, 4, 32), (32, 8, 4, 8, 16), (8, 32, 8, 4, 16),
           (16, 16, 8, 16, 8), (16, 16, 16, 8, 8), (16, 8, 8, 8, 16), (8, 16, 8, 8, 16)]
F32_MID = [(16, 16, 8, 8, 16), (16, 16, 8, 4, 16), (16, 16, 4, 4, 16), (16, 16, 4, 4, 32),
           (16, 16, 4, 4, 8)]
F64_CFG = [(16, 16, 8, 8, 8), (16, 16, 8, 8, 4), (16, 16, 4, 4, 8), (16, 16, 4, 4, 16),
           (16, 16, 8, 4, 8), (16, 16, 4, 8, 8), (16, 16, 2, 2, 16), (16, 8, 8, 8, 8),
           (8, 16, 8, 8, 8)]


def variants(name):
    """[(label, knobs)] to time for case `name`, most important first. "default": the module's
    defaults for this device (NVIDIA's own values on NVIDIA: _matmul.NVIDIA); every other
    variant: the module-level knobs as set, NVIDIA's own values off ("base": none set)."""
    # "default_before20": the defaults before H100 run 20 (the mode word read at run time,
    # NVIDIA's 256-invocation "big" tiles)
    before = {k: v for k, v in DEFAULTS["NVIDIA"].items() if k != "FAST"}
    v = ([("default", {}), ("default_before20", {"STATIC_MODES": False, "NVIDIA": before}),
          ("base", {})] + _variants(name))
    return [(label, knobs if label.startswith("default") else dict(knobs, _vendor=False))
            for label, knobs in v]


def _variants(name):
    v = []
    if name in ("f32_4096", "f32_1024", "f32_batched_64x256", "mlp_4096x1024_1024sq"):
        v += [("gemm_step", {"GEMM_STEP_CODES": "fd"})]
    if name in ("f64_4096", "f64_1024", "mlp_f64_4096x1024_1024sq"):
        v += [("matmul_kernel", {"GEMM_STEP_CODES": ""})]
    if name == "f32_4096":
        v += [("generic", {"USE_FAST": False})]
        v += [(f"fast{c}", {"FORCE_FAST": {4: c}}) for c in F32_BIG[1:]]
        v += [("default_nodp", {"denorm_preserve": False})]
        v += [(f"swizzle{g}", {"SWIZZLE": g}) for g in (4, 8, 16)]
    elif name == "f64_4096":
        v += [("generic", {"USE_FAST": False})]
        v += [(f"fast{c}", {"FORCE_FAST": {8: c}}) for c in F64_CFG]
        v += [(f"swizzle{g}", {"SWIZZLE": g}) for g in (4, 8)]
        v += [("generic(16,16,2,2,16)", {"USE_FAST": False, "FORCE_TILES": (16, 16, 2, 2, 16)}),
              ("generic(16,16,4,4,8)", {"USE_FAST": False, "FORCE_TILES": (16, 16, 4, 4, 8)})]
    elif name in ("f32_1024", "f32_batched_64x256", "mlp_4096x1024_1024sq", "mlp_XT_G_1024x4096",
                  "mlp_G_WT_4096x1024"):
        v += [("generic", {"USE_FAST": False})]
        v += [(f"fast{c}", {"FORCE_FAST": {4: c}}) for c in F32_MID]
        v += [("swizzle8", {"SWIZZLE": 8})]
    elif name in ("f64_1024", "mlp_f64_4096x1024_1024sq"):
        v += [(f"fast{c}", {"FORCE_FAST": {8: c}}) for c in F64_CFG[:5]]
    elif name == "logreg_Xw_1Mx64":
        v += [(f"lanes{n}", {"DIRECT_KL": n}) for n in (1, 4, 16, 32)]
        v += [(f"local{n}", {"DIRECT_LOCAL": n}) for n in (64, 128)]
        # the tiled path (tall tiles) for N = 1: vector loads of X, 31/32 of the products wasted
        v += [("tiled_tall", {"SMALL_MN": 1}),
              ("tiled_tall(8,32,8,4,16)", {"SMALL_MN": 1, "FORCE_FAST": {4: (8, 32, 8, 4, 16)}})]
    elif name == "logreg_XTr_64x1M":
        v += [(f"split_threads{t}_chunk{c}_single{s}",
               {"DIRECT_SPLIT_THREADS": t, "DIRECT_MIN_CHUNK": c, "SPLIT_SINGLE_PASS": s})
              for t, c, s in [(1 << 14, 256, 64), (1 << 16, 256, 1 << 20), (1 << 18, 64, 64),
                              (1 << 18, 64, 1 << 20), (1 << 20, 32, 64), (1 << 12, 256, 64)]]
        # the tiled path (tall tiles of X.T's columns) with split-K
        v += [(f"tiled_split_work{w}_max{ms}", {"SMALL_MN": 1, "SPLIT_WORK": w, "SPLIT_TARGET": w,
                                                 "MAX_SPLITS": ms, "SPLIT_MIN_CHUNK": 256})
              for w, ms in [(128, 256), (512, 1024), (2048, 4096)]]
    elif name in ("pca_XcT_Xc_64x1M", "kmeans_onehotT_X_32x1M"):
        # long K, a small C: how many K chunks (split-K) and how large
        v += [(f"split_work{w}_max{ms}_chunk{c}_single{s}",
               {"SPLIT_WORK": w, "SPLIT_TARGET": w, "MAX_SPLITS": ms, "SPLIT_MIN_CHUNK": c,
                "SPLIT_SINGLE_PASS": s})
              for w, ms, c, s in [(512, 1024, 256, 64), (1024, 1024, 128, 64), (2048, 4096, 128, 64),
                                  (512, 512, 256, 1 << 20), (1024, 2048, 64, 64),
                                  (256, 256, 256, 1 << 20), (4096, 8192, 64, 64)]]
        v += [(f"split1024_fast{c}", {"SPLIT_WORK": 1024, "SPLIT_TARGET": 1024, "MAX_SPLITS": 1024,
                                        "SPLIT_MIN_CHUNK": 128, "FORCE_FAST": {4: c}})
              for c in [(16, 16, 4, 4, 16), (16, 8, 4, 4, 16), (8, 8, 4, 4, 16), (16, 16, 4, 4, 32),
                        (8, 8, 4, 4, 32), (16, 16, 2, 2, 16)]]
        v += [("split1024_generic", {"SPLIT_WORK": 1024, "SPLIT_TARGET": 1024, "MAX_SPLITS": 1024,
                                      "SPLIT_MIN_CHUNK": 128, "USE_FAST": False})]
    elif name == "logreg_rX_1M_1Mx64":
        v += [(f"split_threads{t}_chunk{c}", {"DIRECT_SPLIT_THREADS": t, "DIRECT_MIN_CHUNK": c})
              for t, c in [(1 << 16, 256), (1 << 17, 256), (1 << 19, 64), (1 << 20, 32),
                           (1 << 18, 64), (1 << 16, 1024)]]
        v += [(f"local{n}", {"DIRECT_LOCAL": n}) for n in (64, 128)]
    elif name == "kmeans_1Mx16_16x32":
        v += [("generic", {"USE_FAST": False})]
        v += [(f"fast{c}", {"FORCE_FAST": {4: c}})
              for c in [(8, 32, 4, 4, 16), (8, 32, 8, 4, 16), (8, 16, 4, 4, 16), (8, 32, 4, 4, 8),
                        (16, 16, 4, 4, 16)]]
    return v


def make_ours(shape_a, shape_b, dt, ta, tb, rng):
    a = rng.standard_normal(shape_a).astype(dt)
    b = rng.standard_normal(shape_b).astype(dt)
    xa, xb = xp.asarray(a), xp.asarray(b)
    if ta:
        xa, a = xp.matrix_transpose(xa), np.swapaxes(a, -1, -2)
    if tb:
        xb, b = xp.matrix_transpose(xb), np.swapaxes(b, -1, -2)
    return a, b, xa, xb


def sample_error(got, a, b):
    """Relative max error of the first rows of got against a float64 host product."""
    rows = min(a.shape[-2], 64)
    ga = np.asarray(got[..., :rows, :]) if got.ndim >= 2 else np.asarray(got)
    ref = np.matmul(a[..., :rows, :].astype(np.float64), b.astype(np.float64))
    scale = float(np.max(np.abs(ref))) or 1.0
    return float(np.max(np.abs(ga - ref)) / scale)


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--budget", type=float, default=80.0)
    ap.add_argument("--case-budget", type=float, default=14.0)
    args = ap.parse_args()
    q = 16 if args.quick else 1
    rng = np.random.default_rng(0)
    dev = xp.asarray(np.ones(1, np.float32)).device
    info = getattr(dev, "info", {}) or {}
    out = {"device": {k: info.get(k) for k in ("device_name", "vendor_id", "driver_version",
                                                 "subgroup_size", "float_controls")
                      if k in info},
           "shared_bytes": _matmul._shared(xp.asarray(np.ones(1))._alloc.device),
           "quick": args.quick, "cases": {}, "skipped": []}
    try:
        torch = torch_cuda()
    except Exception:
        torch = None
    try:
        cupy = cupy_device()[0]
    except Exception:
        cupy = None
    only = only_set(args)
    for name, (sa, sb, dt, ta, tb, reps) in cases(q).items():
        if only and name not in only:
            continue
        if dt == "float64" and xp.float64 not in xp.__array_namespace_info__().dtypes().values():
            out["skipped"].append(name + " (no float64)")
            continue
        a, b, xa, xb = make_ours(sa, sb, np.dtype(dt), ta, tb, rng)
        m_, k_ = a.shape[-2:]
        n_ = b.shape[-1]
        flops = 2 * m_ * k_ * n_ * int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2])))
        row = {"shape": [list(a.shape), list(b.shape)], "dtype": dt, "a_T": ta, "b_T": tb,
               "flops": flops, "ours": {}}
        if reps > 5 and dt == "float64" and not args.quick:
            reps = 5
        t_case = time.perf_counter()
        for label, knobs in variants(name):
            now = time.perf_counter()
            if now - T0 > args.budget or now - t_case > args.case_budget:
                out["skipped"].append(f"{name}:{label}")
                continue
            set_knobs(knobs)
            f0 = n_fallbacks()
            try:
                t = med_time(lambda: xa @ xb, xp.synchronize if hasattr(xp, "synchronize")
                             else dev.synchronize, reps if label == "default" else max(5, reps // 2))
                err = sample_error(xa @ xb, a, b)
                row["ours"][label] = {"s": t, "tflops": flops / t / 1e12, "err": err,
                                      "fallbacks": n_fallbacks() - f0}
            except Exception as e:  # one variant failing must not lose the others
                row["ours"][label] = {"error": f"{type(e).__name__}: {e}"[:300]}
        set_knobs({})
        ok = {k: v for k, v in row["ours"].items() if "s" in v and v["fallbacks"] == 0
              and v["err"] < (1e-3 if dt == "float32" else 1e-10)}
        if ok:
            best = min(ok, key=lambda k: ok[k]["s"])
            row["best"] = [best, ok[best]["s"]]
        if torch is not None:
            try:
                ta_ = torch.from_numpy(np.ascontiguousarray(np.swapaxes(a, -1, -2) if ta else a)).cuda()
                tb_ = torch.from_numpy(np.ascontiguousarray(np.swapaxes(b, -1, -2) if tb else b)).cuda()
                ta_ = ta_.mT if ta else ta_
                tb_ = tb_.mT if tb else tb_
                t = med_time(lambda: ta_ @ tb_, torch.cuda.synchronize, reps)
                row["torch"] = {"s": t, "tflops": flops / t / 1e12}
                del ta_, tb_
            except Exception as e:
                row["torch"] = {"error": str(e)[:200]}
        if cupy is not None:
            try:
                ca = cupy.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2) if ta else a))
                cb = cupy.asarray(np.ascontiguousarray(np.swapaxes(b, -1, -2) if tb else b))
                ca = cupy.swapaxes(ca, -1, -2) if ta else ca
                cb = cupy.swapaxes(cb, -1, -2) if tb else cb
                t = med_time(lambda: ca @ cb, cupy.cuda.Device().synchronize, reps)
                row["cupy"] = {"s": t, "tflops": flops / t / 1e12}
                del ca, cb
            except Exception as e:
                row["cupy"] = {"error": str(e)[:200]}
        out["cases"][name] = row
        del xa, xb
    out["elapsed_s"] = time.perf_counter() - T0
    emit(out, args.out, indent=None)


if __name__ == "__main__":
    main()
