#version 450
// clip(x, lo, hi) = minimum(maximum(x, lo), hi), NaN-propagating as the standard's maximum and
// minimum. Input modes: specialisation constants 1..3.
#extension GL_GOOGLE_include_directive : require
#define NIN 3
#define AVK_ELEMENTWISE_MAIN
#include "kernels.glsl"

layout(std430, binding = 0) writeonly buffer R_ { R_S r_[]; };
layout(std430, binding = 1) readonly buffer X_ { T_S x_[]; };
layout(std430, binding = 2) readonly buffer L_ { T_S l_[]; };
layout(std430, binding = 3) readonly buffer H_ { T_S h_[]; };

T_C load(uint mode, uint j, uint i)
{
    if (mode == MODE_SCALAR)
        return t_scalar(j);
    uint k = avk_in_index(mode, j, i);
    return T_C(j == 0 ? x_[k] : (j == 1 ? l_[k] : h_[k]));
}

void body(uint i)
{
    T_C x = load(MODE0, 0, i), lo = load(MODE1, 1, i), hi = load(MODE2, 2, i);
#if T_K == K_FLOAT
    if (isnan(x) || isnan(lo) || isnan(hi)) {
        x = isnan(x) ? x : (isnan(lo) ? lo : hi);
    } else
#endif
    {
        x = x < lo ? lo : x;
        x = x > hi ? hi : x;
    }
    r_[p.w[1] + i] = R_S(x);
}
