#version 450
// clip(x, lo, hi) = minimum(maximum(x, lo), hi), NaN-propagating as the standard's maximum and
// minimum. Input modes: specialisation constants 1..3.
#extension GL_GOOGLE_include_directive : require
#define NIN 3
#include "kernels.glsl"

T_C clip(T_C x, T_C lo, T_C hi)
{
#if T_K == K_FLOAT
    if (isnan(x) || isnan(lo) || isnan(hi))
        return isnan(x) ? x : (isnan(lo) ? lo : hi);
#endif
    x = x < lo ? lo : x;
    return x > hi ? hi : x;
}

#define AVK_OP(i, x, lo, hi) clip(x, lo, hi)
#include "elementwise.glsl"
