"""Tuning run for the reduce family (issue 8): sum / max / argmax / mean+var of float32 16M and
sum over axis 0 / axis 1 of a float32 4096^2 matrix, ours (under several settings of the module
knobs of array_api_vulkan/_kernels/_reduce.py) against CuPy and torch on the same GPU.

Each case is timed two ways: `sync` (a synchronize after every call, median of REPEATS after a
warm-up) and `batch` (BATCH calls, results kept alive, then one synchronize; time per call,
median of REPEATS batches). GB/s counts the bytes the input holds (one read). `recommend`:
per knob family, the setting with the least total batch time over the cases it matters for.
Not a test; prints one JSON object (about 20 s with --quick on lavapipe; the real sizes are
the default).

    python3 benchmarks/tune_reduce.py [--quick]
"""
import sys
import time

import numpy as np

from _common import (device_name, emit, fallbacks, grew, lib_namespace, parser, per_op_batch,
                     timed, use_checkout)

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _launch, _reduce  # noqa: E402

REPEATS = 7
BATCH = 20


def cases(m, arr, n, k):
    def shaped(a, shape):
        return xp.reshape(a, shape) if m is xp else a.reshape(shape)

    v = arr(n, "float32")
    sq = shaped(arr(k * k, "float32"), (k, k))
    return {
        "sum_f32_16M": (lambda: m.sum(v), 4 * n),
        "max_f32_16M": (lambda: m.max(v), 4 * n),
        "argmax_f32_16M": (lambda: m.argmax(v), 4 * n),
        "mean_var_f32_16M": (lambda: (m.mean(v), m.var(v)), 4 * n),
        "var_f32_16M": (lambda: m.var(v), 4 * n),
        "sum_axis0_4096sq": (lambda: m.sum(sq, axis=0), 4 * k * k),
        "sum_axis1_4096sq": (lambda: m.sum(sq, axis=1), 4 * k * k),
        # an unaligned view (scalar loads) and a float64 sum (2-wide loads)
        "sum_f32_16M_off1": (lambda: m.sum(v[1:]), 4 * (n - 1)),
    }


def extra_cases(m, arr, n):
    v = arr(n // 2, "float64")
    i = arr(n, "int32")
    return {
        "sum_f64_8M": (lambda: m.sum(v), 8 * (n // 2)),
        "sum_i32_16M": (lambda: m.sum(i), 4 * n),
    }


def timed_both(fn, sync, repeats):
    return (timed(fn, (), sync, repeats),
            per_op_batch(fn, sync, max(3, repeats // 2), BATCH, warmup=False))


def row(t1, tb, nbytes):
    return {"sync_us": round(t1 * 1e6, 1), "batch_us": round(tb * 1e6, 1),
            "sync_GBs": round(nbytes / t1 / 1e9, 1), "batch_GBs": round(nbytes / tb / 1e9, 1)}


# knob settings of ours: name -> {module attribute: value} (module _reduce unless prefixed)
def configs(quick):
    c = {
        "default": {},
        "novec": {"USE_VEC": False},
        "nosg": {"_launch.USE_SUBGROUPS": False},
        "sgtree0": {"SG_TREE": 0},
        "nocomp": {"COMPENSATE": 0},
        "nosgrows": {"SG_ROWS_MAX_N": 0},
        "sgrows_max32k": {"SG_ROWS_MAX_N": 32768},
        "varlane256": {"VAR_LANE": 256},
    }
    for g in (264, 528, 1056, 2112, 4224):
        c[f"groups{g}"] = {"TARGET_GROUPS_GPU": g, "TARGET_GROUPS": g}
    for tt in (15, 16, 17, 18):
        c[f"threads2^{tt}"] = {"TARGET_THREADS_GPU": 1 << tt, "TARGET_THREADS": 1 << tt}
    for mc in (1024, 8192, 32768):
        c[f"minrows{mc}"] = {"MIN_ROWS_CHUNK": mc}
    for mc in (16, 32, 256):
        c[f"mincols{mc}"] = {"MIN_COLS_CHUNK_GPU": mc}
    # combinations: more COLS invocations with shorter chunks, more ROWS groups with shorter ones
    c["cols_t18_m16"] = {"TARGET_THREADS_GPU": 1 << 18, "MIN_COLS_CHUNK_GPU": 16}
    c["cols_t18_m32"] = {"TARGET_THREADS_GPU": 1 << 18, "MIN_COLS_CHUNK_GPU": 32}
    for lanes in (1, 4, 16):
        c[f"colslanes{lanes}"] = {"COLS_LANES_GPU": lanes}
    c["rows_g2112_m1024"] = {"TARGET_GROUPS_GPU": 2112, "MIN_ROWS_CHUNK": 1024}
    c["nocomp_g2112"] = {"COMPENSATE": 0, "TARGET_GROUPS_GPU": 2112}
    # 4 vector loads in flight in ROWS mode, alone and with fewer, longer chunks
    c["loads4"] = {"LOADS_GPU": 4, "LOADS_CPU": 4}
    c["loads4_g528"] = {"LOADS_GPU": 4, "LOADS_CPU": 4, "TARGET_GROUPS_GPU": 528, "TARGET_GROUPS": 528}
    c["loads4_g2112"] = {"LOADS_GPU": 4, "LOADS_CPU": 4, "TARGET_GROUPS_GPU": 2112, "TARGET_GROUPS": 2112}
    if quick:
        c = {k: c[k] for k in ("default", "novec", "nosg", "nosgrows", "groups264", "threads2^15", "loads4")}
    return c


def apply(settings):
    old = {}
    for name, value in settings.items():
        mod, attr = (_launch, name.split(".", 1)[1]) if name.startswith("_launch.") else (_reduce, name)
        if not hasattr(mod, attr):
            continue
        old[name] = getattr(mod, attr)
        setattr(mod, attr, value)
    _reduce._plans.clear()
    return old


def restore(old):
    for name, value in old.items():
        mod, attr = (_launch, name.split(".", 1)[1]) if name.startswith("_launch.") else (_reduce, name)
        setattr(mod, attr, value)
    _reduce._plans.clear()


# knob families: (configs compared, with "default"; the cases they matter for)
FAMILIES = {
    "TARGET_GROUPS_GPU": (("groups264", "groups528", "groups1056", "groups2112", "groups4224",
                           "rows_g2112_m1024"),
                          ("sum_f32_16M", "max_f32_16M", "argmax_f32_16M", "mean_var_f32_16M")),
    "MIN_ROWS_CHUNK": (("minrows1024", "minrows8192", "minrows32768"),
                       ("sum_f32_16M", "max_f32_16M", "argmax_f32_16M", "mean_var_f32_16M")),
    "TARGET_THREADS_GPU/MIN_COLS_CHUNK_GPU": (("threads2^15", "threads2^16", "threads2^17",
                                           "threads2^18", "mincols16", "mincols32", "mincols256",
                                           "cols_t18_m16", "cols_t18_m32"), ("sum_axis0_4096sq",)),
    "COLS_LANES_GPU": (("colslanes1", "colslanes4", "colslanes16"), ("sum_axis0_4096sq",)),
    "SG_ROWS_MAX_N": (("nosgrows", "sgrows_max32k"), ("sum_axis1_4096sq",)),
    "USE_VEC": (("novec",), ("sum_f32_16M", "max_f32_16M", "sum_axis0_4096sq", "sum_axis1_4096sq")),
    "USE_SUBGROUPS/SG_TREE": (("nosg", "sgtree0"), ("sum_f32_16M", "argmax_f32_16M",
                                                    "sum_axis1_4096sq")),
    "COMPENSATE": (("nocomp", "nocomp_g2112"), ("sum_f32_16M", "mean_var_f32_16M")),
    "VAR_LANE": (("varlane256",), ("mean_var_f32_16M",)),
    "LOADS_GPU": (("loads4", "loads4_g528", "loads4_g2112"),
                  ("sum_f32_16M", "max_f32_16M", "argmax_f32_16M", "mean_var_f32_16M", "sum_axis1_4096sq")),
}


def recommend(out):
    """Per knob family: the setting with the least total batch time (per call) over its cases,
    and the totals of each (us), so a later session can pick defaults from one run."""
    rec = {}
    for fam, (names, wl) in FAMILIES.items():
        totals = {}
        for c in ("default",) + names:
            ts = [out.get(w, {}).get(c) for w in wl]
            if all(isinstance(t, dict) for t in ts):
                totals[c] = round(sum(t["batch_us"] for t in ts), 1)
        if totals:
            rec[fam] = {"best": min(totals, key=totals.get), "batch_us_total": totals}
    return rec


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    n, k = (1 << 16, 256) if args.quick else (16 << 20, 4096)
    repeats = 3 if args.quick else REPEATS
    t0 = time.perf_counter()
    res = {"device": device_name(), "n": n, "k": k,
           "knobs": {a: getattr(_reduce, a) for a in (
               "TARGET_GROUPS", "TARGET_THREADS", "TARGET_GROUPS_GPU", "TARGET_THREADS_GPU",
               "MIN_ROWS_CHUNK", "MIN_COLS_CHUNK", "MIN_COLS_CHUNK_GPU", "COLS_LANES_GPU", "USE_VEC",
               "SG_TREE", "COMPENSATE", "VAR_LANE", "SG_ROWS_MAX_N", "SG_ROWS_MIN_ROWS")}}
    rng = np.random.default_rng(0)

    def arr(m_, dt):
        if dt.startswith("int"):
            return xp.asarray(rng.integers(-1000, 1000, m_).astype(dt))
        return xp.asarray(rng.random(m_, dtype=np.float64).astype(dt))

    ours = cases(xp, arr, n, k)
    ours.update(extra_cases(xp, arr, n))
    xp.synchronize()
    out = {}
    for cname, settings in configs(args.quick).items():
        old = apply(settings)
        try:
            for wname, (fn, nbytes) in ours.items():
                if cname != "default" and wname in ("var_f32_16M", "sum_f32_16M_off1", "sum_i32_16M"):
                    continue
                try:
                    before = fallbacks()
                    r = row(*timed_both(fn, xp.synchronize, repeats), nbytes)
                    if grew(before, fallbacks()):
                        r["native"] = False
                    out.setdefault(wname, {})[cname] = r
                except Exception as e:  # noqa: BLE001
                    out.setdefault(wname, {})[cname] = f"failed: {type(e).__name__}: {str(e)[:200]}"
        finally:
            restore(old)
        if time.perf_counter() - t0 > 60:
            res["cut_short_after"] = cname
            break
    # correctness spot checks of the default settings (float32 sums vs float64)
    try:
        h = rng.random(n, dtype=np.float64).astype(np.float32)
        g = xp.asarray(h)
        res["check_sum_rel_err"] = float(abs(float(xp.sum(g)) - float(np.sum(h.astype(np.float64))))
                                         / float(np.sum(h.astype(np.float64))))
        res["check_argmax_ok"] = int(xp.argmax(g)) == int(np.argmax(h))
        res["check_var_rel_err"] = float(abs(float(xp.var(g)) - float(np.var(h.astype(np.float64))))
                                         / float(np.var(h.astype(np.float64))))
    except Exception as e:  # noqa: BLE001
        res["check"] = f"failed: {type(e).__name__}: {e}"
    for lib in ("cupy", "torch"):
        try:
            m, sync = lib_namespace(lib)
            if lib == "cupy":
                def larr(m_, dt, m=m):
                    if dt.startswith("int"):
                        return m.random.randint(-1000, 1000, m_).astype(dt)
                    return m.random.random(m_).astype(dt)
            else:
                def larr(m_, dt, m=m):
                    if dt.startswith("int"):
                        return m.randint(-1000, 1000, (m_,), device="cuda", dtype=getattr(m, dt))
                    return m.rand(m_, device="cuda", dtype=getattr(m, dt))
            theirs = cases(m, larr, n, k)
            theirs.update(extra_cases(m, larr, n))
            for wname, (fn, nbytes) in theirs.items():
                try:
                    out.setdefault(wname, {})[lib] = row(*timed_both(fn, sync, repeats), nbytes)
                except Exception as e:  # noqa: BLE001
                    out.setdefault(wname, {})[lib] = f"failed: {type(e).__name__}: {str(e)[:200]}"
            del theirs
        except Exception as e:  # noqa: BLE001
            res[lib] = f"unavailable: {type(e).__name__}: {str(e)[:200]}"
    # per case: the best of ours (sync) and the ratio to the faster of CuPy/torch
    for wname, rows in out.items():
        mine = {c: r["sync_us"] for c, r in rows.items() if isinstance(r, dict) and c not in ("cupy", "torch")}
        them = [r["sync_us"] for c, r in rows.items() if isinstance(r, dict) and c in ("cupy", "torch")]
        if mine:
            best = min(mine, key=mine.get)
            rows["best_ours"] = best
            if them and "default" in mine:
                rows["default_vs_best_lib"] = round(mine["default"] / min(them), 2)
                rows["best_vs_best_lib"] = round(mine[best] / min(them), 2)
    res["results"] = out
    res["recommend"] = recommend(out)
    res["seconds"] = round(time.perf_counter() - t0, 1)
    emit(res, args.out, indent=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
