#ifndef COMPLEX_MATH_GLSL
#define COMPLEX_MATH_GLSL
// Complex elementary functions, generated from scripts/mathproto/complex_template.glsl by
// scripts/mathproto/gen_glsl.py (prototypes: scripts/mathproto/cplx.py) -- edit those, not this file.
//
// complex64  = vec2  (x = real, y = imag): c64_*   -- always available
// complex128 = dvec2 (x = real, y = imag): c128_*  -- only if math_f64.glsl was included BEFORE this file
//   exp expm1 log log1p sqrt sin cos tan sinh cosh tanh asin acos atan asinh acosh atanh  (V f(V z))
//   mul div pow  (V f(V z, V w)),  abs  (T f(V z))
// Special cases follow C99 Annex G as the Array API standard lists them (incl. expm1, tanh).
// Needs: #version 450, GL_GOOGLE_include_directive (it includes math_f32.glsl); c64_* need neither
// shaderFloat64 nor shaderInt64, c128_* need what math_f64.glsl needs (GL_ARB_gpu_shader_int64).
#include "math_f32.glsl"

// ------------------------------------------------------------------ c64_ (complex of float)
// line-by-line transliteration of scripts/mathproto/cplx.py

float c64i_cs(float a, float s) { return f32i_copysign(a, s); }

float c64_abs(vec2 z) { return f32_hypot(z.x, z.y); }

// (+-inf) * v with C99 semantics (inf * 0 = NaN), sign of s*v, without inf arithmetic
float c64i_inf_mul(float s, float v) { return (isnan(v) || v == float(0)) ? uintBitsToFloat(0x7FC00000u) : f32i_signprod(uintBitsToFloat(0x7F800000u), s, v); }
// +0 * v for finite v
float c64i_zero_mul(float v) { return f32i_signprod(float(0), float(1), v); }

vec2 c64_mul(vec2 z, vec2 w) {
    float a = z.x, b = z.y, c = w.x, d = w.y;
    precise float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    precise float x = ac - bd;
    precise float y = ad + bc;
    float m = max(max(abs(a), abs(b)), max(abs(c), abs(d)));
    if (m < 5.192296858534828e+33) {
        float p1, e1, p2, e2, p3, e3, p4, e4, s, se;
        f32i_two_prod(a, c, p1, e1);
        f32i_two_prod(b, d, p2, e2);
        f32i_two_sum(p1, -p2, s, se);
        x = s + (se + (e1 - e2));
        f32i_two_prod(a, d, p3, e3);
        f32i_two_prod(b, c, p4, e4);
        f32i_two_sum(p3, p4, s, se);
        y = s + (se + (e3 + e4));
    }
    if (isnan(x) && isnan(y)) {        // C99 Annex G: recover infinities
        bool abi = isinf(a) || isinf(b);
        bool cdi = isinf(c) || isinf(d);
        bool ovf = !abi && !cdi && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc));
        if (abi) {
            a = c64i_cs(isinf(a) ? float(1) : float(0), a); b = c64i_cs(isinf(b) ? float(1) : float(0), b);
            if (isnan(c)) c = c64i_cs(float(0), c);
            if (isnan(d)) d = c64i_cs(float(0), d);
        }
        if (cdi) {
            c = c64i_cs(isinf(c) ? float(1) : float(0), c); d = c64i_cs(isinf(d) ? float(1) : float(0), d);
            if (isnan(a)) a = c64i_cs(float(0), a);
            if (isnan(b)) b = c64i_cs(float(0), b);
        }
        if (ovf) {
            if (isnan(a)) a = c64i_cs(float(0), a);
            if (isnan(b)) b = c64i_cs(float(0), b);
            if (isnan(c)) c = c64i_cs(float(0), c);
            if (isnan(d)) d = c64i_cs(float(0), d);
        }
        if (abi || cdi || ovf) {
            precise float xi = a * c - b * d;
            precise float yi = a * d + b * c;
            x = c64i_inf_mul(float(1), xi);
            y = c64i_inf_mul(float(1), yi);
        }
    }
    return vec2(x, y);
}

vec2 c64_div(vec2 z, vec2 w) {
    float a = z.x, b = z.y, c = w.x, d = w.y;
    bool winf = isinf(c) || isinf(d);          // C99's fmax(|c|, |d|) = inf (NaN ignored)
    float m = max(abs(c), abs(d));
    bool okm = !winf && !isnan(c) && !isnan(d) && m > float(0);
    float mm = okm ? m : float(1);
    bool sub = mm < 1.1754943508222875e-38;
    if (sub) mm = mm * 16777216.0;
    int k = f32i_ilogb_big(mm);
    if (sub) k -= 24;
    if (!okm) k = 0;
    float cs = f32i_scalbn(c, -k);
    float ds = f32i_scalbn(d, -k);
    precise float den = cs * cs + ds * ds;
    precise float xn = (a * cs + b * ds) / den;
    precise float yn = (b * cs - a * ds) / den;
    float x = f32i_scalbn(xn, -k);
    float y = f32i_scalbn(yn, -k);
    if (isnan(x) && isnan(y)) {
        if (den == float(0) && (!isnan(a) || !isnan(b))) {
            x = c64i_inf_mul(c, a); y = c64i_inf_mul(c, b);
        } else if ((isinf(a) || isinf(b)) && !isinf(c) && !isnan(c) && !isinf(d) && !isnan(d)) {
            float a2 = c64i_cs(isinf(a) ? float(1) : float(0), a);
            float b2 = c64i_cs(isinf(b) ? float(1) : float(0), b);
            precise float xi = a2 * c + b2 * d;
            precise float yi = b2 * c - a2 * d;
            x = c64i_inf_mul(float(1), xi);
            y = c64i_inf_mul(float(1), yi);
        } else if (winf && !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b)) {
            float c3 = c64i_cs(isinf(c) ? float(1) : float(0), c);
            float d3 = c64i_cs(isinf(d) ? float(1) : float(0), d);
            precise float xi = a * c3 + b * d3;
            precise float yi = b * c3 - a * d3;
            x = c64i_zero_mul(xi);
            y = c64i_zero_mul(yi);
        }
    }
    return vec2(x, y);
}

vec2 c64_exp(vec2 z) {
    float a = z.x, b = z.y;
    if (isnan(a)) return (b == float(0)) ? vec2(a, b) : vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (a == uintBitsToFloat(0x7F800000u)) {
        if (b == float(0)) return vec2(uintBitsToFloat(0x7F800000u), b);
        if (isinf(b) || isnan(b)) return vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0x7FC00000u));
        float sb, cb; f32_sincos(b, sb, cb);
        return vec2(c64i_inf_mul(float(1), cb), c64i_inf_mul(float(1), sb));
    }
    if (a == -uintBitsToFloat(0x7F800000u)) {
        if (isinf(b) || isnan(b)) return vec2(float(0), c64i_cs(float(0), b));
        float sb, cb; f32_sincos(b, sb, cb);
        return vec2(c64i_zero_mul(cb), c64i_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (b == float(0)) return vec2(f32_exp(a), b);
    float s, c;
    f32_sincos(b, s, c);
    bool big = a > 87.72283172607422;
    float e = f32_exp(big ? a * float(0.5) : a);
    if (isinf(e)) return vec2(c64i_inf_mul(float(1), c), c64i_inf_mul(float(1), s));
    precise float re = big ? (e * c) * e : e * c;
    precise float im = big ? (e * s) * e : e * s;
    return vec2(re, im);
}

vec2 c64_expm1(vec2 z) {
    float a = z.x, b = z.y;
    if (isnan(a)) return (b == float(0)) ? vec2(a, b) : vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (a == uintBitsToFloat(0x7F800000u)) {
        if (b == float(0)) return vec2(uintBitsToFloat(0x7F800000u), b);
        if (isinf(b) || isnan(b)) return vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0x7FC00000u));
        float sb, cb; f32_sincos(b, sb, cb);
        return vec2(c64i_inf_mul(float(1), cb), c64i_inf_mul(float(1), sb));
    }
    if (a == -uintBitsToFloat(0x7F800000u)) {
        if (isinf(b) || isnan(b)) return vec2(float(-1), c64i_cs(float(0), b));
        float sb, cb; f32_sincos(b, sb, cb);
        return vec2(float(-1), c64i_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (b == float(0)) return vec2(a == float(0) ? float(0) : f32_expm1(a), b);   // the standard: (+-0 + 0j) -> 0 + 0j
    float s, c;
    f32_sincos(b, s, c);
    bool big = a > 87.72283172607422;
    float e = f32_exp(big ? a * float(0.5) : a);
    if (isinf(e)) return vec2(c64i_inf_mul(float(1), c), c64i_inf_mul(float(1), s));
    if (big) {
        precise float re = (e * c) * e;
        precise float im = (e * s) * e;
        return vec2(re, im);
    }
    if (a > 78.71192932128906) {
        // e^a this large: the double-double products overflow, and e^a cos b is far from 1
        // (|cos b| of a representable b is at least about 2^-p), so the plain form loses nothing.
        precise float re = e * c - float(1);
        precise float im = e * s;
        return vec2(re, im);
    }
    // re = expm1(a) cos b - 2 sin^2(b/2) in double-double
    float emh, eml;
    if (a < -18.71497344970703) { emh = float(-1); eml = float(0); }
    else f32i_expm1_dd(a, emh, eml);
    float hh, hl, ch, cl, t1, t2, qh, ql, ph, pl, rh, rl;
    f32i_sincos_dd(b * float(0.5), hh, hl, t1, t2);
    f32i_sincos_dd(b, t1, t2, ch, cl);
    f32i_two_prod(hh, hh, qh, ql);
    precise float ql2 = ql + float(2) * hh * hl;
    f32i_two_prod(emh, ch, ph, pl);
    precise float pl2 = pl + (emh * cl + eml * ch);
    precise float q2 = qh + qh;
    f32i_two_sum(ph, -q2, rh, rl);
    precise float rl2 = rl + (pl2 - (ql2 + ql2));
    precise float re = rh + rl2;
    precise float im = e * s;
    return vec2(re, im);
}

// log|a + bi| for finite (a, b) not both zero
float c64i_log_abs(float a, float b) {
    float h = max(abs(a), abs(b));
    float l = min(abs(a), abs(b));
    if (h >= float(0.5) && h < float(2)) {
        float hh, hl, lh, ll, t, e1, e2, uh, ul;
        f32i_two_prod(h, h, hh, hl);
        f32i_two_prod(l, l, lh, ll);
        f32i_two_sum(hh, float(-1), t, e1);
        f32i_two_sum(t, lh, t, e2);
        precise float lo = (e1 + e2) + (hl + ll);
        f32i_two_sum(t, lo, uh, ul);
        precise float r = float(0.5) * f32i_log1p_core(uh, ul, 0);
        return r;
    }
    bool sub = h < 1.1754943508222875e-38;
    float h2 = sub ? h * 16777216.0 : h;
    float l2 = sub ? l * 16777216.0 : l;
    int k = f32i_ilogb_big(h2);
    float hs = f32i_scalbn(h2, -k);
    float ls = f32i_scalbn(l2, -k);
    precise float r = sqrt(hs * hs + ls * ls);
    int kk; float m, hi, lo;
    f32i_log_decompose(r, kk, m);
    precise float f = m - float(1);
    f32i_log1pf_kernel(f, hi, lo);
    return f32i_log_finish(kk + k - (sub ? 24 : 0), hi, lo, 0.693145751953125, 1.428606765330187e-06, float(1), float(0));
}

vec2 c64_log(vec2 z) {
    float a = z.x, b = z.y;
    if (isnan(a)) return vec2(isinf(b) ? uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (isnan(b)) return vec2(isinf(a) ? uintBitsToFloat(0x7F800000u) : uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    float im = f32_atan2(b, a);
    if (isinf(a) || isinf(b)) return vec2(uintBitsToFloat(0x7F800000u), im);
    if (a == float(0) && b == float(0)) return vec2(-uintBitsToFloat(0x7F800000u), im);
    return vec2(c64i_log_abs(a, b), im);
}

vec2 c64_log1p(vec2 z) {
    float a = z.x, b = z.y;
    precise float w = float(1) + a;
    float h = max(abs(a), abs(b));
    bool fin = !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b);
    if (!fin || h >= 8192.0 || (abs(w) < float(0.5) && abs(b) < float(0.5))) return c64_log(vec2(w, b));
    float a2h, a2l, b2h, b2l, t, e1, e2, uh, ul;
    f32i_two_prod(a, a, a2h, a2l);
    f32i_two_prod(b, b, b2h, b2l);
    f32i_two_sum(a + a, a2h, t, e1);
    f32i_two_sum(t, b2h, t, e2);
    precise float lo = (e1 + e2) + (a2l + b2l);
    f32i_two_sum(t, lo, uh, ul);
    precise float re = float(0.5) * f32i_log1p_core(uh, ul, 0);
    return vec2(re, f32_atan2(b, w));
}

vec2 c64_sqrt(vec2 z) {
    float a = z.x, b = z.y;
    if (isinf(b)) return vec2(uintBitsToFloat(0x7F800000u), b);
    if (isnan(a)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (a == -uintBitsToFloat(0x7F800000u)) return vec2(isnan(b) ? uintBitsToFloat(0x7FC00000u) : float(0), c64i_cs(uintBitsToFloat(0x7F800000u), b));
    if (a == uintBitsToFloat(0x7F800000u)) return vec2(uintBitsToFloat(0x7F800000u), isnan(b) ? uintBitsToFloat(0x7FC00000u) : c64i_cs(float(0), b));
    if (isnan(b)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (a == float(0) && b == float(0)) return vec2(float(0), b);
    float h = max(abs(a), abs(b));
    bool sub = h < 1.1754943508222875e-38;
    float a1 = sub ? a * 281474976710656.0 : a;
    float b1 = sub ? b * 281474976710656.0 : b;
    float h1 = sub ? h * 281474976710656.0 : h;
    int k = f32i_ilogb_big(h1) & ~1;
    float a2 = f32i_scalbn(a1, -k);
    float b2 = f32i_scalbn(b1, -k);
    float ph, pl, qh, ql, sh, sl, rh, rl;
    f32i_two_prod(a2, a2, ph, pl);
    f32i_two_prod(b2, b2, qh, ql);
    f32i_two_sum(ph, qh, sh, sl);
    precise float sl2 = sl + (pl + ql);
    f32i_dd_sqrt(sh, sl2, rh, rl);
    precise float t = sqrt((abs(a2) + (rh + rl)) * float(0.5));
    int kh = (k >> 1) - (sub ? 24 : 0);
    float TT = f32i_scalbn(t, kh);
    precise float o = (abs(b) / TT) * float(0.5);
    if (a >= float(0)) return vec2(TT, c64i_cs(o, b));
    return vec2(o, c64i_cs(TT, b));
}

// (sinh(a) cos b + i cosh(a) sin b) or (cosh(a) cos b + i sinh(a) sin b), finite a, b
vec2 c64i_sinh_cosh(float a, float b, bool want_sinh) {
    float s, c;
    f32_sincos(b, s, c);
    if (abs(a) > 87.72283172607422) {
        float e = f32_exp(abs(a) * float(0.5));
        if (isinf(e)) {
            float sc = want_sinh ? a : float(1), ss = want_sinh ? float(1) : a;
            return vec2(c64i_inf_mul(sc, c), c64i_inf_mul(ss, s));
        }
        precise float eh = e * float(0.5);
        precise float vc = (eh * c) * e;
        precise float vs = (eh * s) * e;
        if (want_sinh) return vec2(a < float(0) ? -vc : vc, vs);
        return vec2(vc, a < float(0) ? -vs : vs);
    }
    float sh = f32_sinh(a), ch = f32_cosh(a);
    precise float r1 = sh * c, r2 = ch * s, r3 = ch * c, r4 = sh * s;
    return want_sinh ? vec2(r1, r2) : vec2(r3, r4);
}

vec2 c64_sinh(vec2 z) {
    float a = z.x, b = z.y;
    if (b == float(0)) return vec2(f32_sinh(a), b);
    bool bfin = !isinf(b) && !isnan(b);
    if (a == float(0) && !bfin) return vec2(a, uintBitsToFloat(0x7FC00000u));
    if (isinf(a) && !bfin) return vec2(a, uintBitsToFloat(0x7FC00000u));
    if (isinf(a)) return vec2(c64i_inf_mul(a, f32_cos(b)), c64i_inf_mul(float(1), f32_sin(b)));
    if (isnan(a) || !bfin) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    return c64i_sinh_cosh(a, b, true);
}

vec2 c64_cosh(vec2 z) {
    float a = z.x, b = z.y;
    if (b == float(0)) return vec2(f32_cosh(a), f32i_signprod(float(0), a, b));
    bool bfin = !isinf(b) && !isnan(b);
    if (a == float(0) && !bfin) return vec2(uintBitsToFloat(0x7FC00000u), f32i_signprod(float(0), a, b));
    if (isinf(a) && !bfin) return vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0x7FC00000u));
    if (isinf(a)) return vec2(c64i_inf_mul(float(1), f32_cos(b)), c64i_inf_mul(a, f32_sin(b)));
    if (isnan(a) || !bfin) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    return c64i_sinh_cosh(a, b, false);
}

vec2 c64_tanh(vec2 z) {
    float a = z.x, b = z.y;
    if (isnan(a)) return vec2(a, b == float(0) ? b : uintBitsToFloat(0x7FC00000u));
    if (isinf(a)) return vec2(c64i_cs(float(1), a), c64i_cs(float(0), b));
    if (isinf(b) || isnan(b)) return vec2(a == float(0) ? a : uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (b == float(0)) return vec2(f32_tanh(a), b);
    if (abs(a) >= 10.0) {
        float s, c;
        f32_sincos(b, s, c);
        precise float ib = float(4) * s * c * f32_exp(float(-2) * abs(a));
        return vec2(c64i_cs(float(1), a), ib);
    }
    float t = f32_tan(b);
    float sh = f32_sinh(a);
    precise float beta = float(1) + t * t;
    precise float rho = sqrt(float(1) + sh * sh);
    precise float den = float(1) + beta * sh * sh;
    precise float re = (beta * rho * sh) / den;
    precise float im = t / den;
    return vec2(re, im);
}

vec2 c64_sin(vec2 z) { vec2 r = c64_sinh(vec2(-z.y, z.x)); return vec2(r.y, -r.x); }
vec2 c64_cos(vec2 z) { return c64_cosh(vec2(-z.y, z.x)); }
vec2 c64_tan(vec2 z) { vec2 r = c64_tanh(vec2(-z.y, z.x)); return vec2(r.y, -r.x); }

vec2 c64_asinh(vec2 z) {
    float a = z.x, b = z.y;
    if (isinf(a)) return vec2(a, isnan(b) ? uintBitsToFloat(0x7FC00000u) : c64i_cs(isinf(b) ? 0.7853981852531433 : float(0), b));
    if (isinf(b)) return isnan(a) ? vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0x7FC00000u)) : vec2(c64i_cs(uintBitsToFloat(0x7F800000u), a), c64i_cs(1.5707963705062866, b));
    if (isnan(a)) return vec2(a, b == float(0) ? b : uintBitsToFloat(0x7FC00000u));
    if (isnan(b)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    // Kahan: asinh(z) = -i asin(iz), iz = x + iy = -|b| + i|a|
    float x = -abs(b), y = abs(a);
    vec2 s1 = c64_sqrt(vec2(float(1) - x, -y));
    vec2 s2 = c64_sqrt(vec2(float(1) + x, y));
    precise float d1 = s1.x * s2.x - s1.y * s2.y;
    precise float d2 = s1.x * s2.y - s1.y * s2.x;
    float R = f32_atan2(x, d1);
    float I = f32_asinh(d2);
    return vec2(c64i_cs(I, a), c64i_cs(-R, b));
}

vec2 c64_asin(vec2 z) { vec2 r = c64_asinh(vec2(-z.y, z.x)); return vec2(r.y, -r.x); }

vec2 c64_acosh(vec2 z) {
    float a = z.x, b = z.y;
    float im;
    vec2 r;
    if (isinf(b)) r = vec2(uintBitsToFloat(0x7F800000u), isnan(a) ? uintBitsToFloat(0x7FC00000u) : (a == uintBitsToFloat(0x7F800000u) ? 0.7853981852531433 : (a == -uintBitsToFloat(0x7F800000u) ? 2.356194496154785 : 1.5707963705062866)));
    else if (isinf(a)) r = vec2(uintBitsToFloat(0x7F800000u), isnan(b) ? uintBitsToFloat(0x7FC00000u) : (a > float(0) ? float(0) : 3.1415927410125732));
    else if (isnan(a)) r = vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    else if (isnan(b)) r = vec2(uintBitsToFloat(0x7FC00000u), a == float(0) ? 1.5707963705062866 : uintBitsToFloat(0x7FC00000u));
    else if (a == float(0) && b == float(0)) r = vec2(float(0), 1.5707963705062866);
    else {
        float bb = abs(b);
        vec2 t1 = c64_sqrt(vec2(a - float(1), bb));
        vec2 t2 = c64_sqrt(vec2(a + float(1), bb));
        precise float d = t1.x * t2.x + t1.y * t2.y;
        precise float i2 = float(2) * f32_atan2(t1.y, t2.x);
        r = vec2(f32_asinh(d), i2);
    }
    return vec2(r.x, c64i_cs(r.y, b));
}

vec2 c64_acos(vec2 z) {
    vec2 r = c64_acosh(vec2(z.x, abs(z.y)));
    return vec2(r.y, f32i_signbit(z.y) ? r.x : -r.x);
}

vec2 c64_atanh(vec2 z) {
    float a = z.x, b = z.y;
    if (isinf(b)) return vec2(c64i_cs(float(0), a), c64i_cs(1.5707963705062866, b));
    if (isinf(a)) return vec2(c64i_cs(float(0), a), isnan(b) ? uintBitsToFloat(0x7FC00000u) : c64i_cs(1.5707963705062866, b));
    if (isnan(a)) return vec2(uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (isnan(b)) return vec2(a == float(0) ? a : uintBitsToFloat(0x7FC00000u), uintBitsToFloat(0x7FC00000u));
    if (abs(a) == float(1) && b == float(0)) return vec2(c64i_cs(uintBitsToFloat(0x7F800000u), a), b);
    float x = abs(a), y = abs(b);
    float h = max(x, y);
    precise float re, im;
    if (h >= 8192.0) {
        int k = f32i_ilogb_big(h);
        float xs = f32i_scalbn(x, -k);
        float ys = f32i_scalbn(y, -k);
        precise float d2 = xs * xs + ys * ys;
        re = f32i_scalbn(xs / d2, -k);
        im = 1.5707963705062866 - f32i_scalbn(ys / d2, -k);
    } else {
        precise float om = float(1) - x;
        precise float den = om * om + y * y;
        precise float q = (float(4) * x) / den;
        re = float(0.25) * f32_log1p(q);
        if (den < 1.9721522630525295e-31) {
            // Near +-1 with a tiny imaginary part the squares underflow: take the logs apart,
            // log((1 - x)^2 + y^2) as 2 log(hypot(1 - x, y)), which does not underflow.
            re = float(0.25) * f32_log((float(1) + x) * (float(1) + x) + y * y) - float(0.5) * f32_log(f32_hypot(om, y));
        }
        float u1, u1l, v1, v1l, ph, pl, qh, ql, dh, dl;
        f32i_two_sum(float(1), -x, u1, u1l);
        f32i_two_sum(float(1), x, v1, v1l);
        f32i_two_prod(u1, v1, ph, pl);
        precise float pl2 = pl + (u1 * v1l + u1l * v1);
        f32i_two_prod(y, y, qh, ql);
        f32i_two_sum(ph, -qh, dh, dl);
        precise float dl2 = dl + (pl2 - ql);
        im = float(0.5) * f32_atan2(y + y, dh + dl2);
    }
    return vec2(c64i_cs(re, a), c64i_cs(im, b));
}

vec2 c64_atan(vec2 z) { vec2 r = c64_atanh(vec2(-z.y, z.x)); return vec2(r.y, -r.x); }

// z ** w: exp(w log z), but for a nonzero z and an integral real w with |w| < 100, repeated
// squaring (numpy's npy_cpow) by the compensated multiply: products are exact where they can be
// ((i y) ** 3 is purely imaginary), then the reciprocal for w < 0
// (floor, not trunc: Mesa 22.3 lavapipe's trunc of doubles is wrong near 2^52, docs/kernels.md)
vec2 c64_pow(vec2 z, vec2 w) {
    if (w.x == float(0) && w.y == float(0)) return vec2(float(1), float(0));
    if (w.y == float(0) && abs(w.x) < float(100) && w.x == floor(w.x) && (z.x != float(0) || z.y != float(0))) {
        int n = int(abs(w.x));
        vec2 acc = z, p = z;
        bool first = (n & 1) != 0;
        n >>= 1;
        while (n != 0) {
            p = c64_mul(p, p);
            if ((n & 1) != 0) {
                acc = first ? c64_mul(acc, p) : p;
                first = true;
            }
            n >>= 1;
        }
        return w.x < float(0) ? c64_div(vec2(float(1), float(0)), acc) : acc;
    }
    return c64_exp(c64_mul(w, c64_log(z)));
}

#ifdef MATH_F64_GLSL
// ------------------------------------------------------------------ c128_ (complex of double)
// line-by-line transliteration of scripts/mathproto/cplx.py

double c128i_cs(double a, double s) { return f64i_copysign(a, s); }

double c128_abs(dvec2 z) { return f64_hypot(z.x, z.y); }

// (+-inf) * v with C99 semantics (inf * 0 = NaN), sign of s*v, without inf arithmetic
double c128i_inf_mul(double s, double v) { return (isnan(v) || v == double(0)) ? uint64BitsToDouble(0x7FF8000000000000UL) : f64i_signprod(uint64BitsToDouble(0x7FF0000000000000UL), s, v); }
// +0 * v for finite v
double c128i_zero_mul(double v) { return f64i_signprod(double(0), double(1), v); }

dvec2 c128_mul(dvec2 z, dvec2 w) {
    double a = z.x, b = z.y, c = w.x, d = w.y;
    precise double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    precise double x = ac - bd;
    precise double y = ad + bc;
    double m = max(max(abs(a), abs(b)), max(abs(c), abs(d)));
    if (m < 8.371160993642713e+298LF) {
        double p1, e1, p2, e2, p3, e3, p4, e4, s, se;
        f64i_two_prod(a, c, p1, e1);
        f64i_two_prod(b, d, p2, e2);
        f64i_two_sum(p1, -p2, s, se);
        x = s + (se + (e1 - e2));
        f64i_two_prod(a, d, p3, e3);
        f64i_two_prod(b, c, p4, e4);
        f64i_two_sum(p3, p4, s, se);
        y = s + (se + (e3 + e4));
    }
    if (isnan(x) && isnan(y)) {        // C99 Annex G: recover infinities
        bool abi = isinf(a) || isinf(b);
        bool cdi = isinf(c) || isinf(d);
        bool ovf = !abi && !cdi && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc));
        if (abi) {
            a = c128i_cs(isinf(a) ? double(1) : double(0), a); b = c128i_cs(isinf(b) ? double(1) : double(0), b);
            if (isnan(c)) c = c128i_cs(double(0), c);
            if (isnan(d)) d = c128i_cs(double(0), d);
        }
        if (cdi) {
            c = c128i_cs(isinf(c) ? double(1) : double(0), c); d = c128i_cs(isinf(d) ? double(1) : double(0), d);
            if (isnan(a)) a = c128i_cs(double(0), a);
            if (isnan(b)) b = c128i_cs(double(0), b);
        }
        if (ovf) {
            if (isnan(a)) a = c128i_cs(double(0), a);
            if (isnan(b)) b = c128i_cs(double(0), b);
            if (isnan(c)) c = c128i_cs(double(0), c);
            if (isnan(d)) d = c128i_cs(double(0), d);
        }
        if (abi || cdi || ovf) {
            precise double xi = a * c - b * d;
            precise double yi = a * d + b * c;
            x = c128i_inf_mul(double(1), xi);
            y = c128i_inf_mul(double(1), yi);
        }
    }
    return dvec2(x, y);
}

dvec2 c128_div(dvec2 z, dvec2 w) {
    double a = z.x, b = z.y, c = w.x, d = w.y;
    bool winf = isinf(c) || isinf(d);          // C99's fmax(|c|, |d|) = inf (NaN ignored)
    double m = max(abs(c), abs(d));
    bool okm = !winf && !isnan(c) && !isnan(d) && m > double(0);
    double mm = okm ? m : double(1);
    bool sub = mm < 2.2250738585072014e-308LF;
    if (sub) mm = mm * 9007199254740992.0LF;
    int k = f64i_ilogb_big(mm);
    if (sub) k -= 53;
    if (!okm) k = 0;
    double cs = f64i_scalbn(c, -k);
    double ds = f64i_scalbn(d, -k);
    precise double den = cs * cs + ds * ds;
    precise double xn = (a * cs + b * ds) / den;
    precise double yn = (b * cs - a * ds) / den;
    double x = f64i_scalbn(xn, -k);
    double y = f64i_scalbn(yn, -k);
    if (isnan(x) && isnan(y)) {
        if (den == double(0) && (!isnan(a) || !isnan(b))) {
            x = c128i_inf_mul(c, a); y = c128i_inf_mul(c, b);
        } else if ((isinf(a) || isinf(b)) && !isinf(c) && !isnan(c) && !isinf(d) && !isnan(d)) {
            double a2 = c128i_cs(isinf(a) ? double(1) : double(0), a);
            double b2 = c128i_cs(isinf(b) ? double(1) : double(0), b);
            precise double xi = a2 * c + b2 * d;
            precise double yi = b2 * c - a2 * d;
            x = c128i_inf_mul(double(1), xi);
            y = c128i_inf_mul(double(1), yi);
        } else if (winf && !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b)) {
            double c3 = c128i_cs(isinf(c) ? double(1) : double(0), c);
            double d3 = c128i_cs(isinf(d) ? double(1) : double(0), d);
            precise double xi = a * c3 + b * d3;
            precise double yi = b * c3 - a * d3;
            x = c128i_zero_mul(xi);
            y = c128i_zero_mul(yi);
        }
    }
    return dvec2(x, y);
}

dvec2 c128_exp(dvec2 z) {
    double a = z.x, b = z.y;
    if (isnan(a)) return (b == double(0)) ? dvec2(a, b) : dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (a == uint64BitsToDouble(0x7FF0000000000000UL)) {
        if (b == double(0)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), b);
        if (isinf(b) || isnan(b)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
        double sb, cb; f64_sincos(b, sb, cb);
        return dvec2(c128i_inf_mul(double(1), cb), c128i_inf_mul(double(1), sb));
    }
    if (a == -uint64BitsToDouble(0x7FF0000000000000UL)) {
        if (isinf(b) || isnan(b)) return dvec2(double(0), c128i_cs(double(0), b));
        double sb, cb; f64_sincos(b, sb, cb);
        return dvec2(c128i_zero_mul(cb), c128i_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (b == double(0)) return dvec2(f64_exp(a), b);
    double s, c;
    f64_sincos(b, s, c);
    bool big = a > 708.782712893384LF;
    double e = f64_exp(big ? a * double(0.5) : a);
    if (isinf(e)) return dvec2(c128i_inf_mul(double(1), c), c128i_inf_mul(double(1), s));
    precise double re = big ? (e * c) * e : e * c;
    precise double im = big ? (e * s) * e : e * s;
    return dvec2(re, im);
}

dvec2 c128_expm1(dvec2 z) {
    double a = z.x, b = z.y;
    if (isnan(a)) return (b == double(0)) ? dvec2(a, b) : dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (a == uint64BitsToDouble(0x7FF0000000000000UL)) {
        if (b == double(0)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), b);
        if (isinf(b) || isnan(b)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
        double sb, cb; f64_sincos(b, sb, cb);
        return dvec2(c128i_inf_mul(double(1), cb), c128i_inf_mul(double(1), sb));
    }
    if (a == -uint64BitsToDouble(0x7FF0000000000000UL)) {
        if (isinf(b) || isnan(b)) return dvec2(double(-1), c128i_cs(double(0), b));
        double sb, cb; f64_sincos(b, sb, cb);
        return dvec2(double(-1), c128i_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (b == double(0)) return dvec2(a == double(0) ? double(0) : f64_expm1(a), b);   // the standard: (+-0 + 0j) -> 0 + 0j
    double s, c;
    f64_sincos(b, s, c);
    bool big = a > 708.782712893384LF;
    double e = f64_exp(big ? a * double(0.5) : a);
    if (isinf(e)) return dvec2(c128i_inf_mul(double(1), c), c128i_inf_mul(double(1), s));
    if (big) {
        precise double re = (e * c) * e;
        precise double im = (e * s) * e;
        return dvec2(re, im);
    }
    if (a > 689.3745918377056LF) {
        // e^a this large: the double-double products overflow, and e^a cos b is far from 1
        // (|cos b| of a representable b is at least about 2^-p), so the plain form loses nothing.
        precise double re = e * c - double(1);
        precise double im = e * s;
        return dvec2(re, im);
    }
    // re = expm1(a) cos b - 2 sin^2(b/2) in double-double
    double emh, eml;
    if (a < -38.816242111356935LF) { emh = double(-1); eml = double(0); }
    else f64i_expm1_dd(a, emh, eml);
    double hh, hl, ch, cl, t1, t2, qh, ql, ph, pl, rh, rl;
    f64i_sincos_dd(b * double(0.5), hh, hl, t1, t2);
    f64i_sincos_dd(b, t1, t2, ch, cl);
    f64i_two_prod(hh, hh, qh, ql);
    precise double ql2 = ql + double(2) * hh * hl;
    f64i_two_prod(emh, ch, ph, pl);
    precise double pl2 = pl + (emh * cl + eml * ch);
    precise double q2 = qh + qh;
    f64i_two_sum(ph, -q2, rh, rl);
    precise double rl2 = rl + (pl2 - (ql2 + ql2));
    precise double re = rh + rl2;
    precise double im = e * s;
    return dvec2(re, im);
}

// log|a + bi| for finite (a, b) not both zero
double c128i_log_abs(double a, double b) {
    double h = max(abs(a), abs(b));
    double l = min(abs(a), abs(b));
    if (h >= double(0.5) && h < double(2)) {
        double hh, hl, lh, ll, t, e1, e2, uh, ul;
        f64i_two_prod(h, h, hh, hl);
        f64i_two_prod(l, l, lh, ll);
        f64i_two_sum(hh, double(-1), t, e1);
        f64i_two_sum(t, lh, t, e2);
        precise double lo = (e1 + e2) + (hl + ll);
        f64i_two_sum(t, lo, uh, ul);
        precise double r = double(0.5) * f64i_log1p_core(uh, ul, 0);
        return r;
    }
    bool sub = h < 2.2250738585072014e-308LF;
    double h2 = sub ? h * 9007199254740992.0LF : h;
    double l2 = sub ? l * 9007199254740992.0LF : l;
    int k = f64i_ilogb_big(h2);
    double hs = f64i_scalbn(h2, -k);
    double ls = f64i_scalbn(l2, -k);
    precise double r = sqrt(hs * hs + ls * ls);
    int kk; double m, hi, lo;
    f64i_log_decompose(r, kk, m);
    precise double f = m - double(1);
    f64i_log1pf_kernel(f, hi, lo);
    return f64i_log_finish(kk + k - (sub ? 53 : 0), hi, lo, 0.6931471805598903LF, 5.497923018708371e-14LF, double(1), double(0));
}

dvec2 c128_log(dvec2 z) {
    double a = z.x, b = z.y;
    if (isnan(a)) return dvec2(isinf(b) ? uint64BitsToDouble(0x7FF0000000000000UL) : uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (isnan(b)) return dvec2(isinf(a) ? uint64BitsToDouble(0x7FF0000000000000UL) : uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    double im = f64_atan2(b, a);
    if (isinf(a) || isinf(b)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), im);
    if (a == double(0) && b == double(0)) return dvec2(-uint64BitsToDouble(0x7FF0000000000000UL), im);
    return dvec2(c128i_log_abs(a, b), im);
}

dvec2 c128_log1p(dvec2 z) {
    double a = z.x, b = z.y;
    precise double w = double(1) + a;
    double h = max(abs(a), abs(b));
    bool fin = !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b);
    if (!fin || h >= 268435456.0LF || (abs(w) < double(0.5) && abs(b) < double(0.5))) return c128_log(dvec2(w, b));
    double a2h, a2l, b2h, b2l, t, e1, e2, uh, ul;
    f64i_two_prod(a, a, a2h, a2l);
    f64i_two_prod(b, b, b2h, b2l);
    f64i_two_sum(a + a, a2h, t, e1);
    f64i_two_sum(t, b2h, t, e2);
    precise double lo = (e1 + e2) + (a2l + b2l);
    f64i_two_sum(t, lo, uh, ul);
    precise double re = double(0.5) * f64i_log1p_core(uh, ul, 0);
    return dvec2(re, f64_atan2(b, w));
}

dvec2 c128_sqrt(dvec2 z) {
    double a = z.x, b = z.y;
    if (isinf(b)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), b);
    if (isnan(a)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (a == -uint64BitsToDouble(0x7FF0000000000000UL)) return dvec2(isnan(b) ? uint64BitsToDouble(0x7FF8000000000000UL) : double(0), c128i_cs(uint64BitsToDouble(0x7FF0000000000000UL), b));
    if (a == uint64BitsToDouble(0x7FF0000000000000UL)) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), isnan(b) ? uint64BitsToDouble(0x7FF8000000000000UL) : c128i_cs(double(0), b));
    if (isnan(b)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (a == double(0) && b == double(0)) return dvec2(double(0), b);
    double h = max(abs(a), abs(b));
    bool sub = h < 2.2250738585072014e-308LF;
    double a1 = sub ? a * 8.112963841460668e+31LF : a;
    double b1 = sub ? b * 8.112963841460668e+31LF : b;
    double h1 = sub ? h * 8.112963841460668e+31LF : h;
    int k = f64i_ilogb_big(h1) & ~1;
    double a2 = f64i_scalbn(a1, -k);
    double b2 = f64i_scalbn(b1, -k);
    double ph, pl, qh, ql, sh, sl, rh, rl;
    f64i_two_prod(a2, a2, ph, pl);
    f64i_two_prod(b2, b2, qh, ql);
    f64i_two_sum(ph, qh, sh, sl);
    precise double sl2 = sl + (pl + ql);
    f64i_dd_sqrt(sh, sl2, rh, rl);
    precise double t = sqrt((abs(a2) + (rh + rl)) * double(0.5));
    int kh = (k >> 1) - (sub ? 53 : 0);
    double TT = f64i_scalbn(t, kh);
    precise double o = (abs(b) / TT) * double(0.5);
    if (a >= double(0)) return dvec2(TT, c128i_cs(o, b));
    return dvec2(o, c128i_cs(TT, b));
}

// (sinh(a) cos b + i cosh(a) sin b) or (cosh(a) cos b + i sinh(a) sin b), finite a, b
dvec2 c128i_sinh_cosh(double a, double b, bool want_sinh) {
    double s, c;
    f64_sincos(b, s, c);
    if (abs(a) > 708.782712893384LF) {
        double e = f64_exp(abs(a) * double(0.5));
        if (isinf(e)) {
            double sc = want_sinh ? a : double(1), ss = want_sinh ? double(1) : a;
            return dvec2(c128i_inf_mul(sc, c), c128i_inf_mul(ss, s));
        }
        precise double eh = e * double(0.5);
        precise double vc = (eh * c) * e;
        precise double vs = (eh * s) * e;
        if (want_sinh) return dvec2(a < double(0) ? -vc : vc, vs);
        return dvec2(vc, a < double(0) ? -vs : vs);
    }
    double sh = f64_sinh(a), ch = f64_cosh(a);
    precise double r1 = sh * c, r2 = ch * s, r3 = ch * c, r4 = sh * s;
    return want_sinh ? dvec2(r1, r2) : dvec2(r3, r4);
}

dvec2 c128_sinh(dvec2 z) {
    double a = z.x, b = z.y;
    if (b == double(0)) return dvec2(f64_sinh(a), b);
    bool bfin = !isinf(b) && !isnan(b);
    if (a == double(0) && !bfin) return dvec2(a, uint64BitsToDouble(0x7FF8000000000000UL));
    if (isinf(a) && !bfin) return dvec2(a, uint64BitsToDouble(0x7FF8000000000000UL));
    if (isinf(a)) return dvec2(c128i_inf_mul(a, f64_cos(b)), c128i_inf_mul(double(1), f64_sin(b)));
    if (isnan(a) || !bfin) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    return c128i_sinh_cosh(a, b, true);
}

dvec2 c128_cosh(dvec2 z) {
    double a = z.x, b = z.y;
    if (b == double(0)) return dvec2(f64_cosh(a), f64i_signprod(double(0), a, b));
    bool bfin = !isinf(b) && !isnan(b);
    if (a == double(0) && !bfin) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), f64i_signprod(double(0), a, b));
    if (isinf(a) && !bfin) return dvec2(uint64BitsToDouble(0x7FF0000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (isinf(a)) return dvec2(c128i_inf_mul(double(1), f64_cos(b)), c128i_inf_mul(a, f64_sin(b)));
    if (isnan(a) || !bfin) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    return c128i_sinh_cosh(a, b, false);
}

dvec2 c128_tanh(dvec2 z) {
    double a = z.x, b = z.y;
    if (isnan(a)) return dvec2(a, b == double(0) ? b : uint64BitsToDouble(0x7FF8000000000000UL));
    if (isinf(a)) return dvec2(c128i_cs(double(1), a), c128i_cs(double(0), b));
    if (isinf(b) || isnan(b)) return dvec2(a == double(0) ? a : uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (b == double(0)) return dvec2(f64_tanh(a), b);
    if (abs(a) >= 22.0LF) {
        double s, c;
        f64_sincos(b, s, c);
        precise double ib = double(4) * s * c * f64_exp(double(-2) * abs(a));
        return dvec2(c128i_cs(double(1), a), ib);
    }
    double t = f64_tan(b);
    double sh = f64_sinh(a);
    precise double beta = double(1) + t * t;
    precise double rho = sqrt(double(1) + sh * sh);
    precise double den = double(1) + beta * sh * sh;
    precise double re = (beta * rho * sh) / den;
    precise double im = t / den;
    return dvec2(re, im);
}

dvec2 c128_sin(dvec2 z) { dvec2 r = c128_sinh(dvec2(-z.y, z.x)); return dvec2(r.y, -r.x); }
dvec2 c128_cos(dvec2 z) { return c128_cosh(dvec2(-z.y, z.x)); }
dvec2 c128_tan(dvec2 z) { dvec2 r = c128_tanh(dvec2(-z.y, z.x)); return dvec2(r.y, -r.x); }

dvec2 c128_asinh(dvec2 z) {
    double a = z.x, b = z.y;
    if (isinf(a)) return dvec2(a, isnan(b) ? uint64BitsToDouble(0x7FF8000000000000UL) : c128i_cs(isinf(b) ? 0.7853981633974483LF : double(0), b));
    if (isinf(b)) return isnan(a) ? dvec2(uint64BitsToDouble(0x7FF0000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL)) : dvec2(c128i_cs(uint64BitsToDouble(0x7FF0000000000000UL), a), c128i_cs(1.5707963267948966LF, b));
    if (isnan(a)) return dvec2(a, b == double(0) ? b : uint64BitsToDouble(0x7FF8000000000000UL));
    if (isnan(b)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    // Kahan: asinh(z) = -i asin(iz), iz = x + iy = -|b| + i|a|
    double x = -abs(b), y = abs(a);
    dvec2 s1 = c128_sqrt(dvec2(double(1) - x, -y));
    dvec2 s2 = c128_sqrt(dvec2(double(1) + x, y));
    precise double d1 = s1.x * s2.x - s1.y * s2.y;
    precise double d2 = s1.x * s2.y - s1.y * s2.x;
    double R = f64_atan2(x, d1);
    double I = f64_asinh(d2);
    return dvec2(c128i_cs(I, a), c128i_cs(-R, b));
}

dvec2 c128_asin(dvec2 z) { dvec2 r = c128_asinh(dvec2(-z.y, z.x)); return dvec2(r.y, -r.x); }

dvec2 c128_acosh(dvec2 z) {
    double a = z.x, b = z.y;
    double im;
    dvec2 r;
    if (isinf(b)) r = dvec2(uint64BitsToDouble(0x7FF0000000000000UL), isnan(a) ? uint64BitsToDouble(0x7FF8000000000000UL) : (a == uint64BitsToDouble(0x7FF0000000000000UL) ? 0.7853981633974483LF : (a == -uint64BitsToDouble(0x7FF0000000000000UL) ? 2.356194490192345LF : 1.5707963267948966LF)));
    else if (isinf(a)) r = dvec2(uint64BitsToDouble(0x7FF0000000000000UL), isnan(b) ? uint64BitsToDouble(0x7FF8000000000000UL) : (a > double(0) ? double(0) : 3.141592653589793LF));
    else if (isnan(a)) r = dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    else if (isnan(b)) r = dvec2(uint64BitsToDouble(0x7FF8000000000000UL), a == double(0) ? 1.5707963267948966LF : uint64BitsToDouble(0x7FF8000000000000UL));
    else if (a == double(0) && b == double(0)) r = dvec2(double(0), 1.5707963267948966LF);
    else {
        double bb = abs(b);
        dvec2 t1 = c128_sqrt(dvec2(a - double(1), bb));
        dvec2 t2 = c128_sqrt(dvec2(a + double(1), bb));
        precise double d = t1.x * t2.x + t1.y * t2.y;
        precise double i2 = double(2) * f64_atan2(t1.y, t2.x);
        r = dvec2(f64_asinh(d), i2);
    }
    return dvec2(r.x, c128i_cs(r.y, b));
}

dvec2 c128_acos(dvec2 z) {
    dvec2 r = c128_acosh(dvec2(z.x, abs(z.y)));
    return dvec2(r.y, f64i_signbit(z.y) ? r.x : -r.x);
}

dvec2 c128_atanh(dvec2 z) {
    double a = z.x, b = z.y;
    if (isinf(b)) return dvec2(c128i_cs(double(0), a), c128i_cs(1.5707963267948966LF, b));
    if (isinf(a)) return dvec2(c128i_cs(double(0), a), isnan(b) ? uint64BitsToDouble(0x7FF8000000000000UL) : c128i_cs(1.5707963267948966LF, b));
    if (isnan(a)) return dvec2(uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (isnan(b)) return dvec2(a == double(0) ? a : uint64BitsToDouble(0x7FF8000000000000UL), uint64BitsToDouble(0x7FF8000000000000UL));
    if (abs(a) == double(1) && b == double(0)) return dvec2(c128i_cs(uint64BitsToDouble(0x7FF0000000000000UL), a), b);
    double x = abs(a), y = abs(b);
    double h = max(x, y);
    precise double re, im;
    if (h >= 268435456.0LF) {
        int k = f64i_ilogb_big(h);
        double xs = f64i_scalbn(x, -k);
        double ys = f64i_scalbn(y, -k);
        precise double d2 = xs * xs + ys * ys;
        re = f64i_scalbn(xs / d2, -k);
        im = 1.5707963267948966LF - f64i_scalbn(ys / d2, -k);
    } else {
        precise double om = double(1) - x;
        precise double den = om * om + y * y;
        precise double q = (double(4) * x) / den;
        re = double(0.25) * f64_log1p(q);
        if (den < 2.004168360008973e-292LF) {
            // Near +-1 with a tiny imaginary part the squares underflow: take the logs apart,
            // log((1 - x)^2 + y^2) as 2 log(hypot(1 - x, y)), which does not underflow.
            re = double(0.25) * f64_log((double(1) + x) * (double(1) + x) + y * y) - double(0.5) * f64_log(f64_hypot(om, y));
        }
        double u1, u1l, v1, v1l, ph, pl, qh, ql, dh, dl;
        f64i_two_sum(double(1), -x, u1, u1l);
        f64i_two_sum(double(1), x, v1, v1l);
        f64i_two_prod(u1, v1, ph, pl);
        precise double pl2 = pl + (u1 * v1l + u1l * v1);
        f64i_two_prod(y, y, qh, ql);
        f64i_two_sum(ph, -qh, dh, dl);
        precise double dl2 = dl + (pl2 - ql);
        im = double(0.5) * f64_atan2(y + y, dh + dl2);
    }
    return dvec2(c128i_cs(re, a), c128i_cs(im, b));
}

dvec2 c128_atan(dvec2 z) { dvec2 r = c128_atanh(dvec2(-z.y, z.x)); return dvec2(r.y, -r.x); }

// z ** w: exp(w log z), but for a nonzero z and an integral real w with |w| < 100, repeated
// squaring (numpy's npy_cpow) by the compensated multiply: products are exact where they can be
// ((i y) ** 3 is purely imaginary), then the reciprocal for w < 0
// (floor, not trunc: Mesa 22.3 lavapipe's trunc of doubles is wrong near 2^52, docs/kernels.md)
dvec2 c128_pow(dvec2 z, dvec2 w) {
    if (w.x == double(0) && w.y == double(0)) return dvec2(double(1), double(0));
    if (w.y == double(0) && abs(w.x) < double(100) && w.x == floor(w.x) && (z.x != double(0) || z.y != double(0))) {
        int n = int(abs(w.x));
        dvec2 acc = z, p = z;
        bool first = (n & 1) != 0;
        n >>= 1;
        while (n != 0) {
            p = c128_mul(p, p);
            if ((n & 1) != 0) {
                acc = first ? c128_mul(acc, p) : p;
                first = true;
            }
            n >>= 1;
        }
        return w.x < double(0) ? c128_div(dvec2(double(1), double(0)), acc) : acc;
    }
    return c128_exp(c128_mul(w, c128_log(z)));
}
#endif // MATH_F64_GLSL

#endif // COMPLEX_MATH_GLSL
