"""Tuning run for the sort family (issue 8): sort and argsort of float32 16M, sort of int32 16M,
sort of float64 4M, argsort of a float32 4096^2 matrix along axis -1 and unique_values of int32
16M with 1000 distinct values, ours (under several settings of the module knobs of
array_api_vulkan/_kernels/_sort.py: KPT keys per invocation, USE_BALLOT, HIST_AGG) against CuPy
and torch on the same GPU.

Each case: a warm-up call, then REPEATS calls each followed by a synchronize (median, us), the
result kept alive until the synchronize. `gpu_us`: runtime_stats()["gpu_seconds"] per call over
the timed calls (the queue's timestamps; host overhead is the difference). Every config's
results are checked against numpy once (`ok`). `breakdown_us`: the default plan of three
sorts timed by cumulative prefixes of its steps (each step's cost is the difference). Configs
stop after 45 s so that the whole run stays under 90 s. Not a test; prints one JSON object.

    python3 benchmarks/tune_sort.py [--quick]
"""
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics
import time

import numpy as np

from _common import emit, fallbacks, grew, lib_namespace, parser, timed_calls, use_checkout, warm_up

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _sort  # noqa: E402

REPEATS = 7


def data(n, k, quick):
    rng = np.random.default_rng(0)
    f32 = rng.random(n, dtype=np.float32)
    i32 = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    nf = n // 4
    f64 = rng.standard_normal(nf)
    sq = rng.random((k, k), dtype=np.float32)
    u = rng.integers(0, 1000, n).astype(np.int32)
    return {"f32": f32, "i32": i32, "f64": f64, "sq": sq, "u": u}


def cases(m, d, kind):
    """name -> (fn, input name); m the namespace, d its arrays by name."""
    if kind == "torch":
        return {
            "sort_f32_16M": lambda: m.sort(d["f32"]).values,
            "argsort_f32_16M": lambda: m.argsort(d["f32"], stable=True),
            "sort_i32_16M": lambda: m.sort(d["i32"]).values,
            "sort_f64_4M": lambda: m.sort(d["f64"]).values,
            "argsort_4096sq_axis-1": lambda: m.argsort(d["sq"], dim=-1, stable=True),
            "unique_values_i32_16M_1000": lambda: m.unique(d["u"], sorted=True),
        }
    uniq = m.unique_values if hasattr(m, "unique_values") else m.unique
    return {
        "sort_f32_16M": lambda: m.sort(d["f32"]),
        "argsort_f32_16M": lambda: m.argsort(d["f32"]),
        "sort_i32_16M": lambda: m.sort(d["i32"]),
        "sort_f64_4M": lambda: m.sort(d["f64"]),
        "argsort_4096sq_axis-1": lambda: m.argsort(d["sq"], axis=-1),
        "unique_values_i32_16M_1000": lambda: uniq(d["u"]),
    }


def refs(h):
    return {
        "sort_f32_16M": np.sort(h["f32"], kind="stable"),
        "argsort_f32_16M": np.argsort(h["f32"], kind="stable"),
        "sort_i32_16M": np.sort(h["i32"], kind="stable"),
        "sort_f64_4M": np.sort(h["f64"], kind="stable"),
        "argsort_4096sq_axis-1": np.argsort(h["sq"], axis=-1, kind="stable"),
        "unique_values_i32_16M_1000": np.unique(h["u"]),
    }


def timed(fn, sync, repeats, gpu=None):
    warm_up(fn, (), sync)
    g0 = gpu() if gpu else 0.0
    ts = timed_calls(fn, (), sync, repeats, warmups=0)[0]
    out = {"us": round(statistics.median(ts) * 1e6, 1)}
    if gpu:
        out["gpu_us"] = round((gpu() - g0) / repeats * 1e6, 1)
    return out


def configs(dev, quick):
    shared = dev.limits.get("max_compute_shared_memory_size", 32768)
    out = [dict(KPT=16, USE_BALLOT=True, HIST_AGG=1)]
    for kpt in (8, 12, 24, 32):
        # the scatter's shared memory: max(256 * KPT, 4096) words + 5 KiB
        if 4 * max(256 * kpt, 4096) + 5 * 1024 + 64 <= shared:
            out.append(dict(KPT=kpt, USE_BALLOT=True, HIST_AGG=1))
    out.append(dict(KPT=16, USE_BALLOT=True, HIST_AGG=0))
    out.append(dict(KPT=8, USE_BALLOT=True, HIST_AGG=0))
    out.append(dict(KPT=16, USE_BALLOT=False, HIST_AGG=0))
    out.append(dict(KPT=16, USE_BALLOT=True, HIST_AGG=1, SERIAL_SCAN=0))
    out.append(dict(KPT=16, USE_BALLOT=True, HIST_AGG=1, GH_AGG=1))
    out.append(dict(KPT=16, USE_BALLOT=True, HIST_AGG=1, ROW_KPT=0))
    if 4 * 256 * 32 + 5 * 1024 + 64 <= shared:
        out.append(dict(KPT=16, USE_BALLOT=True, HIST_AGG=1, ROW_KPT=32))
    if quick:
        out = [out[0], out[-4], out[-2], out[-1]]
    return out


class _Capture:
    """A device proxy whose compile_plan keeps the steps (the breakdown compiles prefixes)."""

    def __init__(self, dev):
        self._dev = dev
        self.captured = None

    def __getattr__(self, name):
        return getattr(self._dev, name)

    def compile_plan(self, *args):
        self.captured = args
        return self._dev.compile_plan(*args)


def breakdown(x, descending=False, want=("values",), repeats=REPEATS):
    """Median time of each prefix of the radix plan's steps for 1-D x (current knobs): the
    difference between consecutive rows is what that step costs (zero+ghist+info, then per
    pass hist, scan, scatter; the gather where there is one)."""
    dev = x._alloc.device
    names = {c: n for n, c in _sort.CODES.items()}
    cap = _Capture(dev)
    n = x.shape[0]
    x2 = _sort._rows_view(x, 0)
    if _sort._radix_plan(cap, x._dtype, 1, n, descending, want, None) is None:
        return "no plan"
    rt, args, outs, temps, steps = cap.captured
    out, pass_ = {}, 0
    for k in range(1, len(steps) + 1):
        op = names.get(steps[k - 1][1][0], "?")
        if op in ("sort_zero", "sort_ghist") or (k < len(steps) and names.get(
                steps[k][1][0]) in ("sort_ghist", "sort_info")):
            continue  # zero, ghist and info are timed together
        if op == "sort_hist":
            pass_ += 1
        plan = dev.compile_plan(rt, args, outs, temps, steps[:k])
        ts = timed_calls(plan, (x2,), xp.synchronize, repeats)[0]
        label = op if op in ("sort_info", "sort_gather", "sort_keys") else f"{op}_{pass_ - 1}"
        out[f"{k:02d}_{label}"] = round(statistics.median(ts) * 1e6, 1)
    return out


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    n, k = (1 << 16, 256) if args.quick else (16 << 20, 4096)
    repeats = 3 if args.quick else REPEATS
    t_start = time.perf_counter()
    h = data(n, k, args.quick)
    want = refs(h)
    dev = xp.__array_namespace_info__().default_device()
    res = {"device": dev.name, "n": n, "k": k,
           "subgroup": {"size": dev.info.get("subgroup_size"),
                        "ops": dev.info.get("subgroup_operations")}}
    d = {name: xp.asarray(a) for name, a in h.items()}
    sync = xp.synchronize

    def gpu():
        return xp.runtime_stats().get("gpu_seconds", 0.0)

    ours = {}
    for cfg in configs(dev, args.quick):
        tag = "kpt{KPT}_{b}_agg{HIST_AGG}".format(b="ballot" if cfg["USE_BALLOT"] else "smem", **cfg)
        if "SERIAL_SCAN" in cfg:
            tag += "_serial{SERIAL_SCAN}".format(**cfg)
        if "GH_AGG" in cfg:
            tag += "_ghagg{GH_AGG}".format(**cfg)
        if "ROW_KPT" in cfg:
            tag += "_rowkpt{ROW_KPT}".format(**cfg)
        cfg = dict(dict(SERIAL_SCAN=64, GH_AGG=0, ROW_KPT=16), **cfg)
        for key, v in cfg.items():
            setattr(_sort, key, v)
        _sort.KPT_GPU = _sort.KPT  # (the variant's KPT on every device kind)
        row = {}
        for name, fn in cases(xp, d, "ours").items():
            try:
                before = fallbacks()
                r = fn()
                got = np.asarray(r)
                ok = bool(np.array_equal(got, want[name]))
                del r
                t = timed(fn, sync, repeats, gpu)
                host = grew(before, fallbacks())
                t["ok"] = ok
                t["native"] = not host
                row[name] = t
            except Exception as e:
                row[name] = f"failed: {type(e).__name__}: {str(e)[:200]}"
        ours[tag] = row
        if time.perf_counter() - t_start > 45 and not args.quick:
            res["truncated"] = "time budget"
            break
    res["ours"] = ours
    # cumulative prefixes of the default plan (restore the defaults first)
    for key, v in configs(dev, args.quick)[0].items():
        setattr(_sort, key, v)
    _sort.KPT_GPU = _sort.KPT
    _sort.SERIAL_SCAN, _sort.GH_AGG, _sort.ROW_KPT = 64, 0, 16
    res["breakdown_us"] = {}
    for name, key in (("sort_f32_16M", "f32"), ("sort_f64_4M", "f64"), ("sort_i32_16M", "i32")):
        try:
            res["breakdown_us"][name] = breakdown(d[key], repeats=repeats)
        except Exception as e:
            res["breakdown_us"][name] = f"failed: {type(e).__name__}: {str(e)[:200]}"
    for lib in ("cupy", "torch"):
        try:
            m, s = lib_namespace(lib)
            if lib == "cupy":
                dd = {name: m.asarray(a) for name, a in h.items()}
            else:
                dd = {name: m.from_numpy(np.ascontiguousarray(a)).cuda() for name, a in h.items()}
            row = {}
            for name, fn in cases(m, dd, lib).items():
                try:
                    row[name] = timed(fn, s, repeats)
                except Exception as e:
                    row[name] = f"failed: {type(e).__name__}: {str(e)[:200]}"
            res[lib] = row
        except Exception as e:
            res[lib] = f"unavailable: {type(e).__name__}: {str(e)[:200]}"
    res["seconds"] = round(time.perf_counter() - t_start, 1)
    emit(res, args.out)


if __name__ == "__main__":
    main()
