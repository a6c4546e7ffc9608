// Shared by the reduce and scan families: dtype kinds, the push block and element access.
// Owned by the kernels layer (see docs/kernels.md, "Reductions and scans").
//
// A variant is compiled with T_* (input dtype) and R_* (accumulator = result dtype) defines from
// array_api_vulkan/_kernels/variants.py, as the elementwise families are.
//
// The problem is always `rows` independent rows of `n` elements each. Element i of row r is at
// element index  in_off + (r / R1) * rs0 + (r % R1) * rs1 + i * is  of the input (uint
// arithmetic, wrapping: negative strides are two's complement and the true index is in range).
//
// Push block (32 words, 128 bytes):
//   w[0] n            w[1] rows          w[2] R1 (inner extent of the rows)
//   w[3] rs0          w[4] rs1           w[5] is (element strides, signed)
//   w[6] chunk: elements of a row per workgroup (reduce ROWS mode) or per invocation (COLS)
//   w[7] G: chunks per row (1: this pass writes the result, else per-chunk partials)
//   w[8] mode (bits 0-1), finalisation (bits 4-7), aux kind (bits 8-9), see reduce.comp
//   w[9] input element offset    w[10] aux element offset
//   w[11] divisor (float bits)   w[12..13] divisor (double)
//   w[14] N (float bits)         w[15..16] N (double): the full row length (var's correction)
//   addr[0] input, addr[1] result / partials, addr[2] aux input, addr[3] second output
#ifndef AVK_REDUCE_GLSL
#define AVK_REDUCE_GLSL

#include "common.glsl"
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#define K_BOOL 0
#define K_INT 1
#define K_UINT 2
#define K_FLOAT 3
#define K_CPLX 4

#ifdef AVK_DENORM_PRESERVE
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;

layout(constant_id = 0) const uint OP = 0;

// A reference's base is an allocation's first byte (16-byte aligned); elements are their size.
#define T_ALIGN (T_BITS / 8)
#define R_ALIGN (R_BITS / 8)

layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) readonly buffer AvkTIn { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) readonly buffer AvkRIn { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) writeonly buffer AvkTOut { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) writeonly buffer AvkROut { R_S v[]; };

// Real component type of R
#if R_K == K_CPLX
#if R_BITS == 64
#define R_R float
#else
#define R_R double
#endif
#else
#define R_R R_C
#endif

float avk_f32(uint k) { return uintBitsToFloat(p.w[k]); }
double avk_f64(uint k) { return packDouble2x32(uvec2(p.w[k], p.w[k + 1])); }

// Element index of (row r, element i) in the input.
uint avk_row_base(uint r)
{
    uint r1 = p.w[2];
    uint q = r / r1;
    return p.w[9] + q * p.w[3] + (r - q * r1) * p.w[4];
}

// Truthiness (all/any/count_nonzero): nonzero, NaN included.
#if T_K == K_CPLX
#define T_TRUTH(x) ((x).x != 0 || (x).y != 0)
#else
#define T_TRUTH(x) ((x) != T_C(0))
#endif

// Complex or real product. A complex factor that is exactly 1 (the accumulators' start, a tree's
// padding) gives the other unchanged: (1 + 0j) * (-inf + 1j) by the formula is -inf + NaN j
// (0 * -inf), which made every product with an infinity NaN. A product is then its elements'
// from the first; numpy's prod multiplies the identity by the first element, which is the same
// where that element is finite.
#if R_K == K_CPLX
R_C r_cmul(R_C a, R_C b)
{
    if (a == R_C(1, 0))
        return b;
    if (b == R_C(1, 0))
        return a;
    return R_C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
#define R_MUL(a, b) r_cmul(a, b)
#else
#define R_MUL(a, b) ((a) * (b))
#endif

// T -> R as numpy converts (bool/int -> wider int, real -> complex).
#if R_K == K_CPLX && T_K != K_CPLX
#define T_TO_R(x) R_C(R_R(x), 0)
#else
#define T_TO_R(x) R_C(x)
#endif

#endif
