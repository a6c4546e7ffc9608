#version 450
// full / arange / eye into a contiguous result (op code: specialisation constant 0).
//   full:   w[2..] the value (words of R)
//   arange: w[2..] start, w[4..] delta, w[6..] the second element (R's compute type): numpy sets
//           the first two elements, then start + i * delta from the third on
//   eye:    w[2] columns, w[3] k (signed): 1 where column - row == k
#extension GL_GOOGLE_include_directive : require
#include "kernels.glsl"

R_C fill(uint i)
{
    R_C v;
    if (OP == OP_FULL) {
        v = r_scalar(2);
    } else if (OP == OP_ARANGE) {
#if R_K == K_CPLX
        v = R_C(0);
#else
        precise R_C d = R_C(i) * r_scalar(4);
        precise R_C s = r_scalar(2) + d;
        v = i == 1 ? r_scalar(6) : s;
#endif
    } else {
        uint cols = p.w[2];
        uint row = i / cols;
        int diff = int(i - row * cols) - int(row);
#if R_K == K_CPLX
        v = R_C(diff == int(p.w[3]) ? 1 : 0, 0);
#else
        v = R_C(diff == int(p.w[3]) ? 1 : 0);
#endif
    }
    return v;
}

#define AVK_OP(i) fill(i)
#include "elementwise.glsl"
