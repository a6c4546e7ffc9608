#version 450
// Stream compaction of a boolean mask (nonzero, boolean indexing): for each set element i of
// the contiguous mask (uint8), at position pos = cs[i] - 1 (cs: the mask's inclusive prefix sum,
// of the index dtype I), writes the coordinates of i in shape[k] to out[d * count + pos], one row
// per dimension d (k = 1 with shape [n]: the flat index).
// Push block: w[0] n, w[1] mask offset, w[2] cs offset, w[3] count, w[4] k, w[5 ..] shape[k];
// addr[0] out (fresh), addr[1] mask, addr[2] cs.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"
#if I_BITS == 64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;

layout(buffer_reference, std430, buffer_reference_align = I_ALIGN) restrict writeonly buffer Out { I_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) restrict readonly buffer Mask { uint8_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = I_ALIGN) restrict readonly buffer Cs { I_S v[]; };

void main()
{
    uint i = avk_index();
    if (i >= p.w[0])
        return;
    if (uint(Mask(p.addr[1]).v[p.w[1] + i]) == 0u)
        return;
    uint pos = uint(Cs(p.addr[2]).v[p.w[2] + i]) - 1u;
    uint count = p.w[3];
    uint k = p.w[4];
    uint r = i;
    for (uint d = k; d > 0; --d) {
        uint m = p.w[5 + d - 1];
        uint q = r / m;
        Out(p.addr[0]).v[(d - 1) * count + pos] = I_S(r - q * m);
        r = q;
    }
}
