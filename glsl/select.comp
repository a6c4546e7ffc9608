#version 450
// where(cond, x1, x2): result element i = cond[i] ? x1[i] : x2[i]. The condition (input 0) is
// bool (uint8 storage) whatever T is; x1, x2 (inputs 1, 2) and the result are of dtype T. Input
// modes: specialisation constants 1..3, push layout of kernels.glsl with NIN 3. Values are moved,
// not computed on (a scalar value is the push block's words as T).
#extension GL_GOOGLE_include_directive : require
#define NIN 3
#include "kernels.glsl"

#if T_BITS == 8
#define S_ALIGN 1
#elif T_BITS == 16
#define S_ALIGN 2
#elif T_BITS == 32
#define S_ALIGN 4
#elif T_BITS == 64
#define S_ALIGN 8
#else
#define S_ALIGN 16
#endif

layout(buffer_reference, std430, buffer_reference_align = 1) restrict readonly buffer Cond { uint8_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = S_ALIGN) restrict readonly buffer Val { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = S_ALIGN) restrict writeonly buffer Res { T_S v[]; };

T_S value(uint mode, uint j, uint i)
{
    if (mode == MODE_SCALAR)
        return T_S(t_scalar(j));
    return Val(p.addr[1 + j]).v[avk_in_index(mode, j, i)];
}

void main()
{
    uint n = p.w[0];
    uint step = gl_NumWorkGroups.x * gl_NumWorkGroups.y * AVK_LOCAL_SIZE;
    uint i = avk_index();
    for (uint k = 0; k < ELEMS; ++k, i += step) {
        if (i >= n)
            return;
        bool c = uint(Cond(p.addr[1]).v[avk_in_index(MODE0, 0, i)]) != 0u;
        T_S v = c ? value(MODE1, 1, i) : value(MODE2, 2, i);
        Res(p.addr[0]).v[p.w[1] + i] = v;
    }
}
