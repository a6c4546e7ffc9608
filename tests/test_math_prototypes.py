"""Accuracy and special cases of the numpy prototypes of glsl/include/math_f{64,32}.glsl.

The prototypes (scripts/mathproto) use exactly the IEEE operations of the GLSL, so
this measures the shader algorithms without a GPU.  Run as a script to print the
max-ulp table:  python3 tests/test_math_prototypes.py
"""
import os
import sys

import numpy as np
import mpmath as mp
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'scripts'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathproto import F64, F32, real  # noqa: E402
from mathproto.ulp import ulp_err  # noqa: E402

UNARY = ['exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan',
         'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh']
BINARY = ['atan2', 'pow', 'hypot', 'logaddexp']
NP = {'pow': np.power, 'atan2': np.arctan2, 'asin': np.arcsin, 'acos': np.arccos,
      'atan': np.arctan, 'asinh': np.arcsinh, 'acosh': np.arccosh, 'atanh': np.arctanh}

# max ulp bounds asserted (measured values are printed by __main__)
BOUND = {n: 1.0 for n in UNARY + BINARY}
BOUND['logaddexp'] = 1.0   # measured in ulp of max(|result|, 1): cancellation near 0


def npf(name):
    return NP.get(name, getattr(np, name, None))


def _samples(P, name, n, rng):
    big = 300 if P.p == 53 else 37
    tinyexp = -307 if P.p == 53 else -37
    sub = 5e-324 if P.p == 53 else 1.4e-45

    def lu(lo, hi, k):     # log-uniform magnitudes
        return np.exp(rng.uniform(np.log(lo), np.log(hi), k))

    def sgn(v):
        return v * rng.choice([-1.0, 1.0], v.size)
    ovf = float(P.K['EXP_OVF'])
    unf = float(P.K['EXP_UNF'])
    if name in ('exp', 'expm1'):
        xs = [rng.uniform(unf - 1, ovf + 0.1, n), rng.uniform(-40, 40, n), sgn(lu(1e-20, 1, n)),
              np.array([ovf, unf, ovf * 0.999999, unf * 0.99999, -0.3465, 0.3466, 1e-300])]
    elif name == 'exp2':
        xs = [rng.uniform(P.emin - P.p - 1, P.emax + 1, n), rng.uniform(-2, 2, n), sgn(lu(1e-20, 1, n))]
    elif name in ('log', 'log2', 'log10'):
        xs = [lu(sub, 10.0 ** big, n), rng.uniform(0.5, 2, n), 1 + sgn(lu(1e-16, 1e-3, n)),
              np.array([sub, sub * 3, 2.0 ** -1030 if P.p == 53 else 2.0 ** -130, 10.0, 100.0])]
    elif name == 'log1p':
        xs = [rng.uniform(-1, 3, n), lu(1e-25, 10.0 ** big, n), -1 + lu(1e-16, 0.5, n), sgn(lu(1e-25, 0.5, n))]
    elif name in ('sin', 'cos', 'tan'):
        k = rng.integers(1, 2 ** 20, n // 2)
        near = np.array([float(mp.mpf(int(i)) * mp.pi / 2) for i in k])
        xs = [rng.uniform(-10, 10, n), sgn(lu(1e-10, 10.0 ** big, n)), rng.uniform(1e5, 2e6, n), near,
              np.array([6381956970095103.0 * 2.0 ** 797 if P.p == 53 else 16367173.0 * 2.0 ** 72,
                        np.finfo(P.dt).max, 1e22, 0.7853981633974483, 1.5707963267948966])]
    elif name in ('asin', 'acos', 'atanh'):
        xs = [rng.uniform(-1, 1, n), sgn(1 - lu(1e-17, 0.5, n)), sgn(lu(1e-20, 1, n))]
    elif name in ('atan', 'sinh', 'cosh', 'tanh', 'asinh'):
        xs = [rng.uniform(-6, 6, n), sgn(lu(1e-20, 10.0 ** big, n)), rng.uniform(-1, 1, n)]
        if name in ('sinh', 'cosh'):
            xs.append(sgn(rng.uniform(ovf - 5, float(P.K['SINH_OVF']), n // 4)))
    elif name == 'acosh':
        xs = [rng.uniform(1, 6, n), 1 + lu(1e-17, 1, n), lu(1, 10.0 ** big, n)]
    if name in UNARY:
        x = np.concatenate([np.asarray(v, np.float64) for v in xs])
        with np.errstate(all='ignore'):
            x = x.astype(P.dt)
        return [x[np.isfinite(x)]]
    if name in ('atan2', 'hypot'):
        a = np.concatenate([rng.uniform(-5, 5, n), sgn(lu(10.0 ** tinyexp, 10.0 ** big, n)), sgn(lu(sub, 1e-300 if P.p == 53 else 1e-37, n // 4))])
        b = np.concatenate([rng.uniform(-5, 5, n), sgn(lu(10.0 ** tinyexp, 10.0 ** big, n)), sgn(lu(sub, 1e-300 if P.p == 53 else 1e-37, n // 4))])
        b[: n // 8] = a[: n // 8] * rng.uniform(-1.01, 1.01, n // 8)
    elif name == 'logaddexp':
        a = np.concatenate([rng.uniform(-5, 5, n), sgn(lu(1e-10, 10.0 ** big, n)), rng.uniform(-800, 800, n)])
        b = np.concatenate([rng.uniform(-5, 5, n), sgn(lu(1e-10, 10.0 ** big, n)), rng.uniform(-800, 800, n)])
    elif name == 'pow':
        a = np.concatenate([rng.uniform(0, 3, n), lu(1e-30, 1e30, n), 1 + sgn(lu(1e-16, 1e-3, n)),
                            -rng.integers(1, 20, n // 4).astype(float), lu(sub, 10.0 ** big, n)])
        b = np.concatenate([rng.uniform(-40, 40, n), rng.uniform(-30, 30, n), sgn(lu(1e2, 1e17, n)),
                            rng.integers(-60, 60, n // 4).astype(float), rng.uniform(-2, 2, n)])
        # results close to overflow / underflow
        lg = np.log(a[: n // 4])
        with np.errstate(all='ignore'):
            b[: n // 8] = (ovf - rng.uniform(0, 2, n // 8)) / lg[: n // 8]
            b[n // 8: n // 4] = (unf + rng.uniform(0, 30, n - n // 8 * 7 - n // 4 * 0)[: n // 4 - n // 8]) / lg[n // 8: n // 4]
    with np.errstate(all='ignore'):
        a, b = a.astype(P.dt), b.astype(P.dt)
    ok = np.isfinite(a) & np.isfinite(b)
    return [a[ok], b[ok]]


def measure(P, name, n=250, seed=0):
    """max ulp error vs mpmath on a sample (plus where)."""
    rng = np.random.default_rng(seed)
    args = _samples(P, name, n, rng)
    got = getattr(real, name)(P, *args)
    if name == 'logaddexp':
        ref = np.maximum(args[0], args[1])
        big = np.abs(ref) >= 1
        e1, w1 = ulp_err(P, name, got[big], args[0][big], args[1][big])
        # |ref| < 1: measure absolute error in ulp(1)
        gotn = got[~big]
        with mp.workprec(300):
            e2 = 0.0
            for g, x, y in zip(gotn, args[0][~big], args[1][~big]):
                r = mp.mpf(float(max(x, y))) + mp.log1p(mp.exp(-abs(mp.mpf(float(x)) - mp.mpf(float(y)))))
                e2 = max(e2, float(abs(mp.mpf(float(g)) - r) / mp.mpf(2) ** (1 - P.p)))
        return max(e1, e2), w1
    return ulp_err(P, name, got, *args)


def _ulp32_vs64(got32, ref64):
    """error of float32 results in float32 ulps against a float64 reference."""
    ref64 = np.asarray(ref64, np.float64)
    fin = np.isfinite(ref64) & (np.abs(ref64) <= np.finfo(np.float32).max)
    r = ref64[fin]
    g = got32[fin].astype(np.float64)
    e = np.maximum(np.floor(np.log2(np.maximum(np.abs(r), 1e-300))), -126) - 23
    return float(np.max(np.abs(g - r) / 2.0 ** e)) if r.size else 0.0


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', UNARY + BINARY)
def test_accuracy_mpmath(prec, name):
    err, where = measure(prec, name)
    assert err <= BOUND[name], (name, prec.name, err, where)


@pytest.mark.parametrize('name', UNARY + BINARY)
def test_f32_large_sample_vs_f64(name):
    """float32 prototypes on 200k points against numpy float64 (an almost exact reference)."""
    rng = np.random.default_rng(1)
    args = _samples(F32, name, 40000, rng)
    got = getattr(real, name)(F32, *args)
    with np.errstate(all='ignore'):
        ref = npf(name)(*[a.astype(np.float64) for a in args])
    if name == 'logaddexp':
        m = np.maximum(np.abs(ref), 1.0)
        err = float(np.max(np.abs(got.astype(np.float64) - ref)[np.isfinite(ref)] / (m[np.isfinite(ref)] * 2.0 ** -23)))
    else:
        err = _ulp32_vs64(got, ref)
    assert err <= BOUND[name] + 0.01, (name, err)


@pytest.mark.parametrize('name', UNARY + BINARY)
def test_f64_large_sample_vs_numpy(name):
    """float64 prototypes on ~100k points against numpy (numpy itself errs by up to ~1 ulp...)."""
    rng = np.random.default_rng(2)
    args = _samples(F64, name, 20000, rng)
    got = getattr(real, name)(F64, *args)
    with np.errstate(all='ignore'):
        ref = npf(name)(*args)
    fin = np.isfinite(ref) & (ref != 0)
    if name == 'logaddexp':
        scale = np.maximum(np.abs(ref[fin]), 1.0)
    else:
        scale = np.abs(ref[fin])
    e = np.maximum(np.floor(np.log2(scale)), -1022) - 52
    err = np.abs(got[fin] - ref[fin]) / 2.0 ** e
    # where numpy and the prototype disagree by more than 1 ulp, ask mpmath who is right
    bad = np.nonzero(err > 1.0)[0][:300]
    if bad.size:
        sub = [a[fin][bad] if a.shape == fin.shape else a for a in args]
        e2, w2 = ulp_err(F64, name, got[fin][bad], *sub)
        assert e2 <= BOUND[name] or name == 'logaddexp', (name, e2, w2)
    assert float(np.max(err)) <= 3.0 or name != 'logaddexp', (name, float(np.max(err)))
    # both produce the same non-finite/zero results
    nf = ~fin
    assert np.array_equal(got[nf], ref[nf], equal_nan=True), name


# ----------------------------------------------------------------- special cases
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0,
           0.25, 1.5, -1.5, 1e-300, -1e-300, 5e-324, -5e-324, 1e300, -1e300, 1.7976931348623157e308,
           710.0, -746.0, 1e-20, 4.0, -4.0, 0.9999999999999999, 1.0000000000000002]


def _same(a, b):
    """bitwise-equal up to NaN payloads, and signed zeros must match."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    bothnan = np.isnan(a) & np.isnan(b)
    eq = (a == b) & (np.signbit(a) == np.signbit(b))
    return bothnan | eq


def _close(P, got, ref, ulps=1.0):
    got = np.asarray(got, np.float64)
    ref = np.asarray(ref, np.float64)
    fin = np.isfinite(ref) & np.isfinite(got) & (ref != 0)
    ok = _same(got, ref)
    e = np.maximum(np.floor(np.log2(np.where(fin, np.abs(ref), 1))), P.emin) - (P.p - 1)
    with np.errstate(all='ignore'):
        ok |= fin & (np.abs(got - ref) <= ulps * 2.0 ** e) & (np.signbit(got) == np.signbit(ref))
    return ok


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', UNARY)
def test_special_unary(prec, name):
    with np.errstate(all='ignore'):
        x = np.array(SPECIAL, np.float64).astype(prec.dt)
        ref = npf(name)(x.astype(np.float64)).astype(prec.dt) if prec.p == 24 else npf(name)(x)
    got = getattr(real, name)(prec, x)
    ok = _close(prec, got, ref, 1.0)
    assert ok.all(), list(zip(x[~ok], got[~ok], ref[~ok]))


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', BINARY)
def test_special_binary(prec, name):
    s = np.array(SPECIAL + [0.75, 1.25, 7.0, -7.0, 0.3, 63.0, -63.0], np.float64)
    with np.errstate(all='ignore'):
        x, y = [v.ravel().astype(prec.dt) for v in np.meshgrid(s, s)]
        ref = npf(name)(x.astype(np.float64), y.astype(np.float64)).astype(prec.dt)
    got = getattr(real, name)(prec, x, y)
    ok = _close(prec, got, ref, 1.0)
    if name == 'logaddexp':   # cancellation near a zero result: absolute error in ulp(1)
        with np.errstate(all='ignore'):
            ok |= (np.abs(ref) < 1) & (np.abs(got.astype(np.float64) - ref) <= 2.0 ** (1 - prec.p))
    assert ok.all(), list(zip(x[~ok], y[~ok], got[~ok], ref[~ok]))[:10]


def test_spec_listed_cases():
    """a few cases that the standard lists and that are easy to get wrong."""
    P = F64
    nz = -0.0
    assert np.signbit(real.expm1(P, np.array([nz])))[0]
    assert real.log1p(P, np.array([-1.0]))[0] == -np.inf
    assert list(real.tanh(P, np.array([np.inf, -np.inf]))) == [1.0, -1.0]
    assert real.pow(P, np.array([np.nan]), np.array([0.0]))[0] == 1.0
    assert real.pow(P, np.array([1.0]), np.array([np.nan]))[0] == 1.0
    assert real.pow(P, np.array([-1.0]), np.array([np.inf]))[0] == 1.0
    r = real.pow(P, np.array([-0.0, -0.0, -np.inf, -np.inf]), np.array([3.0, -3.0, 3.0, -3.0]))
    assert list(r) == [0.0, -np.inf, -np.inf, 0.0] and np.signbit(r[0]) and np.signbit(r[3])
    assert np.isnan(real.pow(P, np.array([-2.0]), np.array([0.5]))[0])
    a = real.atan2(P, np.array([0.0, -0.0, 0.0, -0.0]), np.array([-0.0, -0.0, 0.0, 0.0]))
    assert list(np.signbit(a)) == [False, True, False, True]
    assert a[0] == np.pi and a[1] == -np.pi
    assert real.hypot(P, np.array([np.inf]), np.array([np.nan]))[0] == np.inf
    assert real.hypot(P, np.array([np.nan]), np.array([-np.inf]))[0] == np.inf
    assert real.logaddexp(P, np.array([np.inf]), np.array([-np.inf]))[0] == np.inf
    assert real.cosh(P, np.array([-0.0]))[0] == 1.0
    for f in ('sin', 'tan', 'asin', 'atan', 'sinh', 'tanh', 'asinh', 'atanh', 'expm1', 'log1p'):
        assert np.signbit(getattr(real, f)(P, np.array([nz]))[0]), f


def test_exact_cases():
    P = F64
    assert real.pow(P, np.array([2.0, 10.0, 3.0, 2.0]), np.array([10.0, 22.0, 3.0, -1074.0])).tolist() == \
        [1024.0, 1e22, 27.0, 5e-324]
    assert real.exp2(P, np.arange(-1074.0, 1024.0)).tolist() == [2.0 ** k for k in range(-1074, 1024)]
    assert real.log2(P, 2.0 ** np.arange(-1074.0, 1024.0)).tolist() == list(range(-1074, 1024))
    assert real.log10(P, 10.0 ** np.arange(0.0, 23.0)).tolist() == list(np.arange(0.0, 23.0))


def test_glsl_up_to_date():
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, os.path.join(root, 'scripts', 'mathproto', 'gen_glsl.py'), '--check'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


# ================================================================= complex
from mathproto import cplx  # noqa: E402
from _complex_spec_cases import SPEC, CLASSES, CONJ, ODD, EVEN  # noqa: E402

CUNARY = ['exp', 'expm1', 'log', 'log1p', 'sqrt', 'sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh',
          'asin', 'acos', 'atan', 'asinh', 'acosh', 'atanh']
CMP = {'exp': mp.exp, 'expm1': mp.expm1, 'log': mp.log, 'log1p': mp.log1p, 'sqrt': mp.sqrt, 'sin': mp.sin,
       'cos': mp.cos, 'tan': mp.tan, 'sinh': mp.sinh, 'cosh': mp.cosh, 'tanh': mp.tanh, 'asin': mp.asin,
       'acos': mp.acos, 'atan': mp.atan, 'asinh': mp.asinh, 'acosh': mp.acosh, 'atanh': mp.atanh}
# component-wise max ulp bounds (measured maxima are printed by __main__ with --complex)
CBOUND = {n: 4.0 for n in CUNARY}
CBOUND['tan'] = CBOUND['tanh'] = 5.0   # Kahan's tanh formula: ~4.5 ulp seen in f32


def _ulp1(P, g, r):
    """error of float g vs mpf r in ulps of r (overflowed r: g must be the right infinity)."""
    if r == 0:
        return 0.0 if g == 0 else float('inf')
    if abs(r) > np.finfo(P.dt).max:
        return 0.0 if (np.isinf(g) and (g > 0) == (r > 0)) else float('inf')
    if not np.isfinite(g):
        return float('inf')
    ex = max(int(mp.floor(mp.log(abs(r), 2))) - P.p + 1, P.emin - P.p + 1)
    return float(abs(mp.mpf(float(g)) - r) / mp.mpf(2) ** ex)


def cmeasure(P, name, n=60, seed=0):
    rng = np.random.default_rng(seed)
    big = 300 if P.p == 53 else 37
    lu = lambda k: np.exp(rng.uniform(np.log(1e-30), np.log(10.0 ** big), k)) * rng.choice([-1.0, 1.0], k)
    a = np.concatenate([rng.uniform(-3, 3, n), lu(n), rng.uniform(-1.2, 1.2, n), rng.uniform(-30, 30, n)])
    b = np.concatenate([rng.uniform(-3, 3, n), lu(n), rng.uniform(-0.1, 0.1, n), rng.uniform(-30, 30, n)])
    with np.errstate(all='ignore'):
        a, b = a.astype(P.dt), b.astype(P.dt)
    re, im = getattr(cplx, name)(P, a, b)
    worst, where = 0.0, None
    for i in range(a.size):
        # atanh/atan of huge z: mpmath needs ~3x the exponent in bits to cancel correctly
        ex = int(np.frexp(max(abs(float(a[i])), abs(float(b[i])), 1.0))[1])
        with mp.workprec(4 * P.p + 64 + (3 * ex if name in ('atanh', 'atan') else 0)):
            z = mp.mpc(float(a[i]), float(b[i]))
            r = CMP[name](z)
            er = _ulp1(P, re[i], r.real)
            if name == 'expm1':      # real part: ulp of max(|re|, |e^a cos b|) (cancellation)
                s = max(abs(r.real), abs(mp.exp(z.real) * mp.cos(z.imag)))
                if s < np.finfo(P.dt).max and r.real != 0:
                    ex = max(int(mp.floor(mp.log(s, 2))) - P.p + 1, P.emin - P.p + 1)
                    er = float(abs(mp.mpf(float(re[i])) - r.real) / mp.mpf(2) ** ex) if np.isfinite(re[i]) else er
            ei = _ulp1(P, im[i], r.imag)
            e = max(er, ei)
            if e > worst:
                worst, where = e, (float(a[i]), float(b[i]), er, ei)
    return worst, where


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', CUNARY)
def test_complex_accuracy_mpmath(prec, name):
    err, where = cmeasure(prec, name)
    assert err <= CBOUND[name], (name, prec.name, err, where)


def _check_expected(P, v, spec, a, b):
    v = float(v)
    K = P.K
    if isinstance(spec, float):
        return v == spec and np.signbit(v) == np.signbit(spec) or (np.isnan(spec) and np.isnan(v))
    named = {'pi': K['PI'], 'pi/2': K['PIO2'], 'pi/4': K['PIO4'], '3pi/4': K['PI34']}
    if spec == 'nan':
        return np.isnan(v)
    if spec == '±0':
        return v == 0
    if spec == '±inf':
        return np.isinf(v)
    if spec == '±pi/2':
        return abs(v) == float(K['PIO2'])
    return v == float(named[spec])


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', sorted(SPEC))
def test_complex_spec_special_cases(prec, name):
    bad = []
    for ac, bc, er, ei in SPEC[name]:
        for a in CLASSES[ac]:
            for b in CLASSES[bc]:
                A, B = prec.arr([a]), prec.arr([b])
                re, im = getattr(cplx, name)(prec, A, B)
                re, im = float(re[0]), float(im[0])
                if isinstance(er, tuple):          # s*cis(b) + shift
                    _, s, shift = er
                    with np.errstate(all='ignore'):
                        xr = s * np.cos(b) + shift if shift else s * np.cos(b)
                        xi = s * np.sin(b)
                    ok = (re == xr or np.isnan(xr) and np.isnan(re)) and im == xi and np.signbit(im) == np.signbit(xi)
                    if isinstance(xr, float) and xr == 0:
                        ok = ok and np.signbit(re) == np.signbit(xr)
                else:
                    ok = _check_expected(prec, re, er, a, b) and _check_expected(prec, im, ei, a, b)
                if not ok:
                    bad.append(((a, b), (re, im), (er, ei)))
    assert not bad, bad


SYM_VALUES = [0.0, -0.0, 0.5, -0.75, 1.0, -1.0, 2.0, -3.5, 1e-30, 1e30, np.inf, -np.inf, np.nan]


def _same_c(x, y):
    return _same(x[0], y[0]) & _same(x[1], y[1])


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
@pytest.mark.parametrize('name', CUNARY)
def test_complex_symmetries(prec, name):
    """f(conj z) = conj f(z); odd / even functions -- signed zeros included (NaN: any sign)."""
    a, b = [v.ravel() for v in np.meshgrid(SYM_VALUES, SYM_VALUES)]
    a, b = prec.arr(a), prec.arr(b)
    f = getattr(cplx, name)
    r = f(prec, a, b)
    if name in CONJ:
        rc = f(prec, a, -b)
        ok = _same_c((rc[0], rc[1]), (r[0], -r[1]))
        nanin = np.isnan(a) | np.isnan(b)     # sign of an infinity computed from a NaN: unspecified
        ok |= nanin & (np.isinf(rc[0]) == np.isinf(r[0])) & (np.isinf(rc[1]) == np.isinf(r[1])) & \
            (np.isnan(rc[0]) == np.isnan(r[0])) & (np.isnan(rc[1]) == np.isnan(r[1]))
        assert ok.all(), list(zip(a[~ok], b[~ok]))[:8]
    if name in ODD or name in EVEN:
        rn = f(prec, -a, -b)
        sgn = -1 if name in ODD else 1
        ok = _same_c(rn, (sgn * r[0], sgn * r[1]))
        # a NaN input with an infinite result component: the sign of that infinity is unspecified
        nanin = np.isnan(a) | np.isnan(b)
        ok |= nanin & (np.isinf(rn[0]) == np.isinf(r[0])) & (np.isinf(rn[1]) == np.isinf(r[1])) & \
            (np.isnan(rn[0]) == np.isnan(r[0])) & (np.isnan(rn[1]) == np.isnan(r[1]))
        assert ok.all(), list(zip(a[~ok], b[~ok], rn[0][~ok], rn[1][~ok], r[0][~ok], r[1][~ok]))[:8]


@pytest.mark.parametrize('prec', [F64, F32], ids=['f64', 'f32'])
def test_complex_mul_div_pow_abs(prec):
    rng = np.random.default_rng(4)
    n = 2000
    z = (rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n)) * np.exp(rng.uniform(-20, 20, n))
    w = (rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n)) * np.exp(rng.uniform(-20, 20, n))
    ct = np.complex128 if prec.p == 53 else np.complex64
    z, w = z.astype(ct), w.astype(ct)
    args = [prec.arr(z.real), prec.arr(z.imag), prec.arr(w.real), prec.arr(w.imag)]
    for name, ref, tol in (('mul', z.astype(np.complex256) * w, 1.0), ('div', z.astype(np.complex256) / w, 3.0)):
        re, im = getattr(cplx, name)(prec, *args)
        for got, r in ((re, ref.real), (im, ref.imag)):
            r = r.astype(np.longdouble)
            e = np.maximum(np.floor(np.log2(np.abs(r).astype(np.float64))), prec.emin) - (prec.p - 1)
            err = np.abs(got.astype(np.longdouble) - r) / np.ldexp(np.longdouble(1), e.astype(int))
            # mul is accurate component-wise; div's bound is relative to |result|
            if name == 'div':
                mag = np.abs(ref).astype(np.float64)
                e2 = np.maximum(np.floor(np.log2(mag)), prec.emin) - (prec.p - 1)
                err = np.abs(got.astype(np.longdouble) - r) / np.ldexp(np.longdouble(1), e2.astype(int))
            assert float(np.max(err)) <= tol, (name, float(np.max(err)))
    a = cplx.abs_(prec, args[0], args[1])
    assert np.array_equal(a, real.hypot(prec, args[0], args[1]))
    # pow: exp(w log z) -- compare with numpy on moderate values
    zz = (rng.uniform(0.1, 3, 500) + 1j * rng.uniform(-3, 3, 500)).astype(ct)
    ww = (rng.uniform(-3, 3, 500) + 1j * rng.uniform(-3, 3, 500)).astype(ct)
    re, im = cplx.pow(prec, prec.arr(zz.real), prec.arr(zz.imag), prec.arr(ww.real), prec.arr(ww.imag))
    ref = zz.astype(np.complex128) ** ww.astype(np.complex128)
    rel = np.abs((re + 1j * im) - ref) / np.abs(ref)
    assert float(np.max(rel)) < (1e-14 if prec.p == 53 else 2e-6)
    # Annex G recovery: inf * finite, and x / 0
    r = cplx.mul(prec, prec.arr([np.inf]), prec.arr([np.nan]), prec.arr([1.0]), prec.arr([0.0]))
    assert np.isinf(r[0][0]) or np.isinf(r[1][0])
    r = cplx.div(prec, prec.arr([1.0]), prec.arr([1.0]), prec.arr([0.0]), prec.arr([0.0]))
    assert np.isinf(r[0][0]) and np.isinf(r[1][0])
    r = cplx.div(prec, prec.arr([1.0]), prec.arr([2.0]), prec.arr([np.inf]), prec.arr([1.0]))
    assert r[0][0] == 0 and r[1][0] == 0
    assert list(cplx.pow(prec, prec.arr([0.0]), prec.arr([0.0]), prec.arr([0.0]), prec.arr([0.0]))) == [1.0, 0.0]
    # integral real powers |n| < 100 of a nonzero base: repeated squaring, as the GLSL
    y = prec.arr([651.99664, -3.25, 7.0])
    zero = prec.arr([0.0, 0.0, 0.0])
    re, im = cplx.pow(prec, zero, y, prec.arr([3.0, 3.0, 3.0]), zero)
    assert np.all(re == 0) and np.all(im == -y * y * y)
    re, im = cplx.pow(prec, zero, y, prec.arr([-2.0, 2.0, 4.0]), zero)
    assert np.all(im == 0)
    re, im = cplx.pow(prec, zero, y, prec.arr([5.0, -1.0, 9.0]), zero)
    assert np.all(re == 0)


if __name__ == '__main__':
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for P in (F64, F32):
        for name in UNARY + BINARY:
            e, w = measure(P, name, n=n, seed=7)
            print('%s %-10s max ulp %.3f  at %s' % (P.name, name, e, w))
    for P in (F64, F32):
        for name in CUNARY:
            e, w = cmeasure(P, name, n=max(n // 10, 30), seed=7)
            print('%s complex %-6s max ulp (per component) %.3f  at %s' % (P.name, name, e, w))
