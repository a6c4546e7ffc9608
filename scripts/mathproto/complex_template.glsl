// ------------------------------------------------------------------ CPFX_ (complex of T)
// line-by-line transliteration of scripts/mathproto/cplx.py

T CPFXi_cs(T a, T s) { return RPFXi_copysign(a, s); }

T CPFX_abs(V z) { return RPFX_hypot(z.x, z.y); }

// (+-inf) * v with C99 semantics (inf * 0 = NaN), sign of s*v, without inf arithmetic
T CPFXi_inf_mul(T s, T v) { return (isnan(v) || v == T(0)) ? K_NAN : RPFXi_signprod(K_INF, s, v); }
// +0 * v for finite v
T CPFXi_zero_mul(T v) { return RPFXi_signprod(T(0), T(1), v); }

V CPFX_mul(V z, V w) {
    T a = z.x, b = z.y, c = w.x, d = w.y;
    precise T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    precise T x = ac - bd;
    precise T y = ad + bc;
    T m = max(max(abs(a), abs(b)), max(abs(c), abs(d)));
    if (m < K_SPLIT_SAFE) {
        T p1, e1, p2, e2, p3, e3, p4, e4, s, se;
        RPFXi_two_prod(a, c, p1, e1);
        RPFXi_two_prod(b, d, p2, e2);
        RPFXi_two_sum(p1, -p2, s, se);
        x = s + (se + (e1 - e2));
        RPFXi_two_prod(a, d, p3, e3);
        RPFXi_two_prod(b, c, p4, e4);
        RPFXi_two_sum(p3, p4, s, se);
        y = s + (se + (e3 + e4));
    }
    if (isnan(x) && isnan(y)) {        // C99 Annex G: recover infinities
        bool abi = isinf(a) || isinf(b);
        bool cdi = isinf(c) || isinf(d);
        bool ovf = !abi && !cdi && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc));
        if (abi) {
            a = CPFXi_cs(isinf(a) ? T(1) : T(0), a); b = CPFXi_cs(isinf(b) ? T(1) : T(0), b);
            if (isnan(c)) c = CPFXi_cs(T(0), c);
            if (isnan(d)) d = CPFXi_cs(T(0), d);
        }
        if (cdi) {
            c = CPFXi_cs(isinf(c) ? T(1) : T(0), c); d = CPFXi_cs(isinf(d) ? T(1) : T(0), d);
            if (isnan(a)) a = CPFXi_cs(T(0), a);
            if (isnan(b)) b = CPFXi_cs(T(0), b);
        }
        if (ovf) {
            if (isnan(a)) a = CPFXi_cs(T(0), a);
            if (isnan(b)) b = CPFXi_cs(T(0), b);
            if (isnan(c)) c = CPFXi_cs(T(0), c);
            if (isnan(d)) d = CPFXi_cs(T(0), d);
        }
        if (abi || cdi || ovf) {
            precise T xi = a * c - b * d;
            precise T yi = a * d + b * c;
            x = CPFXi_inf_mul(T(1), xi);
            y = CPFXi_inf_mul(T(1), yi);
        }
    }
    return V(x, y);
}

V CPFX_div(V z, V w) {
    T a = z.x, b = z.y, c = w.x, d = w.y;
    bool winf = isinf(c) || isinf(d);          // C99's fmax(|c|, |d|) = inf (NaN ignored)
    T m = max(abs(c), abs(d));
    bool okm = !winf && !isnan(c) && !isnan(d) && m > T(0);
    T mm = okm ? m : T(1);
    bool sub = mm < K_MIN_NORMAL;
    if (sub) mm = mm * K_TWO_P;
    int k = RPFXi_ilogb_big(mm);
    if (sub) k -= K_P;
    if (!okm) k = 0;
    T cs = RPFXi_scalbn(c, -k);
    T ds = RPFXi_scalbn(d, -k);
    precise T den = cs * cs + ds * ds;
    precise T xn = (a * cs + b * ds) / den;
    precise T yn = (b * cs - a * ds) / den;
    T x = RPFXi_scalbn(xn, -k);
    T y = RPFXi_scalbn(yn, -k);
    if (isnan(x) && isnan(y)) {
        if (den == T(0) && (!isnan(a) || !isnan(b))) {
            x = CPFXi_inf_mul(c, a); y = CPFXi_inf_mul(c, b);
        } else if ((isinf(a) || isinf(b)) && !isinf(c) && !isnan(c) && !isinf(d) && !isnan(d)) {
            T a2 = CPFXi_cs(isinf(a) ? T(1) : T(0), a);
            T b2 = CPFXi_cs(isinf(b) ? T(1) : T(0), b);
            precise T xi = a2 * c + b2 * d;
            precise T yi = b2 * c - a2 * d;
            x = CPFXi_inf_mul(T(1), xi);
            y = CPFXi_inf_mul(T(1), yi);
        } else if (winf && !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b)) {
            T c3 = CPFXi_cs(isinf(c) ? T(1) : T(0), c);
            T d3 = CPFXi_cs(isinf(d) ? T(1) : T(0), d);
            precise T xi = a * c3 + b * d3;
            precise T yi = b * c3 - a * d3;
            x = CPFXi_zero_mul(xi);
            y = CPFXi_zero_mul(yi);
        }
    }
    return V(x, y);
}

V CPFX_exp(V z) {
    T a = z.x, b = z.y;
    if (isnan(a)) return (b == T(0)) ? V(a, b) : V(K_NAN, K_NAN);
    if (a == K_INF) {
        if (b == T(0)) return V(K_INF, b);
        if (isinf(b) || isnan(b)) return V(K_INF, K_NAN);
        T sb, cb; RPFX_sincos(b, sb, cb);
        return V(CPFXi_inf_mul(T(1), cb), CPFXi_inf_mul(T(1), sb));
    }
    if (a == -K_INF) {
        if (isinf(b) || isnan(b)) return V(T(0), CPFXi_cs(T(0), b));
        T sb, cb; RPFX_sincos(b, sb, cb);
        return V(CPFXi_zero_mul(cb), CPFXi_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return V(K_NAN, K_NAN);
    if (b == T(0)) return V(RPFX_exp(a), b);
    T s, c;
    RPFX_sincos(b, s, c);
    bool big = a > K_CEXP_BIG;
    T e = RPFX_exp(big ? a * T(0.5) : a);
    if (isinf(e)) return V(CPFXi_inf_mul(T(1), c), CPFXi_inf_mul(T(1), s));
    precise T re = big ? (e * c) * e : e * c;
    precise T im = big ? (e * s) * e : e * s;
    return V(re, im);
}

V CPFX_expm1(V z) {
    T a = z.x, b = z.y;
    if (isnan(a)) return (b == T(0)) ? V(a, b) : V(K_NAN, K_NAN);
    if (a == K_INF) {
        if (b == T(0)) return V(K_INF, b);
        if (isinf(b) || isnan(b)) return V(K_INF, K_NAN);
        T sb, cb; RPFX_sincos(b, sb, cb);
        return V(CPFXi_inf_mul(T(1), cb), CPFXi_inf_mul(T(1), sb));
    }
    if (a == -K_INF) {
        if (isinf(b) || isnan(b)) return V(T(-1), CPFXi_cs(T(0), b));
        T sb, cb; RPFX_sincos(b, sb, cb);
        return V(T(-1), CPFXi_zero_mul(sb));
    }
    if (isinf(b) || isnan(b)) return V(K_NAN, K_NAN);
    if (b == T(0)) return V(a == T(0) ? T(0) : RPFX_expm1(a), b);   // the standard: (+-0 + 0j) -> 0 + 0j
    T s, c;
    RPFX_sincos(b, s, c);
    bool big = a > K_CEXP_BIG;
    T e = RPFX_exp(big ? a * T(0.5) : a);
    if (isinf(e)) return V(CPFXi_inf_mul(T(1), c), CPFXi_inf_mul(T(1), s));
    if (big) {
        precise T re = (e * c) * e;
        precise T im = (e * s) * e;
        return V(re, im);
    }
    if (a > K_EXPM1_DD_MAX) {
        // e^a this large: the double-double products overflow, and e^a cos b is far from 1
        // (|cos b| of a representable b is at least about 2^-p), so the plain form loses nothing.
        precise T re = e * c - T(1);
        precise T im = e * s;
        return V(re, im);
    }
    // re = expm1(a) cos b - 2 sin^2(b/2) in double-double
    T emh, eml;
    if (a < K_EXPM1_NEG) { emh = T(-1); eml = T(0); }
    else RPFXi_expm1_dd(a, emh, eml);
    T hh, hl, ch, cl, t1, t2, qh, ql, ph, pl, rh, rl;
    RPFXi_sincos_dd(b * T(0.5), hh, hl, t1, t2);
    RPFXi_sincos_dd(b, t1, t2, ch, cl);
    RPFXi_two_prod(hh, hh, qh, ql);
    precise T ql2 = ql + T(2) * hh * hl;
    RPFXi_two_prod(emh, ch, ph, pl);
    precise T pl2 = pl + (emh * cl + eml * ch);
    precise T q2 = qh + qh;
    RPFXi_two_sum(ph, -q2, rh, rl);
    precise T rl2 = rl + (pl2 - (ql2 + ql2));
    precise T re = rh + rl2;
    precise T im = e * s;
    return V(re, im);
}

// log|a + bi| for finite (a, b) not both zero
T CPFXi_log_abs(T a, T b) {
    T h = max(abs(a), abs(b));
    T l = min(abs(a), abs(b));
    if (h >= T(0.5) && h < T(2)) {
        T hh, hl, lh, ll, t, e1, e2, uh, ul;
        RPFXi_two_prod(h, h, hh, hl);
        RPFXi_two_prod(l, l, lh, ll);
        RPFXi_two_sum(hh, T(-1), t, e1);
        RPFXi_two_sum(t, lh, t, e2);
        precise T lo = (e1 + e2) + (hl + ll);
        RPFXi_two_sum(t, lo, uh, ul);
        precise T r = T(0.5) * RPFXi_log1p_core(uh, ul, 0);
        return r;
    }
    bool sub = h < K_MIN_NORMAL;
    T h2 = sub ? h * K_TWO_P : h;
    T l2 = sub ? l * K_TWO_P : l;
    int k = RPFXi_ilogb_big(h2);
    T hs = RPFXi_scalbn(h2, -k);
    T ls = RPFXi_scalbn(l2, -k);
    precise T r = sqrt(hs * hs + ls * ls);
    int kk; T m, hi, lo;
    RPFXi_log_decompose(r, kk, m);
    precise T f = m - T(1);
    RPFXi_log1pf_kernel(f, hi, lo);
    return RPFXi_log_finish(kk + k - (sub ? K_P : 0), hi, lo, K_LN2_H, K_LN2_L, T(1), T(0));
}

V CPFX_log(V z) {
    T a = z.x, b = z.y;
    if (isnan(a)) return V(isinf(b) ? K_INF : K_NAN, K_NAN);
    if (isnan(b)) return V(isinf(a) ? K_INF : K_NAN, K_NAN);
    T im = RPFX_atan2(b, a);
    if (isinf(a) || isinf(b)) return V(K_INF, im);
    if (a == T(0) && b == T(0)) return V(-K_INF, im);
    return V(CPFXi_log_abs(a, b), im);
}

V CPFX_log1p(V z) {
    T a = z.x, b = z.y;
    precise T w = T(1) + a;
    T h = max(abs(a), abs(b));
    bool fin = !isinf(a) && !isnan(a) && !isinf(b) && !isnan(b);
    if (!fin || h >= K_HUGE_AS || (abs(w) < T(0.5) && abs(b) < T(0.5))) return CPFX_log(V(w, b));
    T a2h, a2l, b2h, b2l, t, e1, e2, uh, ul;
    RPFXi_two_prod(a, a, a2h, a2l);
    RPFXi_two_prod(b, b, b2h, b2l);
    RPFXi_two_sum(a + a, a2h, t, e1);
    RPFXi_two_sum(t, b2h, t, e2);
    precise T lo = (e1 + e2) + (a2l + b2l);
    RPFXi_two_sum(t, lo, uh, ul);
    precise T re = T(0.5) * RPFXi_log1p_core(uh, ul, 0);
    return V(re, RPFX_atan2(b, w));
}

V CPFX_sqrt(V z) {
    T a = z.x, b = z.y;
    if (isinf(b)) return V(K_INF, b);
    if (isnan(a)) return V(K_NAN, K_NAN);
    if (a == -K_INF) return V(isnan(b) ? K_NAN : T(0), CPFXi_cs(K_INF, b));
    if (a == K_INF) return V(K_INF, isnan(b) ? K_NAN : CPFXi_cs(T(0), b));
    if (isnan(b)) return V(K_NAN, K_NAN);
    if (a == T(0) && b == T(0)) return V(T(0), b);
    T h = max(abs(a), abs(b));
    bool sub = h < K_MIN_NORMAL;
    T a1 = sub ? a * K_TWO_P2 : a;
    T b1 = sub ? b * K_TWO_P2 : b;
    T h1 = sub ? h * K_TWO_P2 : h;
    int k = RPFXi_ilogb_big(h1) & ~1;
    T a2 = RPFXi_scalbn(a1, -k);
    T b2 = RPFXi_scalbn(b1, -k);
    T ph, pl, qh, ql, sh, sl, rh, rl;
    RPFXi_two_prod(a2, a2, ph, pl);
    RPFXi_two_prod(b2, b2, qh, ql);
    RPFXi_two_sum(ph, qh, sh, sl);
    precise T sl2 = sl + (pl + ql);
    RPFXi_dd_sqrt(sh, sl2, rh, rl);
    precise T t = sqrt((abs(a2) + (rh + rl)) * T(0.5));
    int kh = (k >> 1) - (sub ? K_P : 0);
    T TT = RPFXi_scalbn(t, kh);
    precise T o = (abs(b) / TT) * T(0.5);
    if (a >= T(0)) return V(TT, CPFXi_cs(o, b));
    return V(o, CPFXi_cs(TT, b));
}

// (sinh(a) cos b + i cosh(a) sin b) or (cosh(a) cos b + i sinh(a) sin b), finite a, b
V CPFXi_sinh_cosh(T a, T b, bool want_sinh) {
    T s, c;
    RPFX_sincos(b, s, c);
    if (abs(a) > K_CEXP_BIG) {
        T e = RPFX_exp(abs(a) * T(0.5));
        if (isinf(e)) {
            T sc = want_sinh ? a : T(1), ss = want_sinh ? T(1) : a;
            return V(CPFXi_inf_mul(sc, c), CPFXi_inf_mul(ss, s));
        }
        precise T eh = e * T(0.5);
        precise T vc = (eh * c) * e;
        precise T vs = (eh * s) * e;
        if (want_sinh) return V(a < T(0) ? -vc : vc, vs);
        return V(vc, a < T(0) ? -vs : vs);
    }
    T sh = RPFX_sinh(a), ch = RPFX_cosh(a);
    precise T r1 = sh * c, r2 = ch * s, r3 = ch * c, r4 = sh * s;
    return want_sinh ? V(r1, r2) : V(r3, r4);
}

V CPFX_sinh(V z) {
    T a = z.x, b = z.y;
    if (b == T(0)) return V(RPFX_sinh(a), b);
    bool bfin = !isinf(b) && !isnan(b);
    if (a == T(0) && !bfin) return V(a, K_NAN);
    if (isinf(a) && !bfin) return V(a, K_NAN);
    if (isinf(a)) return V(CPFXi_inf_mul(a, RPFX_cos(b)), CPFXi_inf_mul(T(1), RPFX_sin(b)));
    if (isnan(a) || !bfin) return V(K_NAN, K_NAN);
    return CPFXi_sinh_cosh(a, b, true);
}

V CPFX_cosh(V z) {
    T a = z.x, b = z.y;
    if (b == T(0)) return V(RPFX_cosh(a), RPFXi_signprod(T(0), a, b));
    bool bfin = !isinf(b) && !isnan(b);
    if (a == T(0) && !bfin) return V(K_NAN, RPFXi_signprod(T(0), a, b));
    if (isinf(a) && !bfin) return V(K_INF, K_NAN);
    if (isinf(a)) return V(CPFXi_inf_mul(T(1), RPFX_cos(b)), CPFXi_inf_mul(a, RPFX_sin(b)));
    if (isnan(a) || !bfin) return V(K_NAN, K_NAN);
    return CPFXi_sinh_cosh(a, b, false);
}

V CPFX_tanh(V z) {
    T a = z.x, b = z.y;
    if (isnan(a)) return V(a, b == T(0) ? b : K_NAN);
    if (isinf(a)) return V(CPFXi_cs(T(1), a), CPFXi_cs(T(0), b));
    if (isinf(b) || isnan(b)) return V(a == T(0) ? a : K_NAN, K_NAN);
    if (b == T(0)) return V(RPFX_tanh(a), b);
    if (abs(a) >= K_TANH_ONE) {
        T s, c;
        RPFX_sincos(b, s, c);
        precise T ib = T(4) * s * c * RPFX_exp(T(-2) * abs(a));
        return V(CPFXi_cs(T(1), a), ib);
    }
    T t = RPFX_tan(b);
    T sh = RPFX_sinh(a);
    precise T beta = T(1) + t * t;
    precise T rho = sqrt(T(1) + sh * sh);
    precise T den = T(1) + beta * sh * sh;
    precise T re = (beta * rho * sh) / den;
    precise T im = t / den;
    return V(re, im);
}

V CPFX_sin(V z) { V r = CPFX_sinh(V(-z.y, z.x)); return V(r.y, -r.x); }
V CPFX_cos(V z) { return CPFX_cosh(V(-z.y, z.x)); }
V CPFX_tan(V z) { V r = CPFX_tanh(V(-z.y, z.x)); return V(r.y, -r.x); }

V CPFX_asinh(V z) {
    T a = z.x, b = z.y;
    if (isinf(a)) return V(a, isnan(b) ? K_NAN : CPFXi_cs(isinf(b) ? K_PIO4 : T(0), b));
    if (isinf(b)) return isnan(a) ? V(K_INF, K_NAN) : V(CPFXi_cs(K_INF, a), CPFXi_cs(K_PIO2, b));
    if (isnan(a)) return V(a, b == T(0) ? b : K_NAN);
    if (isnan(b)) return V(K_NAN, K_NAN);
    // Kahan: asinh(z) = -i asin(iz), iz = x + iy = -|b| + i|a|
    T x = -abs(b), y = abs(a);
    V s1 = CPFX_sqrt(V(T(1) - x, -y));
    V s2 = CPFX_sqrt(V(T(1) + x, y));
    precise T d1 = s1.x * s2.x - s1.y * s2.y;
    precise T d2 = s1.x * s2.y - s1.y * s2.x;
    T R = RPFX_atan2(x, d1);
    T I = RPFX_asinh(d2);
    return V(CPFXi_cs(I, a), CPFXi_cs(-R, b));
}

V CPFX_asin(V z) { V r = CPFX_asinh(V(-z.y, z.x)); return V(r.y, -r.x); }

V CPFX_acosh(V z) {
    T a = z.x, b = z.y;
    T im;
    V r;
    if (isinf(b)) r = V(K_INF, isnan(a) ? K_NAN : (a == K_INF ? K_PIO4 : (a == -K_INF ? K_PI34 : K_PIO2)));
    else if (isinf(a)) r = V(K_INF, isnan(b) ? K_NAN : (a > T(0) ? T(0) : K_PI));
    else if (isnan(a)) r = V(K_NAN, K_NAN);
    else if (isnan(b)) r = V(K_NAN, a == T(0) ? K_PIO2 : K_NAN);
    else if (a == T(0) && b == T(0)) r = V(T(0), K_PIO2);
    else {
        T bb = abs(b);
        V t1 = CPFX_sqrt(V(a - T(1), bb));
        V t2 = CPFX_sqrt(V(a + T(1), bb));
        precise T d = t1.x * t2.x + t1.y * t2.y;
        precise T i2 = T(2) * RPFX_atan2(t1.y, t2.x);
        r = V(RPFX_asinh(d), i2);
    }
    return V(r.x, CPFXi_cs(r.y, b));
}

V CPFX_acos(V z) {
    V r = CPFX_acosh(V(z.x, abs(z.y)));
    return V(r.y, RPFXi_signbit(z.y) ? r.x : -r.x);
}

V CPFX_atanh(V z) {
    T a = z.x, b = z.y;
    if (isinf(b)) return V(CPFXi_cs(T(0), a), CPFXi_cs(K_PIO2, b));
    if (isinf(a)) return V(CPFXi_cs(T(0), a), isnan(b) ? K_NAN : CPFXi_cs(K_PIO2, b));
    if (isnan(a)) return V(K_NAN, K_NAN);
    if (isnan(b)) return V(a == T(0) ? a : K_NAN, K_NAN);
    if (abs(a) == T(1) && b == T(0)) return V(CPFXi_cs(K_INF, a), b);
    T x = abs(a), y = abs(b);
    T h = max(x, y);
    precise T re, im;
    if (h >= K_HUGE_AS) {
        int k = RPFXi_ilogb_big(h);
        T xs = RPFXi_scalbn(x, -k);
        T ys = RPFXi_scalbn(y, -k);
        precise T d2 = xs * xs + ys * ys;
        re = RPFXi_scalbn(xs / d2, -k);
        im = K_PIO2 - RPFXi_scalbn(ys / d2, -k);
    } else {
        precise T om = T(1) - x;
        precise T den = om * om + y * y;
        precise T q = (T(4) * x) / den;
        re = T(0.25) * RPFX_log1p(q);
        if (den < K_SMALL_DEN) {
            // Near +-1 with a tiny imaginary part the squares underflow: take the logs apart,
            // log((1 - x)^2 + y^2) as 2 log(hypot(1 - x, y)), which does not underflow.
            re = T(0.25) * RPFX_log((T(1) + x) * (T(1) + x) + y * y) - T(0.5) * RPFX_log(RPFX_hypot(om, y));
        }
        T u1, u1l, v1, v1l, ph, pl, qh, ql, dh, dl;
        RPFXi_two_sum(T(1), -x, u1, u1l);
        RPFXi_two_sum(T(1), x, v1, v1l);
        RPFXi_two_prod(u1, v1, ph, pl);
        precise T pl2 = pl + (u1 * v1l + u1l * v1);
        RPFXi_two_prod(y, y, qh, ql);
        RPFXi_two_sum(ph, -qh, dh, dl);
        precise T dl2 = dl + (pl2 - ql);
        im = T(0.5) * RPFX_atan2(y + y, dh + dl2);
    }
    return V(CPFXi_cs(re, a), CPFXi_cs(im, b));
}

V CPFX_atan(V z) { V r = CPFX_atanh(V(-z.y, z.x)); return V(r.y, -r.x); }

// z ** w: exp(w log z), but for a nonzero z and an integral real w with |w| < 100, repeated
// squaring (numpy's npy_cpow) by the compensated multiply: products are exact where they can be
// ((i y) ** 3 is purely imaginary), then the reciprocal for w < 0
// (floor, not trunc: Mesa 22.3 lavapipe's trunc of doubles is wrong near 2^52, docs/kernels.md)
V CPFX_pow(V z, V w) {
    if (w.x == T(0) && w.y == T(0)) return V(T(1), T(0));
    if (w.y == T(0) && abs(w.x) < T(100) && w.x == floor(w.x) && (z.x != T(0) || z.y != T(0))) {
        int n = int(abs(w.x));
        V acc = z, p = z;
        bool first = (n & 1) != 0;
        n >>= 1;
        while (n != 0) {
            p = CPFX_mul(p, p);
            if ((n & 1) != 0) {
                acc = first ? CPFX_mul(acc, p) : p;
                first = true;
            }
            n >>= 1;
        }
        return w.x < T(0) ? CPFX_div(V(T(1), T(0)), acc) : acc;
    }
    return CPFX_exp(CPFX_mul(w, CPFX_log(z)));
}
