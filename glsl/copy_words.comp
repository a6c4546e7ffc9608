#version 450
// Runtime-internal: copies 32-bit words between an arena and host-visible staging memory
// (uploads, downloads, writes). Offsets and counts are in words.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 0) writeonly buffer Dst { uint dst[]; };
layout(std430, binding = 1) readonly buffer Src { uint src[]; };
layout(push_constant) uniform Push { uint dst_offset; uint src_offset; uint count; } p;

void main()
{
    uint i = avk_index();
    if (i < p.count)
        dst[p.dst_offset + i] = src[p.src_offset + i];
}
