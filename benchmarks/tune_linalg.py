"""GPU tuning run for the blocked factorizations (_kernels/_linalg.py): cholesky, solve (16 right
hand sides), qr and inv in float64 at 1024^2, and cholesky in float32, for each block size NB
(and TRSM_CW, the columns of a triangular-solve workgroup), against CuPy and torch on the same
GPU. Each call is followed by a synchronize; the median of the timed calls after a warm-up is
reported in ms, with the result's relative error against numpy (checked once per variant).
Prints one JSON object.

    python3 benchmarks/tune_linalg.py [--quick] [--few] [--variants JSON]

--variants '[{}, {"LU_REG": false}, ...]' times those knob settings of _kernels/_linalg.py
instead of the built-in list ({} is the defaults).
"""
import json
import statistics
import time

import numpy as np

from _common import emit, fallbacks, grew, lib_namespace, parser, timed_calls, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _linalg  # noqa: E402


def inputs(n, k=16):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)
    s = a @ a.T + np.eye(n)
    b = rng.standard_normal((n, k))
    return a, s, b


# the module's knobs (the defaults each variant starts from)
BASE = {k: getattr(_linalg, k) for k in ("NB", "NB_OP", "TRSM_CW", "TRSM_SHARED", "PANEL_IB",
                                         "SHARED_MAX", "PANEL_NT", "UPDATE", "SPLIT_TILES",
                                         "SPLIT_GROUPS", "SPLIT_CHUNK", "TRSM_TSHARED",
                                         "LU_SLOTS", "CHOL_NT", "LU_REG")}


HOST = {}


def timed(fn, args, sync, reps, budget=4.0):
    """(median ms of call + synchronize, the warm-up's result); HOST["ms"]: the median time of
    the call alone (recording, and for cholesky/solve/inv the status read's wait)."""
    ts, hs, out = timed_calls(fn, args, sync, reps, keep=True, budget=budget)
    HOST["ms"] = statistics.median(hs) * 1e3
    return statistics.median(ts) * 1e3, out


def cases(n):
    a, s, b = inputs(n)
    return {
        "cholesky_f64": (("float64", s), None, lambda la, x: la.cholesky(x)),
        "solve_f64_16rhs": (("float64", a), ("float64", b), lambda la, x, y: la.solve(x, y)),
        "qr_f64": (("float64", a), None, lambda la, x: la.qr(x)),
        "inv_f64": (("float64", a), None, lambda la, x: la.inv(x)),
        "det_f64": (("float64", a), None, lambda la, x: la.det(x)),
        "cholesky_f32": (("float32", s), None, lambda la, x: la.cholesky(x)),
    }


def check(name, out, a, b):
    """Relative error of our result (numpy's reference)."""
    if name.startswith("cholesky"):
        L = np.asarray(out)
        return float(np.abs(L @ L.T - a).max() / np.abs(a).max())
    if name.startswith("solve"):
        return float(np.abs(a @ np.asarray(out) - b).max() / np.abs(b).max())
    if name.startswith("inv"):
        return float(np.abs(a @ np.asarray(out) - np.eye(len(a))).max())
    if name.startswith("qr"):
        Q, R = (np.asarray(t) for t in out)
        return float(np.abs(Q @ R - a).max() / np.abs(a).max())
    if name.startswith("det"):
        want = np.linalg.det(a)
        return float(abs(float(out) - want) / abs(want))
    return None


def run_ours(n, reps, variants, res):
    sync = xp.synchronize
    for name, (x, y, fn) in cases(n).items():
        args = [xp.asarray(np.ascontiguousarray(x[1], dtype=x[0]))]
        if y is not None:
            args.append(xp.asarray(np.ascontiguousarray(y[1], dtype=y[0])))
        for var in variants:
            for k in var:
                # a knob BASE lacks: its default kept, so that later variants start from it
                BASE.setdefault(k, getattr(_linalg, k))
            knobs = dict(BASE, **var)
            if "NB" in var:
                knobs["NB_OP"] = {}
            for k, v in knobs.items():
                setattr(_linalg, k, v)
            key = f"ours_{name}_{n}_" + ("-".join(f"{k}={v}" for k, v in var.items()) or "base")
            try:
                before = fallbacks()
                ms, out = timed(lambda *t: fn(xp.linalg, *t), args, sync, reps)
                fb = bool(grew(before, fallbacks()))
                err = check(name, out, x[1].astype(x[0]), None if y is None else y[1])
                res[key] = {"ms": round(ms, 4), "call_ms": round(HOST["ms"], 4), "err": err,
                            "fallback": fb}
            except Exception as e:  # report, keep going
                res[key] = {"error": f"{type(e).__name__}: {e}"[:300]}
    for k, v in BASE.items():
        setattr(_linalg, k, v)


def run_gemm(shapes, reps, res):
    """The blocked paths' own GEMM step (C = A B as a one-step plan) against the matmul family
    (xp.matmul) on the same shapes."""
    from array_api_vulkan._kernels._launch import ARG
    rng = np.random.default_rng(1)
    for dt, m, n, k in shapes:
        a = xp.asarray(rng.standard_normal((1, m, k)).astype(dt))
        b = xp.asarray(rng.standard_normal((1, k, n)).astype(dt))
        rec = _linalg._begin("linalg_gemm", a, 1)
        c = rec.out(m * n, a._dtype, (1, m, n))
        rec.gemm((c, 0, n, m * n), ((ARG, 0), 0, k, m * k), ((ARG, 1), 0, n, k * n), m, n, k, 0)
        plan = rec.compile(2)
        for name, fn in (("own", lambda x, y: plan(x, y)), ("matmul", lambda x, y: x @ y)):
            key = f"gemm_{name}_{dt}_{m}x{n}x{k}"
            try:
                ms, out = timed(fn, [a, b], xp.synchronize, reps)
                got = np.asarray(out[0] if isinstance(out, tuple) else out)
                want = np.asarray(a) @ np.asarray(b)
                err = float(np.abs(got - want).max() / np.abs(want).max())
                res[key] = {"ms": round(ms, 4), "tflops": round(2 * m * n * k / ms / 1e9, 3),
                            "err": err}
            except Exception as e:
                res[key] = {"error": f"{type(e).__name__}: {e}"[:300]}


def run_drop(n, reps, res):
    """Where a blocked call's time goes: each factorization's plan rebuilt without one kind
    of step (its results wrong, the rest of its work the same), the time given up against the
    whole plan's (ms). Errors (a status the dropped steps caused) are ignored."""
    a, s, b = inputs(n)
    calls = {"cholesky": (s, None, lambda x: xp.linalg.cholesky(x)),
             "solve": (a, b, lambda x, y: xp.linalg.solve(x, y)),
             "qr": (a, None, lambda x: xp.linalg.qr(x))}
    step = _linalg._Rec.step
    kinds = {"panel": ("linalg_cholesky", "linalg_lu", "linalg_qr"), "gemm": ("linalg_gemm",),
             "trsm": ("linalg_trsm",), "aux": ("linalg_aux",)}
    for name, (x, y, fn) in calls.items():
        args = [xp.asarray(x)] + ([] if y is None else [xp.asarray(y)])
        for drop in [None] + list(kinds):
            def filtered(self, op, *rest, _d=drop, **kw):
                if _d is None or op not in kinds[_d]:
                    step(self, op, *rest, **kw)
            _linalg._Rec.step = filtered
            _linalg._plans.clear()
            ts = []
            try:
                for _ in range(reps + 1):
                    t0 = time.perf_counter()
                    try:
                        fn(*args)
                    except np.linalg.LinAlgError:
                        pass
                    xp.synchronize()
                    ts.append(time.perf_counter() - t0)
                res[f"drop_{name}_{n}_{drop or 'none'}"] = {
                    "ms": round(statistics.median(ts[1:]) * 1e3, 4)}
            except Exception as e:
                res[f"drop_{name}_{n}_{drop or 'none'}"] = {"error": f"{type(e).__name__}: {e}"[:300]}
            finally:
                _linalg._Rec.step = step
        _linalg._plans.clear()


def to_lib(lib, m):
    """dev(host array, dtype=None): a copy on CuPy's or torch's GPU."""
    def dev(x, dt=None):
        x = np.ascontiguousarray(x, dtype=dt)
        return m.asarray(x) if lib == "cupy" else m.as_tensor(x, device="cuda")

    return dev


def run_other(lib, n, reps, res):
    try:
        m, sync = lib_namespace(lib)
    except Exception as e:
        res[f"{lib}_import"] = f"{type(e).__name__}: {e}"[:200]
        return
    dev = to_lib(lib, m)
    for name, (x, y, fn) in cases(n).items():
        args = [dev(x[1], x[0])]
        if y is not None:
            args.append(dev(y[1], y[0]))
        try:
            ms, _ = timed(lambda *t: fn(m.linalg, *t), args, sync, reps)
            res[f"{lib}_{name}_{n}"] = {"ms": round(ms, 4)}
        except Exception as e:
            res[f"{lib}_{name}_{n}"] = {"error": f"{type(e).__name__}: {e}"[:300]}


def run_steps(n, reps, res, r=20):
    """Per-step time (us) of the blocked paths' steps at order n, NB = 64: R copies of one step
    in one plan (their data dependences serialize them, as in a factorization)."""
    from array_api_vulkan._kernels._launch import ARG
    L = _linalg
    nb = 64
    rng = np.random.default_rng(2)
    a = rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)
    spd = a @ a.T + np.eye(n)
    for dt in ("float64", "float32"):
        x = xp.asarray(spd.astype(dt))
        W = (ARG, 0)
        ld, bs = n, n * n

        def build(kind, shared=True, cw=16, gs=None):
            rec = L._begin("linalg_gemm", x, 1)
            if gs:
                rec.gs = gs
            rec.out(1, x._dtype, (1,))
            st = rec.tmp(4)
            P = rec.tmp(4 * n)
            V = rec.tmp(n * nb * x._dtype.itemsize)
            T = rec.tmp(nb * nb * x._dtype.itemsize)
            old = L.TRSM_SHARED, L.TRSM_CW
            L.TRSM_SHARED, L.TRSM_CW = shared, cw
            for it in range(r):
                w = [0] * 16
                # the panels of a whole factorization in turn (k0 = 0, 32, ...: r of them), or
                # r times the panel at k0 = n / 2
                seq = 32 * (it % (n // 32))
                if kind in ("qr_seq", "qr_mid"):
                    k0 = seq if kind == "qr_seq" else n // 2
                    w[0:5] = [n, n, 1, L.FLAG_PANEL, n]
                    w[13], w[14] = k0, k0 + 32
                    rec.whole("linalg_qr", w, [(W, True, L.A_W, None), (V, True, L.A_O1, None),
                                               (T, True, L.A_O2, None)], rec.panel_nt())
                elif kind in ("lu_seq", "lu_mid", "lu_reg_seq", "lu_reg_seq8"):
                    k0 = seq if kind != "lu_mid" else n // 2
                    lreg = L.FLAG_LREG if kind.startswith("lu_reg") else 0
                    w[0:4] = [n, n, 1, L.FLAG_DIAG | lreg]
                    w[13], w[14] = k0, k0 + (8 if kind == "lu_reg_seq8" else 16)
                    rec.whole("linalg_lu", w, [(W, True, L.A_W, None), (P, True, L.A_P, None),
                                               (st, True, L.A_ST, None)], rec.panel_nt())
                elif kind == "chol_diag":
                    w[0:4] = [n, n, 1, L.FLAG_DIAG]
                    w[13], w[14] = 0, nb
                    rec.whole("linalg_cholesky", w, [(W, True, L.A_O1, None),
                                                     (st, True, L.A_ST, None)],
                              gs=rec.fit(nb * nb))
                elif kind == "chol_panel32":
                    # the one-step cholesky panel of 32 columns at k0 = 0 (CHOL_CR rows a
                    # workgroup below the diagonal block)
                    cr, rpt = L._chol_panel_rows(32)
                    w[0:6] = [n, n, 1, L.FLAG_CPANEL, cr, 0]
                    w[13], w[14] = 0, 32
                    rec.step("linalg_cholesky", w, (-(-(n - 32) // cr), 1, 1),
                             [(W, True, L.A_O1, None), (V, True, L.A_P, None),
                              (st, True, L.A_ST, None)], L.CHOL_PANEL_NT, 1024, [rpt])
                elif kind.startswith("chol_look32"):
                    # the cholesky's look-ahead step of block 1 (k0 = 32): the panel's
                    # workgroups (with the previous block's update of their tile) and the GEMM
                    # tiles beyond; "_panel" the panel's workgroups alone, "_gemm" the tiles alone
                    cr, rpt = L._chol_panel_rows(32)
                    chunks = -(-(n - 64) // cr)
                    mt = -(-(n - 64) // L.GEMM_TILE)
                    tiles = mt * (mt + 1) // 2
                    w[0:7] = [n, n, 1, L.FLAG_CPANEL | L.FLAG_LOOK, cr, 1,
                              0 if kind.endswith("_gemm") else chunks]
                    w[13], w[14] = 32, 64
                    groups = {"chol_look32": chunks + tiles, "chol_look32_panel": chunks,
                              "chol_look32_gemm": tiles}[kind]
                    rec.step("linalg_cholesky", w, (groups, 1, 1),
                             [(W, True, L.A_O1, None), (V, True, L.A_P, None),
                              (st, True, L.A_ST, None)], L.CHOL_PANEL_NT, rec.gemm_gs(32), [rpt])
                elif kind == "lu_panel":
                    w[0:4] = [n, n, 1, L.FLAG_DIAG]
                    w[13], w[14] = 0, nb
                    rec.whole("linalg_lu", w, [(W, True, L.A_W, None), (P, True, L.A_P, None),
                                               (st, True, L.A_ST, None)], rec.panel_nt())
                elif kind == "lu_panel16":
                    w[0:4] = [n, n, 1, L.FLAG_DIAG]
                    w[13], w[14] = 0, 16
                    rec.whole("linalg_lu", w, [(W, True, L.A_W, None), (P, True, L.A_P, None),
                                               (st, True, L.A_ST, None)], rec.panel_nt())
                elif kind in ("qr_panel", "qr_panel32"):
                    w[0:5] = [n, n, 1, L.FLAG_PANEL, n]
                    w[13], w[14] = 0, nb if kind == "qr_panel" else 32
                    rec.whole("linalg_qr", w, [(W, True, L.A_W, None), (V, True, L.A_O1, None),
                                               (T, True, L.A_O2, None)], rec.panel_nt())
                elif kind == "trsm_chol":
                    rec.trsm((W, 0, ld, bs), (W, nb * ld, 1, ld, bs), nb, n - nb, L.S_CONJ)
                elif kind == "trsm_chol32":
                    rec.trsm((W, 0, ld, bs), (W, 32 * ld, 1, ld, bs), 32, n - 32, L.S_CONJ)
                elif kind == "trsm_lu32":
                    rec.trsm((W, 0, ld, bs), (W, 32, ld, 1, bs), 32, n - 32, L.S_UNIT)
                elif kind == "trsm_rhs32":
                    rec.trsm((W, 0, ld, bs), (W, 32, ld, 1, bs), 32, 16, L.S_UPPER)
                elif kind == "trsm_lu":
                    rec.trsm((W, 0, ld, bs), (W, nb, ld, 1, bs), nb, n - nb, L.S_UNIT)
                elif kind == "gemm_lower":
                    a21 = (W, nb * ld, ld, bs)
                    rec.gemm((W, nb * ld + nb, ld, bs), a21, a21, n - nb, n - nb, nb,
                             L.G_TB | L.G_NEG | L.G_ACC | L.G_LOWER)
                elif kind == "gemm_full":
                    rec.gemm((W, nb * ld + nb, ld, bs), (W, nb * ld, ld, bs), (W, nb, ld, bs),
                             n - nb, n - nb, nb, L.G_NEG | L.G_ACC)
                elif kind == "gemm_thin":
                    # QR's V^H A22 at NB = 32 (split along K where the knobs say)
                    rec.gemm((V, 0, n - 32, 0), (W, 0, ld, bs), (W, 32, ld, bs), 32, n - 32, n,
                             L.G_TA | L.G_CA)
                elif kind == "aux_copy":
                    rec.aux(L.X_TRIL, n, n, W)
            L.TRSM_SHARED, L.TRSM_CW = old
            return rec.compile(1)

        kinds = [("chol_diag", {}), ("chol_diag", {"gs": 1024}), ("chol_panel32", {}),
                 ("chol_look32", {}), ("chol_look32_panel", {}), ("chol_look32_gemm", {}),
                 ("lu_panel", {}),
                 ("lu_panel16", {}), ("qr_panel", {}), ("qr_panel32", {}), ("gemm_thin", {}),
                 ("qr_seq", {}), ("qr_mid", {}), ("lu_seq", {}), ("lu_mid", {}),
                 ("lu_reg_seq", {}), ("lu_reg_seq8", {}), ("trsm_chol32", {}), ("trsm_lu32", {}),
                 ("trsm_rhs32", {}),
                 ("trsm_chol", {}), ("trsm_chol", {"shared": False}), ("trsm_lu", {}),
                 ("trsm_lu", {"shared": False}), ("trsm_lu", {"cw": 8}),
                 ("trsm_lu", {"cw": 4}), ("gemm_lower", {}), ("gemm_full", {}),
                 ("aux_copy", {})]
        for kind, kw in kinds:
            key = f"step_{kind}_{dt}_{n}" + "".join(f"_{k}={v}" for k, v in kw.items())
            try:
                plan = build(kind, **kw)
                ms, _ = timed(lambda y: plan(y), [x], xp.synchronize, reps)
                res[key] = {"us_per_step": round(ms * 1e3 / r, 2)}
            except Exception as e:
                res[key] = {"error": f"{type(e).__name__}: {e}"[:300]}


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--few", action="store_true", help="the first five variants only")
    ap.add_argument("--variants",
                    help="a JSON list of knob dicts to time instead of the built-in ones")
    args = ap.parse_args()
    n = 160 if args.quick else 1024
    reps = 3 if args.quick else 9
    # around the defaults (NB 32, TRSM_CW 8, PANEL_NT 1024: run 8 on the H100)
    variants = [{}, {"LU_REG": False}, {"CHOL_NT": 128}, {"CHOL_NT": 256}, {"CHOL_NT": 1024},
                {"CHOL_NT": 256, "TRSM_CW": 4}, {"PANEL_IB": 0}, {"NB": 16}, {"NB": 64},
                {"PANEL_IB": 8}, {"PANEL_NT": 256}, {"PANEL_NT": 512},
                {"NB_OP": {"lu": 16}}, {"NB_OP": {"lu": 64}}, {"NB_OP": {"cholesky": 16}}]
    if args.few:
        variants = variants[:5]
    if args.quick:
        variants = [{}, {"PANEL_IB": 0}, {"NB": 64}, {"TRSM_SHARED": False},
                    {"SHARED_MAX": 1024}, {"PANEL_NT": 256},
                    {"UPDATE": "matmul"}]
    if args.variants:
        variants = json.loads(args.variants)
        unknown = sorted({k for var in variants for k in var if not hasattr(_linalg, k)})
        if unknown:
            ap.error(f"--variants: no such knob in _kernels/_linalg.py: {', '.join(unknown)}")
    t0 = time.perf_counter()
    res = {"n": n, "base": BASE, "device": str(xp.__array_namespace_info__().default_device())}
    try:
        d = xp.__array_namespace_info__().default_device()
        res["device_name"] = getattr(d, "name", None)
    except Exception:
        pass
    run_ours(n, reps, variants, res)
    run_drop(n, reps, res)
    try:
        if args.quick:
            run_gemm([("float64", 96, 80, 64), ("float32", 128, 128, 128)], reps, res)
        else:
            run_gemm([("float64", 960, 960, 64), ("float64", 1024, 1024, 1024),
                      ("float32", 1024, 1024, 1024), ("float64", 64, 960, 1024),
                      ("float64", 32, 992, 1024)], reps, res)
    except Exception as e:
        res["gemm_error"] = f"{type(e).__name__}: {e}"[:300]
    try:
        run_steps(n, reps, res, r=4 if args.quick else 20)
    except Exception as e:
        res["steps_error"] = f"{type(e).__name__}: {e}"[:300]
    if not args.quick:
        # scaling of the default variant
        for n2 in (512, 2048):
            sub = {}
            run_ours_subset(n2, reps, sub)
            res.update(sub)
    for lib in ("cupy", "torch"):
        run_other(lib, n, reps, res)
        if not args.quick:
            for n2 in (512, 2048):
                run_other_subset(lib, n2, reps, res)
    res["seconds"] = round(time.perf_counter() - t0, 1)
    emit(res, args.out, indent=None)


def run_ours_subset(n, reps, res):
    a, s, b = inputs(n)
    sync = xp.synchronize
    for name, host, fn in (("cholesky_f64", s, lambda x: xp.linalg.cholesky(x)),
                           ("inv_f64", a, lambda x: xp.linalg.inv(x))):
        x = xp.asarray(host)
        try:
            ms, _ = timed(fn, [x], sync, reps)
            res[f"ours_{name}_{n}_base"] = {"ms": round(ms, 4)}
        except Exception as e:
            res[f"ours_{name}_{n}"] = {"error": f"{type(e).__name__}: {e}"[:300]}


def run_other_subset(lib, n, reps, res):
    try:
        m, sync = lib_namespace(lib)
    except Exception:
        return
    dev = to_lib(lib, m)
    a, s, b = inputs(n)
    for name, host, fn in (("cholesky_f64", s, lambda x: m.linalg.cholesky(x)),
                           ("inv_f64", a, lambda x: m.linalg.inv(x))):
        try:
            ms, _ = timed(fn, [dev(host)], sync, reps)
            res[f"{lib}_{name}_{n}"] = {"ms": round(ms, 4)}
        except Exception as e:
            res[f"{lib}_{name}_{n}"] = {"error": f"{type(e).__name__}: {e}"[:300]}


if __name__ == "__main__":
    main()
