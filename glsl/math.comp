#version 450
// Elementwise ops that need the math libraries (glsl/include/math_f32.glsl, math_f64.glsl,
// complex_math.glsl): exponentials, logarithms, trigonometric and hyperbolic functions and their
// inverses, pow, atan2, logaddexp, hypot. Op code: specialisation constant 0; input modes: 1, 2.
// A variant is only built once the includes it needs exist (variants.py).
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
#else
#error "complex math variants are not written yet"
#endif

layout(std430, binding = 0) writeonly buffer R_ { R_S r_[]; };
layout(std430, binding = 1) readonly buffer A_ { T_S a_[]; };
layout(std430, binding = 2) readonly buffer B_ { T_S b_[]; };

T_C op(T_C a, T_C b)
{
    if (OP == OP_EXP) return MF(exp)(a);
    if (OP == OP_EXPM1) return MF(expm1)(a);
    if (OP == OP_LOG) return MF(log)(a);
    if (OP == OP_LOG1P) return MF(log1p)(a);
    if (OP == OP_LOG2) return MF(log2)(a);
    if (OP == OP_LOG10) return MF(log10)(a);
    if (OP == OP_SIN) return MF(sin)(a);
    if (OP == OP_COS) return MF(cos)(a);
    if (OP == OP_TAN) return MF(tan)(a);
    if (OP == OP_ASIN) return MF(asin)(a);
    if (OP == OP_ACOS) return MF(acos)(a);
    if (OP == OP_ATAN) return MF(atan)(a);
    if (OP == OP_SINH) return MF(sinh)(a);
    if (OP == OP_COSH) return MF(cosh)(a);
    if (OP == OP_TANH) return MF(tanh)(a);
    if (OP == OP_ASINH) return MF(asinh)(a);
    if (OP == OP_ACOSH) return MF(acosh)(a);
    if (OP == OP_ATANH) return MF(atanh)(a);
    if (OP == OP_POW) return MF(pow)(a, b);
    if (OP == OP_ATAN2) return MF(atan2)(a, b);
    if (OP == OP_LOGADDEXP) return MF(logaddexp)(a, b);
    if (OP == OP_HYPOT) return MF(hypot)(a, b);
    return a;
}

void main()
{
    uint i = avk_index();
    if (i >= p.w[0])
        return;
    T_C a, b;
    if (MODE0 == MODE_SCALAR)
        a = t_scalar(0);
    else
        a = T_C(a_[avk_in_index(MODE0, 0, i)]);
    b = a;
    if (OP == OP_POW || OP == OP_ATAN2 || OP == OP_LOGADDEXP || OP == OP_HYPOT) {
        if (MODE1 == MODE_SCALAR)
            b = t_scalar(1);
        else
            b = T_C(b_[avk_in_index(MODE1, 1, i)]);
    }
    r_[p.w[1] + i] = R_S(op(a, b));
}
