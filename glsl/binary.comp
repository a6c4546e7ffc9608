#version 450
// Binary elementwise ops: r[i] = op(a[i], b[i]) with numpy's semantics and the standard's special
// cases. Op code: specialisation constant 0; input modes: 1 and 2 (contiguous, strided, scalar
// from push, one element). Variants by (T, R): R is T, or bool for comparisons (variants.py).
#extension GL_GOOGLE_include_directive : require
#define NIN 2
#include "kernels.glsl"
#if T_K == K_FLOAT || T_K == K_CPLX
#include "kernels_float.glsl"
#endif

#if T_K == K_INT || T_K == K_UINT
// integer floor division and remainder as numpy: x // 0 == x % 0 == 0, MIN // -1 wraps
T_C i_floordiv(T_C a, T_C b)
{
    if (b == T_C(0))
        return T_C(0);
#if T_K == K_INT
    if (b == T_C(-1))
        return T_C(0) - a;
    T_C q = a / b;
    if (a - q * b != T_C(0) && ((a < T_C(0)) != (b < T_C(0))))
        q -= T_C(1);
    return q;
#else
    return a / b;
#endif
}

T_C i_remainder(T_C a, T_C b)
{
    if (b == T_C(0))
        return T_C(0);
#if T_K == K_INT
    if (b == T_C(-1))
        return T_C(0);
    T_C r = a - (a / b) * b;
    if (r != T_C(0) && ((r < T_C(0)) != (b < T_C(0))))
        r += b;
    return r;
#else
    return a % b;
#endif
}

T_C i_pow(T_C a, T_C b)
{
#if T_K == K_INT
    if (b < T_C(0))  // numpy raises; 1 and -1 are the only bases with an integer answer
        return a == T_C(1) ? T_C(1) : (a == T_C(-1) ? ((b & T_C(1)) != T_C(0) ? T_C(-1) : T_C(1)) : T_C(0));
#endif
    T_C r = T_C(1);
    while (b != T_C(0)) {
        if ((b & T_C(1)) != T_C(0))
            r *= a;
        b >>= 1;
        a *= a;
    }
    return r;
}

// shifts as numpy: a count outside [0, bits) gives 0 (or -1 for a negative a shifted right)
T_C i_shl(T_C a, T_C b)
{
#if T_BITS == 64
    return uint64_t(b) < 64ul ? a << int(b) : T_C(0);
#else
    return uint(b) < uint(T_BITS) ? a << uint(b) : T_C(0);
#endif
}

T_C i_shr(T_C a, T_C b)
{
#if T_BITS == 64
    if (uint64_t(b) < 64ul)
        return a >> int(b);
#else
    if (uint(b) < uint(T_BITS))
        return a >> uint(b);
#endif
    return a < T_C(0) ? T_C(-1) : T_C(0);
}
#endif

R_C op(T_C a, T_C b)
{
#if R_K == K_BOOL
    if (OP == OP_EQUAL)
        return uint(a == b);
    if (OP == OP_NOT_EQUAL)
        return uint(a != b);
#if T_K != K_CPLX
    if (OP == OP_LESS)
        return uint(a < b);
    if (OP == OP_LESS_EQUAL)
        return uint(a <= b);
    if (OP == OP_GREATER)
        return uint(a > b);
    if (OP == OP_GREATER_EQUAL)
        return uint(a >= b);
#endif
#if T_K == K_BOOL
    if (OP == OP_LOGICAL_AND || OP == OP_BITWISE_AND)
        return a & b;
    if (OP == OP_LOGICAL_OR || OP == OP_BITWISE_OR)
        return a | b;
    if (OP == OP_LOGICAL_XOR || OP == OP_BITWISE_XOR)
        return a ^ b;
#endif
#else  // R is T
#if T_K == K_CPLX
    if (OP == OP_ADD)
        return a + b;
    if (OP == OP_SUBTRACT)
        return a - b;
    if (OP == OP_MULTIPLY)
        return c_mul(a, b);
    if (OP == OP_DIVIDE)
        return c_div(a, b);
#elif T_K == K_FLOAT
    if (OP == OP_ADD)
        return a + b;
    if (OP == OP_SUBTRACT)
        return a - b;
    if (OP == OP_MULTIPLY)
        return a * b;
    if (OP == OP_DIVIDE)
        return f_div(a, b);
    if (OP == OP_FLOOR_DIVIDE) {
        // the standard wants floor(a / b) where an operand is infinite
        if (isinf(a) || isinf(b))
            return floor(f_div(a, b));
        T_R m;
        return f_divmod(a, b, m);
    }
    if (OP == OP_REMAINDER) {
        if (b == 0)
            return f_fmod(a, b);
        T_R m;
        f_divmod(a, b, m);
        return m;
    }
    if (OP == OP_MAXIMUM)
        return isnan(a) ? a : (isnan(b) ? b : (a >= b ? a : b));
    if (OP == OP_MINIMUM)
        return isnan(a) ? a : (isnan(b) ? b : (a <= b ? a : b));
    if (OP == OP_COPYSIGN)
        return f_copysign(a, b);
    if (OP == OP_NEXTAFTER)
        return f_nextafter(a, b);
#else  // integers
    if (OP == OP_ADD)
        return a + b;
    if (OP == OP_SUBTRACT)
        return a - b;
    if (OP == OP_MULTIPLY)
        return a * b;
    if (OP == OP_FLOOR_DIVIDE)
        return i_floordiv(a, b);
    if (OP == OP_REMAINDER)
        return i_remainder(a, b);
    if (OP == OP_POW)
        return i_pow(a, b);
    if (OP == OP_MAXIMUM)
        return a >= b ? a : b;
    if (OP == OP_MINIMUM)
        return a <= b ? a : b;
    if (OP == OP_BITWISE_AND)
        return a & b;
    if (OP == OP_BITWISE_OR)
        return a | b;
    if (OP == OP_BITWISE_XOR)
        return a ^ b;
    if (OP == OP_BITWISE_LEFT_SHIFT)
        return i_shl(a, b);
    if (OP == OP_BITWISE_RIGHT_SHIFT)
        return i_shr(a, b);
#endif
#endif
    return R_C(0);
}

#define AVK_OP(i, a, b) op(a, b)
#include "elementwise.glsl"
