#version 450
// Runtime-internal: copies elements between an arena and host-visible staging memory (uploads,
// downloads, writes). ELEM is uint (copy_words) or, for writes that do not start or end on a
// 4-byte boundary, uint8_t (copy_bytes). Offsets and counts are in elements.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 0) writeonly buffer Dst { ELEM dst[]; };
layout(std430, binding = 1) readonly buffer Src { ELEM src[]; };
layout(push_constant) uniform Push { uint dst_offset; uint src_offset; uint count; } p;

void main()
{
    uint i = avk_index();
    if (i < p.count)
        dst[p.dst_offset + i] = src[p.src_offset + i];
}
