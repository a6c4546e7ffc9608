#ifndef MATH_F32_GLSL
#define MATH_F32_GLSL
// float elementary functions: f32_exp, _exp2, _expm1, _log, _log2, _log10,
// _log1p, _sin, _cos, _tan, _asin, _acos, _atan, _atan2(y, x), _sinh, _cosh,
// _tanh, _asinh, _acosh, _atanh, _pow(x, y), _hypot(x, y), _logaddexp(x, y),
// void _sincos(x, out s, out c).  Internal helpers are named f32i_*.
// ---------------------------------------------------------------------------
// Generated from scripts/mathproto/math_template.glsl by
// scripts/mathproto/gen_glsl.py -- edit the template, not this file.
// Each function is a line-by-line transliteration of the numpy prototype in
// scripts/mathproto/real.py / fp.py (tests/test_math_prototypes.py measures it).
//
// Requires in the including shader:
//   #version 450
// (nothing else: float and 32-bit int arithmetic only; no shaderInt64 / shaderFloat64 needed)
// Every local is `precise` (SPIR-V NoContraction): the error-free transforms
// (two_sum, Dekker two_prod, ...) need unfused, unreassociated IEEE + - *.
// fma() is not used: Vulkan allows it to be computed unfused.
// ---------------------------------------------------------------------------

// ============================================================ helpers
float f32i_poly_dummy(float x) { return x; }

void f32i_two_sum(float a, float b, out float s, out float e) {
    precise float ss = a + b;
    precise float bb = ss - a;
    precise float ee = (a - (ss - bb)) + (b - bb);
    s = ss; e = ee;
}

void f32i_fast_two_sum(float a, float b, out float s, out float e) {
    precise float ss = a + b;
    precise float ee = b - (ss - a);
    s = ss; e = ee;
}

void f32i_split(float a, out float hi, out float lo) {
    precise float t = 4097.0 * a;
    precise float h = t - (t - a);
    precise float l = a - h;
    hi = h; lo = l;
}

void f32i_two_prod(float a, float b, out float p, out float e) {
    precise float pp = a * b;
    float ah, al, bh, bl;
    f32i_split(a, ah, al);
    f32i_split(b, bh, bl);
    precise float ee = ((ah * bh - pp) + ah * bl + al * bh) + al * bl;
    p = pp; e = ee;
}

void f32i_dd_div(float nh, float nl, float dh, float dl, out float h, out float l) {
    precise float t = nh / dh;
    float ph, pl;
    f32i_two_prod(t, dh, ph, pl);
    precise float r = (((nh - ph) - pl) + nl) - t * dl;
    precise float rd = r / dh;
    f32i_fast_two_sum(t, rd, h, l);
}

void f32i_dd_sqrt(float h, float l, out float sh, out float sl) {
    if (h == float(0)) { sh = float(0); sl = float(0); return; }
    precise float s = sqrt(h);
    float ph, pl;
    f32i_two_prod(s, s, ph, pl);
    precise float c = (((h - ph) - pl) + l) / (s + s);
    f32i_fast_two_sum(s, c, sh, sl);
}

bool f32i_signbit(float x) { return floatBitsToInt(x) < int(0); }

float f32i_copysign(float a, float s) {
    return intBitsToFloat((floatBitsToInt(a) & 0x7FFFFFFF) | (floatBitsToInt(s) & ~0x7FFFFFFF));
}

// |m| with the sign of s*v, by bit operations only (no inf/NaN/signed-zero arithmetic,
// which Vulkan lets a compiler fold unless SignedZeroInfNanPreserve is declared)
float f32i_signprod(float m, float s, float v) {
    return intBitsToFloat((floatBitsToInt(m) & 0x7FFFFFFF) | ((floatBitsToInt(s) ^ floatBitsToInt(v)) & ~0x7FFFFFFF));
}

float f32i_pow2(int n) { return intBitsToFloat(int(n + 127) << 23); }

float f32i_scalbn(float x, int n) {
    int nn = clamp(n, -2 * (127 + 24), 2 * 127);
    int n1 = nn >> 1;
    int n2 = nn - n1;
    precise float r = (x * f32i_pow2(n1)) * f32i_pow2(n2);
    return r;
}

int f32i_ilogb_big(float a) { return int(floatBitsToInt(a) >> 23) - 127; }

// ============================================================ exp family
void f32i_exp_kernel(float r, float rl, out float h, out float l) {
    precise float z = r * r;
    precise float t = z * (0.5 + r * (0.1666666716337204 + r * (0.0416666679084301 + r * (0.008333333767950535 + r * (0.0013888889225199819 + r * 0.00019841270113829523))))) + rl;
    f32i_fast_two_sum(r, t, h, l);
}

void f32i_exp_reduce(float xh, float xl, out float n, out float r, out float rl) {
    precise float nn = roundEven(xh * 1.4426950216293335);
    precise float rh = xh - nn * 0.693145751953125;
    precise float t = nn * 1.428606765330187e-06 - xl;
    precise float rr = rh - t;
    precise float rrl = (rh - rr) - t;
    n = nn; r = rr; rl = rrl;
}

float f32_exp(float x) {
    if (isnan(x)) return x;
    if (x > 88.72283172607422) return uintBitsToFloat(0x7F800000u);
    if (x < -103.97208404541016) return float(0);
    float n, r, rl, h, l;
    f32i_exp_reduce(x, float(0), n, r, rl);
    f32i_exp_kernel(r, rl, h, l);
    precise float y = float(1) + (h + l);
    return f32i_scalbn(y, int(n));
}

float f32_exp2(float x) {
    if (isnan(x)) return x;
    if (x >= 128.0) return uintBitsToFloat(0x7F800000u);
    if (x < -150.0) return float(0);
    precise float n = roundEven(x);
    precise float f = x - n;
    float rh, rl, r, r2, h, l;
    f32i_two_prod(f, 0.6931471824645996, rh, rl);
    precise float rl2 = rl + f * -1.9046542121259336e-09;
    f32i_fast_two_sum(rh, rl2, r, r2);
    f32i_exp_kernel(r, r2, h, l);
    precise float y = float(1) + (h + l);
    return f32i_scalbn(y, int(n));
}

// e^x - 1 as (h, l), EXPM1_NEG <= x <= EXP_OVF
void f32i_expm1_dd(float x, out float oh, out float ol) {
    float n, r, rl, h, l;
    f32i_exp_reduce(x, float(0), n, r, rl);
    f32i_exp_kernel(r, rl, h, l);
    int ni = int(n);
    if (ni == 0) { oh = h; ol = l; return; }
    if (ni > 24 + 3) {
        precise float y = float(1) + (h + l);
        oh = f32i_scalbn(y, ni); ol = float(0); return;
    }
    precise float t = f32i_pow2(clamp(ni, -126, 127));
    float th, tl, sh, sl;
    f32i_two_sum(t, float(-1), th, tl);
    precise float th2 = t * h;
    f32i_two_sum(th, th2, sh, sl);
    precise float sl2 = sl + (tl + t * l);
    oh = sh; ol = sl2;
}

float f32_expm1(float x) {
    if (isnan(x)) return x;
    if (x == float(0)) return x;
    if (x > 88.72283172607422) return uintBitsToFloat(0x7F800000u);
    if (x < -18.71497344970703) return float(-1);
    float h, l;
    f32i_expm1_dd(x, h, l);
    precise float res = h + l;
    return res;
}

// ============================================================ log family
void f32i_log_decompose(float x, out int k, out float m) {
    bool sub = x < 1.1754943508222875e-38;
    precise float xx = sub ? x * 16777216.0 : x;
    int b = floatBitsToInt(xx);
    int kk = int(b >> 23) - 127;
    if (sub) kk -= 24;
    float mm = intBitsToFloat((b & 0x7FFFFF) | 0x3F800000);
    if (mm > 1.4142135381698608) { mm = mm * float(0.5); kk += 1; }
    k = kk; m = mm;
}

void f32i_log1pf_kernel(float f, out float hi, out float lo) {
    precise float s = f / (float(2) + f);
    precise float z = s * s;
    precise float R = z * (0.6666666865348816 + z * (0.4000000059604645 + z * (0.2857142984867096 + z * (0.2222222238779068 + z * 0.1818181872367859))));
    precise float hfsq = float(0.5) * f * f;
    precise float h = f - hfsq;
    precise float l = ((f - h) - hfsq) + s * (hfsq + R);
    hi = h; lo = l;
}

float f32i_log_finish(int k, float hi, float lo, float CH, float CL, float IH, float IL) {
    precise float kf = float(k);
    float ph, pl;
    f32i_two_prod(hi, IH, ph, pl);
    precise float pl2 = pl + (lo * IH + (hi + lo) * IL);
    precise float kh = kf * CH;
    precise float kl = kf * CL;
    float w, we;
    f32i_two_sum(kh, ph, w, we);
    precise float res = w + (we + (pl2 + kl));
    return res;
}

float f32i_log_any(float x, float CH, float CL, float IH, float IL) {
    if (isnan(x)) return x;
    if (x < float(0)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(0)) return -uintBitsToFloat(0x7F800000u);
    if (isinf(x)) return x;
    int k; float m, hi, lo;
    f32i_log_decompose(x, k, m);
    precise float f = m - float(1);
    f32i_log1pf_kernel(f, hi, lo);
    return f32i_log_finish(k, hi, lo, CH, CL, IH, IL);
}

float f32_log(float x)   { return f32i_log_any(x, 0.693145751953125, 1.428606765330187e-06, float(1), float(0)); }
float f32_log2(float x)  { return f32i_log_any(x, float(1), float(0), 1.4426950216293335, 1.925963033500011e-08); }
float f32_log10(float x) { return f32i_log_any(x, 0.301025390625, 4.605039066518657e-06, 0.4342944920063019, -1.0103049952192578e-08); }

// log(1 + xh + xl) + kextra*ln2, 1 + xh > 0 finite
float f32i_log1p_core(float xh, float xl, int kextra) {
    bool direct = (xh >= -0.2928932309150696) && (xh < 0.4142135679721832);
    float u, c;
    f32i_two_sum(float(1), xh, u, c);
    precise float c2 = c + xl;
    int k; float m, hi, lo;
    f32i_log_decompose(direct ? float(1) : u, k, m);
    precise float f = direct ? xh : m - float(1);
    if (direct) k = 0;
    f32i_log1pf_kernel(f, hi, lo);
    precise float lo2 = lo + (direct ? xl : c2 / u);
    return f32i_log_finish(k + kextra, hi, lo2, 0.693145751953125, 1.428606765330187e-06, float(1), float(0));
}

float f32_log1p(float x) {
    if (isnan(x)) return x;
    if (x < float(-1)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(-1)) return -uintBitsToFloat(0x7F800000u);
    if (x == float(0)) return x;
    if (isinf(x)) return x;
    return f32i_log1p_core(x, float(0), 0);
}

// ============================================================ trig
const uint f32i_TWO_OVER_PI[13] = uint[13](0x00000000u, 0x00000000u, 0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu);


// Payne-Hanek: ax finite >= CW_MAX; ax = (4k + q)*pi/2 + (rh + rl).
// 32-bit integer version (no int64 needed): same integers as the prototype's uint64 limbs.
void f32i_ph_reduce(float ax, out int q, out float rh, out float rl) {
    int b = floatBitsToInt(ax);
    int e = ((b >> 23) & 0xFF) - 127 - 23;
    uint M = uint((b & 0x7FFFFF) | 0x800000);
    int g0 = max(e + 62, 0);
    int k0 = g0 >> 5;
    int s = g0 & 31;
    uint v[5];
    for (int i = 0; i < 5; i++) {
        int kk = k0 + (4 - i);
        uint w0 = f32i_TWO_OVER_PI[kk], w1 = f32i_TWO_OVER_PI[kk + 1];
        v[i] = (s == 0) ? w0 : ((w0 << s) | (w1 >> (32 - s)));
    }
    uint pr[6];
    uint carry = 0u;
    for (int j = 0; j < 5; j++) {
        uint hi, lo;
        umulExtended(M, v[j], hi, lo);
        uint lo2 = lo + carry;
        pr[j] = lo2;
        carry = hi + ((lo2 < lo) ? 1u : 0u);
    }
    pr[5] = carry;
    int qq = int(pr[4] >> 30);
    uint Alo = (pr[2] >> 30) | (pr[3] << 2), Ahi = (pr[3] >> 30) | (pr[4] << 2);
    uint Blo = (pr[0] >> 30) | (pr[1] << 2), Bhi = (pr[1] >> 30) | (pr[2] << 2);
    bool neg = (Ahi >> 31) != 0u;
    if (neg) {
        qq += 1;
        bool bz = (Blo == 0u) && (Bhi == 0u);
        uint nBlo = ~Blo + 1u;
        uint nBhi = ~Bhi + ((Blo == 0u) ? 1u : 0u);
        uint nAlo = ~Alo + (bz ? 1u : 0u);
        uint nAhi = ~Ahi + ((bz && Alo == 0u) ? 1u : 0u);
        Alo = nAlo; Ahi = nAhi; Blo = nBlo; Bhi = nBhi;
    }
    q = qq & 3;
    uint p1 = Ahi >> 8;
    uint p2 = ((Ahi << 16) | (Alo >> 16)) & 0xFFFFFFu;
    uint p3 = ((Alo & 0xFFFFu) << 8) | (Bhi >> 24);
    precise float f1 = float(p1) * 5.960464477539063e-08;
    precise float f2 = float(p2) * 3.552713678800501e-15;
    float h, l, ph, pl;
    f32i_fast_two_sum(f1, f2, h, l);
    precise float l2 = l + float(p3) * 2.117582368135751e-22;
    f32i_two_prod(h, 1.5707963705062866, ph, pl);
    precise float pl2 = pl + (h * -4.371138828673793e-08 + l2 * 1.5707963705062866);
    float r1, r2;
    f32i_fast_two_sum(ph, pl2, r1, r2);
    rh = neg ? -r1 : r1;
    rl = neg ? -r2 : r2;
}

void f32i_trig_reduce(float x, out int q, out float rh, out float rl) {
    float ax = abs(x);
    if (ax < 803.2476806640625) {
        precise float n = roundEven(ax * 0.6366197466850281);
        precise float t = ax - n * 1.57080078125;
        precise float w2 = n * -4.454515874385834e-06;
        precise float w3 = n * 6.077272018956137e-11;
        float r, e, e2;
        f32i_two_sum(t, -w2, r, e);
        f32i_two_sum(r, -w3, r, e2);
        precise float ee = (e + e2) - n * -1.7151245100058819e-15;
        f32i_fast_two_sum(r, ee, rh, rl);
        q = int(n) & 3;
    } else {
        f32i_ph_reduce(ax, q, rh, rl);
    }
    if (x < float(0)) { q = (4 - q) & 3; rh = -rh; rl = -rl; }
}

void f32i_sincos_kernel(float r, float rl, out float sh, out float sl, out float ch, out float cl) {
    precise float z = r * r;
    precise float st = r * z * (-0.1666666716337204 + z * (0.008333333767950535 + z * (-0.00019841270113829523 + z * 2.7557318844628753e-06))) + rl * (float(1) - float(0.5) * z);
    f32i_fast_two_sum(r, st, sh, sl);
    precise float hz = float(0.5) * z;
    precise float w = float(1) - hz;
    precise float ct = ((float(1) - w) - hz) + (z * z * (0.0416666679084301 + z * (-0.0013888889225199819 + z * (2.4801587642286904e-05 + z * -2.755731998149713e-07))) - r * rl);
    f32i_fast_two_sum(w, ct, ch, cl);
}

float f32_sin(float x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(0)) return x;
    int q; float r, rl, sh, sl, ch, cl;
    f32i_trig_reduce(x, q, r, rl);
    f32i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise float res = ((q & 1) == 0) ? sh + sl : ch + cl;
    return (q >= 2) ? -res : res;
}

float f32_cos(float x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
    int q; float r, rl, sh, sl, ch, cl;
    f32i_trig_reduce(x, q, r, rl);
    f32i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise float res = ((q & 1) == 0) ? ch + cl : sh + sl;
    return (q == 1 || q == 2) ? -res : res;
}

// finite x: sin x = sh + sl, cos x = ch + cl
void f32i_sincos_dd(float x, out float sh, out float sl, out float ch, out float cl) {
    int q; float r, rl, ah, al, bh, bl;
    f32i_trig_reduce(x, q, r, rl);
    f32i_sincos_kernel(r, rl, ah, al, bh, bl);
    bool odd = (q & 1) == 1;
    float s1h = odd ? bh : ah, s1l = odd ? bl : al;
    float c1h = odd ? ah : bh, c1l = odd ? al : bl;
    bool ns = q >= 2;
    bool nc = (q == 1 || q == 2);
    sh = ns ? -s1h : s1h; sl = ns ? -s1l : s1l;
    ch = nc ? -c1h : c1h; cl = nc ? -c1l : c1l;
}

void f32_sincos(float x, out float s, out float c) {
    if (isnan(x) || isinf(x)) { s = isnan(x) ? x : uintBitsToFloat(0x7FC00000u); c = s; return; }
    int q; float r, rl, sh, sl, ch, cl;
    f32i_trig_reduce(x, q, r, rl);
    f32i_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise float sv = ((q & 1) == 0) ? sh + sl : ch + cl;
    precise float cv = ((q & 1) == 0) ? ch + cl : sh + sl;
    s = (x == float(0)) ? x : ((q >= 2) ? -sv : sv);
    c = (q == 1 || q == 2) ? -cv : cv;
}

float f32_tan(float x) {
    if (isnan(x)) return x;
    if (isinf(x)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(0)) return x;
    int q; float r, rl, sh, sl, ch, cl, th, tl;
    f32i_trig_reduce(x, q, r, rl);
    f32i_sincos_kernel(r, rl, sh, sl, ch, cl);
    bool odd = (q & 1) == 1;
    if (odd) f32i_dd_div(ch, cl, sh, sl, th, tl);
    else     f32i_dd_div(sh, sl, ch, cl, th, tl);
    precise float res = th + tl;
    return odd ? -res : res;
}

// ============================================================ inverse trig
const float f32i_ATAN_TH[8] = float[8](0.09849140048027039, 0.3033466935157776, 0.534511148929596, 0.8206787705421448, 1.218503475189209, 1.870868444442749, 3.296558141708374, 10.153170585632324);
const float f32i_ATAN_C[9] = float[9](0.0, 0.1989123672246933, 0.4142135679721832, 0.6681786179542542, 1.0, 1.4966057538986206, 2.4142136573791504, 5.027339458465576, 0.0);
const float f32i_ATAN_H[9] = float[9](0.0, 0.19634954631328583, 0.39269909262657166, 0.5890486240386963, 0.7853981852531433, 0.9817476868629456, 1.1780972480773926, 1.3744467496871948, 1.5707963705062866);
const float f32i_ATAN_L[9] = float[9](0.0, -5.612990516823402e-09, -6.148726860999432e-09, -1.5293277755290546e-08, -2.1855694143368964e-08, 1.4677898008130796e-08, 1.0932094340887488e-08, 3.4977222895804516e-08, -4.371138828673793e-08);

// atan((yh+yl)/(xh+xl)) as (h, l); y >= 0, x >= 0, magnitudes <= ~4
void f32i_atan_core(float yh, float yl, float xh, float xl, out float oh, out float ol) {
    precise float q = yh / xh;
    int i = 0;
    for (int k = 0; k < 8; k++) i += (q > f32i_ATAN_TH[k]) ? 1 : 0;
    float nh, nl, dh, dl;
    if (i == 8) {
        nh = -xh; nl = -xl; dh = yh; dl = yl;
    } else {
        float Ci = f32i_ATAN_C[i];
        float p1h, p1l, p2h, p2l;
        f32i_two_prod(Ci, xh, p1h, p1l);
        f32i_two_sum(yh, -p1h, nh, nl);
        precise float nl2 = nl + (yl - (p1l + Ci * xl));
        nl = nl2;
        f32i_two_prod(Ci, yh, p2h, p2l);
        f32i_two_sum(xh, p2h, dh, dl);
        precise float dl2 = dl + (xl + (p2l + Ci * yl));
        dl = dl2;
    }
    float t, tl;
    f32i_dd_div(nh, nl, dh, dl, t, tl);
    precise float z = t * t;
    precise float tail = t * z * (-0.3333333432674408 + z * (0.20000000298023224 + z * (-0.1428571492433548 + z * 0.1111111119389534))) + tl;
    float h, e;
    f32i_two_sum(f32i_ATAN_H[i], t, h, e);
    precise float l = e + (f32i_ATAN_L[i] + tail);
    f32i_fast_two_sum(h, l, oh, ol);
}

float f32_atan(float x) {
    if (isnan(x)) return x;
    if (x == float(0)) return x;
    float ax = min(abs(x), 67108864.0);
    float h, l;
    f32i_atan_core(ax, float(0), float(1), float(0), h, l);
    precise float res = h + l;
    return x < float(0) ? -res : res;
}

float f32_atan2(float y, float x) {
    if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7FC00000u);
    bool xneg = f32i_signbit(x);
    if (isinf(y) && isinf(x)) return f32i_copysign(xneg ? 2.356194496154785 : 0.7853981852531433, y);
    if (isinf(y)) return f32i_copysign(1.5707963705062866, y);
    if (isinf(x)) return f32i_copysign(xneg ? 3.1415927410125732 : float(0), y);
    if (y == float(0)) return f32i_copysign(xneg ? 3.1415927410125732 : float(0), y);
    if (x == float(0)) return f32i_copysign(1.5707963705062866, y);
    float ay = abs(y), ax = abs(x);
    precise float res;
    if (ay < ax * 4.656612873077393e-10) {
        res = (x < float(0)) ? 3.1415927410125732 : ay / ax;
    } else {
        int k = f32i_ilogb_big(max(ay, ax));
        float ys = f32i_scalbn(ay, -k);
        float xs = f32i_scalbn(ax, -k);
        float h, l;
        f32i_atan_core(ys, float(0), xs, float(0), h, l);
        if (x < float(0)) {
            float h2, e;
            f32i_two_sum(3.1415927410125732, -h, h2, e);
            precise float l2 = e + (-8.742277657347586e-08 - l);
            res = h2 + l2;
        } else {
            res = h + l;
        }
    }
    return f32i_copysign(res, y);
}

// w = 1 - ax^2 as (wh, wl), 0 <= ax <= 1
void f32i_one_minus_sq(float ax, out float wh, out float wl) {
    float h, l;
    if (ax >= float(0.5)) {
        precise float a = float(1) - ax;
        float bh, bl;
        f32i_two_sum(float(1), ax, bh, bl);
        f32i_two_prod(a, bh, h, l);
        precise float l2 = l + a * bl;
        l = l2;
    } else {
        float sqh, sql;
        f32i_two_prod(ax, ax, sqh, sql);
        f32i_two_sum(float(1), -sqh, h, l);
        precise float l2 = l - sql;
        l = l2;
    }
    f32i_fast_two_sum(h, l, wh, wl);
}

float f32_asin(float x) {
    if (isnan(x)) return x;
    if (abs(x) > float(1)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(0)) return x;
    float ax = abs(x);
    float wh, wl, sh, sl, h, l;
    f32i_one_minus_sq(ax, wh, wl);
    f32i_dd_sqrt(wh, wl, sh, sl);
    precise float res;
    if (ax < sh * 4.656612873077393e-10) {
        res = ax;
    } else if (sh == float(0)) {
        res = 1.5707963705062866 + -4.371138828673793e-08;
    } else {
        f32i_atan_core(ax, float(0), sh, sl, h, l);
        res = h + l;
    }
    return x < float(0) ? -res : res;
}

float f32_acos(float x) {
    if (isnan(x)) return x;
    if (abs(x) > float(1)) return uintBitsToFloat(0x7FC00000u);
    float ax = abs(x);
    float wh, wl, sh, sl, h, l;
    f32i_one_minus_sq(ax, wh, wl);
    f32i_dd_sqrt(wh, wl, sh, sl);
    if (ax == float(0)) {
        h = 1.5707963705062866; l = -4.371138828673793e-08;
    } else if (sh < ax * 4.656612873077393e-10) {
        h = sh / ax; l = float(0);
    } else {
        f32i_atan_core(sh, sl, ax, float(0), h, l);
    }
    precise float res;
    if (x < float(0)) {
        float h2, e;
        f32i_two_sum(3.1415927410125732, -h, h2, e);
        precise float l2 = e + (-8.742277657347586e-08 - l);
        res = h2 + l2;
    } else {
        res = h + l;
    }
    return res;
}

// ============================================================ hyperbolic
// e^a * 2^dn as (h, l), a finite <= SINH_OVF
void f32i_exp_dd_scaled(float a, int dn, out float oh, out float ol) {
    float n, r, rl, h, l, eh, el;
    f32i_exp_reduce(a, float(0), n, r, rl);
    f32i_exp_kernel(r, rl, h, l);
    f32i_fast_two_sum(float(1), h, eh, el);
    precise float el2 = el + l;
    int ni = int(n) + dn;
    oh = f32i_scalbn(eh, ni);
    ol = f32i_scalbn(el2, ni);
}

float f32_sinh(float x) {
    if (isnan(x)) return x;
    if (abs(x) < 6.103515625e-05) return x;
    if (abs(x) > 89.41598510742188) return f32i_copysign(uintBitsToFloat(0x7F800000u), x);
    float a = abs(x);
    precise float res;
    if (a < float(1)) {
        precise float z = a * a;
        res = a + a * z * (0.1666666716337204 + z * (0.008333333767950535 + z * (0.00019841270113829523 + z * (2.7557318844628753e-06 + z * 2.5052107943679403e-08))));
    } else {
        float eh, el, ih, il, dh, de;
        f32i_exp_dd_scaled(a, -1, eh, el);
        if (a < 10.0) { f32i_dd_div(float(0.25), float(0), eh, el, ih, il); }
        else { ih = float(0); il = float(0); }
        f32i_two_sum(eh, -ih, dh, de);
        res = dh + (de + (el - il));
    }
    return x < float(0) ? -res : res;
}

float f32_cosh(float x) {
    if (isnan(x)) return x;
    if (abs(x) > 89.41598510742188) return uintBitsToFloat(0x7F800000u);
    float a = abs(x);
    float eh, el, ih, il, dh, de;
    f32i_exp_dd_scaled(a, -1, eh, el);
    if (a < 10.0) { f32i_dd_div(float(0.25), float(0), eh, el, ih, il); }
    else { ih = float(0); il = float(0); }
    f32i_two_sum(eh, ih, dh, de);
    precise float res = dh + (de + (el + il));
    return res;
}

float f32_tanh(float x) {
    if (isnan(x)) return x;
    if (abs(x) < 6.103515625e-05) return x;
    if (abs(x) >= 10.0) return f32i_copysign(float(1), x);
    float a = abs(x);
    float eh, el, dh, dl, th, tl;
    f32i_expm1_dd(a + a, eh, el);
    f32i_two_sum(eh, float(2), dh, dl);
    precise float dl2 = dl + el;
    f32i_dd_div(eh, el, dh, dl2, th, tl);
    precise float res = th + tl;
    return x < float(0) ? -res : res;
}

float f32i_log_far(float a) {   // log(2a), a >= 1 finite
    int k; float m, hi, lo;
    f32i_log_decompose(a, k, m);
    precise float f = m - float(1);
    f32i_log1pf_kernel(f, hi, lo);
    return f32i_log_finish(k + 1, hi, lo, 0.693145751953125, 1.428606765330187e-06, float(1), float(0));
}

float f32_asinh(float x) {
    if (isnan(x)) return x;
    if (abs(x) < 6.103515625e-05) return x;
    if (isinf(x)) return x;
    float a = abs(x);
    precise float res;
    if (a >= 8192.0) {
        res = f32i_log_far(a);
    } else {
        float sh, sl, wh, wl, rh, rl, dh, dl, qh, ql, uh, ul;
        f32i_two_prod(a, a, sh, sl);
        f32i_two_sum(float(1), sh, wh, wl);
        precise float wl2 = wl + sl;
        f32i_dd_sqrt(wh, wl2, rh, rl);
        f32i_two_sum(float(1), rh, dh, dl);
        precise float dl2 = dl + rl;
        f32i_dd_div(sh, sl, dh, dl2, qh, ql);
        f32i_two_sum(a, qh, uh, ul);
        precise float ul2 = ul + ql;
        res = f32i_log1p_core(uh, ul2, 0);
    }
    return x < float(0) ? -res : res;
}

float f32_acosh(float x) {
    if (isnan(x)) return x;
    if (x < float(1)) return uintBitsToFloat(0x7FC00000u);
    if (isinf(x)) return x;
    if (x >= 8192.0) return f32i_log_far(x);
    precise float t = x - float(1);
    float bh, bl, ph, pl, rh, rl, uh, ul;
    f32i_two_sum(t, float(2), bh, bl);
    f32i_two_prod(t, bh, ph, pl);
    precise float pl2 = pl + t * bl;
    f32i_dd_sqrt(ph, pl2, rh, rl);
    f32i_two_sum(t, rh, uh, ul);
    precise float ul2 = ul + rl;
    return f32i_log1p_core(uh, ul2, 0);
}

float f32_atanh(float x) {
    if (isnan(x)) return x;
    if (abs(x) > float(1)) return uintBitsToFloat(0x7FC00000u);
    if (x == float(1)) return uintBitsToFloat(0x7F800000u);
    if (x == float(-1)) return -uintBitsToFloat(0x7F800000u);
    if (abs(x) < 6.103515625e-05) return x;
    float a = abs(x);
    float dh, dl, qh, ql;
    f32i_two_sum(float(1), -a, dh, dl);
    f32i_dd_div(a + a, float(0), dh, dl, qh, ql);
    precise float res = float(0.5) * f32i_log1p_core(qh, ql, 0);
    return x < float(0) ? -res : res;
}

// ============================================================ pow
// natural log of finite x > 0 as (h, l), ~2p-10 bits
void f32i_log_dd(float x, out float oh, out float ol) {
    int k; float m;
    f32i_log_decompose(x, k, m);
    precise float f = m - float(1);
    float dh, dl, ph, pl, zh, zl, ch, cl, t3h, t3l, h, l, l2;
    f32i_two_sum(float(2), f, dh, dl);
    precise float sh = f / dh;
    f32i_two_prod(sh, dh, ph, pl);
    precise float sl = (((f - ph) - pl) - sh * dl) / dh;
    f32i_two_prod(sh, sh, zh, zl);
    precise float zl2 = zl + float(2) * sh * sl;
    f32i_two_prod(zh, sh, ch, cl);
    precise float cl2 = cl + (zl2 * sh + zh * sl);
    f32i_two_prod(0.6666666865348816, ch, t3h, t3l);
    precise float t3l2 = t3l + (0.6666666865348816 * cl2 + -1.9868215517249155e-08 * ch);
    precise float t5 = sh * zh * zh * (0.4000000059604645 + zh * (0.2857142984867096 + zh * (0.2222222238779068 + zh * (0.1818181872367859 + zh * 0.1538461595773697))));
    precise float kf = float(k);
    precise float kh = kf * 0.693145751953125;
    precise float s2 = float(2) * sh;
    f32i_two_sum(kh, s2, h, l);
    f32i_two_sum(h, t3h, h, l2);
    precise float ll = l + (l2 + ((float(2) * sl + t3l2) + (t5 + kf * 1.428606765330187e-06)));
    f32i_fast_two_sum(h, ll, oh, ol);
}

float f32_pow(float x, float y) {
    if (y == float(0)) return float(1);
    if (x == float(1)) return float(1);
    if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7FC00000u);
    float ax = abs(x);
    if (isinf(y) && ax == float(1)) return float(1);
    if (y == uintBitsToFloat(0x7F800000u)) return ax > float(1) ? uintBitsToFloat(0x7F800000u) : float(0);
    if (y == -uintBitsToFloat(0x7F800000u)) return ax > float(1) ? float(0) : uintBitsToFloat(0x7F800000u);
    bool yint = floor(y) == y;
    precise float hy = y * float(0.5);
    bool odd = yint && (floor(hy) != hy);
    if (x == uintBitsToFloat(0x7F800000u)) return y > float(0) ? uintBitsToFloat(0x7F800000u) : float(0);
    if (x == -uintBitsToFloat(0x7F800000u)) return y > float(0) ? (odd ? -uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7F800000u)) : (odd ? -float(0) : float(0));
    if (x == float(0)) {
        bool ng = odd && f32i_signbit(x);
        return y > float(0) ? (ng ? -float(0) : float(0)) : (ng ? -uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7F800000u));
    }
    if (x < float(0) && !yint) return uintBitsToFloat(0x7FC00000u);
    if (ax == float(1)) return odd ? float(-1) : float(1);
    float lh, ll;
    f32i_log_dd(ax, lh, ll);
    precise float zh = y * lh;
    precise float v;
    if (zh > 89.72283172607422) {
        v = uintBitsToFloat(0x7F800000u);
    } else if (zh < -104.97208404541016) {
        v = float(0);
    } else {
        float ph, pl, ph2, pl2, n, r, rl, eh, el;
        f32i_two_prod(y, lh, ph, pl);
        precise float pl1 = pl + y * ll;
        f32i_fast_two_sum(ph, pl1, ph2, pl2);
        f32i_exp_reduce(ph2, pl2, n, r, rl);
        f32i_exp_kernel(r, rl, eh, el);
        precise float e1 = float(1) + (eh + el);
        v = f32i_scalbn(e1, int(n));
    }
    return (x < float(0) && odd) ? -v : v;
}

// ============================================================ misc
float f32_hypot(float x, float y) {
    if (isinf(x) || isinf(y)) return uintBitsToFloat(0x7F800000u);
    if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7FC00000u);
    float ax = abs(x), ay = abs(y);
    float a = max(ax, ay), b = min(ax, ay);
    if (a == float(0)) return float(0);
    bool sub = a < 1.1754943508222875e-38;
    if (sub) { a = a * 16777216.0; b = b * 16777216.0; }
    int k = f32i_ilogb_big(a);
    float a2 = f32i_scalbn(a, -k);
    float b2 = f32i_scalbn(b, -k);
    float ph, pl, qh, ql, sh, sl, rh, rl;
    f32i_two_prod(a2, a2, ph, pl);
    f32i_two_prod(b2, b2, qh, ql);
    f32i_two_sum(ph, qh, sh, sl);
    precise float sl2 = sl + (pl + ql);
    f32i_dd_sqrt(sh, sl2, rh, rl);
    if (sub) k -= 24;
    precise float r = rh + rl;
    return f32i_scalbn(r, k);
}

// log(1 + x) as (h, l) for 0 <= x <= 1
void f32i_log1p_dd(float xh, float xl, out float oh, out float ol) {
    bool direct = xh < 0.4142135679721832;
    float u, c;
    f32i_two_sum(float(1), xh, u, c);
    precise float c2 = c + xl;
    int k; float m, hi, lo, h, e;
    f32i_log_decompose(direct ? float(1) : u, k, m);
    precise float f = direct ? xh : m - float(1);
    if (direct) k = 0;
    f32i_log1pf_kernel(f, hi, lo);
    precise float lo2 = lo + (direct ? xl : c2 / u);
    precise float kf = float(k);
    precise float kh = kf * 0.693145751953125;
    f32i_two_sum(kh, hi, h, e);
    precise float l = e + (lo2 + kf * 1.428606765330187e-06);
    f32i_fast_two_sum(h, l, oh, ol);
}

float f32_logaddexp(float x, float y) {
    if (isnan(x) || isnan(y)) return uintBitsToFloat(0x7FC00000u);
    float m = max(x, y);
    if (m == uintBitsToFloat(0x7F800000u)) return uintBitsToFloat(0x7F800000u);
    if (m == -uintBitsToFloat(0x7F800000u)) return -uintBitsToFloat(0x7F800000u);
    precise float d = -abs(x - y);
    if (!(d >= -103.97208404541016)) return (m == float(0)) ? float(0) : m;   // log1p(e^d) = +0; x - y overflow too
    float eh, el, lh, ll, h, e;
    f32i_exp_dd_scaled(d, 0, eh, el);
    f32i_log1p_dd(eh, el, lh, ll);
    f32i_two_sum(m, lh, h, e);
    precise float res = h + (e + ll);
    return res;
}

#endif // MATH_F32_GLSL
