#version 450
// Unary elementwise ops that need no math library: r[i] = op(x[i]), numpy's semantics and the
// standard's special cases. Op code: specialisation constant 0; input mode: 1.
// Variants by (T, R): R is T, bool (predicates) or T's real type (abs/real/imag of complex).
#extension GL_GOOGLE_include_directive : require
#define NIN 1
#include "kernels.glsl"
#if T_K == K_FLOAT || T_K == K_CPLX
#include "kernels_float.glsl"
#endif

#if T_K == K_FLOAT || T_K == K_CPLX
// trunc and roundEven of doubles made from floor and ceil (exact): Mesa 22.3's lavapipe (Debian
// 12) gets both wrong for doubles (trunc(-0.4) is +0, roundEven(1.5) is 1, trunc(2^52 - 0.5) is
// itself) while its floor and ceil are right. Every device takes these for doubles.
#if T_MANT == 52
T_R f_trunc(T_R x) { return x < T_R(0) ? ceil(x) : floor(x); }
T_R f_round_even(T_R x)
{
    T_R f = floor(x);
    precise T_R d = x - f;
    bool odd = f - T_R(2) * floor(f * T_R(0.5)) != T_R(0);
    return f_copysign(d > T_R(0.5) || (d == T_R(0.5) && odd) ? f + T_R(1) : f, x);
}
#else
T_R f_trunc(T_R x) { return trunc(x); }
T_R f_round_even(T_R x) { return roundEven(x); }
#endif
#endif

R_C op(T_C x)
{
#if R_K == K_BOOL && T_K == K_BOOL
    if (OP == OP_LOGICAL_NOT || OP == OP_BITWISE_INVERT)
        return x ^ 1u;
#elif R_K == K_BOOL
#if T_K == K_FLOAT
    if (OP == OP_SIGNBIT)
        return uint(f_signbit(x));
    if (OP == OP_ISFINITE)
        return uint(!isinf(x) && !isnan(x));
    if (OP == OP_ISINF)
        return uint(isinf(x));
    if (OP == OP_ISNAN)
        return uint(isnan(x));
#elif T_K == K_CPLX
    if (OP == OP_ISFINITE)
        return uint(!any(isinf(x)) && !any(isnan(x)));
    if (OP == OP_ISINF)
        return uint(any(isinf(x)));
    if (OP == OP_ISNAN)
        return uint(any(isnan(x)));
#else
    if (OP == OP_ISFINITE)
        return 1u;
    return 0u;  // isinf, isnan of integers
#endif
#elif T_K == K_CPLX && R_K != K_CPLX
    if (OP == OP_ABS)
        return f_hypot(x.x, x.y);
    if (OP == OP_REAL)
        return x.x;
    if (OP == OP_IMAG)
        return x.y;
#else  // R is T
#if T_K == K_CPLX
    if (OP == OP_NEGATIVE)
        return -x;
    if (OP == OP_CONJ)
        return T_C(x.x, -x.y);
    if (OP == OP_ROUND)
        return T_C(f_round_even(x.x), f_round_even(x.y));
    if (OP == OP_SQUARE)
        return c_mul(x, x);
    if (OP == OP_RECIPROCAL) {
        // numpy's formula (1 / 0 is NaN + NaN j there, as in C99's cpow-free definitions)
        precise T_R re, im;
        if (abs(x.y) <= abs(x.x)) {
            precise T_R r = f_div(x.y, x.x);
            precise T_R d = x.x + x.y * r;
            re = f_div(T_R(1), d);
            im = f_div(-r, d);
        } else {
            precise T_R r = f_div(x.x, x.y);
            precise T_R d = x.x * r + x.y;
            re = f_div(r, d);
            im = f_div(T_R(-1), d);
        }
        return T_C(re, im);
    }
    if (OP == OP_SIGN) {
        // the standard: NaN if a component is NaN, 0 for 0, else z / |z|; an infinite component
        // gives the unit vector along it (as numpy), two give NaN
        if (any(isnan(x)) || all(isinf(x)))
            return T_C(f_nan(), f_nan());
        if (any(isinf(x)))
            return T_C(isinf(x.x) ? f_copysign(T_R(1), x.x) : f_copysign(T_R(0), x.x),
                       isinf(x.y) ? f_copysign(T_R(1), x.y) : f_copysign(T_R(0), x.y));
        T_R a = f_hypot(x.x, x.y);
        if (a == 0)
            return T_C(0);
        return T_C(f_div(x.x, a), f_div(x.y, a));
    }
#elif T_K == K_FLOAT
    if (OP == OP_ABS)
        return abs(x);
    if (OP == OP_NEGATIVE)
        return -x;
    if (OP == OP_CEIL)
        return ceil(x);
    if (OP == OP_FLOOR)
        return floor(x);
    if (OP == OP_TRUNC)
        return f_trunc(x);
    if (OP == OP_ROUND)
        return f_round_even(x);
    if (OP == OP_SIGN)
        return x > 0 ? T_C(1) : (x < 0 ? T_C(-1) : (isnan(x) ? x : T_C(0)));  // sign(-0) is +0
    if (OP == OP_SQUARE) {
        precise T_C s = x * x;
        return s;
    }
    if (OP == OP_SQRT)
        return f_sqrt(x);
    if (OP == OP_RECIPROCAL) {
        return f_div(T_C(1), x);
    }
#else  // integers
    if (OP == OP_ABS)
        return x < T_C(0) ? T_C(0) - x : x;
    if (OP == OP_NEGATIVE)
        return T_C(0) - x;
    if (OP == OP_BITWISE_INVERT)
        return ~x;
    if (OP == OP_SIGN)
        return x > T_C(0) ? T_C(1) : (x < T_C(0) ? T_C(-1) : T_C(0));
    if (OP == OP_SQUARE)
        return x * x;
#endif
#endif
    // positive, conj/real of real dtypes, ceil/floor/trunc/round of integers
    return R_C(x);
}

#define AVK_OP(i, x) op(x)
#include "elementwise.glsl"
