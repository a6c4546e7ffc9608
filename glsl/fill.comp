#version 450
// full / arange / eye into a contiguous result (op code: specialisation constant 0).
//   full:   w[2..] the value (words of R)
//   arange: w[2..] start, w[4..] delta, w[6..] the second element (R's compute type): numpy sets
//           the first two elements, then start + i * delta from the third on
//   eye:    w[2] columns, w[3] k (signed): 1 where column - row == k
//   linspace (real and complex floats): numpy's start + (i / d) * m, the last element stop where
//           w[3] is 1; w[2] d (uint), w[4..] start, w[8..] m, w[12..] stop (R_C, up to 4 words
//           each). d is 1, or numpy's div where its step delta / div underflowed to zero
//           (then m is delta), so that each element rounds as numpy's do: no fused operations.
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
    } else if (OP == OP_LINSPACE) {
        if (p.w[3] != 0u && i == p.w[0] - 1u) {
            v = r_scalar(12);
        } else {
#if R_K == K_CPLX
            // numpy: complex (i + 0j) / d (Smith's: i * (1 / d)), times m as complex numbers
            precise R_R t = R_R(i) * (R_R(1) / R_R(p.w[2]));
            R_C m = r_scalar(8);
            precise R_R re = t * m.x - R_R(0) * m.y;
            precise R_R im = t * m.y + R_R(0) * m.x;
            precise R_C s = R_C(re, im) + r_scalar(4);
#else
            precise R_R t = R_R(i) / R_R(p.w[2]);
            precise R_C y = t * r_scalar(8);
            precise R_C s = y + r_scalar(4);
#endif
            v = s;
        }
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
