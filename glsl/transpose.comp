#version 450
// Batched transposing copy into a contiguous result, through 32 x 32 tiles in shared memory:
//     out[w[7] + (b * I + i) * J + j] = x[w[3] + b * w[4] + i * w[5] + j * w[6]]
// for a source whose steps along i are small (a transposed view) and along j large, so that
// both the reads (threads along i) and the writes (threads along j) are coalesced. Elements
// move as bits (E_S an unsigned type of their width). One 256-invocation group per tile:
// groups (tiles along j, tiles along i, batch). Push: w[0] B, w[1] I, w[2] J, w[3] x offset,
// w[4..6] the strides (signed, elements), w[7] the result's offset; addr[0] out, addr[1] x.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;

layout(buffer_reference, std430, buffer_reference_align = E_ALIGN) restrict writeonly buffer Out { E_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = E_ALIGN) restrict readonly buffer In { E_S v[]; };

#define TILE 32u
// 8- and 16-bit elements are held as uint in shared memory (no Int8/Int16 capability needed)
#if E_ALIGN <= 2
#define SH_T uint
#else
#define SH_T E_S
#endif
shared SH_T tile[TILE][TILE + 1u];

void main()
{
    uint I = p.w[1];
    uint J = p.w[2];
    uint b = gl_WorkGroupID.z;
    uint i0 = gl_WorkGroupID.y * TILE;
    uint j0 = gl_WorkGroupID.x * TILE;
    uint lx = gl_LocalInvocationID.x & (TILE - 1u);
    uint ly = gl_LocalInvocationID.x / TILE;  // 0 .. 7
    int base = int(p.w[3]) + int(b) * int(p.w[4]);
    int si = int(p.w[5]);
    int sj = int(p.w[6]);
    uint i = i0 + lx;
    [[unroll]] for (uint k = 0u; k < TILE; k += 8u) {
        uint j = j0 + ly + k;
        if (i < I && j < J)
            tile[lx][ly + k] = SH_T(In(p.addr[1]).v[base + int(i) * si + int(j) * sj]);
    }
    barrier();
    uint j = j0 + lx;
    uint ob = p.w[7] + b * I * J;
    [[unroll]] for (uint k = 0u; k < TILE; k += 8u) {
        uint ii = i0 + ly + k;
        if (ii < I && j < J)
            Out(p.addr[0]).v[ob + ii * J + j] = E_S(tile[ly + k][lx]);
    }
}
