"""GPU tuning of the fft family (issue 9): VkFFT's performance settings (read by name from
ARRAY_API_VULKAN_VKFFT_CONFIG when a plan is made, docs/kernels.md "fft") compared on the
issue's shapes, against CuPy (cuFFT) and torch on the same GPU. Every call is followed by a
synchronize; median of REPEATS timed calls after a warm-up that makes the plan (the compile is
not timed). Each variant's result is checked against the default variant's (max relative
difference), so a setting that breaks accuracy shows. Prints ONE JSON object.

    python3 benchmarks/tune_fft.py [--quick] [--budget SECONDS] [--variants ';coalescedMemory=128']

The settings grid runs on the two goal cases (fft c64 2^24, rfftn f32 4096^2); the other cases
run the default and the best two settings found there (a setting whose result differs from the
default's is marked wrong and never chosen). Every case's default runs first; a time budget
(default 50 s, from the start) then stops trying settings once spent (those left say "skipped").
"""
import os
import statistics
import time

import numpy as np

from _common import (device_name, emit, fallbacks, lib_namespace, mark_native, only_set, parser,
                     random_arrays, timed_calls, use_checkout)

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _fft  # noqa: E402

ENV = "ARRAY_API_VULKAN_VKFFT_CONFIG"
REPEATS = 7
VARIANTS = [
    "",
    "coalescedMemory=64",
    "coalescedMemory=128",
    "aimThreads=64",
    "aimThreads=256",
    "aimThreads=512",
    "registerBoost=1",
    "registerBoost=2",
    "registerBoost4Step=2",
    "registerBoost4Step=4",
    "disableReorderFourStep=1",
    "performBandwidthBoost=1",
    "performBandwidthBoost=2",
    "swapTo3Stage4Step=24",
    "numSharedBanks=64",
    "useLUT=1",
    "coalescedMemory=64,aimThreads=256",
]
WRONG = 1e-4  # a relative difference from the default setting's result past this: a wrong result
GOALS = ("fft_c64_2^24", "rfftn_f32_4096sq")


def cases(m, arr, n, k, n128):
    """name -> (setup() -> args, fn(*args)); m: our namespace, cupy or torch."""
    fft = m.fft

    def sq(a):
        return xp.reshape(a, (k, k)) if m is xp else a.reshape(k, k)

    return {
        "fft_c64_2^24": (lambda: (arr(n, "complex64"),), lambda a: fft.fft(a)),
        "rfftn_f32_4096sq": (lambda: (sq(arr(k * k, "float32")),), lambda a: fft.rfftn(a)),
        "ifft_c64_2^24": (lambda: (arr(n, "complex64"),), lambda a: fft.ifft(a)),
        "fftn_c64_4096sq": (lambda: (sq(arr(k * k, "complex64")),), lambda a: fft.fftn(a)),
        "irfftn_f32_4096sq": (lambda: (fft.rfftn(sq(arr(k * k, "float32"))),),
                              lambda a: fft.irfftn(a, s=(k, k))),
        "fft_c128_2^22": (lambda: (arr(n128, "complex128"),), lambda a: fft.fft(a)),
        "fft_batched_c64_4096x4096": (lambda: (sq(arr(k * k, "complex64")),), lambda a: fft.fft(a)),  # (the last axis)
        # a strided axis (ours: read where it lies, VkFFT's omitted inner dimension)
        "fft_axis0_c64_4096sq": (lambda: (sq(arr(k * k, "complex64")),),
                                 lambda a: fft.fft(a, **{("dim" if m.__name__ == "torch" else "axis"): 0})),
        # the fixed cost of one synchronized call
        "fft_c64_256": (lambda: (arr(256, "complex64"),), lambda a: fft.fft(a)),
    }


def timed(fn, args, sync, repeats):
    """Median seconds of `repeats` synchronized calls after two warm-ups; the last warm-up's
    result (kept while the timed calls run)."""
    ts, _, r = timed_calls(fn, args, sync, repeats, warmups=2, keep=True)
    return statistics.median(ts), r


def rel_diff(a, b):
    d = xp.max(xp.abs(a - b))
    s = xp.max(xp.abs(b))
    return float(d) / max(float(s), 1e-30)


def ours(res, c, only, budget, t0, repeats):
    out = {}
    refs = {}
    inputs = {}  # the same input for every setting of a case

    def run(name, variant, force=False):
        if not force and time.perf_counter() - t0 > budget:
            out.setdefault(name, {})[variant or "default"] = "skipped (budget)"
            return None
        os.environ[ENV] = variant
        _fft._clear()  # plans of the last setting: their temporary buffers go
        setup, fn = c[name]
        if name not in inputs:
            inputs[name] = setup()
        args = inputs[name]
        before = fallbacks()
        try:
            t_plan = time.perf_counter()
            fn(*args)
            xp.synchronize()
            t_plan = time.perf_counter() - t_plan
            t, y = timed(fn, args, xp.synchronize, repeats)
        except Exception as e:  # a setting VkFFT refuses
            out.setdefault(name, {})[variant or "default"] = f"failed: {type(e).__name__}: {str(e)[:160]}"
            return None
        row = mark_native({"us": round(t * 1e6, 1), "first_call_s": round(t_plan, 3)}, before)
        wrong = False
        if name in refs:
            row["rel_diff_vs_default"] = d = float("%.3g" % rel_diff(y, refs[name]))
            wrong = row["wrong"] = d > WRONG  # (disableReorderFourStep leaves four-step output shuffled)
        elif not variant:
            refs[name] = y
        out.setdefault(name, {})[variant or "default"] = row
        return None if wrong else t

    names = [n for n in c if not only or n in only]
    # every case's default first (whatever the budget), then the settings grid on the goals
    best = {}
    for name in names:
        t = run(name, "", force=True)
        if name in GOALS and t is not None:
            best.setdefault("", []).append(t)
    for name in names:
        if name not in GOALS:
            continue
        for v in VARIANTS[1:]:
            t = run(name, v)
            if t is not None:
                best.setdefault(v, []).append(t)
    # the settings best over the goal cases (sum of their times), for the other cases
    full = [v for v, ts in best.items() if len(ts) == len([n for n in names if n in GOALS])]
    ranked = sorted(full, key=lambda v: sum(best[v]))
    top = [v for v in ranked if v][:2]
    res["ours_best_settings_on_goals"] = [v or "default" for v in ranked[:4]]
    for name in names:
        if name in GOALS:
            continue
        for v in top:
            run(name, v)
        inputs.pop(name, None)
        refs.pop(name, None)
    # the copy the no-copy path saves: the default setting, input read through a fresh copy
    if "fft_c64_2^24" in names and time.perf_counter() - t0 < budget:
        os.environ[ENV] = ""
        _fft._clear()
        _fft.READ_IN_PLACE = False
        try:
            setup, fn = c["fft_c64_2^24"]
            args = inputs.get("fft_c64_2^24") or setup()
            t, _ = timed(fn, args, xp.synchronize, repeats)
            out["fft_c64_2^24"]["default, input copied (the old path)"] = {"us": round(t * 1e6, 1)}
        finally:
            _fft.READ_IN_PLACE = True
    os.environ[ENV] = ""
    _fft._clear()
    res["ours"] = out


def summary(res):
    """Per case: our default's and our fastest correct setting's times, and the ratios of the
    fastest to CuPy's and torch's (below 1: faster than them)."""
    out = {}
    ours_ = res.get("ours")
    if not isinstance(ours_, dict):
        return out
    for name, rows in ours_.items():
        ok = {v: r["us"] for v, r in rows.items()
              if isinstance(r, dict) and "us" in r and not r.get("wrong") and not v.startswith("default,")}
        if not ok:
            continue
        best = min(ok, key=ok.get)
        row = {"default_us": ok.get("default"), "best": best, "best_us": ok[best]}
        for lib in ("cupy", "torch"):
            theirs = res.get(lib, {}).get(name) if isinstance(res.get(lib), dict) else None
            if isinstance(theirs, dict):
                row[f"best_vs_{lib}"] = round(ok[best] / theirs["us"], 2)
        out[name] = row
    return out


def other(lib, res, c, only, repeats, sync):
    out = {}
    for name, (setup, fn) in c.items():
        if only and name not in only:
            continue
        try:
            args = setup()
            t, _ = timed(fn, args, sync, repeats)
            out[name] = {"us": round(t * 1e6, 1)}
        except Exception as e:
            out[name] = f"failed: {type(e).__name__}: {str(e)[:160]}"
    res[lib] = out


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--budget", type=float, default=50.0, help="seconds for our settings grid")
    ap.add_argument("--variants", help="the settings grid instead of VARIANTS: ';'-separated "
                    "ARRAY_API_VULKAN_VKFFT_CONFIG values, the first the default ('')")
    args = ap.parse_args()
    if args.variants is not None:
        VARIANTS[:] = [v.strip() for v in args.variants.split(";")]
    only = only_set(args)
    n, k, n128 = (1 << 24, 4096, 1 << 22) if not args.quick else (1 << 14, 128, 1 << 12)
    repeats = REPEATS if not args.quick else 5
    t0 = time.perf_counter()
    dev = xp.__array_namespace_info__().default_device()
    res = {"device": device_name(), "sizes": {"n": n, "k": k, "n_c128": n128},
           "repeats": repeats, "variants": VARIANTS}
    try:
        res["max_storage_buffer_range"] = dev.limits["max_storage_buffer_range"]
    except Exception:
        pass
    rng = np.random.default_rng(0)

    def arr_ours(m, dt):
        a = rng.random(m, dtype=np.float64)
        if dt.startswith("complex"):
            a = a + 1j * rng.random(m, dtype=np.float64)
        return xp.asarray(a.astype(dt))

    try:
        ours(res, cases(xp, arr_ours, n, k, n128), only, args.budget, t0, repeats)
    except Exception as e:
        res["ours"] = f"failed: {type(e).__name__}: {str(e)[:300]}"
    for lib in ("cupy", "torch"):
        try:
            m, sync = lib_namespace(lib)
            other(lib, res, cases(m, random_arrays(m), n, k, n128), only, repeats, sync)
        except Exception as e:
            res[lib] = f"unavailable: {type(e).__name__}: {str(e)[:160]}"
    res["summary"] = summary(res)
    res["total_s"] = round(time.perf_counter() - t0, 1)
    emit(res, args.out, indent=None)


if __name__ == "__main__":
    main()
