#version 450
// Runtime-internal: copies bytes from host-visible staging memory into an arena, for writes
// that do not start or end on a 4-byte boundary (one element of an int8/int16/bool array).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 0) writeonly buffer Dst { uint8_t dst[]; };
layout(std430, binding = 1) readonly buffer Src { uint8_t src[]; };
layout(push_constant) uniform Push { uint dst_offset; uint src_offset; uint count; } p;

void main()
{
    uint i = avk_index();
    if (i < p.count)
        dst[p.dst_offset + i] = src[p.src_offset + i];
}
