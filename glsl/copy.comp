#version 450
// Runtime-internal: copies count 32-bit words from src to dst, device addresses in the push
// block. Transfers use the queue's buffer copies; this is the runtime's own dispatch, for its
// tests and micro-benchmarks of dispatch, barriers and grids.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Dst { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Src { uint v[]; };
layout(push_constant) uniform Push { uvec2 dst; uvec2 src; uint count; } p;

void main()
{
    uint i = avk_index();
    if (i < p.count)
        Dst(p.dst).v[i] = Src(p.src).v[i];
}
