"""Precision descriptions, constants and error-free building blocks.

Everything here is written with exactly the IEEE operations the GLSL uses, so
numpy (float64 / float32 arrays, round-to-nearest-even) reproduces the shader
arithmetic bit for bit.  No fma is used anywhere: Vulkan only guarantees fma()
to be "inherited from OpFMul followed by OpFAdd", i.e. it may be unfused, so
the exact product is built with Dekker/Veltkamp splitting (GLSL: `precise`).
"""
import numpy as np
import mpmath as mp

mp.mp.prec = 1600


def _rnd(x, p):
    with mp.workprec(p):
        return +mp.mpf(x)


class Prec:
    """One floating-point format: 'f64' (double) or 'f32' (float)."""

    def __init__(self, name):
        self.name = name
        if name == 'f64':
            self.dt, self.it, self.ut = np.float64, np.int64, np.uint64
            self.p, self.bias = 53, 1023
        else:
            self.dt, self.it, self.ut = np.float32, np.int32, np.uint32
            self.p, self.bias = 24, 127
        self.nbits = 64 if name == 'f64' else 32
        self.emax = self.bias
        self.emin = 1 - self.bias
        self.K = {}      # scalar constants (numpy scalars of dt, or python ints)
        self.POLY = {}   # polynomial coefficient lists, constant term first
        self.TAB = {}    # constant arrays
        _build(self)

    # conversions -----------------------------------------------------
    def c(self, x, bits=None):
        """mpmath value rounded to nearest in this format."""
        v = _rnd(x, bits or self.p)
        return self.dt(float(v))

    def rdown(self, x):
        v = self.c(x)
        if mp.mpf(float(v)) > x:
            v = np.nextafter(v, self.dt(-np.inf))
        return v

    def arr(self, x):
        return np.asarray(x, dtype=self.dt)


def _build(P):
    K, PO, p = P.K, P.POLY, P.p
    c = P.c
    ln2 = mp.log(2)
    pi = mp.pi
    MAX = (2 - mp.mpf(2) ** (1 - p)) * mp.mpf(2) ** P.emax
    MINSUB = mp.mpf(2) ** (P.emin - p + 1)
    K['SPLIT'] = P.dt(2 ** ((p + 1) // 2) + 1)
    K['LN2'] = c(ln2)
    K['LN2_L2'] = c(ln2 - mp.mpf(float(K['LN2'])))
    nb = 11 if p == 53 else 9          # bits of the exponent n used in n*LN2_H
    K['LN2_H'] = c(ln2, p - nb)
    K['LN2_L'] = c(ln2 - mp.mpf(float(K['LN2_H'])))
    K['INV_LN2'] = c(1 / ln2)
    K['INV_LN2_L'] = c(1 / ln2 - mp.mpf(float(K['INV_LN2'])))
    K['INV_LN10'] = c(1 / mp.log(10))
    K['INV_LN10_L'] = c(1 / mp.log(10) - mp.mpf(float(K['INV_LN10'])))
    l102 = mp.log10(2)
    K['LOG10_2_H'] = c(l102, p - nb)
    K['LOG10_2_L'] = c(l102 - mp.mpf(float(K['LOG10_2_H'])))
    K['EXP_OVF'] = P.rdown(mp.log(MAX + mp.mpf(2) ** (P.emax - p)))
    K['EXP_UNF'] = P.rdown(mp.log(MINSUB / 2))
    K['SINH_OVF'] = P.rdown(mp.asinh(MAX + mp.mpf(2) ** (P.emax - p)))
    K['EXPM1_NEG'] = P.dt(-(p + 3) * 0.6931471805599453)
    K['TANH_ONE'] = P.dt(22.0 if p == 53 else 10.0)
    K['SQRT2'] = c(mp.sqrt(2))
    K['SQRT_HALF_M1'] = c(mp.sqrt(0.5) - 1)   # log1p: direct range [SQRT_HALF-1, SQRT2-1)
    K['SQRT2_M1'] = c(mp.sqrt(2) - 1)
    K['PI'] = c(pi)
    K['PI_L'] = c(pi - mp.mpf(float(K['PI'])))
    K['PIO2'] = c(pi / 2)
    K['PIO2_L'] = c(pi / 2 - mp.mpf(float(K['PIO2'])))
    K['PIO4'] = c(pi / 4)
    K['PIO4_L'] = c(pi / 4 - mp.mpf(float(K['PIO4'])))
    K['INV_PIO2'] = c(2 / pi)
    K['C23'] = c(mp.mpf(2) / 3)
    K['C23_L'] = c(mp.mpf(2) / 3 - mp.mpf(float(K['C23'])))
    K['TWO_P'] = P.dt(2.0 ** p)           # subnormal pre-scaling
    K['TINY'] = P.dt(2.0 ** (-(p + 3) // 2))  # below it sinh/tanh/asinh/... = x
    K['HUGE_AS'] = P.dt(2.0 ** ((p + 3) // 2))  # above it asinh/acosh = log(2x)
    K['POW_OVF'] = K['EXP_OVF'] + P.dt(1)
    K['POW_UNF'] = K['EXP_UNF'] - P.dt(1)
    K['MIN_NORMAL'] = P.dt(np.finfo(P.dt).tiny)
    # below it (1 - x)^2 + y^2 has lost precision to underflow (atanh near +-1)
    K['SMALL_DEN'] = P.dt(np.finfo(P.dt).tiny * 2.0 ** p)
    K['EXP2_OVF'] = P.dt(P.emax + 1)
    K['EXP2_UNF'] = P.dt(P.emin - p)
    K['PI34'] = c(3 * pi / 4)
    K['SPLIT_SAFE'] = P.dt(2.0 ** (P.emax - (p + 1) // 2 - 3))   # two_prod inputs below it are safe
    K['CEXP_BIG'] = K['EXP_OVF'] - P.dt(1)
    # above it e^a times a Dekker split factor overflows: complex expm1 leaves double-double
    K['EXPM1_DD_MAX'] = P.dt(np.log(float(np.finfo(P.dt).max) / 2.0 ** ((p + 1) // 2 + 1)) - 1)
    K['TWO_P2'] = P.dt(2.0 ** (2 * p))
    K['ATAN_BIG'] = P.dt(2.0 ** (p + 2))      # atan(x >= it) = pi/2 rounded
    K['ATAN_TINY'] = P.dt(2.0 ** (-(p + 7)))   # ratio below which atan2 = y/x
    # Cody-Waite pi/2 in 4 parts, 3 of (p - CWB) bits
    CWB = 20 if p == 53 else 9
    K['CW_MAX'] = P.rdown(mp.mpf(2) ** CWB * pi / 2 - 1)
    rest = pi / 2
    for i in (1, 2, 3):
        v = c(rest, p - CWB)
        K['PIO2_%d' % i] = v
        rest = rest - mp.mpf(float(v))
    K['PIO2_4'] = c(rest)
    # polynomials (Taylor coefficients, rounded)
    N = 13 if p == 53 else 7
    PO['EXPM1'] = [c(1 / mp.factorial(k)) for k in range(2, N + 1)]          # r^2 * P(r)
    NS = 9 if p == 53 else 4
    PO['SIN'] = [c((-1) ** k / mp.factorial(2 * k + 1)) for k in range(1, NS + 1)]   # r*z*P(z)
    PO['COS'] = [c((-1) ** k / mp.factorial(2 * k)) for k in range(2, NS + 2)]       # z^2*P(z)
    NL = 11 if p == 53 else 5
    PO['LOG'] = [c(mp.mpf(2) / (2 * j + 1)) for j in range(1, NL + 1)]     # R = z*P(z)
    PO['LOG5'] = [c(mp.mpf(2) / (2 * j + 1)) for j in range(2, NL + 2)]    # s*z^2*P(z) (pow's log)
    NA = 8 if p == 53 else 4
    PO['ATAN'] = [c(mp.mpf((-1) ** k) / (2 * k + 1)) for k in range(1, NA + 1)]  # t*z*P(z)
    NSH = 9 if p == 53 else 5
    PO['SINH'] = [c(1 / mp.factorial(2 * k + 1)) for k in range(1, NSH + 1)]   # a*z*P(z)
    # atan reduction table: c_i = tan(i*pi/16), i=0..7 (i=8 means infinity)
    C = [c(mp.tan(i * pi / 16)) for i in range(8)]
    C[0] = P.dt(0)
    P.TAB['ATAN_C'] = C
    P.TAB['ATAN_TH'] = [c(mp.tan((2 * i + 1) * pi / 32)) for i in range(8)]
    AH, AL = [], []
    for i in range(9):
        v = mp.atan(mp.mpf(float(C[i]))) if i < 8 else pi / 2
        h = c(v)
        AH.append(h)
        AL.append(c(v - mp.mpf(float(h))))
    P.TAB['ATAN_H'], P.TAB['ATAN_L'] = AH, AL
    # Payne-Hanek: bits of 2/pi, 64 leading zero bits (bit j has weight 2^-j,
    # word 0 bit 31 is j = -63), 32-bit words, most significant first.
    NW = 6 if p == 53 else 5
    K['PH_NW'] = NW
    K['PH_ML'] = 2 if p == 53 else 1
    emaxe = P.emax - (p - 1)
    nwords = (emaxe + 62) // 32 + NW + 3
    nb2 = nwords * 32 - 64
    v = int(mp.floor(2 / pi * mp.mpf(2) ** nb2))
    words = [0, 0] + [(v >> (32 * (nwords - 3 - k))) & 0xFFFFFFFF for k in range(nwords - 2)]
    P.TAB['TWO_OVER_PI'] = words
    if p == 53:
        K['PH_W1'], K['PH_W2'], K['PH_W3'] = P.dt(2.0 ** -53), P.dt(2.0 ** -106), P.dt(2.0 ** -128)
    else:
        K['PH_W1'], K['PH_W2'], K['PH_W3'] = P.dt(2.0 ** -24), P.dt(2.0 ** -48), P.dt(2.0 ** -72)


F64 = Prec('f64')
F32 = Prec('f32')


# ---------------------------------------------------------------- helpers
def horner(P, coeffs, x):
    acc = np.full_like(x, coeffs[-1])
    for cf in coeffs[-2::-1]:
        acc = acc * x + cf
    return acc


def two_sum(a, b):
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def fast_two_sum(a, b):
    s = a + b
    e = b - (s - a)
    return s, e


def split(P, a):
    t = P.K['SPLIT'] * a
    hi = t - (t - a)
    return hi, a - hi


def two_prod(P, a, b):
    p = a * b
    ah, al = split(P, a)
    bh, bl = split(P, b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def dd_div(P, nh, nl, dh, dl):
    """(nh+nl)/(dh+dl) as a double-double."""
    t = nh / dh
    ph, pl = two_prod(P, t, dh)
    r = (((nh - ph) - pl) + nl) - t * dl
    return fast_two_sum(t, r / dh)


def dd_sqrt(P, h, l):
    """sqrt(h+l) as double-double, h >= 0."""
    z = h == 0
    h1 = np.where(z, P.dt(1), h)
    s = np.sqrt(h1)
    ph, pl = two_prod(P, s, s)
    sl = (((h1 - ph) - pl) + l) / (s + s)
    s, sl = fast_two_sum(s, sl)
    return np.where(z, P.dt(0), s), np.where(z, P.dt(0), sl)


def bits(P, x):
    return np.asarray(x, P.dt).view(P.it)


def frombits(P, i):
    return np.asarray(i, P.it).view(P.dt)


def pow2(P, n):
    """2^n for integer n in [emin, emax] (n an int array)."""
    return frombits(P, ((np.asarray(n, P.it) + P.bias) << (P.p - 1)).astype(P.it))


def scalbn(P, x, n):
    """x * 2^n with one final rounding (n an int array, any size)."""
    n = np.clip(np.asarray(n, P.it), -2 * (P.bias + P.p), 2 * P.bias)
    n1 = n // 2       # GLSL: n >> 1 (arithmetic shift = floor division)
    n2 = n - n1
    return (x * pow2(P, n1)) * pow2(P, n2)


def ilogb_big(P, a):
    """floor(log2(a)) for positive finite normal a (no subnormal support)."""
    return ((bits(P, a) >> (P.p - 1)) - P.bias).astype(P.it)
