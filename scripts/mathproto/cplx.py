"""Prototypes of the complex functions in glsl/include/complex_math.glsl.

Every function takes (P, a, b) = real and imaginary parts (arrays of P.dt) and
returns (re, im).  Special cases follow the Array API standard / C99 Annex G;
they are written as an ordered list of (condition, (re, im)) pairs = the GLSL
`if (...) return ...;` chain.  Finite inputs go through the general formula.
"""
import numpy as np
from . import real
from .fp import two_sum, fast_two_sum, two_prod, scalbn, ilogb_big

INF, NAN = np.inf, np.nan


def _sel2(P, cases, re, im):
    re = np.array(re, P.dt, copy=True)
    im = np.array(im, P.dt, copy=True)
    done = np.zeros(re.shape, bool)
    for cond, (vr, vi) in cases:
        c = np.broadcast_to(cond, re.shape) & ~done
        re = np.where(c, np.asarray(vr, P.dt), re)
        im = np.where(c, np.asarray(vi, P.dt), im)
        done |= c
    return re, im


def _cs(P, a, s):
    return real._copysign(P, np.asarray(a, P.dt), s)


def _args(P, *v):
    return [np.asarray(x, P.dt) for x in np.broadcast_arrays(*v)]


def _fin(*v):
    ok = np.ones(np.shape(v[0]), bool)
    for x in v:
        ok &= np.isfinite(x)
    return ok


def _clean(P, ok, *v):
    return [np.where(ok, x, P.dt(0)) for x in v]


def _signprod(P, m, s, v):
    """|m| with the sign of s*v, bit operations only (GLSL: PFXi_signprod)."""
    m, s, v = np.broadcast_arrays(np.asarray(m, P.dt), np.asarray(s, P.dt), np.asarray(v, P.dt))
    sign = (real.bits(P, s) ^ real.bits(P, v)) < 0
    return np.where(sign, -np.abs(m), np.abs(m))


def _inf_mul(P, s, v):
    """(+-inf) * v with C99 semantics (inf * 0 = NaN), sign of s*v."""
    v = np.asarray(v, P.dt)
    return np.where(np.isnan(v) | (v == 0), P.dt(NAN), _signprod(P, P.dt(INF), s, v))


def _zero_mul(P, v):
    return _signprod(P, P.dt(0), P.dt(1), v)


# ---------------------------------------------------------------- abs, mul, div
def abs_(P, a, b):
    return real.hypot(P, a, b)


def mul(P, a, b, c, d):
    K = P.K
    a, b, c, d = _args(P, a, b, c, d)
    with np.errstate(all='ignore'):
        ac, bd, ad, bc = a * c, b * d, a * d, b * c
        x = ac - bd
        y = ad + bc
        m = np.maximum(np.maximum(np.abs(a), np.abs(b)), np.maximum(np.abs(c), np.abs(d)))
        acc = m < K['SPLIT_SAFE']
        aa, bb, cc, dd = _clean(P, acc, a, b, c, d)
        p1, e1 = two_prod(P, aa, cc)
        p2, e2 = two_prod(P, bb, dd)
        s, se = two_sum(p1, -p2)
        xa = s + (se + (e1 - e2))
        p3, e3 = two_prod(P, aa, dd)
        p4, e4 = two_prod(P, bb, cc)
        s, se = two_sum(p3, p4)
        ya = s + (se + (e3 + e4))
        x = np.where(acc, xa, x)
        y = np.where(acc, ya, y)
        # C99 Annex G recovery of infinities
        rec = np.isnan(x) & np.isnan(y)
        one, zero = P.dt(1), P.dt(0)
        ab_inf = np.isinf(a) | np.isinf(b)
        cd_inf = np.isinf(c) | np.isinf(d)
        a1 = np.where(ab_inf, _cs(P, np.where(np.isinf(a), one, zero), a), a)
        b1 = np.where(ab_inf, _cs(P, np.where(np.isinf(b), one, zero), b), b)
        c1 = np.where(ab_inf & np.isnan(c), _cs(P, zero, c), c)
        d1 = np.where(ab_inf & np.isnan(d), _cs(P, zero, d), d)
        c2 = np.where(cd_inf, _cs(P, np.where(np.isinf(c1), one, zero), c1), c1)
        d2 = np.where(cd_inf, _cs(P, np.where(np.isinf(d1), one, zero), d1), d1)
        a2 = np.where(cd_inf & np.isnan(a1), _cs(P, zero, a1), a1)
        b2 = np.where(cd_inf & np.isnan(b1), _cs(P, zero, b1), b1)
        ovf = ~ab_inf & ~cd_inf & (np.isinf(ac) | np.isinf(bd) | np.isinf(ad) | np.isinf(bc))
        a3 = np.where(ovf & np.isnan(a2), _cs(P, zero, a2), a2)
        b3 = np.where(ovf & np.isnan(b2), _cs(P, zero, b2), b2)
        c3 = np.where(ovf & np.isnan(c2), _cs(P, zero, c2), c2)
        d3 = np.where(ovf & np.isnan(d2), _cs(P, zero, d2), d2)
        redo = rec & (ab_inf | cd_inf | ovf)
        xr = _inf_mul(P, one, a3 * c3 - b3 * d3)
        yr = _inf_mul(P, one, a3 * d3 + b3 * c3)
        x = np.where(redo, xr, x)
        y = np.where(redo, yr, y)
    return x, y


def div(P, a, b, c, d):
    a, b, c, d = _args(P, a, b, c, d)
    with np.errstate(all='ignore'):
        winf = np.isinf(c) | np.isinf(d)            # C99's fmax(|c|, |d|) = inf (NaN ignored)
        m = np.maximum(np.abs(c), np.abs(d))
        okm = ~winf & ~np.isnan(c) & ~np.isnan(d) & (m > 0)
        mm = np.where(okm, m, P.dt(1))
        sub = mm < P.K['MIN_NORMAL']
        mm = np.where(sub, mm * P.K['TWO_P'], mm)
        k = ilogb_big(P, mm)
        k = np.where(sub, k - P.p, k).astype(P.it)
        k = np.where(okm, k, 0).astype(P.it)
        cs = scalbn(P, c, -k)
        ds = scalbn(P, d, -k)
        den = cs * cs + ds * ds
        x = scalbn(P, (a * cs + b * ds) / den, -k)
        y = scalbn(P, (b * cs - a * ds) / den, -k)
        rec = np.isnan(x) & np.isnan(y)
        one, zero = P.dt(1), P.dt(0)
        inf = P.dt(INF)
        # 1) nonzero / zero
        r1 = rec & (den == 0) & (~np.isnan(a) | ~np.isnan(b))
        x1 = _inf_mul(P, c, a)
        y1 = _inf_mul(P, c, b)
        # 2) infinite / finite
        r2 = rec & ~r1 & (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d)
        a2 = _cs(P, np.where(np.isinf(a), one, zero), a)
        b2 = _cs(P, np.where(np.isinf(b), one, zero), b)
        x2 = _inf_mul(P, one, a2 * c + b2 * d)
        y2 = _inf_mul(P, one, b2 * c - a2 * d)
        # 3) finite / infinite
        r3 = rec & ~r1 & ~r2 & winf & np.isfinite(a) & np.isfinite(b)
        c3 = _cs(P, np.where(np.isinf(c), one, zero), c)
        d3 = _cs(P, np.where(np.isinf(d), one, zero), d)
        x3 = _zero_mul(P, a * c3 + b * d3)
        y3 = _zero_mul(P, b * c3 - a * d3)
        x = np.where(r1, x1, np.where(r2, x2, np.where(r3, x3, x)))
        y = np.where(r1, y1, np.where(r2, y2, np.where(r3, y3, y)))
    return x, y


# ---------------------------------------------------------------- exp family
def exp(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, b)
        s, c = real.sincos(P, bc)
        big = ac > K['CEXP_BIG']
        e = real.exp(P, np.where(big, ac * P.dt(0.5), ac))
        re = np.where(big, (e * c) * e, e * c)
        im = np.where(big, (e * s) * e, e * s)
        re = np.where(np.isinf(e), _inf_mul(P, P.dt(1), c), re)
        im = np.where(np.isinf(e), _inf_mul(P, P.dt(1), s), im)
        sb, cb = real.sincos(P, np.where(np.isfinite(b), b, P.dt(0)))
    inf, zero, nan, one = P.dt(INF), P.dt(0), P.dt(NAN), P.dt(1)
    cases = [
        (np.isnan(a), (np.where(b == 0, a, nan), np.where(b == 0, b, nan))),
        (a == INF, (np.where(b == 0, inf, np.where(np.isfinite(b), _inf_mul(P, one, cb), inf)),
                    np.where(b == 0, b, np.where(np.isfinite(b), _inf_mul(P, one, sb), nan)))),
        (a == -INF, (np.where(np.isfinite(b), _zero_mul(P, cb), zero), np.where(np.isfinite(b), _zero_mul(P, sb), _cs(P, zero, b)))),
        (~np.isfinite(b), (nan, nan)),
        (b == 0, (real.exp(P, a), b)),
    ]
    return _sel2(P, cases, re, im)


def expm1(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, b)
        s, c = real.sincos(P, bc)
        big = ac > K['CEXP_BIG']
        e = real.exp(P, np.where(big, ac * P.dt(0.5), ac))
        # re = expm1(a) cos b - 2 sin^2(b/2), in double-double (cancels when e^a cos b ~ 1)
        neg = ac < K['EXPM1_NEG']
        emh, eml = real.expm1_dd(P, np.where(big | neg, P.dt(0), ac))
        emh = np.where(neg, P.dt(-1), emh)
        eml = np.where(neg, P.dt(0), eml)
        hh, hl, _, _ = real.sincos_dd(P, bc * P.dt(0.5))
        _, _, ch, cl = real.sincos_dd(P, bc)
        qh, ql = two_prod(P, hh, hh)
        ql = ql + P.dt(2) * hh * hl
        ph, pl = two_prod(P, emh, ch)
        pl = pl + (emh * cl + eml * ch)
        rh, rl = two_sum(ph, -(qh + qh))
        rl = rl + (pl - (ql + ql))
        re = np.where(big, (e * c) * e, rh + rl)
        # e^a this large: the double-double products overflow, and e^a cos b is far from 1
        # (|cos b| of a representable b is at least about 2^-p), so the plain form loses nothing
        plain = ~big & (ac > K['EXPM1_DD_MAX'])
        re = np.where(plain, e * c - P.dt(1), re)
        im = np.where(big, (e * s) * e, e * s)
        re = np.where(np.isinf(e), _inf_mul(P, P.dt(1), c), re)
        im = np.where(np.isinf(e), _inf_mul(P, P.dt(1), s), im)
        sb, cb = real.sincos(P, np.where(np.isfinite(b), b, P.dt(0)))
    inf, zero, nan, one = P.dt(INF), P.dt(0), P.dt(NAN), P.dt(1)
    cases = [
        (np.isnan(a), (np.where(b == 0, a, nan), np.where(b == 0, b, nan))),
        (a == INF, (np.where(b == 0, inf, np.where(np.isfinite(b), _inf_mul(P, one, cb), inf)),
                    np.where(b == 0, b, np.where(np.isfinite(b), _inf_mul(P, one, sb), nan)))),
        (a == -INF, (P.dt(-1), np.where(np.isfinite(b), _zero_mul(P, sb), _cs(P, zero, b)))),
        (~np.isfinite(b), (nan, nan)),
        (b == 0, (np.where(a == 0, P.dt(0), real.expm1(P, a)), b)),   # (+-0 + 0j) -> +0 + 0j
    ]
    return _sel2(P, cases, re, im)


# ---------------------------------------------------------------- log family
def _log_abs(P, a, b):
    """log|a + bi| for finite (a, b) not both zero."""
    K = P.K
    aa, bb = np.abs(a), np.abs(b)
    h = np.maximum(aa, bb)
    l = np.minimum(aa, bb)
    near = (h >= P.dt(0.5)) & (h < P.dt(2))
    # |z|^2 - 1 in double-double, then log1p / 2
    hh, hl = two_prod(P, h, h)
    lh, ll = two_prod(P, l, l)
    t, e1 = two_sum(hh, P.dt(-1))
    t, e2 = two_sum(t, lh)
    uh, ul = two_sum(t, ((e1 + e2) + (hl + ll)))
    with np.errstate(all='ignore'):
        rn = P.dt(0.5) * real.log1p_core(P, np.where(near, uh, P.dt(0)), np.where(near, ul, P.dt(0)))
    # otherwise scale to [1, 2), r = sqrt(h^2 + l^2) rounded, log r + k ln2
    sub = h < K['MIN_NORMAL']
    h2 = np.where(sub, h * K['TWO_P'], h)
    l2 = np.where(sub, l * K['TWO_P'], l)
    k = ilogb_big(P, np.where(h2 > 0, h2, P.dt(1)))
    hs = scalbn(P, h2, -k)
    ls = scalbn(P, l2, -k)
    r = np.sqrt(hs * hs + ls * ls)
    kk, m = real.log_decompose(P, r)
    hi, lo = real.log1pf_kernel(P, m - P.dt(1))
    kt = (kk + k - np.where(sub, P.p, 0)).astype(P.it)
    rf = real.log_finish(P, kt, hi, lo, *real._logconsts(P, 'e'))
    return np.where(near, rn, rf)


def log(P, a, b):
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b) & ((a != 0) | (b != 0))
        ac, bc = _clean(P, ok, a, b)
        re = _log_abs(P, np.where(ok, ac, P.dt(1)), bc)
        im = real.atan2(P, b, a)
    inf, nan = P.dt(INF), P.dt(NAN)
    cases = [
        (np.isnan(a), (np.where(np.isinf(b), inf, nan), nan)),
        (np.isnan(b), (np.where(np.isinf(a), inf, nan), nan)),
        (np.isinf(a) | np.isinf(b), (inf, im)),
        ((a == 0) & (b == 0), (-inf, im)),
    ]
    return _sel2(P, cases, re, im)


def log1p(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        w = P.dt(1) + a
        h = np.maximum(np.abs(a), np.abs(b))
        direct = ~_fin(a, b) | (h >= K['HUGE_AS']) | ((np.abs(w) < P.dt(0.5)) & (np.abs(b) < P.dt(0.5)))
        lr, li = log(P, w, b)
        ok = ~direct
        ac, bc = _clean(P, ok, a, b)
        a2h, a2l = two_prod(P, ac, ac)
        b2h, b2l = two_prod(P, bc, bc)
        t, e1 = two_sum(ac + ac, a2h)
        t, e2 = two_sum(t, b2h)
        uh, ul = two_sum(t, ((e1 + e2) + (a2l + b2l)))
        re = P.dt(0.5) * real.log1p_core(P, uh, ul)
        im = real.atan2(P, bc, P.dt(1) + ac)
    return np.where(direct, lr, re), np.where(direct, li, im)


def sqrt(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b) & ((a != 0) | (b != 0))
        ac, bc = _clean(P, ok, a, b)
        h = np.maximum(np.abs(ac), np.abs(bc))
        h = np.where(ok, h, P.dt(1))
        sub = h < K['MIN_NORMAL']
        a1 = np.where(sub, ac * K['TWO_P2'], ac)
        b1 = np.where(sub, bc * K['TWO_P2'], bc)
        h1 = np.where(sub, h * K['TWO_P2'], h)
        k = ilogb_big(P, h1) & ~1
        a2 = scalbn(P, a1, -k)
        b2 = scalbn(P, b1, -k)
        ph, pl = two_prod(P, a2, a2)
        qh, ql = two_prod(P, b2, b2)
        sh, sl = two_sum(ph, qh)
        rh, rl = real.dd_sqrt_(P, sh, sl + (pl + ql))
        t = np.sqrt((np.abs(a2) + (rh + rl)) * P.dt(0.5))
        kh = (k // 2 - np.where(sub, P.p, 0)).astype(P.it)
        T = scalbn(P, t, kh)
        o = (np.abs(bc) / T) * P.dt(0.5)
        pos = ac >= 0
        re = np.where(pos, T, o)
        im = np.where(pos, _cs(P, o, bc), _cs(P, T, bc))
    inf, zero, nan = P.dt(INF), P.dt(0), P.dt(NAN)
    cases = [
        (np.isinf(b), (inf, b)),
        (np.isnan(a), (nan, nan)),
        (a == -INF, (np.where(np.isnan(b), nan, zero), _cs(P, inf, b))),
        (a == INF, (inf, np.where(np.isnan(b), nan, _cs(P, zero, b)))),
        (np.isnan(b), (nan, nan)),
        ((a == 0) & (b == 0), (zero, b)),
    ]
    return _sel2(P, cases, re, im)


# ---------------------------------------------------------------- hyperbolic / trig
def _sinh_cosh_general(P, a, b, which):
    K = P.K
    s, c = real.sincos(P, b)
    big = np.abs(a) > K['CEXP_BIG']
    e = real.exp(P, np.abs(a) * P.dt(0.5))
    eh = (e * P.dt(0.5))
    sh = real.sinh(P, a)
    ch = real.cosh(P, a)
    one = P.dt(1)
    if which == 'sinh':
        v = (eh * c) * e
        re = np.where(big, np.where(a < 0, -v, v), sh * c)
        im = np.where(big, (eh * s) * e, ch * s)
        ei = big & np.isinf(e)
        re = np.where(ei, _inf_mul(P, a, c), re)
        im = np.where(ei, _inf_mul(P, one, s), im)
    else:
        v = (eh * s) * e
        re = np.where(big, (eh * c) * e, ch * c)
        im = np.where(big, np.where(a < 0, -v, v), sh * s)
        ei = big & np.isinf(e)
        re = np.where(ei, _inf_mul(P, one, c), re)
        im = np.where(ei, _inf_mul(P, a, s), im)
    return re, im


def sinh(P, a, b):
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, b)
        re, im = _sinh_cosh_general(P, ac, bc, 'sinh')
    nan = P.dt(NAN)
    cases = [
        (b == 0, (real.sinh(P, a), b)),
        ((a == 0) & ~np.isfinite(b), (a, nan)),
        (np.isinf(a) & ~np.isfinite(b), (a, nan)),
        (np.isinf(a), (_inf_mul(P, a, real.cos(P, b)), _inf_mul(P, P.dt(1), real.sin(P, b)))),
        (np.isnan(a) | ~np.isfinite(b), (nan, nan)),
    ]
    return _sel2(P, cases, re, im)


def cosh(P, a, b):
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, b)
        re, im = _sinh_cosh_general(P, ac, bc, 'cosh')
    nan, zero = P.dt(NAN), P.dt(0)
    cases = [
        (b == 0, (real.cosh(P, a), _signprod(P, zero, a, b))),
        ((a == 0) & ~np.isfinite(b), (nan, _signprod(P, zero, a, b))),
        (np.isinf(a) & ~np.isfinite(b), (P.dt(INF), nan)),
        (np.isinf(a), (_inf_mul(P, P.dt(1), real.cos(P, b)), _inf_mul(P, a, real.sin(P, b)))),
        (np.isnan(a) | ~np.isfinite(b), (nan, nan)),
    ]
    return _sel2(P, cases, re, im)


def tanh(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, b)
        big = np.abs(ac) >= K['TANH_ONE']
        s, c = real.sincos(P, bc)
        ib = P.dt(4) * s * c * real.exp(P, P.dt(-2) * np.abs(ac))
        t = real.tan(P, bc)
        sh = real.sinh(P, np.where(big, P.dt(0), ac))
        beta = P.dt(1) + t * t
        rho = np.sqrt(P.dt(1) + sh * sh)
        den = P.dt(1) + beta * sh * sh
        re = np.where(big, _cs(P, P.dt(1), ac), (beta * rho * sh) / den)
        im = np.where(big, ib, t / den)
    nan, zero, one = P.dt(NAN), P.dt(0), P.dt(1)
    cases = [
        (np.isnan(a), (a, np.where(b == 0, b, nan))),
        (np.isinf(a), (_cs(P, one, a), _cs(P, zero, b))),
        (~np.isfinite(b), (np.where(a == 0, a, nan), nan)),
        (b == 0, (real.tanh(P, a), b)),
    ]
    return _sel2(P, cases, re, im)


def sin(P, a, b):
    x, y = sinh(P, -np.asarray(b, P.dt), a)
    return y, -x


def cos(P, a, b):
    return cosh(P, -np.asarray(b, P.dt), a)


def tan(P, a, b):
    x, y = tanh(P, -np.asarray(b, P.dt), a)
    return y, -x


# ---------------------------------------------------------------- inverse functions
def _asinh_general(P, a, b):
    """asinh(a + bi), a, b >= 0 finite (Kahan): asinh(z) = -i asin(iz), iz = -b + ai."""
    x, y = -b, a
    s1r, s1i = sqrt(P, P.dt(1) - x, -y)      # sqrt(1 - w)
    s2r, s2i = sqrt(P, P.dt(1) + x, y)       # sqrt(1 + w)
    R = real.atan2(P, x, s1r * s2r - s1i * s2i)
    I = real.asinh(P, s1r * s2i - s1i * s2r)
    return I, -R


def asinh(P, a, b):
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, np.abs(a), np.abs(b))
        re, im = _asinh_general(P, ac, bc)
        re, im = _cs(P, re, a), _cs(P, im, b)
    K = P.K
    inf, zero, nan = P.dt(INF), P.dt(0), P.dt(NAN)
    cases = [
        (np.isinf(a), (a, np.where(np.isnan(b), nan, _cs(P, np.where(np.isinf(b), K['PIO4'], zero), b)))),
        (np.isinf(b), (np.where(np.isnan(a), inf, _cs(P, inf, a)), np.where(np.isnan(a), nan, _cs(P, K['PIO2'], b)))),
        (np.isnan(a), (a, np.where(b == 0, b, nan))),
        (np.isnan(b), (nan, nan)),
    ]
    return _sel2(P, cases, re, im)


def asin(P, a, b):
    x, y = asinh(P, -np.asarray(b, P.dt), a)
    return y, -x


def acosh(P, a, b):
    a, b = _args(P, a, b)
    K = P.K
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        ac, bc = _clean(P, ok, a, np.abs(b))
        t1r, t1i = sqrt(P, ac - P.dt(1), bc)
        t2r, t2i = sqrt(P, ac + P.dt(1), bc)
        re = real.asinh(P, t1r * t2r + t1i * t2i)
        im = P.dt(2) * real.atan2(P, t1i, t2r)
    inf, zero, nan = P.dt(INF), P.dt(0), P.dt(NAN)
    cases = [
        (np.isinf(b), (inf, np.where(np.isnan(a), nan, np.where(a == INF, K['PIO4'], np.where(a == -INF, K['PI34'], K['PIO2']))))),
        (np.isinf(a), (inf, np.where(np.isnan(b), nan, np.where(a > 0, zero, K['PI'])))),
        (np.isnan(a), (nan, nan)),
        (np.isnan(b), (nan, np.where(a == 0, K['PIO2'], nan))),
        ((a == 0) & (b == 0), (zero, K['PIO2'])),
    ]
    re, im = _sel2(P, cases, re, im)
    return re, _cs(P, im, b)


def acos(P, a, b):
    a, b = _args(P, a, b)
    x, y = acosh(P, a, np.abs(b))
    return y, np.where(real._signbit(P, b), x, -x)


def atanh(P, a, b):
    K = P.K
    a, b = _args(P, a, b)
    with np.errstate(all='ignore'):
        ok = _fin(a, b)
        x, y = _clean(P, ok, np.abs(a), np.abs(b))
        h = np.maximum(x, y)
        huge = h >= K['HUGE_AS']
        # moderate |z|
        xm = np.where(huge, P.dt(0), x)
        ym = np.where(huge, P.dt(0), y)
        om = P.dt(1) - xm
        den = om * om + ym * ym
        re_m = P.dt(0.25) * real.log1p(P, (P.dt(4) * xm) / den)
        # near +-1 with a tiny imaginary part the squares underflow: take the logs apart
        small = den < K['SMALL_DEN']
        re_s = (P.dt(0.25) * real.log(P, (P.dt(1) + xm) * (P.dt(1) + xm) + ym * ym)
                - P.dt(0.5) * real.log(P, real.hypot(P, np.where(small, om, P.dt(1)), np.where(small, ym, P.dt(0)))))
        re_m = np.where(small, re_s, re_m)
        u1, u1l = two_sum(P.dt(1), -xm)
        v1, v1l = two_sum(P.dt(1), xm)
        ph, pl = two_prod(P, u1, v1)
        pl = pl + (u1 * v1l + u1l * v1)
        qh, ql = two_prod(P, ym, ym)
        dh, dl = two_sum(ph, -qh)
        dl = dl + (pl - ql)
        im_m = P.dt(0.5) * real.atan2(P, ym + ym, dh + dl)
        # huge |z|: atanh(z) = 1/z + ..., imag = pi/2 - y/|z|^2
        k = ilogb_big(P, np.where(huge, h, P.dt(1)))
        xs = scalbn(P, x, -k)
        ys = scalbn(P, y, -k)
        d2 = xs * xs + ys * ys
        re_h = scalbn(P, xs / d2, -k)
        im_h = K['PIO2'] - scalbn(P, ys / d2, -k)
        re = np.where(huge, re_h, re_m)
        im = np.where(huge, im_h, im_m)
        re, im = _cs(P, re, a), _cs(P, im, b)
    inf, zero, nan = P.dt(INF), P.dt(0), P.dt(NAN)
    cases = [
        (np.isinf(b), (_cs(P, zero, a), _cs(P, K['PIO2'], b))),
        (np.isinf(a), (_cs(P, zero, a), np.where(np.isnan(b), nan, _cs(P, K['PIO2'], b)))),
        (np.isnan(a), (nan, nan)),
        (np.isnan(b), (np.where(a == 0, a, nan), nan)),
        ((np.abs(a) == 1) & (b == 0), (_cs(P, inf, a), b)),
    ]
    return _sel2(P, cases, re, im)


def atan(P, a, b):
    x, y = atanh(P, -np.asarray(b, P.dt), a)
    return y, -x


def pow(P, a, b, c, d):
    a, b, c, d = _args(P, a, b, c, d)
    lr, li = log(P, a, b)
    mr, mi = mul(P, c, d, lr, li)
    er, ei = exp(P, mr, mi)
    # a nonzero base to an integral real power below 100 in magnitude: repeated squaring
    # (numpy's npy_cpow), the reciprocal for a negative power
    cf = np.where(np.isfinite(c), c, 0)
    integral = (d == 0) & (np.abs(cf) < 100) & (cf == np.floor(cf)) & (c == cf) & ((a != 0) | (b != 0))
    n = np.where(integral, np.abs(cf), 0).astype(np.int64)
    accr, acci, pr, pi = a.copy(), b.copy(), a.copy(), b.copy()
    first = (n & 1) != 0
    n = n >> 1
    while np.any(n != 0):
        live = n != 0
        qr, qi = mul(P, pr, pi, pr, pi)
        pr, pi = np.where(live, qr, pr), np.where(live, qi, pi)
        take = live & ((n & 1) != 0)
        mr2, mi2 = mul(P, accr, acci, pr, pi)
        accr = np.where(take, np.where(first, mr2, pr), accr)
        acci = np.where(take, np.where(first, mi2, pi), acci)
        first = first | take
        n = n >> 1
    rr, ri = div(P, np.ones_like(accr), np.zeros_like(acci), accr, acci)
    accr, acci = np.where(c < 0, rr, accr), np.where(c < 0, ri, acci)
    er, ei = np.where(integral, accr, er), np.where(integral, acci, ei)
    one = (c == 0) & (d == 0)
    return np.where(one, P.dt(1), er), np.where(one, P.dt(0), ei)
