// Shared by every shader: the invocation index and the common extensions.
#ifndef AVK_COMMON_GLSL
#define AVK_COMMON_GLSL

#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : require

// The runtime launches a 2-D grid of 256-wide groups so that counts above 65535 * 256 fit
// within the minimum maxComputeWorkGroupCount.
// A shader defining AVK_LOCAL_SIZE_ID takes its workgroup width from that specialisation
// constant (256 unless the pipeline sets it; the sort's radix passes do).
#ifdef AVK_LOCAL_SIZE_ID
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;
layout(local_size_x_id = AVK_LOCAL_SIZE_ID) in;
#define AVK_LOCAL_SIZE gl_WorkGroupSize.x
#else
#define AVK_LOCAL_SIZE 256
layout(local_size_x = AVK_LOCAL_SIZE, local_size_y = 1, local_size_z = 1) in;
#endif

uint avk_index()
{
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * AVK_LOCAL_SIZE
         + gl_LocalInvocationID.x;
}

// avk_index() with the workgroups taken last to first where `reversed` (lanes still ascend): a
// streaming kernel then starts where the one before it, walking forward, ended, on the part of
// its arrays the L2 still holds.
uint avk_index_order(bool reversed)
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (reversed)
        g = gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u - g;
    return g * AVK_LOCAL_SIZE + gl_LocalInvocationID.x;
}

#endif
