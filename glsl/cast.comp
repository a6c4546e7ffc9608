#version 450
// astype, strided -> contiguous copies and assignment into views: r[out index of i] = R(t[in index
// of i]), numpy's conversions. Variants: every (T, R) pair (variants.py).
// Specialisation constants: 1 the input's mode (contiguous, strided, scalar, one element);
// 2 the result's: contiguous, or strided (assignment into a view: its strides follow the
// input's in the push block, as a second input's would).
// Op code (specialisation constant 0): 0 a plain conversion; CAST_TRIL / CAST_TRIU keep the
// elements of a contiguous result's last two axes on or below / on or above diagonal k and
// write zeros elsewhere (tril, triu): w[21] columns, w[22] rows, w[23] k (signed).
#extension GL_GOOGLE_include_directive : require
#define NIN 1
#include "kernels.glsl"

R_C convert(T_C x)
{
#if R_K == K_BOOL
#if T_K == K_CPLX
    return uint(x.x != 0 || x.y != 0);
#else
    return uint(x != T_C(0));
#endif
#elif R_K == K_CPLX
#if T_K == K_CPLX
    return R_C(x);
#else
    return R_C(R_R(x), 0);
#endif
#else
    // real result: complex inputs give their real part (as numpy does)
#if T_K == K_CPLX
    T_R v = x.x;
#define T_KR K_FLOAT
#else
    T_C v = x;
#define T_KR T_K
#endif
#if T_KR == K_FLOAT && R_K == K_UINT && R_BITS <= 32
    // out-of-range float -> unsigned is undefined; numpy (x86) goes through int64 and wraps
    return R_C(int64_t(v));
#elif T_KR == K_FLOAT && R_K == K_UINT
    return v < 0 ? R_C(int64_t(v)) : R_C(v);
#else
    return R_C(v);
#endif
#endif
}

#define CAST_TRIL 1u
#define CAST_TRIU 2u

R_C cast_op(uint i, T_C x)
{
    if (OP != 0u) {
        uint cols = p.w[AVK_WORDS - 3];
        uint q = i / cols;
        uint row = q - (q / p.w[AVK_WORDS - 2]) * p.w[AVK_WORDS - 2];
        int diff = int(i - q * cols) - int(row);
        int k = int(p.w[AVK_WORDS - 1]);
        if (OP == CAST_TRIL ? diff > k : diff < k)
            return R_C(0);
    }
    return convert(x);
}

#define AVK_OP(i, x) cast_op(i, x)
#define AVK_OUT_MODE MODE1
#include "elementwise.glsl"
