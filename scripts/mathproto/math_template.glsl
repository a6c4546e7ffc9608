// ---------------------------------------------------------------------------
// Generated from scripts/mathproto/math_template.glsl by
// scripts/mathproto/gen_glsl.py -- edit the template, not this file.
// Each function is a line-by-line transliteration of the numpy prototype in
// scripts/mathproto/real.py / fp.py (tests/test_math_prototypes.py measures it).
//
// Requires in the including shader:
//   #version 450
//@64//   #extension GL_ARB_gpu_shader_int64 : require      (64-bit ints: bit tricks, Payne-Hanek)
//@64// and a device with shaderFloat64 and shaderInt64.
//@32// (nothing else: float and 32-bit int arithmetic only; no shaderInt64 / shaderFloat64 needed)
// Every local is `precise` (SPIR-V NoContraction): the error-free transforms
// (two_sum, Dekker two_prod, ...) need unfused, unreassociated IEEE + - *.
// fma() is not used: Vulkan allows it to be computed unfused.
// ---------------------------------------------------------------------------

// ============================================================ helpers
T PFXi_poly_dummy(T x) { return x; }

void PFXi_two_sum(T a, T b, out T s, out T e) {
    precise T ss = a + b;
    precise T bb = ss - a;
    precise T ee = (a - (ss - bb)) + (b - bb);
    s = ss; e = ee;
}

void PFXi_fast_two_sum(T a, T b, out T s, out T e) {
    precise T ss = a + b;
    precise T ee = b - (ss - a);
    s = ss; e = ee;
}

void PFXi_split(T a, out T hi, out T lo) {
    precise T t = K_SPLIT * a;
    precise T h = t - (t - a);
    precise T l = a - h;
    hi = h; lo = l;
}

void PFXi_two_prod(T a, T b, out T p, out T e) {
    precise T pp = a * b;
    T ah, al, bh, bl;
    PFXi_split(a, ah, al);
    PFXi_split(b, bh, bl);
    precise T ee = ((ah * bh - pp) + ah * bl + al * bh) + al * bl;
    p = pp; e = ee;
}

void PFXi_dd_div(T nh, T nl, T dh, T dl, out T h, out T l) {
    precise T t = nh / dh;
    T ph, pl;
    PFXi_two_prod(t, dh, ph, pl);
    precise T r = (((nh - ph) - pl) + nl) - t * dl;
    precise T rd = r / dh;
    PFXi_fast_two_sum(t, rd, h, l);
}

void PFXi_dd_sqrt(T h, T l, out T sh, out T sl) {
    if (h == T(0)) { sh = T(0); sl = T(0); return; }
    precise T s = sqrt(h);
    T ph, pl;
    PFXi_two_prod(s, s, ph, pl);
    precise T c = (((h - ph) - pl) + l) / (s + s);
    PFXi_fast_two_sum(s, c, sh, sl);
}

bool PFXi_signbit(T x) { return BITS(x) < I(0); }

T PFXi_copysign(T a, T s) {
    return FROMBITS((BITS(a) & K_ABS_MASK) | (BITS(s) & ~K_ABS_MASK));
}

// |m| with the sign of s*v, by bit operations only (no inf/NaN/signed-zero arithmetic,
// which Vulkan lets a compiler fold unless SignedZeroInfNanPreserve is declared)
T PFXi_signprod(T m, T s, T v) {
    return FROMBITS((BITS(m) & K_ABS_MASK) | ((BITS(s) ^ BITS(v)) & ~K_ABS_MASK));
}

T PFXi_pow2(int n) { return FROMBITS(I(n + K_BIAS) << K_PM1); }

T PFXi_scalbn(T x, int n) {
    int nn = clamp(n, -2 * (K_BIAS + K_P), 2 * K_BIAS);
    int n1 = nn >> 1;
    int n2 = nn - n1;
    precise T r = (x * PFXi_pow2(n1)) * PFXi_pow2(n2);
    return r;
}

int PFXi_ilogb_big(T a) { return int(BITS(a) >> K_PM1) - K_BIAS; }

// ============================================================ exp family
void PFXi_exp_kernel(T r, T rl, out T h, out T l) {
    precise T z = r * r;
    precise T t = z * P_EXPM1(r) + rl;
    PFXi_fast_two_sum(r, t, h, l);
}

void PFXi_exp_reduce(T xh, T xl, out T n, out T r, out T rl) {
    precise T nn = roundEven(xh * K_INV_LN2);
    precise T rh = xh - nn * K_LN2_H;
    precise T t = nn * K_LN2_L - xl;
    precise T rr = rh - t;
    precise T rrl = (rh - rr) - t;
    n = nn; r = rr; rl = rrl;
}

T PFX_exp(T x) {
    if (isnan(x)) return x;
    if (x > K_EXP_OVF) return K_INF;
    if (x < K_EXP_UNF) return T(0);
    T n, r, rl, h, l;
    PFXi_exp_reduce(x, T(0), n, r, rl);
    PFXi_exp_kernel(r, rl, h, l);
    precise T y = T(1) + (h + l);
    return PFXi_scalbn(y, int(n));
}

T PFX_exp2(T x) {
    if (isnan(x)) return x;
    if (x >= K_EXP2_OVF) return K_INF;
    if (x < K_EXP2_UNF) return T(0);
    precise T n = roundEven(x);
    precise T f = x - n;
    T rh, rl, r, r2, h, l;
    PFXi_two_prod(f, K_LN2, rh, rl);
    precise T rl2 = rl + f * K_LN2_L2;
    PFXi_fast_two_sum(rh, rl2, r, r2);
    PFXi_exp_kernel(r, r2, h, l);
    precise T y = T(1) + (h + l);
    return PFXi_scalbn(y, int(n));
}

// e^x - 1 as (h, l), EXPM1_NEG <= x <= EXP_OVF
void PFXi_expm1_dd(T x, out T oh, out T ol) {
    T n, r, rl, h, l;
    PFXi_exp_reduce(x, T(0), n, r, rl);
    PFXi_exp_kernel(r, rl, h, l);
    int ni = int(n);
    if (ni == 0) { oh = h; ol = l; return; }
    if (ni > K_P + 3) {
        precise T y = T(1) + (h + l);
        oh = PFXi_scalbn(y, ni); ol = T(0); return;
    }
    precise T t = PFXi_pow2(clamp(ni, K_EMIN, K_EMAX));
    T th, tl, sh, sl;
    PFXi_two_sum(t, T(-1), th, tl);
    precise T th2 = t * h;
    PFXi_two_sum(th, th2, sh, sl);
    precise T sl2 = sl + (tl + t * l);
    oh = sh; ol = sl2;
}

T PFX_expm1(T x) {
    if (isnan(x)) return x;
    if (x == T(0)) return x;
    if (x > K_EXP_OVF) return K_INF;
    if (x < K_EXPM1_NEG) return T(-1);
    T h, l;
    PFXi_expm1_dd(x, h, l);
    precise T res = h + l;
    return res;
}

// ============================================================ log family
void PFXi_log_decompose(T x, out int k, out T m) {
    bool sub = x < K_MIN_NORMAL;
    precise T xx = sub ? x * K_TWO_P : x;
    I b = BITS(xx);
    int kk = int(b >> K_PM1) - K_BIAS;
    if (sub) kk -= K_P;
    T mm = FROMBITS((b & K_MANT_MASK) | K_ONE_BITS);
    if (mm > K_SQRT2) { mm = mm * T(0.5); kk += 1; }
    k = kk; m = mm;
}

void PFXi_log1pf_kernel(T f, out T hi, out T lo) {
    precise T s = f / (T(2) + f);
    precise T z = s * s;
    precise T R = z * P_LOG(z);
    precise T hfsq = T(0.5) * f * f;
    precise T h = f - hfsq;
    precise T l = ((f - h) - hfsq) + s * (hfsq + R);
    hi = h; lo = l;
}

T PFXi_log_finish(int k, T hi, T lo, T CH, T CL, T IH, T IL) {
    precise T kf = T(k);
    T ph, pl;
    PFXi_two_prod(hi, IH, ph, pl);
    precise T pl2 = pl + (lo * IH + (hi + lo) * IL);
    precise T kh = kf * CH;
    precise T kl = kf * CL;
    T w, we;
    PFXi_two_sum(kh, ph, w, we);
    precise T res = w + (we + (pl2 + kl));
    return res;
}

T PFXi_log_any(T x, T CH, T CL, T IH, T IL) {
    if (isnan(x)) return x;
    if (x < T(0)) return K_NAN;
    if (x == T(0)) return -K_INF;
    if (isinf(x)) return x;
    int k; T m, hi, lo;
    PFXi_log_decompose(x, k, m);
    precise T f = m - T(1);
    PFXi_log1pf_kernel(f, hi, lo);
    return PFXi_log_finish(k, hi, lo, CH, CL, IH, IL);
}

T PFX_log(T x)   { return PFXi_log_any(x, K_LN2_H, K_LN2_L, T(1), T(0)); }
T PFX_log2(T x)  { return PFXi_log_any(x, T(1), T(0), K_INV_LN2, K_INV_LN2_L); }
T PFX_log10(T x) { return PFXi_log_any(x, K_LOG10_2_H, K_LOG10_2_L, K_INV_LN10, K_INV_LN10_L); }

// log(1 + xh + xl) + kextra*ln2, 1 + xh > 0 finite
T PFXi_log1p_core(T xh, T xl, int kextra) {
    bool direct = (xh >= K_SQRT_HALF_M1) && (xh < K_SQRT2_M1);
    T u, c;
    PFXi_two_sum(T(1), xh, u, c);
    precise T c2 = c + xl;
    int k; T m, hi, lo;
    PFXi_log_decompose(direct ? T(1) : u, k, m);
    precise T f = direct ? xh : m - T(1);
    if (direct) k = 0;
    PFXi_log1pf_kernel(f, hi, lo);
    precise T lo2 = lo + (direct ? xl : c2 / u);
    return PFXi_log_finish(k + kextra, hi, lo2, K_LN2_H, K_LN2_L, T(1), T(0));
}

T PFX_log1p(T x) {
    if (isnan(x)) return x;
    if (x < T(-1)) return K_NAN;
    if (x == T(-1)) return -K_INF;
    if (x == T(0)) return x;
    if (isinf(x)) return x;
    return PFXi_log1p_core(x, T(0), 0);
}

// ============================================================ trig
const uint PFXi_TWO_OVER_PI[TAB_LEN_TWO_OVER_PI] = uint[TAB_LEN_TWO_OVER_PI](TAB_TWO_OVER_PI);

//@64// Payne-Hanek: ax finite >= CW_MAX; ax = (4k + q)*pi/2 + (rh + rl)
//@64void PFXi_ph_reduce(T ax, out int q, out T rh, out T rl) {
//@64    int64_t b = int64_t(BITS(ax));
//@64    int e = int((b >> K_PM1) & K_EXP_FIELD) - K_BIAS - K_PM1;
//@64    uint64_t M = uint64_t((b & int64_t(K_MANT_MASK)) | int64_t(K_HIDDEN));
//@64    int g0 = max(e + 62, 0);
//@64    int k0 = g0 >> 5;
//@64    uint sh = uint(32 - (g0 & 31));
//@64    uint64_t v[K_PH_NW];
//@64    for (int i = 0; i < K_PH_NW; i++) {
//@64        int kk = k0 + (K_PH_NW - 1 - i);
//@64        uint64_t w = ((uint64_t(PFXi_TWO_OVER_PI[kk]) << 32) | uint64_t(PFXi_TWO_OVER_PI[kk + 1])) >> sh;
//@64        v[i] = w & 0xFFFFFFFFUL;
//@64    }
//@64    uint64_t m[K_PH_ML];
//@64    for (int i = 0; i < K_PH_ML; i++) m[i] = (M >> (32 * i)) & 0xFFFFFFFFUL;
//@64    uint64_t pr[K_PH_NW + K_PH_ML];
//@64    for (int i = 0; i < K_PH_NW + K_PH_ML; i++) pr[i] = 0UL;
//@64    for (int i = 0; i < K_PH_ML; i++) {
//@64        uint64_t carry = 0UL;
//@64        for (int j = 0; j < K_PH_NW; j++) {
//@64            uint64_t t = m[i] * v[j] + pr[i + j] + carry;
//@64            pr[i + j] = t & 0xFFFFFFFFUL;
//@64            carry = t >> 32;
//@64        }
//@64        pr[i + K_PH_NW] = carry;
//@64    }
//@64    int qq = int(pr[K_PH_NW - 1] >> 30);
//@64    uint64_t A = (pr[K_PH_NW - 3] >> 30) | (pr[K_PH_NW - 2] << 2) | (pr[K_PH_NW - 1] << 34);
//@64    uint64_t B = (pr[K_PH_NW - 5] >> 30) | (pr[K_PH_NW - 4] << 2) | (pr[K_PH_NW - 3] << 34);
//@64    bool neg = (A >> 63) != 0UL;
//@64    if (neg) {
//@64        qq += 1;
//@64        uint64_t B2 = ~B + 1UL;
//@64        uint64_t A2 = ~A + (B == 0UL ? 1UL : 0UL);
//@64        A = A2; B = B2;
//@64    }
//@64    q = qq & 3;
//@64    uint64_t p1 = A >> 11;
//@64    uint64_t p2 = ((A & 0x7FFUL) << 42) | (B >> 22);
//@64    uint64_t p3 = B & 0x3FFFFFUL;
//@64    precise T f1 = T(p1) * K_PH_W1;
//@64    precise T f2 = T(p2) * K_PH_W2;
//@64    T h, l, ph, pl;
//@64    PFXi_fast_two_sum(f1, f2, h, l);
//@64    precise T l2 = l + T(p3) * K_PH_W3;
//@64    PFXi_two_prod(h, K_PIO2, ph, pl);
//@64    precise T pl2 = pl + (h * K_PIO2_L + l2 * K_PIO2);
//@64    T r1, r2;
//@64    PFXi_fast_two_sum(ph, pl2, r1, r2);
//@64    rh = neg ? -r1 : r1;
//@64    rl = neg ? -r2 : r2;
//@64}

//@32// Payne-Hanek: ax finite >= CW_MAX; ax = (4k + q)*pi/2 + (rh + rl).
//@32// 32-bit integer version (no int64 needed): same integers as the prototype's uint64 limbs.
//@32void PFXi_ph_reduce(T ax, out int q, out T rh, out T rl) {
//@32    int b = BITS(ax);
//@32    int e = ((b >> K_PM1) & 0xFF) - K_BIAS - K_PM1;
//@32    uint M = uint((b & K_MANT_MASK) | K_HIDDEN);
//@32    int g0 = max(e + 62, 0);
//@32    int k0 = g0 >> 5;
//@32    int s = g0 & 31;
//@32    uint v[5];
//@32    for (int i = 0; i < 5; i++) {
//@32        int kk = k0 + (4 - i);
//@32        uint w0 = PFXi_TWO_OVER_PI[kk], w1 = PFXi_TWO_OVER_PI[kk + 1];
//@32        v[i] = (s == 0) ? w0 : ((w0 << s) | (w1 >> (32 - s)));
//@32    }
//@32    uint pr[6];
//@32    uint carry = 0u;
//@32    for (int j = 0; j < 5; j++) {
//@32        uint hi, lo;
//@32        umulExtended(M, v[j], hi, lo);
//@32        uint lo2 = lo + carry;
//@32        pr[j] = lo2;
//@32        carry = hi + ((lo2 < lo) ? 1u : 0u);
//@32    }
//@32    pr[5] = carry;
//@32    int qq = int(pr[4] >> 30);
//@32    uint Alo = (pr[2] >> 30) | (pr[3] << 2), Ahi = (pr[3] >> 30) | (pr[4] << 2);
//@32    uint Blo = (pr[0] >> 30) | (pr[1] << 2), Bhi = (pr[1] >> 30) | (pr[2] << 2);
//@32    bool neg = (Ahi >> 31) != 0u;
//@32    if (neg) {
//@32        qq += 1;
//@32        bool bz = (Blo == 0u) && (Bhi == 0u);
//@32        uint nBlo = ~Blo + 1u;
//@32        uint nBhi = ~Bhi + ((Blo == 0u) ? 1u : 0u);
//@32        uint nAlo = ~Alo + (bz ? 1u : 0u);
//@32        uint nAhi = ~Ahi + ((bz && Alo == 0u) ? 1u : 0u);
//@32        Alo = nAlo; Ahi = nAhi; Blo = nBlo; Bhi = nBhi;
//@32    }
//@32    q = qq & 3;
//@32    uint p1 = Ahi >> 8;
//@32    uint p2 = ((Ahi << 16) | (Alo >> 16)) & 0xFFFFFFu;
//@32    uint p3 = ((Alo & 0xFFFFu) << 8) | (Bhi >> 24);
//@32    precise T f1 = T(p1) * K_PH_W1;
//@32    precise T f2 = T(p2) * K_PH_W2;
//@32    T h, l, ph, pl;
//@32    PFXi_fast_two_sum(f1, f2, h, l);
//@32    precise T l2 = l + T(p3) * K_PH_W3;
//@32    PFXi_two_prod(h, K_PIO2, ph, pl);
//@32    precise T pl2 = pl + (h * K_PIO2_L + l2 * K_PIO2);
//@32    T r1, r2;
//@32    PFXi_fast_two_sum(ph, pl2, r1, r2);
//@32    rh = neg ? -r1 : r1;
//@32    rl = neg ? -r2 : r2;
//@32}

void PFXi_trig_reduce(T x, out int q, out T rh, out T rl) {
    T ax = abs(x);
    if (ax < K_CW_MAX) {
        precise T n = roundEven(ax * K_INV_PIO2);
        precise T t = ax - n * K_PIO2_1;
        precise T w2 = n * K_PIO2_2;
        precise T w3 = n * K_PIO2_3;
        T r, e, e2;
        PFXi_two_sum(t, -w2, r, e);
        PFXi_two_sum(r, -w3, r, e2);
        precise T ee = (e + e2) - n * K_PIO2_4;
        PFXi_fast_two_sum(r, ee, rh, rl);
        q = int(n) & 3;
    } else {
        PFXi_ph_reduce(ax, q, rh, rl);
    }
    if (x < T(0)) { q = (4 - q) & 3; rh = -rh; rl = -rl; }
}

void PFXi_sincos_kernel(T r, T rl, out T sh, out T sl, out T ch, out T cl) {
    precise T z = r * r;
    precise T st = r * z * P_SIN(z) + rl * (T(1) - T(0.5) * z);
    PFXi_fast_two_sum(r, st, sh, sl);
    precise T hz = T(0.5) * z;
    precise T w = T(1) - hz;
    precise T ct = ((T(1) - w) - hz) + (z * z * P_COS(z) - r * rl);
    PFXi_fast_two_sum(w, ct, ch, cl);
}

T PFX_sin(T x) {
    if (isnan(x)) return x;
    if (isinf(x)) return K_NAN;
    if (x == T(0)) return x;
    int q; T r, rl, sh, sl, ch, cl;
    PFXi_trig_reduce(x, q, r, rl);
    PFXi_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise T res = ((q & 1) == 0) ? sh + sl : ch + cl;
    return (q >= 2) ? -res : res;
}

T PFX_cos(T x) {
    if (isnan(x)) return x;
    if (isinf(x)) return K_NAN;
    int q; T r, rl, sh, sl, ch, cl;
    PFXi_trig_reduce(x, q, r, rl);
    PFXi_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise T res = ((q & 1) == 0) ? ch + cl : sh + sl;
    return (q == 1 || q == 2) ? -res : res;
}

// finite x: sin x = sh + sl, cos x = ch + cl
void PFXi_sincos_dd(T x, out T sh, out T sl, out T ch, out T cl) {
    int q; T r, rl, ah, al, bh, bl;
    PFXi_trig_reduce(x, q, r, rl);
    PFXi_sincos_kernel(r, rl, ah, al, bh, bl);
    bool odd = (q & 1) == 1;
    T s1h = odd ? bh : ah, s1l = odd ? bl : al;
    T c1h = odd ? ah : bh, c1l = odd ? al : bl;
    bool ns = q >= 2;
    bool nc = (q == 1 || q == 2);
    sh = ns ? -s1h : s1h; sl = ns ? -s1l : s1l;
    ch = nc ? -c1h : c1h; cl = nc ? -c1l : c1l;
}

void PFX_sincos(T x, out T s, out T c) {
    if (isnan(x) || isinf(x)) { s = isnan(x) ? x : K_NAN; c = s; return; }
    int q; T r, rl, sh, sl, ch, cl;
    PFXi_trig_reduce(x, q, r, rl);
    PFXi_sincos_kernel(r, rl, sh, sl, ch, cl);
    precise T sv = ((q & 1) == 0) ? sh + sl : ch + cl;
    precise T cv = ((q & 1) == 0) ? ch + cl : sh + sl;
    s = (x == T(0)) ? x : ((q >= 2) ? -sv : sv);
    c = (q == 1 || q == 2) ? -cv : cv;
}

T PFX_tan(T x) {
    if (isnan(x)) return x;
    if (isinf(x)) return K_NAN;
    if (x == T(0)) return x;
    int q; T r, rl, sh, sl, ch, cl, th, tl;
    PFXi_trig_reduce(x, q, r, rl);
    PFXi_sincos_kernel(r, rl, sh, sl, ch, cl);
    bool odd = (q & 1) == 1;
    if (odd) PFXi_dd_div(ch, cl, sh, sl, th, tl);
    else     PFXi_dd_div(sh, sl, ch, cl, th, tl);
    precise T res = th + tl;
    return odd ? -res : res;
}

// ============================================================ inverse trig
const T PFXi_ATAN_TH[8] = T[8](TAB_ATAN_TH);
const T PFXi_ATAN_C[9] = T[9](TAB_ATAN_C);
const T PFXi_ATAN_H[9] = T[9](TAB_ATAN_H);
const T PFXi_ATAN_L[9] = T[9](TAB_ATAN_L);

// atan((yh+yl)/(xh+xl)) as (h, l); y >= 0, x >= 0, magnitudes <= ~4
void PFXi_atan_core(T yh, T yl, T xh, T xl, out T oh, out T ol) {
    precise T q = yh / xh;
    int i = 0;
    for (int k = 0; k < 8; k++) i += (q > PFXi_ATAN_TH[k]) ? 1 : 0;
    T nh, nl, dh, dl;
    if (i == 8) {
        nh = -xh; nl = -xl; dh = yh; dl = yl;
    } else {
        T Ci = PFXi_ATAN_C[i];
        T p1h, p1l, p2h, p2l;
        PFXi_two_prod(Ci, xh, p1h, p1l);
        PFXi_two_sum(yh, -p1h, nh, nl);
        precise T nl2 = nl + (yl - (p1l + Ci * xl));
        nl = nl2;
        PFXi_two_prod(Ci, yh, p2h, p2l);
        PFXi_two_sum(xh, p2h, dh, dl);
        precise T dl2 = dl + (xl + (p2l + Ci * yl));
        dl = dl2;
    }
    T t, tl;
    PFXi_dd_div(nh, nl, dh, dl, t, tl);
    precise T z = t * t;
    precise T tail = t * z * P_ATAN(z) + tl;
    T h, e;
    PFXi_two_sum(PFXi_ATAN_H[i], t, h, e);
    precise T l = e + (PFXi_ATAN_L[i] + tail);
    PFXi_fast_two_sum(h, l, oh, ol);
}

T PFX_atan(T x) {
    if (isnan(x)) return x;
    if (x == T(0)) return x;
    T ax = min(abs(x), K_ATAN_BIG);
    T h, l;
    PFXi_atan_core(ax, T(0), T(1), T(0), h, l);
    precise T res = h + l;
    return x < T(0) ? -res : res;
}

T PFX_atan2(T y, T x) {
    if (isnan(x) || isnan(y)) return K_NAN;
    bool xneg = PFXi_signbit(x);
    if (isinf(y) && isinf(x)) return PFXi_copysign(xneg ? K_PI34 : K_PIO4, y);
    if (isinf(y)) return PFXi_copysign(K_PIO2, y);
    if (isinf(x)) return PFXi_copysign(xneg ? K_PI : T(0), y);
    if (y == T(0)) return PFXi_copysign(xneg ? K_PI : T(0), y);
    if (x == T(0)) return PFXi_copysign(K_PIO2, y);
    T ay = abs(y), ax = abs(x);
    precise T res;
    if (ay < ax * K_ATAN_TINY) {
        res = (x < T(0)) ? K_PI : ay / ax;
    } else {
        int k = PFXi_ilogb_big(max(ay, ax));
        T ys = PFXi_scalbn(ay, -k);
        T xs = PFXi_scalbn(ax, -k);
        T h, l;
        PFXi_atan_core(ys, T(0), xs, T(0), h, l);
        if (x < T(0)) {
            T h2, e;
            PFXi_two_sum(K_PI, -h, h2, e);
            precise T l2 = e + (K_PI_L - l);
            res = h2 + l2;
        } else {
            res = h + l;
        }
    }
    return PFXi_copysign(res, y);
}

// w = 1 - ax^2 as (wh, wl), 0 <= ax <= 1
void PFXi_one_minus_sq(T ax, out T wh, out T wl) {
    T h, l;
    if (ax >= T(0.5)) {
        precise T a = T(1) - ax;
        T bh, bl;
        PFXi_two_sum(T(1), ax, bh, bl);
        PFXi_two_prod(a, bh, h, l);
        precise T l2 = l + a * bl;
        l = l2;
    } else {
        T sqh, sql;
        PFXi_two_prod(ax, ax, sqh, sql);
        PFXi_two_sum(T(1), -sqh, h, l);
        precise T l2 = l - sql;
        l = l2;
    }
    PFXi_fast_two_sum(h, l, wh, wl);
}

T PFX_asin(T x) {
    if (isnan(x)) return x;
    if (abs(x) > T(1)) return K_NAN;
    if (x == T(0)) return x;
    T ax = abs(x);
    T wh, wl, sh, sl, h, l;
    PFXi_one_minus_sq(ax, wh, wl);
    PFXi_dd_sqrt(wh, wl, sh, sl);
    precise T res;
    if (ax < sh * K_ATAN_TINY) {
        res = ax;
    } else if (sh == T(0)) {
        res = K_PIO2 + K_PIO2_L;
    } else {
        PFXi_atan_core(ax, T(0), sh, sl, h, l);
        res = h + l;
    }
    return x < T(0) ? -res : res;
}

T PFX_acos(T x) {
    if (isnan(x)) return x;
    if (abs(x) > T(1)) return K_NAN;
    T ax = abs(x);
    T wh, wl, sh, sl, h, l;
    PFXi_one_minus_sq(ax, wh, wl);
    PFXi_dd_sqrt(wh, wl, sh, sl);
    if (ax == T(0)) {
        h = K_PIO2; l = K_PIO2_L;
    } else if (sh < ax * K_ATAN_TINY) {
        h = sh / ax; l = T(0);
    } else {
        PFXi_atan_core(sh, sl, ax, T(0), h, l);
    }
    precise T res;
    if (x < T(0)) {
        T h2, e;
        PFXi_two_sum(K_PI, -h, h2, e);
        precise T l2 = e + (K_PI_L - l);
        res = h2 + l2;
    } else {
        res = h + l;
    }
    return res;
}

// ============================================================ hyperbolic
// e^a * 2^dn as (h, l), a finite <= SINH_OVF
void PFXi_exp_dd_scaled(T a, int dn, out T oh, out T ol) {
    T n, r, rl, h, l, eh, el;
    PFXi_exp_reduce(a, T(0), n, r, rl);
    PFXi_exp_kernel(r, rl, h, l);
    PFXi_fast_two_sum(T(1), h, eh, el);
    precise T el2 = el + l;
    int ni = int(n) + dn;
    oh = PFXi_scalbn(eh, ni);
    ol = PFXi_scalbn(el2, ni);
}

T PFX_sinh(T x) {
    if (isnan(x)) return x;
    if (abs(x) < K_TINY) return x;
    if (abs(x) > K_SINH_OVF) return PFXi_copysign(K_INF, x);
    T a = abs(x);
    precise T res;
    if (a < T(1)) {
        precise T z = a * a;
        res = a + a * z * P_SINH(z);
    } else {
        T eh, el, ih, il, dh, de;
        PFXi_exp_dd_scaled(a, -1, eh, el);
        if (a < K_TANH_ONE) { PFXi_dd_div(T(0.25), T(0), eh, el, ih, il); }
        else { ih = T(0); il = T(0); }
        PFXi_two_sum(eh, -ih, dh, de);
        res = dh + (de + (el - il));
    }
    return x < T(0) ? -res : res;
}

T PFX_cosh(T x) {
    if (isnan(x)) return x;
    if (abs(x) > K_SINH_OVF) return K_INF;
    T a = abs(x);
    T eh, el, ih, il, dh, de;
    PFXi_exp_dd_scaled(a, -1, eh, el);
    if (a < K_TANH_ONE) { PFXi_dd_div(T(0.25), T(0), eh, el, ih, il); }
    else { ih = T(0); il = T(0); }
    PFXi_two_sum(eh, ih, dh, de);
    precise T res = dh + (de + (el + il));
    return res;
}

T PFX_tanh(T x) {
    if (isnan(x)) return x;
    if (abs(x) < K_TINY) return x;
    if (abs(x) >= K_TANH_ONE) return PFXi_copysign(T(1), x);
    T a = abs(x);
    T eh, el, dh, dl, th, tl;
    PFXi_expm1_dd(a + a, eh, el);
    PFXi_two_sum(eh, T(2), dh, dl);
    precise T dl2 = dl + el;
    PFXi_dd_div(eh, el, dh, dl2, th, tl);
    precise T res = th + tl;
    return x < T(0) ? -res : res;
}

T PFXi_log_far(T a) {   // log(2a), a >= 1 finite
    int k; T m, hi, lo;
    PFXi_log_decompose(a, k, m);
    precise T f = m - T(1);
    PFXi_log1pf_kernel(f, hi, lo);
    return PFXi_log_finish(k + 1, hi, lo, K_LN2_H, K_LN2_L, T(1), T(0));
}

T PFX_asinh(T x) {
    if (isnan(x)) return x;
    if (abs(x) < K_TINY) return x;
    if (isinf(x)) return x;
    T a = abs(x);
    precise T res;
    if (a >= K_HUGE_AS) {
        res = PFXi_log_far(a);
    } else {
        T sh, sl, wh, wl, rh, rl, dh, dl, qh, ql, uh, ul;
        PFXi_two_prod(a, a, sh, sl);
        PFXi_two_sum(T(1), sh, wh, wl);
        precise T wl2 = wl + sl;
        PFXi_dd_sqrt(wh, wl2, rh, rl);
        PFXi_two_sum(T(1), rh, dh, dl);
        precise T dl2 = dl + rl;
        PFXi_dd_div(sh, sl, dh, dl2, qh, ql);
        PFXi_two_sum(a, qh, uh, ul);
        precise T ul2 = ul + ql;
        res = PFXi_log1p_core(uh, ul2, 0);
    }
    return x < T(0) ? -res : res;
}

T PFX_acosh(T x) {
    if (isnan(x)) return x;
    if (x < T(1)) return K_NAN;
    if (isinf(x)) return x;
    if (x >= K_HUGE_AS) return PFXi_log_far(x);
    precise T t = x - T(1);
    T bh, bl, ph, pl, rh, rl, uh, ul;
    PFXi_two_sum(t, T(2), bh, bl);
    PFXi_two_prod(t, bh, ph, pl);
    precise T pl2 = pl + t * bl;
    PFXi_dd_sqrt(ph, pl2, rh, rl);
    PFXi_two_sum(t, rh, uh, ul);
    precise T ul2 = ul + rl;
    return PFXi_log1p_core(uh, ul2, 0);
}

T PFX_atanh(T x) {
    if (isnan(x)) return x;
    if (abs(x) > T(1)) return K_NAN;
    if (x == T(1)) return K_INF;
    if (x == T(-1)) return -K_INF;
    if (abs(x) < K_TINY) return x;
    T a = abs(x);
    T dh, dl, qh, ql;
    PFXi_two_sum(T(1), -a, dh, dl);
    PFXi_dd_div(a + a, T(0), dh, dl, qh, ql);
    precise T res = T(0.5) * PFXi_log1p_core(qh, ql, 0);
    return x < T(0) ? -res : res;
}

// ============================================================ pow
// natural log of finite x > 0 as (h, l), ~2p-10 bits
void PFXi_log_dd(T x, out T oh, out T ol) {
    int k; T m;
    PFXi_log_decompose(x, k, m);
    precise T f = m - T(1);
    T dh, dl, ph, pl, zh, zl, ch, cl, t3h, t3l, h, l, l2;
    PFXi_two_sum(T(2), f, dh, dl);
    precise T sh = f / dh;
    PFXi_two_prod(sh, dh, ph, pl);
    precise T sl = (((f - ph) - pl) - sh * dl) / dh;
    PFXi_two_prod(sh, sh, zh, zl);
    precise T zl2 = zl + T(2) * sh * sl;
    PFXi_two_prod(zh, sh, ch, cl);
    precise T cl2 = cl + (zl2 * sh + zh * sl);
    PFXi_two_prod(K_C23, ch, t3h, t3l);
    precise T t3l2 = t3l + (K_C23 * cl2 + K_C23_L * ch);
    precise T t5 = sh * zh * zh * P_LOG5(zh);
    precise T kf = T(k);
    precise T kh = kf * K_LN2_H;
    precise T s2 = T(2) * sh;
    PFXi_two_sum(kh, s2, h, l);
    PFXi_two_sum(h, t3h, h, l2);
    precise T ll = l + (l2 + ((T(2) * sl + t3l2) + (t5 + kf * K_LN2_L)));
    PFXi_fast_two_sum(h, ll, oh, ol);
}

T PFX_pow(T x, T y) {
    if (y == T(0)) return T(1);
    if (x == T(1)) return T(1);
    if (isnan(x) || isnan(y)) return K_NAN;
    T ax = abs(x);
    if (isinf(y) && ax == T(1)) return T(1);
    if (y == K_INF) return ax > T(1) ? K_INF : T(0);
    if (y == -K_INF) return ax > T(1) ? T(0) : K_INF;
    bool yint = floor(y) == y;
    precise T hy = y * T(0.5);
    bool odd = yint && (floor(hy) != hy);
    if (x == K_INF) return y > T(0) ? K_INF : T(0);
    if (x == -K_INF) return y > T(0) ? (odd ? -K_INF : K_INF) : (odd ? -T(0) : T(0));
    if (x == T(0)) {
        bool ng = odd && PFXi_signbit(x);
        return y > T(0) ? (ng ? -T(0) : T(0)) : (ng ? -K_INF : K_INF);
    }
    if (x < T(0) && !yint) return K_NAN;
    if (ax == T(1)) return odd ? T(-1) : T(1);
    T lh, ll;
    PFXi_log_dd(ax, lh, ll);
    precise T zh = y * lh;
    precise T v;
    if (zh > K_POW_OVF) {
        v = K_INF;
    } else if (zh < K_POW_UNF) {
        v = T(0);
    } else {
        T ph, pl, ph2, pl2, n, r, rl, eh, el;
        PFXi_two_prod(y, lh, ph, pl);
        precise T pl1 = pl + y * ll;
        PFXi_fast_two_sum(ph, pl1, ph2, pl2);
        PFXi_exp_reduce(ph2, pl2, n, r, rl);
        PFXi_exp_kernel(r, rl, eh, el);
        precise T e1 = T(1) + (eh + el);
        v = PFXi_scalbn(e1, int(n));
    }
    return (x < T(0) && odd) ? -v : v;
}

// ============================================================ misc
T PFX_hypot(T x, T y) {
    if (isinf(x) || isinf(y)) return K_INF;
    if (isnan(x) || isnan(y)) return K_NAN;
    T ax = abs(x), ay = abs(y);
    T a = max(ax, ay), b = min(ax, ay);
    if (a == T(0)) return T(0);
    bool sub = a < K_MIN_NORMAL;
    if (sub) { a = a * K_TWO_P; b = b * K_TWO_P; }
    int k = PFXi_ilogb_big(a);
    T a2 = PFXi_scalbn(a, -k);
    T b2 = PFXi_scalbn(b, -k);
    T ph, pl, qh, ql, sh, sl, rh, rl;
    PFXi_two_prod(a2, a2, ph, pl);
    PFXi_two_prod(b2, b2, qh, ql);
    PFXi_two_sum(ph, qh, sh, sl);
    precise T sl2 = sl + (pl + ql);
    PFXi_dd_sqrt(sh, sl2, rh, rl);
    if (sub) k -= K_P;
    precise T r = rh + rl;
    return PFXi_scalbn(r, k);
}

// log(1 + x) as (h, l) for 0 <= x <= 1
void PFXi_log1p_dd(T xh, T xl, out T oh, out T ol) {
    bool direct = xh < K_SQRT2_M1;
    T u, c;
    PFXi_two_sum(T(1), xh, u, c);
    precise T c2 = c + xl;
    int k; T m, hi, lo, h, e;
    PFXi_log_decompose(direct ? T(1) : u, k, m);
    precise T f = direct ? xh : m - T(1);
    if (direct) k = 0;
    PFXi_log1pf_kernel(f, hi, lo);
    precise T lo2 = lo + (direct ? xl : c2 / u);
    precise T kf = T(k);
    precise T kh = kf * K_LN2_H;
    PFXi_two_sum(kh, hi, h, e);
    precise T l = e + (lo2 + kf * K_LN2_L);
    PFXi_fast_two_sum(h, l, oh, ol);
}

T PFX_logaddexp(T x, T y) {
    if (isnan(x) || isnan(y)) return K_NAN;
    T m = max(x, y);
    if (m == K_INF) return K_INF;
    if (m == -K_INF) return -K_INF;
    precise T d = -abs(x - y);
    if (!(d >= K_EXP_UNF)) return (m == T(0)) ? T(0) : m;   // log1p(e^d) = +0; x - y overflow too
    T eh, el, lh, ll, h, e;
    PFXi_exp_dd_scaled(d, 0, eh, el);
    PFXi_log1p_dd(eh, el, lh, ll);
    PFXi_two_sum(m, lh, h, e);
    precise T res = h + (e + ll);
    return res;
}
