#version 450
// full / arange / eye into a contiguous result (op code: specialisation constant 0).
//   full:   w[2..] the value (words of R)
//   arange: w[2..] start, w[4..] delta, w[6..] the second element (R's compute type): numpy sets
//           the first two elements, then start + i * delta from the third on
//   eye:    w[2] columns, w[3] k (signed): 1 where column - row == k
//   linspace (real and complex floats): numpy's start + (i / d) * m, the last element stop where
//           w[3] is 1; w[2] d (uint), w[4..] start, w[8..] m, w[12..] stop (R_C, up to 4 words
//           each; float32 / complex64: start and m as double-floats, see df_line). d is 1, or numpy's div where its step delta / div underflowed to zero
//           (then m is delta), so that each element rounds as numpy's do: no fused operations.
#extension GL_GOOGLE_include_directive : require
#include "kernels.glsl"

#if (R_K == K_FLOAT && R_BITS == 32) || (R_K == K_CPLX && R_BITS == 64)
#define AVK_DF_LINSPACE
// linspace in float32 / complex64, used only on devices without float64: numpy's float64
// values emulated with double-floats (hi + lo pairs, error-free sums and Dekker products), then
// rounded once. Words (per component, re then im): w[4..7] start hi, lo, w[8..11] m hi, lo.
vec2 df_two_sum(float a, float b)
{
    precise float s = a + b;
    precise float bb = s - a;
    precise float e = (a - (s - bb)) + (b - bb);
    return vec2(s, e);
}

vec2 df_split(float a)
{
    precise float c = 4097.0 * a;
    precise float h = c - (c - a);
    precise float l = a - h;
    return vec2(h, l);
}

vec2 df_two_prod(float a, float b)
{
    precise float q = a * b;
    vec2 x = df_split(a);
    vec2 y = df_split(b);
    precise float e = ((x.x * y.x - q) + x.x * y.y + x.y * y.x) + x.y * y.y;
    return vec2(q, e);
}

// i * (mh + ml) + (sh + sl), i exactly as ia + ib; `simple` (the float32 formula) where a
// value is not finite or large enough for the products' splitting to overflow
float df_line(uint i, float mh, float ml, float sh, float sl, float simple)
{
    if (isinf(simple) || isnan(simple) || abs(mh) > 1e30 || abs(sh) > 1e30)
        return simple;
    float ia = float(i & 0xFFFFF000u);
    float ib = float(i & 0xFFFu);
    vec2 p1 = df_two_prod(ia, mh);
    vec2 p2 = df_two_prod(ib, mh);
    vec2 s = df_two_sum(p1.x, p2.x);
    precise float lo = ((s.y + p1.y) + p2.y) + (ia * ml + ib * ml);
    vec2 t = df_two_sum(s.x, sh);
    precise float lo2 = (t.y + lo) + sl;
    precise float r = t.x + lo2;
    return r;
}
#endif

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
#ifdef AVK_DF_LINSPACE
            bool df = p.w[2] == 1u;
            float d = float(p.w[2]);
#if R_K == K_CPLX
            precise float t = float(i) * (1.0 / d);
            precise float re0 = t * avk_f32(8) - 0.0 * avk_f32(10);
            precise float re = re0 + avk_f32(4);
            precise float im0 = t * avk_f32(10) + 0.0 * avk_f32(8);
            precise float im = im0 + avk_f32(6);
            if (df) {
                re = df_line(i, avk_f32(8), avk_f32(9), avk_f32(4), avk_f32(5), re);
                im = df_line(i, avk_f32(10), avk_f32(11), avk_f32(6), avk_f32(7), im);
            }
            v = vec2(re, im);
#else
            precise float t = float(i) / d;
            precise float y = t * avk_f32(8);
            precise float r = y + avk_f32(4);
            v = df ? df_line(i, avk_f32(8), avk_f32(9), avk_f32(4), avk_f32(5), r) : r;
#endif
#else
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
#endif
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
#define AVK_REVERSED false  // (w[2] is the value's first word)
#include "elementwise.glsl"
