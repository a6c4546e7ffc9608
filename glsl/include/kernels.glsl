// Shared by the kernel families (unary, binary, clip, cast, fill, math): dtype macros, the push
// block layout, input modes and strided indexing. Owned by the kernels layer.
//
// A variant is compiled with T_* (input dtype) and R_* (result dtype) defines from
// array_api_vulkan/_kernels/variants.py:  X_S storage type, X_C compute type, X_K kind
// (K_BOOL..K_CPLX), X_BITS the dtype's width.
//
// Push block (32 words: 128 bytes, what every device has), for a family with NIN inputs:
//   w[0] count, w[1] result element offset, w[2] ndim (bits 0-7) and, for inputs whose mode
//            specialisation constant is MODE_DYNAMIC, their modes (2 bits each from bit 8),
//            bit 31 the workgroups' order (elementwise.glsl's AVK_REVERSED; not fill's),
//   w[3 + j] input j: element offset (modes CONTIG/STRIDED/ONE) or the word where its scalar
//            starts (mode SCALAR),
//   w[3 + NIN ...] shape[ndim], then strides[ndim] of each input j (in elements, signed),
//   then the scalars' words; all within w[0 .. AVK_WORDS).
//   addr[0] the result's device address, addr[1 + j] input j's (unused for a scalar), each the
//            first byte of its allocation: element offsets count from there.
// Kernels reach memory only through these addresses (no descriptor sets), so a pipeline depends
// on its code and specialisation constants alone, and one array may be as large as a buffer.
#ifndef AVK_KERNELS_GLSL
#define AVK_KERNELS_GLSL

#include "common.glsl"
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#define K_BOOL 0
#define K_INT 1
#define K_UINT 2
#define K_FLOAT 3
#define K_CPLX 4

// input modes (specialisation constants 1..3)
#define MODE_CONTIG 0
#define MODE_STRIDED 1
#define MODE_SCALAR 2
#define MODE_ONE 3
// the mode comes from the push block (families whose pipelines are costly to create: math)
#define MODE_DYNAMIC 4

#ifdef AVK_DENORM_PRESERVE
// SPIR-V DenormPreserve (4459) for 32-bit floats, capability DenormPreserve (4464): only on
// devices reporting shaderDenormPreserveFloat32 (NVIDIA flushes float32 denormals otherwise).
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#define AVK_WORDS 24
layout(push_constant) uniform Push { uint w[AVK_WORDS]; uvec2 addr[4]; } p;

layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const uint MODE0 = 0;
layout(constant_id = 2) const uint MODE1 = 0;
layout(constant_id = 3) const uint MODE2 = 0;
// Elements per invocation (elementwise.glsl): the runtime launches count / ELEMS invocations
// (4: 1.5x on an H200, 2x on lavapipe, for a float32 add).
layout(constant_id = 4) const uint ELEMS = 1;

// Real component type of T (T_C itself for real dtypes).
#if defined(T_K) && T_K == K_CPLX
#if T_BITS == 64
#define T_R float
#else
#define T_R double
#endif
#elif defined(T_K)
#define T_R T_C
#endif

#if defined(R_K) && R_K == K_CPLX
#if R_BITS == 64
#define R_R float
#else
#define R_R double
#endif
#elif defined(R_K)
#define R_R R_C
#endif

uint avk_mode(uint mode, uint j)
{
    return mode == MODE_DYNAMIC ? (p.w[2] >> (8 + 2 * j)) & 3u : mode;
}

#ifdef NIN
// Element offset of result element i within input j (strided mode), from the push shape/strides.
int avk_strided(uint i, uint j)
{
    uint nd = p.w[2] & 0xffu;
    uint sh = 3 + NIN;
    uint st = sh + nd * (1 + j);
    int off = 0;
    for (uint k = nd; k > 0; --k) {
        uint n = p.w[sh + k - 1];
        uint q = i / n;
        off += int(i - q * n) * int(p.w[st + k - 1]);
        i = q;
    }
    return off;
}

uint avk_in_index(uint mode, uint j, uint i)
{
    mode = avk_mode(mode, j);
    int base = int(p.w[3 + j]);
    if (mode == MODE_CONTIG)
        return uint(base) + i;
    if (mode == MODE_STRIDED)
        return uint(base + avk_strided(i, j));
    return uint(base);
}
#endif

float avk_f32(uint k) { return uintBitsToFloat(p.w[k]); }
double avk_f64(uint k) { return packDouble2x32(uvec2(p.w[k], p.w[k + 1])); }
uint64_t avk_u64(uint k) { return packUint2x32(uvec2(p.w[k], p.w[k + 1])); }

#ifdef T_K
// The scalar operand j (mode SCALAR) from the push block.
T_C t_scalar(uint j)
{
    uint k = p.w[3 + j];
#if T_K == K_CPLX && T_BITS == 64
    return vec2(avk_f32(k), avk_f32(k + 1));
#elif T_K == K_CPLX
    return dvec2(avk_f64(k), avk_f64(k + 2));
#elif T_K == K_FLOAT && T_BITS == 32
    return avk_f32(k);
#elif T_K == K_FLOAT
    return avk_f64(k);
#elif T_BITS == 64
    return T_C(avk_u64(k));
#else
    return T_C(p.w[k]);
#endif
}
#endif

#ifdef R_K
// A value of the result dtype from push words k...
R_C r_scalar(uint k)
{
#if R_K == K_CPLX && R_BITS == 64
    return vec2(avk_f32(k), avk_f32(k + 1));
#elif R_K == K_CPLX
    return dvec2(avk_f64(k), avk_f64(k + 2));
#elif R_K == K_FLOAT && R_BITS == 32
    return avk_f32(k);
#elif R_K == K_FLOAT
    return avk_f64(k);
#elif R_BITS == 64
    return R_C(avk_u64(k));
#else
    return R_C(p.w[k]);
#endif
}
#endif

#endif
