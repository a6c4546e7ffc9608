#version 450
// Gather (OP 1) and scatter (OP 2) of elements through up to two integer index arrays.
// Elements are moved as bits: E_S is an unsigned storage type of the element's width (uvec2 and
// uvec4 for 64/128 bits, needing no Int64 capability); I_S the index dtype's storage type.
//
// Over a grid of `n` elements (the "contiguous side", C order of shape[nd]), element i with
// coordinates c has the source position
//     pos(i) = w[2] + sum_d c_d * xs_d + sum_k idx_k(i) * s_k
//     idx_k(i) = wrapclamp(I_k[w[3 + k] + sum_d c_d * is_kd], n_k)
// (negative indices wrap once, then every index clamps into [0, n_k - 1]: out-of-bounds
// indices are unspecified by the standard).
// gather: out[w[9] + i] = x[pos(i)]; scatter: x[pos(i)] = src[w[9] + i].
//
// Push block (32 words): w[0] n, w[1] nd | nidx << 8, w[2] x offset, w[3], w[4] index offsets,
// w[5], w[6] n_k, w[7], w[8] s_k (signed), w[9] the contiguous side's offset, from w[10]:
// shape[nd], xs[nd], is_0[nd], is_1[nd]; addr[0] the contiguous side (out / src), addr[1] x,
// addr[2], addr[3] the index arrays.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"
#if I_BITS == 64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;
layout(constant_id = 0) const uint OP = 1;

layout(buffer_reference, std430, buffer_reference_align = E_ALIGN) buffer Elems { E_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = I_ALIGN) restrict readonly buffer Idx { I_S v[]; };

uint index_value(uint k, uint off)
{
    uint n = p.w[5 + k];
#if I_BITS == 64
#if I_SIGNED
    int64_t v = int64_t(Idx(p.addr[2 + k]).v[off]);
    if (v < 0)
        v += int64_t(n);
    return uint(clamp(v, int64_t(0), int64_t(n) - 1));
#else
    uint64_t v = uint64_t(Idx(p.addr[2 + k]).v[off]);
    return uint(min(v, uint64_t(n - 1u)));
#endif
#else
#if I_SIGNED
    int v = int(Idx(p.addr[2 + k]).v[off]);
    if (v < 0)
        v += int(n);
    return uint(clamp(v, 0, int(n) - 1));
#else
    uint v = uint(Idx(p.addr[2 + k]).v[off]);
    return min(v, n - 1u);
#endif
#endif
}

void main()
{
    uint i = avk_index();
    uint n = p.w[0];
    if (i >= n)
        return;
    uint nd = p.w[1] & 0xffu;
    uint nidx = p.w[1] >> 8;
    uint sh = 10u;
    int xo = int(p.w[2]);
    int io0 = int(p.w[3]);
    int io1 = int(p.w[4]);
    uint r = i;
    for (uint d = nd; d > 0; --d) {
        uint m = p.w[sh + d - 1];
        uint q = r / m;
        int c = int(r - q * m);
        r = q;
        xo += c * int(p.w[sh + nd + d - 1]);
        if (nidx > 0)
            io0 += c * int(p.w[sh + 2 * nd + d - 1]);
        if (nidx > 1)
            io1 += c * int(p.w[sh + 3 * nd + d - 1]);
    }
    if (nidx > 0)
        xo += int(index_value(0, uint(io0))) * int(p.w[7]);
    if (nidx > 1)
        xo += int(index_value(1, uint(io1))) * int(p.w[8]);
    if (OP == 1)
        Elems(p.addr[0]).v[p.w[9] + i] = Elems(p.addr[1]).v[uint(xo)];
    else
        Elems(p.addr[1]).v[uint(xo)] = Elems(p.addr[0]).v[p.w[9] + i];
}
