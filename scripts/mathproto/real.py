"""Prototypes of the real elementary functions (f64 and f32 share one algorithm).

Each public function `name(P, x)` mirrors `<prefix>_name` in
glsl/include/math_<prefix>.glsl line by line.  GLSL early returns for
special cases are modelled by `_sel([(cond, value), ...], main)` (first true
condition wins, as the `if (...) return ...;` chain in the shader).
Branches inside the main path are computed on both sides and np.where'd.
"""
import numpy as np
from .fp import dd_sqrt as dd_sqrt_  # noqa: F401
from .fp import (horner, two_sum, fast_two_sum, two_prod, dd_div, dd_sqrt,
                 bits, frombits, pow2, scalbn, ilogb_big)

INF = np.inf
NAN = np.nan


def _sel(P, cases, main):
    out = np.array(main, dtype=P.dt, copy=True)
    done = np.zeros(out.shape, bool)
    for cond, val in cases:
        cond = np.broadcast_to(cond, out.shape) & ~done
        out = np.where(cond, np.asarray(val, P.dt), out)
        done |= cond
    return out


def _signbit(P, x):
    return bits(P, x) < 0


def _copysign(P, a, s):
    return np.where(_signbit(P, s), -np.abs(a), np.abs(a))


# ------------------------------------------------------------------ exp core
def exp_kernel(P, r, rl):
    """e^(r+rl) - 1 = (h, l) double-double, |r| <= ~0.35."""
    z = r * r
    t = z * horner(P, P.POLY['EXPM1'], r) + rl
    return fast_two_sum(r, t)


def exp_reduce(P, xh, xl):
    """x = n*ln2 + r, returns n (float), r, rl."""
    K = P.K
    n = np.rint(xh * K['INV_LN2'])
    rh = xh - n * K['LN2_H']
    t = n * K['LN2_L'] - xl
    r = rh - t
    rl = (rh - r) - t
    return n, r, rl


def exp(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x) & (x <= K['EXP_OVF']) & (x >= K['EXP_UNF']), x, P.dt(0))
        n, r, rl = exp_reduce(P, xs, P.dt(0) * xs)
        h, l = exp_kernel(P, r, rl)
        y = P.dt(1) + (h + l)
        res = scalbn(P, y, n.astype(P.it))
    return _sel(P, [(np.isnan(x), x), (x > K['EXP_OVF'], INF), (x < K['EXP_UNF'], 0.0)], res)


def exp2(P, x):
    K = P.K
    x = P.arr(x)
    hi_t, lo_t = K['EXP2_OVF'], K['EXP2_UNF']
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x) & (x < hi_t) & (x >= lo_t), x, P.dt(0))
        n = np.rint(xs)
        f = xs - n
        rh, rl = two_prod(P, f, K['LN2'])
        rl = rl + f * K['LN2_L2']
        r, rl = fast_two_sum(rh, rl)
        h, l = exp_kernel(P, r, rl)
        y = P.dt(1) + (h + l)
        res = scalbn(P, y, n.astype(P.it))
    return _sel(P, [(np.isnan(x), x), (x >= hi_t, INF), (x < lo_t, 0.0)], res)


def expm1_dd(P, x):
    """e^x - 1 as double-double for EXPM1_NEG <= x <= EXP_OVF (finite)."""
    n, r, rl = exp_reduce(P, x, P.dt(0) * x)
    h, l = exp_kernel(P, r, rl)
    ni = n.astype(P.it)
    # n == 0: (h, l) itself.  |n| <= p+3: (2^n - 1) + 2^n*(h + l).  n > p+3: 2^n*(1+h+l)
    t = pow2(P, np.clip(ni, P.emin, P.emax))
    th, tl = two_sum(t, P.dt(-1))
    sh, sl = two_sum(th, t * h)
    sl = sl + (tl + t * l)
    big = ni > P.p + 3
    bh = scalbn(P, P.dt(1) + (h + l), ni)
    oh = np.where(ni == 0, h, np.where(big, bh, sh))
    ol = np.where(ni == 0, l, np.where(big, P.dt(0), sl))
    return oh, ol


def expm1(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x) & (x <= K['EXP_OVF']) & (x >= K['EXPM1_NEG']), x, P.dt(0))
        h, l = expm1_dd(P, xs)
        res = h + l
    return _sel(P, [(np.isnan(x), x), (x == 0, x), (x > K['EXP_OVF'], INF),
                    (x < K['EXPM1_NEG'], -1.0)], res)


# ------------------------------------------------------------------ log core
def log_decompose(P, x):
    """x > 0 finite -> (k, m) with x = 2^k m, m in [sqrt(1/2), sqrt(2))."""
    K = P.K
    sub = x < K['MIN_NORMAL']
    x = np.where(sub, x * K['TWO_P'], x)
    b = bits(P, x)
    k = ((b >> (P.p - 1)) - P.bias).astype(P.it)
    k = np.where(sub, k - P.p, k).astype(P.it)
    mant = (b & ((1 << (P.p - 1)) - 1)) | (P.bias << (P.p - 1))
    m = frombits(P, mant.astype(P.it))
    big = m > K['SQRT2']
    m = np.where(big, m * P.dt(0.5), m)
    k = np.where(big, k + 1, k).astype(P.it)
    return k, m


def log1pf_kernel(P, f):
    """log(1+f) = hi + lo for f in [sqrt(1/2)-1, sqrt(2)-1]."""
    s = f / (P.dt(2) + f)
    z = s * s
    R = z * horner(P, P.POLY['LOG'], z)
    hfsq = P.dt(0.5) * f * f
    hi = f - hfsq
    lo = ((f - hi) - hfsq) + s * (hfsq + R)
    return hi, lo


def log_finish(P, k, hi, lo, CH, CL, IH, IL):
    """k*C + (hi+lo)*I rounded, C = CH+CL = log_b(2), I = IH+IL = 1/ln(b)."""
    kf = k.astype(P.dt)
    ph, pl = two_prod(P, hi, IH)
    pl = pl + (lo * IH + (hi + lo) * IL)
    kh = kf * CH
    kl = kf * CL
    w, we = two_sum(kh, ph)
    return w + (we + (pl + kl))


_LOGB = {
    'e': ('LN2_H', 'LN2_L', None, None),
    '2': (None, None, 'INV_LN2', 'INV_LN2_L'),
    '10': ('LOG10_2_H', 'LOG10_2_L', 'INV_LN10', 'INV_LN10_L'),
}


def _logconsts(P, base):
    a, b, c, d = _LOGB[base]
    K = P.K
    one, zero = P.dt(1), P.dt(0)
    return (K[a] if a else one, K[b] if b else zero, K[c] if c else one, K[d] if d else zero)


def _log_any(P, x, base):
    x = P.arr(x)
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x) & (x > 0), x, P.dt(1))
        k, m = log_decompose(P, xs)
        f = m - P.dt(1)
        hi, lo = log1pf_kernel(P, f)
        res = log_finish(P, k, hi, lo, *_logconsts(P, base))
    return _sel(P, [(np.isnan(x), x), (x < 0, NAN), (x == 0, -INF), (np.isinf(x), x)], res)


def log(P, x):
    return _log_any(P, x, 'e')


def log2(P, x):
    return _log_any(P, x, '2')


def log10(P, x):
    return _log_any(P, x, '10')


def log1p_core(P, xh, xl, kextra=0):
    """log(1 + xh + xl) (natural) rounded, for 1+xh > 0 finite; |xl| <= ulp(xh)."""
    K = P.K
    direct = (xh >= K['SQRT_HALF_M1']) & (xh < K['SQRT2_M1'])
    u, c = two_sum(P.dt(1), xh)
    c = c + xl
    k, m = log_decompose(P, np.where(direct, P.dt(1), u))
    f = np.where(direct, xh, m - P.dt(1))
    k = np.where(direct, 0, k).astype(P.it)
    hi, lo = log1pf_kernel(P, f)
    lo = lo + np.where(direct, xl, c / u)
    return log_finish(P, k + kextra, hi, lo, *_logconsts(P, 'e'))


def log1p(P, x):
    x = P.arr(x)
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x) & (x > -1), x, P.dt(0))
        res = log1p_core(P, xs, P.dt(0) * xs)
    return _sel(P, [(np.isnan(x), x), (x < -1, NAN), (x == -1, -INF), (x == 0, x),
                    (np.isinf(x), x)], res)


# ------------------------------------------------------------------ trig
def ph_reduce(P, ax):
    """Payne-Hanek: ax (finite, >= CW_MAX) = (4k + q)*pi/2 + r; returns q, rh, rl."""
    K = P.K
    T = np.array(P.TAB['TWO_OVER_PI'], dtype=np.uint64)
    NW, ML = K['PH_NW'], K['PH_ML']
    M32 = np.uint64(0xFFFFFFFF)
    b = bits(P, ax).astype(np.int64)
    e = ((b >> (P.p - 1)) & ((1 << (P.nbits - P.p)) - 1)) - P.bias - (P.p - 1)
    M = ((b & ((1 << (P.p - 1)) - 1)) | (1 << (P.p - 1))).astype(np.uint64)
    g0 = np.maximum(e + 62, 0)                 # bit index of 2/pi bit j = e-1
    k0 = g0 >> 5
    sh = (32 - (g0 & 31)).astype(np.uint64)
    v = []
    for i in range(NW):                        # little-endian window limbs
        kk = k0 + (NW - 1 - i)
        w = ((T[kk] << np.uint64(32)) | T[kk + 1]) >> sh
        v.append(w & M32)
    m = [M & M32, M >> np.uint64(32)][:ML]
    pr = [np.zeros_like(M) for _ in range(NW + ML)]
    for i in range(ML):
        carry = np.zeros_like(M)
        for j in range(NW):
            t = m[i] * v[j] + pr[i + j] + carry
            pr[i + j] = t & M32
            carry = t >> np.uint64(32)
        pr[i + NW] = carry
    q = (pr[NW - 1] >> np.uint64(30)).astype(np.int64)
    A = (pr[NW - 3] >> np.uint64(30)) | (pr[NW - 2] << np.uint64(2)) | (pr[NW - 1] << np.uint64(34))
    B = (pr[NW - 5] >> np.uint64(30)) | (pr[NW - 4] << np.uint64(2)) | (pr[NW - 3] << np.uint64(34))
    neg = (A >> np.uint64(63)) != 0
    q = np.where(neg, q + 1, q) & 3
    B2 = ~B + np.uint64(1)
    A2 = ~A + (B == 0).astype(np.uint64)
    A = np.where(neg, A2, A)
    B = np.where(neg, B2, B)
    if P.p == 53:
        p1 = A >> np.uint64(11)
        p2 = ((A & np.uint64(0x7FF)) << np.uint64(42)) | (B >> np.uint64(22))
        p3 = B & np.uint64(0x3FFFFF)
    else:
        p1 = A >> np.uint64(40)
        p2 = (A >> np.uint64(16)) & np.uint64(0xFFFFFF)
        p3 = ((A & np.uint64(0xFFFF)) << np.uint64(8)) | (B >> np.uint64(56))
    h, l = fast_two_sum(p1.astype(P.dt) * K['PH_W1'], p2.astype(P.dt) * K['PH_W2'])
    l = l + p3.astype(P.dt) * K['PH_W3']
    ph, pl = two_prod(P, h, K['PIO2'])
    pl = pl + (h * K['PIO2_L'] + l * K['PIO2'])
    rh, rl = fast_two_sum(ph, pl)
    rh = np.where(neg, -rh, rh)
    rl = np.where(neg, -rl, rl)
    return q.astype(P.it), rh, rl


def trig_reduce(P, x):
    """finite x -> (q, rh, rl): x = q*pi/2 + r (mod 2pi), |r| <= ~pi/4."""
    K = P.K
    ax = np.abs(x)
    cw = ax < K['CW_MAX']
    axc = np.where(cw, ax, P.dt(0))
    n = np.rint(axc * K['INV_PIO2'])
    t = axc - n * K['PIO2_1']
    r, e = two_sum(t, -(n * K['PIO2_2']))
    r, e2 = two_sum(r, -(n * K['PIO2_3']))
    e = (e + e2) - n * K['PIO2_4']
    rh, rl = fast_two_sum(r, e)
    q = (n.astype(np.int64) & 3).astype(P.it)
    axp = np.where(cw, K['CW_MAX'] * 2, ax)
    pq, prh, prl = ph_reduce(P, axp)
    q = np.where(cw, q, pq)
    rh = np.where(cw, rh, prh)
    rl = np.where(cw, rl, prl)
    neg = x < 0
    q = np.where(neg, (4 - q) & 3, q).astype(P.it)
    rh = np.where(neg, -rh, rh)
    rl = np.where(neg, -rl, rl)
    return q, rh, rl


def sincos_kernel(P, r, rl):
    z = r * r
    st = r * z * horner(P, P.POLY['SIN'], z) + rl * (P.dt(1) - P.dt(0.5) * z)
    sh, sl = fast_two_sum(r, st)
    hz = P.dt(0.5) * z
    w = P.dt(1) - hz
    ct = ((P.dt(1) - w) - hz) + (z * z * horner(P, P.POLY['COS'], z) - r * rl)
    ch, cl = fast_two_sum(w, ct)
    return sh, sl, ch, cl


def _trig(P, x, which):
    x = P.arr(x)
    with np.errstate(all='ignore'):
        xs = np.where(np.isfinite(x), x, P.dt(0))
        q, r, rl = trig_reduce(P, xs)
        sh, sl, ch, cl = sincos_kernel(P, r, rl)
        if which == 'sin':
            res = np.where((q & 1) == 0, sh + sl, ch + cl)
            res = np.where(q >= 2, -res, res)
        elif which == 'cos':
            res = np.where((q & 1) == 0, ch + cl, sh + sl)
            res = np.where((q == 1) | (q == 2), -res, res)
        else:
            odd = (q & 1) == 1
            nh = np.where(odd, ch, sh)
            nl = np.where(odd, cl, sl)
            dh = np.where(odd, sh, ch)
            dl = np.where(odd, sl, cl)
            th, tl = dd_div(P, nh, nl, dh, dl)
            res = th + tl
            res = np.where(odd, -res, res)
    cases = [(np.isnan(x), x), (np.isinf(x), NAN)]
    if which != 'cos':
        cases.append((x == 0, x))
    return _sel(P, cases, res)


def sin(P, x):
    return _trig(P, x, 'sin')


def sincos_dd(P, x):
    """sin x = sh + sl, cos x = ch + cl for finite x (GLSL: PFXi_sincos_dd)."""
    q, r, rl = trig_reduce(P, x)
    sh, sl, ch, cl = sincos_kernel(P, r, rl)
    odd = (q & 1) == 1
    s1h, s1l = np.where(odd, ch, sh), np.where(odd, cl, sl)
    c1h, c1l = np.where(odd, sh, ch), np.where(odd, sl, cl)
    ns = q >= 2
    nc = (q == 1) | (q == 2)
    return (np.where(ns, -s1h, s1h), np.where(ns, -s1l, s1l),
            np.where(nc, -c1h, c1h), np.where(nc, -c1l, c1l))


def sincos(P, x):
    """(sin x, cos x) with one argument reduction (GLSL: PFX_sincos(x, out s, out c))."""
    return _trig(P, x, 'sin'), _trig(P, x, 'cos')


def cos(P, x):
    return _trig(P, x, 'cos')


def tan(P, x):
    return _trig(P, x, 'tan')


# ------------------------------------------------------------------ inverse trig
def atan_core(P, yh, yl, xh, xl):
    """atan((yh+yl)/(xh+xl)) as double-double, 0 <= y, 0 < x (or y > 0),
    both of magnitude <= ~4 (pre-scaled), y/x >= ATAN_TINY or y == 0."""
    TH, C, AH, AL = P.TAB['ATAN_TH'], P.TAB['ATAN_C'], P.TAB['ATAN_H'], P.TAB['ATAN_L']
    q = yh / xh
    i = np.zeros(q.shape, np.int64)
    for k in range(8):
        i = i + (q > TH[k])
    Ci = np.asarray(C + [P.dt(0)], P.dt)[np.minimum(i, 8)]
    big = i == 8
    # num = y - c*x, den = x + c*y   (i < 8);  num = -x, den = y  (i == 8)
    p1h, p1l = two_prod(P, Ci, xh)
    nh, nl = two_sum(yh, -p1h)
    nl = nl + (yl - (p1l + Ci * xl))
    p2h, p2l = two_prod(P, Ci, yh)
    dh, dl = two_sum(xh, p2h)
    dl = dl + (xl + (p2l + Ci * yl))
    nh = np.where(big, -xh, nh)
    nl = np.where(big, -xl, nl)
    dh = np.where(big, yh, dh)
    dl = np.where(big, yl, dl)
    t, tl = dd_div(P, nh, nl, dh, dl)
    z = t * t
    tail = t * z * horner(P, P.POLY['ATAN'], z) + tl
    ah = np.asarray(AH, P.dt)[i]
    al = np.asarray(AL, P.dt)[i]
    h, e = two_sum(ah, t)
    l = e + (al + tail)
    return fast_two_sum(h, l)


def atan(P, x):
    x = P.arr(x)
    with np.errstate(all='ignore'):
        ax = np.where(np.isnan(x), P.dt(0), np.minimum(np.abs(x), P.K['ATAN_BIG']))
        h, l = atan_core(P, ax, P.dt(0) * ax, np.ones_like(ax), P.dt(0) * ax)
        res = h + l
        res = np.where(x < 0, -res, res)
    return _sel(P, [(np.isnan(x), x), (x == 0, x)], res)


def atan2(P, y, x):
    K = P.K
    y, x = np.broadcast_arrays(P.arr(y), P.arr(x))
    with np.errstate(all='ignore'):
        ay, ax = np.abs(y), np.abs(x)
        fin = np.isfinite(ay) & np.isfinite(ax) & (ay != 0) & (ax != 0)
        ay = np.where(fin, ay, P.dt(1))
        ax = np.where(fin, ax, P.dt(1))
        tiny = ay < ax * K['ATAN_TINY']
        mx = np.maximum(ay, ax)
        k = ilogb_big(P, mx)
        ys = scalbn(P, ay, -k)
        xs = scalbn(P, ax, -k)
        h, l = atan_core(P, ys, P.dt(0) * ys, xs, P.dt(0) * xs)
        nx = x < 0
        h2, e = two_sum(K['PI'], -h)
        l2 = e + (K['PI_L'] - l)
        res = np.where(nx, h2 + l2, h + l)
        res = np.where(tiny, np.where(nx, K['PI'], ay / ax), res)
        res = _copysign(P, res, y)
    yneg = _signbit(P, y)
    xneg = _signbit(P, x)
    sgn = lambda v: np.where(yneg, -v, v)
    pio2, pi_, pio4 = K['PIO2'], K['PI'], K['PIO4']
    pi34 = K['PI34']
    cases = [
        (np.isnan(x) | np.isnan(y), NAN),
        (np.isinf(y) & np.isinf(x), sgn(np.where(xneg, pi34, pio4))),
        (np.isinf(y), sgn(pio2)),
        (np.isinf(x), sgn(np.where(xneg, pi_, P.dt(0)))),
        (y == 0, sgn(np.where(xneg, pi_, P.dt(0)))),
        (x == 0, sgn(pio2)),
    ]
    return _sel(P, cases, res)


def _asin_acos(P, x, which):
    x = P.arr(x)
    with np.errstate(all='ignore'):
        ax = np.where(np.abs(x) <= 1, np.abs(x), P.dt(0))
        # w = 1 - ax^2 as double-double
        big = ax >= P.dt(0.5)
        a = P.dt(1) - ax                       # exact for ax >= 0.5
        bh, bl = two_sum(P.dt(1), ax)
        w1h, w1l = two_prod(P, a, bh)
        w1l = w1l + a * bl
        sqh, sql = two_prod(P, ax, ax)
        w2h, w2l = two_sum(P.dt(1), -sqh)
        w2l = w2l - sql
        wh = np.where(big, w1h, w2h)
        wl = np.where(big, w1l, w2l)
        wh, wl = fast_two_sum(wh, wl)
        sh, sl = dd_sqrt(P, wh, wl)
        zero = P.dt(0) * ax
        if which == 'asin':
            # atan2(ax, s): ax <= 1, s <= 1
            small = ax < sh * P.K['ATAN_TINY']
            h, l = atan_core(P, ax, zero, np.where(sh == 0, P.dt(1), sh), sl)
            h = np.where(sh == 0, P.K['PIO2'], h)
            l = np.where(sh == 0, P.K['PIO2_L'], l)
            res = np.where(small, ax, h + l)
            res = np.where(x < 0, -res, res)
        else:
            # atan2(s, |x|), then pi - that for x < 0
            small = sh < ax * P.K['ATAN_TINY']
            axn = np.where(ax == 0, P.dt(1), ax)
            h, l = atan_core(P, sh, sl, axn, zero)
            h = np.where(ax == 0, P.K['PIO2'], h)
            l = np.where(ax == 0, P.K['PIO2_L'], l)
            h = np.where(small, sh / axn, h)
            l = np.where(small, P.dt(0), l)
            h2, e = two_sum(P.K['PI'], -h)
            l2 = e + (P.K['PI_L'] - l)
            res = np.where(x < 0, h2 + l2, h + l)
    cases = [(np.isnan(x), x), (np.abs(x) > 1, NAN)]
    if which == 'asin':
        cases.append((x == 0, x))
    return _sel(P, cases, res)


def asin(P, x):
    return _asin_acos(P, x, 'asin')


def acos(P, x):
    return _asin_acos(P, x, 'acos')


# ------------------------------------------------------------------ hyperbolic
def exp_dd_scaled(P, a, dn):
    """e^a * 2^dn as (h, l), a finite <= SINH_OVF; both parts scaled."""
    n, r, rl = exp_reduce(P, a, P.dt(0) * a)
    h, l = exp_kernel(P, r, rl)
    eh, el = fast_two_sum(P.dt(1), h)
    el = el + l
    ni = n.astype(P.it) + dn
    return scalbn(P, eh, ni), scalbn(P, el, ni)


def sinh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.isfinite(x) & (np.abs(x) <= K['SINH_OVF']), np.abs(x), P.dt(0))
        z = a * a
        small = a + a * z * horner(P, P.POLY['SINH'], z)
        eh, el = exp_dd_scaled(P, a, -1)             # e^a / 2
        near = a < K['TANH_ONE']                      # else e^-a/2 is negligible
        ih, il = dd_div(P, P.dt(0.25), P.dt(0), np.where(near, eh, P.dt(1)), np.where(near, el, P.dt(0)))
        ih = np.where(near, ih, P.dt(0))
        il = np.where(near, il, P.dt(0))
        dh, de = two_sum(eh, -ih)
        big = dh + (de + (el - il))
        res = np.where(a < 1, small, big)
        res = np.where(x < 0, -res, res)
    return _sel(P, [(np.isnan(x), x), (np.abs(x) < K['TINY'], x),
                    (np.abs(x) > K['SINH_OVF'], _copysign(P, P.dt(INF), x))], res)


def cosh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.isfinite(x) & (np.abs(x) <= K['SINH_OVF']), np.abs(x), P.dt(0))
        eh, el = exp_dd_scaled(P, a, -1)
        near = a < K['TANH_ONE']                      # else e^-a/2 is negligible
        ih, il = dd_div(P, P.dt(0.25), P.dt(0), np.where(near, eh, P.dt(1)), np.where(near, el, P.dt(0)))
        ih = np.where(near, ih, P.dt(0))
        il = np.where(near, il, P.dt(0))
        dh, de = two_sum(eh, ih)
        res = dh + (de + (el + il))
    return _sel(P, [(np.isnan(x), x), (np.abs(x) > K['SINH_OVF'], INF)], res)


def tanh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.isfinite(x) & (np.abs(x) < K['TANH_ONE']), np.abs(x), P.dt(0))
        eh, el = expm1_dd(P, a + a)                 # e^2a - 1
        dh, dl = two_sum(eh, P.dt(2))
        dl = dl + el
        th, tl = dd_div(P, eh, el, dh, dl)
        res = th + tl
        res = np.where(x < 0, -res, res)
    return _sel(P, [(np.isnan(x), x), (np.abs(x) < K['TINY'], x),
                    (np.abs(x) >= K['TANH_ONE'], _copysign(P, P.dt(1), x))], res)


def asinh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.isfinite(x), np.abs(x), P.dt(0))
        huge = a >= K['HUGE_AS']
        ac = np.where(huge, P.dt(1), a)
        # u = a + a^2/(1 + sqrt(1 + a^2)),  asinh = log1p(u)
        sh_, sl_ = two_prod(P, ac, ac)
        wh, wl = two_sum(P.dt(1), sh_)
        wl = wl + sl_
        rh, rl = dd_sqrt(P, wh, wl)
        dh, dl = two_sum(P.dt(1), rh)
        dl = dl + rl
        qh, ql = dd_div(P, sh_, sl_, dh, dl)
        uh, ul = two_sum(ac, qh)
        ul = ul + ql
        mid = log1p_core(P, uh, ul)
        k, m = log_decompose(P, np.where(huge, a, P.dt(1)))
        hi, lo = log1pf_kernel(P, m - P.dt(1))
        far = log_finish(P, k + 1, hi, lo, *_logconsts(P, 'e'))
        res = np.where(huge, far, mid)
        res = np.where(x < 0, -res, res)
    return _sel(P, [(np.isnan(x), x), (np.abs(x) < K['TINY'], x), (np.isinf(x), x)], res)


def acosh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.isfinite(x) & (x >= 1), x, P.dt(1))
        huge = a >= K['HUGE_AS']
        ac = np.where(huge, P.dt(1), a)
        t = ac - P.dt(1)                          # exact
        # u = t + sqrt(t*(t+2)),  acosh = log1p(u)
        bh, bl = two_sum(t, P.dt(2))
        ph, pl = two_prod(P, t, bh)
        pl = pl + t * bl
        rh, rl = dd_sqrt(P, ph, pl)
        uh, ul = two_sum(t, rh)
        ul = ul + rl
        mid = log1p_core(P, uh, ul)
        k, m = log_decompose(P, np.where(huge, a, P.dt(1)))
        hi, lo = log1pf_kernel(P, m - P.dt(1))
        far = log_finish(P, k + 1, hi, lo, *_logconsts(P, 'e'))
        res = np.where(huge, far, mid)
    return _sel(P, [(np.isnan(x), x), (x < 1, NAN), (np.isinf(x), x)], res)


def atanh(P, x):
    K = P.K
    x = P.arr(x)
    with np.errstate(all='ignore'):
        a = np.where(np.abs(x) < 1, np.abs(x), P.dt(0))
        # atanh = 0.5*log1p(2a/(1-a))
        dh, dl = two_sum(P.dt(1), -a)
        qh, ql = dd_div(P, a + a, P.dt(0), dh, dl)
        res = P.dt(0.5) * log1p_core(P, qh, ql)
        res = np.where(x < 0, -res, res)
    return _sel(P, [(np.isnan(x), x), (np.abs(x) > 1, NAN), (x == 1, INF), (x == -1, -INF),
                    (np.abs(x) < K['TINY'], x)], res)


# ------------------------------------------------------------------ pow
def log_dd(P, x):
    """natural log of finite x > 0 as a double-double accurate to ~2^-(2p-40)."""
    K = P.K
    k, m = log_decompose(P, x)
    f = m - P.dt(1)
    dh, dl = two_sum(P.dt(2), f)
    sh = f / dh
    ph, pl = two_prod(P, sh, dh)
    sl = (((f - ph) - pl) - sh * dl) / dh
    zh, zl = two_prod(P, sh, sh)
    zl = zl + P.dt(2) * sh * sl
    ch, cl = two_prod(P, zh, sh)
    cl = cl + (zl * sh + zh * sl)
    t3h, t3l = two_prod(P, K['C23'], ch)
    t3l = t3l + (K['C23'] * cl + K['C23_L'] * ch)
    t5 = sh * zh * zh * horner(P, P.POLY['LOG5'], zh)
    kf = k.astype(P.dt)
    h, l = two_sum(kf * K['LN2_H'], P.dt(2) * sh)
    h, l2 = two_sum(h, t3h)
    l = l + (l2 + ((P.dt(2) * sl + t3l) + (t5 + kf * K['LN2_L'])))
    return fast_two_sum(h, l)


def _is_int(y):
    return np.floor(y) == y


def _is_odd(P, y):
    # odd integer: integer, and y/2 not an integer (finite only)
    return _is_int(y) & (np.floor(y * P.dt(0.5)) != y * P.dt(0.5))


def pow(P, x, y):
    K = P.K
    x, y = np.broadcast_arrays(P.arr(x), P.arr(y))
    with np.errstate(all='ignore'):
        ax = np.abs(x)
        ok = np.isfinite(x) & np.isfinite(y) & (x != 0) & (y != 0)
        axc = np.where(ok, ax, P.dt(2))
        yc = np.where(ok, y, P.dt(1))
        lh, ll = log_dd(P, axc)
        zh = yc * lh
        zc = np.where((zh <= K['POW_OVF']) & (zh >= K['POW_UNF']), zh, P.dt(0))
        ph, pl = two_prod(P, yc, lh)
        pl = pl + yc * ll
        ph, pl = fast_two_sum(ph, pl)
        ph = np.where(zc == zh, ph, P.dt(0))
        pl = np.where(zc == zh, pl, P.dt(0))
        n, r, rl = exp_reduce(P, ph, pl)
        eh, el = exp_kernel(P, r, rl)
        v = scalbn(P, P.dt(1) + (eh + el), n.astype(P.it))
        v = np.where(zh > K['POW_OVF'], P.dt(INF), v)
        v = np.where(zh < K['POW_UNF'], P.dt(0), v)
        yodd = _is_odd(P, y)
        v = np.where((x < 0) & yodd, -v, v)
    yint = _is_int(y)
    odd = np.isfinite(y) & _is_odd(P, np.where(np.isfinite(y), y, P.dt(0)))
    inf, zero = P.dt(INF), P.dt(0)
    cases = [
        (y == 0, 1.0),
        (x == 1, 1.0),
        (np.isnan(x) | np.isnan(y), NAN),
        (np.isinf(y) & (ax == 1), 1.0),
        (y == INF, np.where(ax > 1, inf, zero)),
        (y == -INF, np.where(ax > 1, zero, inf)),
        (x == INF, np.where(y > 0, inf, zero)),
        (x == -INF, np.where(y > 0, np.where(odd, -inf, inf), np.where(odd, -zero, zero))),
        (x == 0, np.where(y > 0, np.where(odd & _signbit(P, x), -zero, zero),
                          np.where(odd & _signbit(P, x), -inf, inf))),
        ((x < 0) & ~yint, NAN),
        (ax == 1, np.where(odd, P.dt(-1), P.dt(1))),   # x = -1: avoids y*log|x| overflow in two_prod
    ]
    return _sel(P, cases, v)


# ------------------------------------------------------------------ misc
def hypot(P, x, y):
    K = P.K
    x, y = np.broadcast_arrays(P.arr(x), P.arr(y))
    with np.errstate(all='ignore'):
        ax, ay = np.abs(x), np.abs(y)
        a = np.maximum(ax, ay)
        b = np.minimum(ax, ay)
        fin = np.isfinite(a) & (a > 0)
        a = np.where(fin, a, P.dt(1))
        b = np.where(fin, b, P.dt(0))
        sub = a < K['MIN_NORMAL']
        a = np.where(sub, a * K['TWO_P'], a)
        b = np.where(sub, b * K['TWO_P'], b)
        k = ilogb_big(P, a)
        a2 = scalbn(P, a, -k)
        b2 = scalbn(P, b, -k)
        ph, pl = two_prod(P, a2, a2)
        qh, ql = two_prod(P, b2, b2)
        sh, sl = two_sum(ph, qh)
        sl = sl + (pl + ql)
        rh, rl = dd_sqrt(P, sh, sl)
        k = np.where(sub, k - P.p, k).astype(P.it)
        res = scalbn(P, rh + rl, k)
    cases = [(np.isinf(x) | np.isinf(y), INF), (np.isnan(x) | np.isnan(y), NAN),
             (np.maximum(ax, ay) == 0, 0.0)]
    return _sel(P, cases, res)


def logaddexp(P, x, y):
    K = P.K
    x, y = np.broadcast_arrays(P.arr(x), P.arr(y))
    with np.errstate(all='ignore'):
        m = np.maximum(x, y)
        d = -np.abs(x - y)
        ok = np.isfinite(m) & np.isfinite(d) & (d >= K['EXP_UNF'])
        mc = np.where(np.isfinite(m), m, P.dt(0))
        dc = np.where(ok, d, P.dt(0))
        eh, el = exp_dd_scaled(P, dc, 0)          # e^d in (0, 1]
        lh, ll = _log1p_dd(P, eh, el)
        h, e = two_sum(mc, lh)
        res = h + (e + ll)
        res = np.where(ok, res, np.where(mc == 0, P.dt(0), mc))
    cases = [(np.isnan(x) | np.isnan(y), NAN), (m == INF, INF), (m == -INF, -INF)]
    return _sel(P, cases, res)


def _log1p_dd(P, xh, xl):
    """log(1+x) as (h, l) for 0 <= x <= 1 (used by logaddexp)."""
    K = P.K
    direct = xh < K['SQRT2_M1']
    u, c = two_sum(P.dt(1), xh)
    c = c + xl
    k, m = log_decompose(P, np.where(direct, P.dt(1), u))
    f = np.where(direct, xh, m - P.dt(1))
    k = np.where(direct, 0, k).astype(P.it)
    hi, lo = log1pf_kernel(P, f)
    lo = lo + np.where(direct, xl, c / u)
    kf = k.astype(P.dt)
    h, e = two_sum(kf * K['LN2_H'], hi)
    l = e + (lo + kf * K['LN2_L'])
    return fast_two_sum(h, l)
