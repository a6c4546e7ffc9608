#ifndef MATH_F64_GLSL
#define MATH_F64_GLSL
// double elementary functions: f64_exp, _exp2, _expm1, _log, _log2, _log10,
// _log1p, _sin, _cos, _tan, _asin, _acos, _atan, _atan2(y, x), _sinh, _cosh,
// _tanh, _asinh, _acosh, _atanh, _pow(x, y), _hypot(x, y), _logaddexp(x, y),
// void _sincos(x, out s, out c).  Internal helpers are named f64i_*.
// ---------------------------------------------------------------------------
// Generated from scripts/mathproto/math_template.glsl by
// scripts/mathproto/gen_glsl.py -- edit the template, not this file.
// Each function is a line-by-line transliteration of the numpy prototype in
// scripts/mathproto/real.py / fp.py (tests/test_math_prototypes.py measures it).
//
// Requires in the including shader:
//   #version 450
//   #extension GL_ARB_gpu_shader_int64 : require      (64-bit ints: bit tricks, Payne-Hanek)
// and a device with shaderFloat64 and shaderInt64.
// Every local is `precise` (SPIR-V NoContraction): the error-free transforms
// (two_sum, Dekker two_prod, ...) need unfused, unreassociated IEEE + - *.
// fma() is not used: Vulkan allows it to be computed unfused.
// ---------------------------------------------------------------------------

// ============================================================ helpers
double f64i_poly_dummy(double x) { return x; }

void f64i_two_sum(double a, double b, out double s, out double e) {
    precise double ss = a + b;
    precise double bb = ss - a;
    precise double ee = (a - (ss - bb)) + (b - bb);
    s = ss; e = ee;
}

void f64i_fast_two_sum(double a, double b, out double s, out double e) {
    precise double ss = a + b;
    precise double ee = b - (ss - a);
    s = ss; e = ee;
}

void f64i_split(double a, out double hi, out double lo) {
    precise double t = 134217729.0LF * a;
    precise double h = t - (t - a);
    precise double l = a - h;
    hi = h; lo = l;
}

void f64i_two_prod(double a, double b, out double p, out double e) {
    precise double pp = a * b;
    double ah, al, bh, bl;
    f64i_split(a, ah, al);
    f64i_split(b, bh, bl);
    precise double ee = ((ah * bh - pp) + ah * bl + al * bh) + al * bl;
    p = pp; e = ee;
}

void f64i_dd_div(double nh, double nl, double dh, double dl, out double h, out double l) {
    precise double t = nh / dh;
    double ph, pl;
    f64i_two_prod(t, dh, ph, pl);
    precise double r = (((nh - ph) - pl) + nl) - t * dl;
    precise double rd = r / dh;
    f64i_fast_two_sum(t, rd, h, l);
}

void f64i_dd_sqrt(double h, double l, out double sh, out double sl) {
    if (h == double(0)) { sh = double(0); sl = double(0); return; }
    precise double s = sqrt(h);
    double ph, pl;
    f64i_two_prod(s, s, ph, pl);
    precise double c = (((h - ph) - pl) + l) / (s + s);
    f64i_fast_two_sum(s, c, sh, sl);
}

bool f64i_signbit(double x) { return doubleBitsToInt64(x) < int64_t(0); }

double f64i_copysign(double a, double s) {
    return int64BitsToDouble((doubleBitsToInt64(a) & 0x7FFFFFFFFFFFFFFFL) | (doubleBitsToInt64(s) & ~0x7FFFFFFFFFFFFFFFL));
}

// |m| with the sign of s*v, by bit operations only (no inf/NaN/signed-zero arithmetic,
// which Vulkan lets a compiler fold unless SignedZeroInfNanPreserve is declared)
double f64i_signprod(double m, double s, double v) {
    return int64BitsToDouble((doubleBitsToInt64(m) & 0x7FFFFFFFFFFFFFFFL) | ((doubleBitsToInt64(s) ^ doubleBitsToInt64(v)) & ~0x7FFFFFFFFFFFFFFFL));
}

double f64i_pow2(int n) { return int64BitsToDouble(int64_t(n + 1023) << 52); }

double f64i_scalbn(double x, int n) {
    int nn = clamp(n, -2 * (1023 + 53), 2 * 1023);
    int n1 = nn >> 1;
    int n2 = nn - n1;
    precise double r = (x * f64i_pow2(n1)) * f64i_pow2(n2);
    return r;
}

int f64i_ilogb_big(double a) { return int(doubleBitsToInt64(a) >> 52) - 1023; }

// ============================================================ exp family
void f64i_exp_kernel(double r, double rl, out double h, out double l) {
    precise double z = r * r;
    precise double t = z * (0.5LF + r * (0.16666666666666666LF + r * (0.041666666666666664LF + r * (0.008333333333333333LF + r * (0.001388888888888889LF + r * (0.0001984126984126984LF + r * (2.48015873015873e-05LF + r * (2.7557319223985893e-06LF + r * (2.755731922398589e-07LF + r * (2.505210838544172e-08LF + r * (2.08767569878681e-09LF + r * 1.6059043836821613e-10LF))))))))))) + rl;
    f64i_fast_two_sum(r, t, h, l);
}

void f64i_exp_reduce(double xh, double xl, out double n, out double r, out double rl) {
    precise double nn = roundEven(xh * 1.4426950408889634LF);
    precise double rh = xh - nn * 0.6931471805598903LF;
    precise double t = nn * 5.497923018708371e-14LF - xl;
    precise double rr = rh - t;
    precise double rrl = (rh - rr) - t;
    n = nn; r = rr; rl = rrl;
}

double f64_exp(double x) {
    if (isnan(x)) return x;
    if (x > 709.782712893384LF) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (x < -745.1332191019412LF) return double(0);
    double n, r, rl, h, l;
    f64i_exp_reduce(x, double(0), n, r, rl);
    f64i_exp_kernel(r, rl, h, l);
    precise double y = double(1) + (h + l);
    return f64i_scalbn(y, int(n));
}

double f64_exp2(double x) {
    if (isnan(x)) return x;
    if (x >= 1024.0LF) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (x < -1075.0LF) return double(0);
    precise double n = roundEven(x);
    precise double f = x - n;
    double rh, rl, r, r2, h, l;
    f64i_two_prod(f, 0.6931471805599453LF, rh, rl);
    precise double rl2 = rl + f * 2.3190468138462996e-17LF;
    f64i_fast_two_sum(rh, rl2, r, r2);
    f64i_exp_kernel(r, r2, h, l);
    precise double y = double(1) + (h + l);
    return f64i_scalbn(y, int(n));
}

// e^x - 1 as (h, l), EXPM1_NEG <= x <= EXP_OVF
void f64i_expm1_dd(double x, out double oh, out double ol) {
    double n, r, rl, h, l;
    f64i_exp_reduce(x, double(0), n, r, rl);
    f64i_exp_kernel(r, rl, h, l);
    int ni = int(n);
    if (ni == 0) { oh = h; ol = l; return; }
    if (ni > 53 + 3) {
        precise double y = double(1) + (h + l);
        oh = f64i_scalbn(y, ni); ol = double(0); return;
    }
    precise double t = f64i_pow2(clamp(ni, -1022, 1023));
    double th, tl, sh, sl;
    f64i_two_sum(t, double(-1), th, tl);
    precise double th2 = t * h;
    f64i_two_sum(th, th2, sh, sl);
    precise double sl2 = sl + (tl + t * l);
    oh = sh; ol = sl2;
}

double f64_expm1(double x) {
    if (isnan(x)) return x;
    if (x == double(0)) return x;
    if (x > 709.782712893384LF) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (x < -38.816242111356935LF) return double(-1);
    double h, l;
    f64i_expm1_dd(x, h, l);
    precise double res = h + l;
    return res;
}

// ============================================================ log family
void f64i_log_decompose(double x, out int k, out double m) {
    bool sub = x < 2.2250738585072014e-308LF;
    precise double xx = sub ? x * 9007199254740992.0LF : x;
    int64_t b = doubleBitsToInt64(xx);
    int kk = int(b >> 52) - 1023;
    if (sub) kk -= 53;
    double mm = int64BitsToDouble((b & 0xFFFFFFFFFFFFFL) | 0x3FF0000000000000L);
    if (mm > 1.4142135623730951LF) { mm = mm * double(0.5); kk += 1; }
    k = kk; m = mm;
}

void f64i_log1pf_kernel(double f, out double hi, out double lo) {
    precise double s = f / (double(2) + f);
    precise double z = s * s;
    precise double R = z * (0.6666666666666666LF + z * (0.4LF + z * (0.2857142857142857LF + z * (0.2222222222222222LF + z * (0.18181818181818182LF + z * (0.15384615384615385LF + z * (0.13333333333333333LF + z * (0.11764705882352941LF + z * (0.10526315789473684LF + z * (0.09523809523809523LF + z * 0.08695652173913043LF))))))))));
    precise double hfsq = double(0.5) * f * f;
    precise double h = f - hfsq;
    precise double l = ((f - h) - hfsq) + s * (hfsq + R);
    hi = h; lo = l;
}

double f64i_log_finish(int k, double hi, double lo, double CH, double CL, double IH, double IL) {
    precise double kf = double(k);
    double ph, pl;
    f64i_two_prod(hi, IH, ph, pl);
    precise double pl2 = pl + (lo * IH + (hi + lo) * IL);
    precise double kh = kf * CH;
    precise double kl = kf * CL;
    double w, we;
    f64i_two_sum(kh, ph, w, we);
    precise double res = w + (we + (pl2 + kl));
    return res;
}

double f64i_log_any(double x, double CH, double CL, double IH, double IL) {
    if (isnan(x)) return x;
    if (x < double(0)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(0)) return -uint64BitsToDouble(0x7FF0000000000000UL);
    if (isinf(x)) return x;
    int k; double m, hi, lo;
    f64i_log_decompose(x, k, m);
    precise double f = m - double(1);
    f64i_log1pf_kernel(f, hi, lo);
    return f64i_log_finish(k, hi, lo, CH, CL, IH, IL);
}

double f64_log(double x)   { return f64i_log_any(x, 0.6931471805598903LF, 5.497923018708371e-14LF, double(1), double(0)); }
double f64_log2(double x)  { return f64i_log_any(x, double(1), double(0), 1.4426950408889634LF, 2.0355273740931033e-17LF); }
double f64_log10(double x) { return f64i_log_any(x, 0.30102999566395283LF, 2.8363394551044964e-14LF, 0.4342944819032518LF, 1.098319650216765e-17LF); }

// log(1 + xh + xl) + kextra*ln2, 1 + xh > 0 finite
double f64i_log1p_core(double xh, double xl, int kextra) {
    bool direct = (xh >= -0.2928932188134525LF) && (xh < 0.41421356237309503LF);
    double u, c;
    f64i_two_sum(double(1), xh, u, c);
    precise double c2 = c + xl;
    int k; double m, hi, lo;
    f64i_log_decompose(direct ? double(1) : u, k, m);
    precise double f = direct ? xh : m - double(1);
    if (direct) k = 0;
    f64i_log1pf_kernel(f, hi, lo);
    precise double lo2 = lo + (direct ? xl : c2 / u);
    return f64i_log_finish(k + kextra, hi, lo2, 0.6931471805598903LF, 5.497923018708371e-14LF, double(1), double(0));
}

double f64_log1p(double x) {
    if (isnan(x)) return x;
    if (x < double(-1)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(-1)) return -uint64BitsToDouble(0x7FF0000000000000UL);
    if (x == double(0)) return x;
    if (isinf(x)) return x;
    return f64i_log1p_core(x, double(0), 0);
}

// ============================================================ trig
const uint f64i_TWO_OVER_PI[41] = uint[41](0x00000000u, 0x00000000u, 0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu, 0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u, 0x3991D639u, 0x835339F4u, 0x9C845F8Bu, 0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu, 0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u, 0x4F463F66u, 0x9E5FEA2Du, 0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u, 0x1F8D5D08u, 0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u);

// Payne-Hanek: ax finite >= CW_MAX; ax = (4k + q)*pi/2 + (rh + rl)
void f64i_ph_reduce(double ax, out int q, out double rh, out double rl) {
    int64_t b = int64_t(doubleBitsToInt64(ax));
    int e = int((b >> 52) & 0x7FFL) - 1023 - 52;
    uint64_t M = uint64_t((b & int64_t(0xFFFFFFFFFFFFFL)) | int64_t(0x10000000000000L));
    int g0 = max(e + 62, 0);
    int k0 = g0 >> 5;
    uint sh = uint(32 - (g0 & 31));
    uint64_t v[6];
    for (int i = 0; i < 6; i++) {
        int kk = k0 + (6 - 1 - i);
        uint64_t w = ((uint64_t(f64i_TWO_OVER_PI[kk]) << 32) | uint64_t(f64i_TWO_OVER_PI[kk + 1])) >> sh;
        v[i] = w & 0xFFFFFFFFUL;
    }
    uint64_t m[2];
    for (int i = 0; i < 2; i++) m[i] = (M >> (32 * i)) & 0xFFFFFFFFUL;
    uint64_t pr[6 + 2];
    for (int i = 0; i < 6 + 2; i++) pr[i] = 0UL;
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0UL;
        for (int j = 0; j < 6; j++) {
            uint64_t t = m[i] * v[j] + pr[i + j] + carry;
            pr[i + j] = t & 0xFFFFFFFFUL;
            carry = t >> 32;
        }
        pr[i + 6] = carry;
    }
    int qq = int(pr[6 - 1] >> 30);
    uint64_t A = (pr[6 - 3] >> 30) | (pr[6 - 2] << 2) | (pr[6 - 1] << 34);
    uint64_t B = (pr[6 - 5] >> 30) | (pr[6 - 4] << 2) | (pr[6 - 3] << 34);
    bool neg = (A >> 63) != 0UL;
    if (neg) {
        qq += 1;
        uint64_t B2 = ~B + 1UL;
        uint64_t A2 = ~A + (B == 0UL ? 1UL : 0UL);
        A = A2; B = B2;
    }
    q = qq & 3;
    uint64_t p1 = A >> 11;
    uint64_t p2 = ((A & 0x7FFUL) << 42) | (B >> 22);
    uint64_t p3 = B & 0x3FFFFFUL;
    precise double f1 = double(p1) * 1.1102230246251565e-16LF;
    precise double f2 = double(p2) * 1.232595164407831e-32LF;
    double h, l, ph, pl;
    f64i_fast_two_sum(f1, f2, h, l);
    precise double l2 = l + double(p3) * 2.938735877055719e-39LF;
    f64i_two_prod(h, 1.5707963267948966LF, ph, pl);
    precise double pl2 = pl + (h * 6.123233995736766e-17LF + l2 * 1.5707963267948966LF);
    double r1, r2;
    f64i_fast_two_sum(ph, pl2, r1, r2);
    rh = neg ? -r1 : r1;
    rl = neg ? -r2 : r2;
}


void f64i_trig_reduce(double x, out int q, out double rh, out double rl) {
    double ax = abs(x);
    if (ax < 1647098.3291652855LF) {
        precise double n = roundEven(ax * 0.6366197723675814LF);
        precise double t = ax - n * 1.5707963267341256LF;
        precise double w2 = n * 6.077100506303966e-11LF;
        precise double w3 = n * 2.0222662487111665e-21LF;
        double r, e, e2;
        f64i_two_sum(t, -w2, r, e);
        f64i_two_sum(r, -w3, r, e2);
        precise double ee = (e + e2) - n * 8.4784276603689e-32LF;
        f64i_fast_two_sum(r, ee, rh, rl);
        q = int(n) & 3;
    } else {
        f64i_ph_reduce(ax, q, rh, rl);
    }
    if (x < double(0)) { q = (4 - q) & 3; rh = -rh; rl = -rl; }
}

void f64i_sincos_kernel(double r, double rl, out double sh, out double sl, out double ch, out double cl) {
    precise double z = r * r;
    precise double st = r * z * (-0.16666666666666666LF + z * (0.008333333333333333LF + z * (-0.0001984126984126984LF + z * (2.7557319223985893e-06LF + z * (-2.505210838544172e-08LF + z * (1.6059043836821613e-10LF + z * (-7.647163731819816e-13LF + z * (2.8114572543455206e-15LF + z * -8.22063524662433e-18LF)))))))) + rl * (double(1) - double(0.5) * z);
    f64i_fast_two_sum(r, st, sh, sl);
    precise double hz = double(0.5) * z;
    precise double w = double(1) - hz;
    precise double ct = ((double(1) - w) - hz) + (z * z * (0.041666666666666664LF + z * (-0.001388888888888889LF + z * (2.48015873015873e-05LF + z * (-2.755731922398589e-07LF + z * (2.08767569878681e-09LF + z * (-1.1470745597729725e-11LF + z * (4.779477332387385e-14LF + z * (-1.5619206968586225e-16LF + z * 4.110317623312165e-19LF)))))))) - r * rl);
    f64i_fast_two_sum(w, ct, ch, cl);
}

double f64_sin(double x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(0)) return x;
    int q; double r, rl, sh, sl, ch, cl;
    f64i_trig_reduce(x, q, r, rl);
    f64i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise double res = ((q & 1) == 0) ? sh + sl : ch + cl;
    return (q >= 2) ? -res : res;
}

double f64_cos(double x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uint64BitsToDouble(0x7FF8000000000000UL);
    int q; double r, rl, sh, sl, ch, cl;
    f64i_trig_reduce(x, q, r, rl);
    f64i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise double res = ((q & 1) == 0) ? ch + cl : sh + sl;
    return (q == 1 || q == 2) ? -res : res;
}

// finite x: sin x = sh + sl, cos x = ch + cl
void f64i_sincos_dd(double x, out double sh, out double sl, out double ch, out double cl) {
    int q; double r, rl, ah, al, bh, bl;
    f64i_trig_reduce(x, q, r, rl);
    f64i_sincos_kernel(r, rl, ah, al, bh, bl);
    bool odd = (q & 1) == 1;
    double s1h = odd ? bh : ah, s1l = odd ? bl : al;
    double c1h = odd ? ah : bh, c1l = odd ? al : bl;
    bool ns = q >= 2;
    bool nc = (q == 1 || q == 2);
    sh = ns ? -s1h : s1h; sl = ns ? -s1l : s1l;
    ch = nc ? -c1h : c1h; cl = nc ? -c1l : c1l;
}

void f64_sincos(double x, out double s, out double c) {
    if (isnan(x) || isinf(x)) { s = isnan(x) ? x : uint64BitsToDouble(0x7FF8000000000000UL); c = s; return; }
    int q; double r, rl, sh, sl, ch, cl;
    f64i_trig_reduce(x, q, r, rl);
    f64i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise double sv = ((q & 1) == 0) ? sh + sl : ch + cl;
    precise double cv = ((q & 1) == 0) ? ch + cl : sh + sl;
    s = (x == double(0)) ? x : ((q >= 2) ? -sv : sv);
    c = (q == 1 || q == 2) ? -cv : cv;
}

double f64_tan(double x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(0)) return x;
    int q; double r, rl, sh, sl, ch, cl, th, tl;
    f64i_trig_reduce(x, q, r, rl);
    f64i_sincos_kernel(r, rl, sh, sl, ch, cl);
    bool odd = (q & 1) == 1;
    if (odd) f64i_dd_div(ch, cl, sh, sl, th, tl);
    else     f64i_dd_div(sh, sl, ch, cl, th, tl);
    precise double res = th + tl;
    return odd ? -res : res;
}

// ============================================================ inverse trig
const double f64i_ATAN_TH[8] = double[8](0.09849140335716425LF, 0.3033466836073424LF, 0.5345111359507917LF, 0.8206787908286604LF, 1.2185035255879764LF, 1.8708684117893895LF, 3.2965582089383205LF, 10.15317038760886LF);
const double f64i_ATAN_C[9] = double[9](0.0LF, 0.198912367379658LF, 0.41421356237309503LF, 0.6681786379192989LF, 1.0LF, 1.496605762665489LF, 2.414213562373095LF, 5.027339492125848LF, 0.0LF);
const double f64i_ATAN_H[9] = double[9](0.0LF, 0.19634954084936207LF, 0.39269908169872414LF, 0.5890486225480862LF, 0.7853981633974483LF, 0.9817477042468103LF, 1.1780972450961724LF, 1.3744467859455345LF, 1.5707963267948966LF);
const double f64i_ATAN_L[9] = double[9](0.0LF, 6.846802412842648e-18LF, 3.060132146563891e-18LF, -5.412106055318847e-18LF, 3.061616997868383e-17LF, 1.67440723577982e-17LF, 2.7563998718653792e-17LF, 5.245407739534682e-17LF, 6.123233995736766e-17LF);

// atan((yh+yl)/(xh+xl)) as (h, l); y >= 0, x >= 0, magnitudes <= ~4
void f64i_atan_core(double yh, double yl, double xh, double xl, out double oh, out double ol) {
    precise double q = yh / xh;
    int i = 0;
    for (int k = 0; k < 8; k++) i += (q > f64i_ATAN_TH[k]) ? 1 : 0;
    double nh, nl, dh, dl;
    if (i == 8) {
        nh = -xh; nl = -xl; dh = yh; dl = yl;
    } else {
        double Ci = f64i_ATAN_C[i];
        double p1h, p1l, p2h, p2l;
        f64i_two_prod(Ci, xh, p1h, p1l);
        f64i_two_sum(yh, -p1h, nh, nl);
        precise double nl2 = nl + (yl - (p1l + Ci * xl));
        nl = nl2;
        f64i_two_prod(Ci, yh, p2h, p2l);
        f64i_two_sum(xh, p2h, dh, dl);
        precise double dl2 = dl + (xl + (p2l + Ci * yl));
        dl = dl2;
    }
    double t, tl;
    f64i_dd_div(nh, nl, dh, dl, t, tl);
    precise double z = t * t;
    precise double tail = t * z * (-0.3333333333333333LF + z * (0.2LF + z * (-0.14285714285714285LF + z * (0.1111111111111111LF + z * (-0.09090909090909091LF + z * (0.07692307692307693LF + z * (-0.06666666666666667LF + z * 0.058823529411764705LF))))))) + tl;
    double h, e;
    f64i_two_sum(f64i_ATAN_H[i], t, h, e);
    precise double l = e + (f64i_ATAN_L[i] + tail);
    f64i_fast_two_sum(h, l, oh, ol);
}

double f64_atan(double x) {
    if (isnan(x)) return x;
    if (x == double(0)) return x;
    double ax = min(abs(x), 3.602879701896397e+16LF);
    double h, l;
    f64i_atan_core(ax, double(0), double(1), double(0), h, l);
    precise double res = h + l;
    return x < double(0) ? -res : res;
}

double f64_atan2(double y, double x) {
    if (isnan(x) || isnan(y)) return uint64BitsToDouble(0x7FF8000000000000UL);
    bool xneg = f64i_signbit(x);
    if (isinf(y) && isinf(x)) return f64i_copysign(xneg ? 2.356194490192345LF : 0.7853981633974483LF, y);
    if (isinf(y)) return f64i_copysign(1.5707963267948966LF, y);
    if (isinf(x)) return f64i_copysign(xneg ? 3.141592653589793LF : double(0), y);
    if (y == double(0)) return f64i_copysign(xneg ? 3.141592653589793LF : double(0), y);
    if (x == double(0)) return f64i_copysign(1.5707963267948966LF, y);
    double ay = abs(y), ax = abs(x);
    precise double res;
    if (ay < ax * 8.673617379884035e-19LF) {
        res = (x < double(0)) ? 3.141592653589793LF : ay / ax;
    } else {
        int k = f64i_ilogb_big(max(ay, ax));
        double ys = f64i_scalbn(ay, -k);
        double xs = f64i_scalbn(ax, -k);
        double h, l;
        f64i_atan_core(ys, double(0), xs, double(0), h, l);
        if (x < double(0)) {
            double h2, e;
            f64i_two_sum(3.141592653589793LF, -h, h2, e);
            precise double l2 = e + (1.2246467991473532e-16LF - l);
            res = h2 + l2;
        } else {
            res = h + l;
        }
    }
    return f64i_copysign(res, y);
}

// w = 1 - ax^2 as (wh, wl), 0 <= ax <= 1
void f64i_one_minus_sq(double ax, out double wh, out double wl) {
    double h, l;
    if (ax >= double(0.5)) {
        precise double a = double(1) - ax;
        double bh, bl;
        f64i_two_sum(double(1), ax, bh, bl);
        f64i_two_prod(a, bh, h, l);
        precise double l2 = l + a * bl;
        l = l2;
    } else {
        double sqh, sql;
        f64i_two_prod(ax, ax, sqh, sql);
        f64i_two_sum(double(1), -sqh, h, l);
        precise double l2 = l - sql;
        l = l2;
    }
    f64i_fast_two_sum(h, l, wh, wl);
}

double f64_asin(double x) {
    if (isnan(x)) return x;
    if (abs(x) > double(1)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(0)) return x;
    double ax = abs(x);
    double wh, wl, sh, sl, h, l;
    f64i_one_minus_sq(ax, wh, wl);
    f64i_dd_sqrt(wh, wl, sh, sl);
    precise double res;
    if (ax < sh * 8.673617379884035e-19LF) {
        res = ax;
    } else if (sh == double(0)) {
        res = 1.5707963267948966LF + 6.123233995736766e-17LF;
    } else {
        f64i_atan_core(ax, double(0), sh, sl, h, l);
        res = h + l;
    }
    return x < double(0) ? -res : res;
}

double f64_acos(double x) {
    if (isnan(x)) return x;
    if (abs(x) > double(1)) return uint64BitsToDouble(0x7FF8000000000000UL);
    double ax = abs(x);
    double wh, wl, sh, sl, h, l;
    f64i_one_minus_sq(ax, wh, wl);
    f64i_dd_sqrt(wh, wl, sh, sl);
    if (ax == double(0)) {
        h = 1.5707963267948966LF; l = 6.123233995736766e-17LF;
    } else if (sh < ax * 8.673617379884035e-19LF) {
        h = sh / ax; l = double(0);
    } else {
        f64i_atan_core(sh, sl, ax, double(0), h, l);
    }
    precise double res;
    if (x < double(0)) {
        double h2, e;
        f64i_two_sum(3.141592653589793LF, -h, h2, e);
        precise double l2 = e + (1.2246467991473532e-16LF - l);
        res = h2 + l2;
    } else {
        res = h + l;
    }
    return res;
}

// ============================================================ hyperbolic
// e^a * 2^dn as (h, l), a finite <= SINH_OVF
void f64i_exp_dd_scaled(double a, int dn, out double oh, out double ol) {
    double n, r, rl, h, l, eh, el;
    f64i_exp_reduce(a, double(0), n, r, rl);
    f64i_exp_kernel(r, rl, h, l);
    f64i_fast_two_sum(double(1), h, eh, el);
    precise double el2 = el + l;
    int ni = int(n) + dn;
    oh = f64i_scalbn(eh, ni);
    ol = f64i_scalbn(el2, ni);
}

double f64_sinh(double x) {
    if (isnan(x)) return x;
    if (abs(x) < 3.725290298461914e-09LF) return x;
    if (abs(x) > 710.4758600739439LF) return f64i_copysign(uint64BitsToDouble(0x7FF0000000000000UL), x);
    double a = abs(x);
    precise double res;
    if (a < double(1)) {
        precise double z = a * a;
        res = a + a * z * (0.16666666666666666LF + z * (0.008333333333333333LF + z * (0.0001984126984126984LF + z * (2.7557319223985893e-06LF + z * (2.505210838544172e-08LF + z * (1.6059043836821613e-10LF + z * (7.647163731819816e-13LF + z * (2.8114572543455206e-15LF + z * 8.22063524662433e-18LF))))))));
    } else {
        double eh, el, ih, il, dh, de;
        f64i_exp_dd_scaled(a, -1, eh, el);
        if (a < 22.0LF) { f64i_dd_div(double(0.25), double(0), eh, el, ih, il); }
        else { ih = double(0); il = double(0); }
        f64i_two_sum(eh, -ih, dh, de);
        res = dh + (de + (el - il));
    }
    return x < double(0) ? -res : res;
}

double f64_cosh(double x) {
    if (isnan(x)) return x;
    if (abs(x) > 710.4758600739439LF) return uint64BitsToDouble(0x7FF0000000000000UL);
    double a = abs(x);
    double eh, el, ih, il, dh, de;
    f64i_exp_dd_scaled(a, -1, eh, el);
    if (a < 22.0LF) { f64i_dd_div(double(0.25), double(0), eh, el, ih, il); }
    else { ih = double(0); il = double(0); }
    f64i_two_sum(eh, ih, dh, de);
    precise double res = dh + (de + (el + il));
    return res;
}

double f64_tanh(double x) {
    if (isnan(x)) return x;
    if (abs(x) < 3.725290298461914e-09LF) return x;
    if (abs(x) >= 22.0LF) return f64i_copysign(double(1), x);
    double a = abs(x);
    double eh, el, dh, dl, th, tl;
    f64i_expm1_dd(a + a, eh, el);
    f64i_two_sum(eh, double(2), dh, dl);
    precise double dl2 = dl + el;
    f64i_dd_div(eh, el, dh, dl2, th, tl);
    precise double res = th + tl;
    return x < double(0) ? -res : res;
}

double f64i_log_far(double a) {   // log(2a), a >= 1 finite
    int k; double m, hi, lo;
    f64i_log_decompose(a, k, m);
    precise double f = m - double(1);
    f64i_log1pf_kernel(f, hi, lo);
    return f64i_log_finish(k + 1, hi, lo, 0.6931471805598903LF, 5.497923018708371e-14LF, double(1), double(0));
}

double f64_asinh(double x) {
    if (isnan(x)) return x;
    if (abs(x) < 3.725290298461914e-09LF) return x;
    if (isinf(x)) return x;
    double a = abs(x);
    precise double res;
    if (a >= 268435456.0LF) {
        res = f64i_log_far(a);
    } else {
        double sh, sl, wh, wl, rh, rl, dh, dl, qh, ql, uh, ul;
        f64i_two_prod(a, a, sh, sl);
        f64i_two_sum(double(1), sh, wh, wl);
        precise double wl2 = wl + sl;
        f64i_dd_sqrt(wh, wl2, rh, rl);
        f64i_two_sum(double(1), rh, dh, dl);
        precise double dl2 = dl + rl;
        f64i_dd_div(sh, sl, dh, dl2, qh, ql);
        f64i_two_sum(a, qh, uh, ul);
        precise double ul2 = ul + ql;
        res = f64i_log1p_core(uh, ul2, 0);
    }
    return x < double(0) ? -res : res;
}

double f64_acosh(double x) {
    if (isnan(x)) return x;
    if (x < double(1)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (isinf(x)) return x;
    if (x >= 268435456.0LF) return f64i_log_far(x);
    precise double t = x - double(1);
    double bh, bl, ph, pl, rh, rl, uh, ul;
    f64i_two_sum(t, double(2), bh, bl);
    f64i_two_prod(t, bh, ph, pl);
    precise double pl2 = pl + t * bl;
    f64i_dd_sqrt(ph, pl2, rh, rl);
    f64i_two_sum(t, rh, uh, ul);
    precise double ul2 = ul + rl;
    return f64i_log1p_core(uh, ul2, 0);
}

double f64_atanh(double x) {
    if (isnan(x)) return x;
    if (abs(x) > double(1)) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (x == double(1)) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (x == double(-1)) return -uint64BitsToDouble(0x7FF0000000000000UL);
    if (abs(x) < 3.725290298461914e-09LF) return x;
    double a = abs(x);
    double dh, dl, qh, ql;
    f64i_two_sum(double(1), -a, dh, dl);
    f64i_dd_div(a + a, double(0), dh, dl, qh, ql);
    precise double res = double(0.5) * f64i_log1p_core(qh, ql, 0);
    return x < double(0) ? -res : res;
}

// ============================================================ pow
// natural log of finite x > 0 as (h, l), ~2p-10 bits
void f64i_log_dd(double x, out double oh, out double ol) {
    int k; double m;
    f64i_log_decompose(x, k, m);
    precise double f = m - double(1);
    double dh, dl, ph, pl, zh, zl, ch, cl, t3h, t3l, h, l, l2;
    f64i_two_sum(double(2), f, dh, dl);
    precise double sh = f / dh;
    f64i_two_prod(sh, dh, ph, pl);
    precise double sl = (((f - ph) - pl) - sh * dl) / dh;
    f64i_two_prod(sh, sh, zh, zl);
    precise double zl2 = zl + double(2) * sh * sl;
    f64i_two_prod(zh, sh, ch, cl);
    precise double cl2 = cl + (zl2 * sh + zh * sl);
    f64i_two_prod(0.6666666666666666LF, ch, t3h, t3l);
    precise double t3l2 = t3l + (0.6666666666666666LF * cl2 + 3.700743415417188e-17LF * ch);
    precise double t5 = sh * zh * zh * (0.4LF + zh * (0.2857142857142857LF + zh * (0.2222222222222222LF + zh * (0.18181818181818182LF + zh * (0.15384615384615385LF + zh * (0.13333333333333333LF + zh * (0.11764705882352941LF + zh * (0.10526315789473684LF + zh * (0.09523809523809523LF + zh * (0.08695652173913043LF + zh * 0.08LF))))))))));
    precise double kf = double(k);
    precise double kh = kf * 0.6931471805598903LF;
    precise double s2 = double(2) * sh;
    f64i_two_sum(kh, s2, h, l);
    f64i_two_sum(h, t3h, h, l2);
    precise double ll = l + (l2 + ((double(2) * sl + t3l2) + (t5 + kf * 5.497923018708371e-14LF)));
    f64i_fast_two_sum(h, ll, oh, ol);
}

double f64_pow(double x, double y) {
    if (y == double(0)) return double(1);
    if (x == double(1)) return double(1);
    if (isnan(x) || isnan(y)) return uint64BitsToDouble(0x7FF8000000000000UL);
    double ax = abs(x);
    if (isinf(y) && ax == double(1)) return double(1);
    if (y == uint64BitsToDouble(0x7FF0000000000000UL)) return ax > double(1) ? uint64BitsToDouble(0x7FF0000000000000UL) : double(0);
    if (y == -uint64BitsToDouble(0x7FF0000000000000UL)) return ax > double(1) ? double(0) : uint64BitsToDouble(0x7FF0000000000000UL);
    bool yint = floor(y) == y;
    precise double hy = y * double(0.5);
    bool odd = yint && (floor(hy) != hy);
    if (x == uint64BitsToDouble(0x7FF0000000000000UL)) return y > double(0) ? uint64BitsToDouble(0x7FF0000000000000UL) : double(0);
    if (x == -uint64BitsToDouble(0x7FF0000000000000UL)) return y > double(0) ? (odd ? -uint64BitsToDouble(0x7FF0000000000000UL) : uint64BitsToDouble(0x7FF0000000000000UL)) : (odd ? -double(0) : double(0));
    if (x == double(0)) {
        bool ng = odd && f64i_signbit(x);
        return y > double(0) ? (ng ? -double(0) : double(0)) : (ng ? -uint64BitsToDouble(0x7FF0000000000000UL) : uint64BitsToDouble(0x7FF0000000000000UL));
    }
    if (x < double(0) && !yint) return uint64BitsToDouble(0x7FF8000000000000UL);
    if (ax == double(1)) return odd ? double(-1) : double(1);
    double lh, ll;
    f64i_log_dd(ax, lh, ll);
    precise double zh = y * lh;
    precise double v;
    if (zh > 710.782712893384LF) {
        v = uint64BitsToDouble(0x7FF0000000000000UL);
    } else if (zh < -746.1332191019412LF) {
        v = double(0);
    } else {
        double ph, pl, ph2, pl2, n, r, rl, eh, el;
        f64i_two_prod(y, lh, ph, pl);
        precise double pl1 = pl + y * ll;
        f64i_fast_two_sum(ph, pl1, ph2, pl2);
        f64i_exp_reduce(ph2, pl2, n, r, rl);
        f64i_exp_kernel(r, rl, eh, el);
        precise double e1 = double(1) + (eh + el);
        v = f64i_scalbn(e1, int(n));
    }
    return (x < double(0) && odd) ? -v : v;
}

// ============================================================ misc
double f64_hypot(double x, double y) {
    if (isinf(x) || isinf(y)) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (isnan(x) || isnan(y)) return uint64BitsToDouble(0x7FF8000000000000UL);
    double ax = abs(x), ay = abs(y);
    double a = max(ax, ay), b = min(ax, ay);
    if (a == double(0)) return double(0);
    bool sub = a < 2.2250738585072014e-308LF;
    if (sub) { a = a * 9007199254740992.0LF; b = b * 9007199254740992.0LF; }
    int k = f64i_ilogb_big(a);
    double a2 = f64i_scalbn(a, -k);
    double b2 = f64i_scalbn(b, -k);
    double ph, pl, qh, ql, sh, sl, rh, rl;
    f64i_two_prod(a2, a2, ph, pl);
    f64i_two_prod(b2, b2, qh, ql);
    f64i_two_sum(ph, qh, sh, sl);
    precise double sl2 = sl + (pl + ql);
    f64i_dd_sqrt(sh, sl2, rh, rl);
    if (sub) k -= 53;
    precise double r = rh + rl;
    return f64i_scalbn(r, k);
}

// log(1 + x) as (h, l) for 0 <= x <= 1
void f64i_log1p_dd(double xh, double xl, out double oh, out double ol) {
    bool direct = xh < 0.41421356237309503LF;
    double u, c;
    f64i_two_sum(double(1), xh, u, c);
    precise double c2 = c + xl;
    int k; double m, hi, lo, h, e;
    f64i_log_decompose(direct ? double(1) : u, k, m);
    precise double f = direct ? xh : m - double(1);
    if (direct) k = 0;
    f64i_log1pf_kernel(f, hi, lo);
    precise double lo2 = lo + (direct ? xl : c2 / u);
    precise double kf = double(k);
    precise double kh = kf * 0.6931471805598903LF;
    f64i_two_sum(kh, hi, h, e);
    precise double l = e + (lo2 + kf * 5.497923018708371e-14LF);
    f64i_fast_two_sum(h, l, oh, ol);
}

double f64_logaddexp(double x, double y) {
    if (isnan(x) || isnan(y)) return uint64BitsToDouble(0x7FF8000000000000UL);
    double m = max(x, y);
    if (m == uint64BitsToDouble(0x7FF0000000000000UL)) return uint64BitsToDouble(0x7FF0000000000000UL);
    if (m == -uint64BitsToDouble(0x7FF0000000000000UL)) return -uint64BitsToDouble(0x7FF0000000000000UL);
    precise double d = -abs(x - y);
    if (!(d >= -745.1332191019412LF)) return (m == double(0)) ? double(0) : m;   // log1p(e^d) = +0; x - y overflow too
    double eh, el, lh, ll, h, e;
    f64i_exp_dd_scaled(d, 0, eh, el);
    f64i_log1p_dd(eh, el, lh, ll);
    f64i_two_sum(m, lh, h, e);
    precise double res = h + (e + ll);
    return res;
}

#endif // MATH_F64_GLSL
