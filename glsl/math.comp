#version 450
// Elementwise ops that need the math libraries (glsl/include/math_f32.glsl, math_f64.glsl,
// complex_math.glsl): exponentials, logarithms, trigonometric and hyperbolic functions and their
// inverses, pow, atan2, logaddexp, hypot. Op code: specialisation constant 0; input modes: in the
// push block (MODE_DYNAMIC), so that each op and dtype costs one pipeline.
// A variant is only built once the includes it needs exist (variants.py). Complex variants are
// built per op (MATH_OP): lavapipe inlines every function of a module before it folds the op
// code, which costs about a second per pipeline for all of complex_math.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
#define NIN 2
#include "kernels.glsl"
#if T_K == K_FLOAT && T_BITS == 32
#include "math_f32.glsl"
#define MF(f) f32_##f
#elif T_K == K_FLOAT
#include "math_f64.glsl"
#define MF(f) f64_##f
#elif T_BITS == 64
#include "complex_math.glsl"
#define MF(f) c64_##f
#else
#include "math_f64.glsl"
#include "complex_math.glsl"
#define MF(f) c128_##f
#endif

T_C op(T_C a, T_C b)
{
#if !defined(MATH_OP) || MATH_OP == OP_EXP
    if (OP == OP_EXP) return MF(exp)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_EXPM1
    if (OP == OP_EXPM1) return MF(expm1)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_LOG
    if (OP == OP_LOG) return MF(log)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_LOG1P
    if (OP == OP_LOG1P) return MF(log1p)(a);
#endif
#if T_K == K_CPLX
    // numpy: log2(z) = log(z) * log2(e), log10(z) = log(z) * log10(e)
#if !defined(MATH_OP) || MATH_OP == OP_LOG2
    if (OP == OP_LOG2) { precise T_C r = MF(log)(a) * T_R(1.4426950408889634LF); return r; }
#endif
#if !defined(MATH_OP) || MATH_OP == OP_LOG10
    if (OP == OP_LOG10) { precise T_C r = MF(log)(a) * T_R(0.4342944819032518LF); return r; }
#endif
#if !defined(MATH_OP) || MATH_OP == OP_SQRT
    if (OP == OP_SQRT) return MF(sqrt)(a);
#endif
#else
#if !defined(MATH_OP) || MATH_OP == OP_LOG2
    if (OP == OP_LOG2) return MF(log2)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_LOG10
    if (OP == OP_LOG10) return MF(log10)(a);
#endif
#endif
#if !defined(MATH_OP) || MATH_OP == OP_SIN
    if (OP == OP_SIN) return MF(sin)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_COS
    if (OP == OP_COS) return MF(cos)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_TAN
    if (OP == OP_TAN) return MF(tan)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ASIN
    if (OP == OP_ASIN) return MF(asin)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ACOS
    if (OP == OP_ACOS) return MF(acos)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ATAN
    if (OP == OP_ATAN) return MF(atan)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_SINH
    if (OP == OP_SINH) return MF(sinh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_COSH
    if (OP == OP_COSH) return MF(cosh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_TANH
    if (OP == OP_TANH) return MF(tanh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ASINH
    if (OP == OP_ASINH) return MF(asinh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ACOSH
    if (OP == OP_ACOSH) return MF(acosh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_ATANH
    if (OP == OP_ATANH) return MF(atanh)(a);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_POW
    if (OP == OP_POW) return MF(pow)(a, b);
#endif
#if T_K == K_FLOAT
#if !defined(MATH_OP) || MATH_OP == OP_ATAN2
    if (OP == OP_ATAN2) return MF(atan2)(a, b);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_LOGADDEXP
    if (OP == OP_LOGADDEXP) return MF(logaddexp)(a, b);
#endif
#if !defined(MATH_OP) || MATH_OP == OP_HYPOT
    if (OP == OP_HYPOT) return MF(hypot)(a, b);
#endif
#endif
    return a;
}

#define AVK_OP(i, a, b) op(a, b)
#define AVK_ROLLED
// the second input is read by the binary ops only (unary ones get x twice)
#define AVK_USES(j) (j == 0 || OP == OP_POW || OP == OP_ATAN2 || OP == OP_LOGADDEXP || OP == OP_HYPOT)
#include "elementwise.glsl"
