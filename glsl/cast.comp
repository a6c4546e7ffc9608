#version 450
// astype, strided -> contiguous copies and assignment into views: r[out index of i] = R(t[in index
// of i]), numpy's conversions. Variants: every (T, R) pair (variants.py).
// Specialisation constants: 1 the input's mode (contiguous, strided, scalar, one element);
// 2 the result's: contiguous, or strided (assignment into a view: its strides follow the
// input's in the push block, as a second input's would).
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

#define AVK_OP(i, x) convert(x)
#define AVK_OUT_MODE MODE1
#include "elementwise.glsl"
