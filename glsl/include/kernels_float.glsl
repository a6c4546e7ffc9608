// Bit-exact helpers for the real component type T_R of the input dtype (float or double):
// copysign, nextafter, fmod (exact, musl's algorithm), numpy's divmod, hypot.
// Included by families that need them, after kernels.glsl.
#ifndef AVK_KERNELS_FLOAT_GLSL
#define AVK_KERNELS_FLOAT_GLSL

#if (T_K == K_FLOAT && T_BITS == 32) || (T_K == K_CPLX && T_BITS == 64)
#define TU uint
#define TI int
#define t_bits(x) floatBitsToUint(x)
#define t_from_bits(u) uintBitsToFloat(u)
#define TU_SIGN 0x80000000u
#define TU_ONE 1u
#define T_MANT 23
#define T_EXPMASK 0xffu
#else
#define TU uint64_t
#define TI int64_t
#define t_bits(x) doubleBitsToUint64(x)
#define t_from_bits(u) uint64BitsToDouble(u)
#define TU_SIGN 0x8000000000000000ul
#define TU_ONE 1ul
#define T_MANT 52
#define T_EXPMASK 0x7fful
#endif
#define T_TOTAL (T_MANT + 1 + (T_MANT == 23 ? 8 : 11))

// Division and square root correctly rounded: Vulkan lets float32 a / b and sqrt be off by ulps
// (NVIDIA is), while double ones are exact there; a float result of a double quotient or root of
// floats is correctly rounded (53 >= 2 * 24 + 2). AVK_NO_F64 variants serve devices without
// float64 and take what the device gives.
#if T_MANT == 23 && !defined(AVK_NO_F64)
T_R f_div(T_R a, T_R b) { return float(double(a) / double(b)); }
T_R f_sqrt(T_R a) { return float(sqrt(double(a))); }
#else
T_R f_div(T_R a, T_R b) { precise T_R q = a / b; return q; }
T_R f_sqrt(T_R a) { return sqrt(a); }
#endif

T_R f_copysign(T_R a, T_R b)
{
    return t_from_bits((t_bits(a) & ~TU_SIGN) | (t_bits(b) & TU_SIGN));
}

bool f_signbit(T_R a) { return (t_bits(a) & TU_SIGN) != 0; }

T_R f_nan() { return t_from_bits(~TU(0) >> 1); }
T_R f_inf() { return t_from_bits(TU(T_EXPMASK) << T_MANT); }

T_R f_nextafter(T_R x, T_R y)
{
    if (isnan(x) || isnan(y))
        return f_nan();
    TU ux = t_bits(x), uy = t_bits(y);
    TU ax = ux & ~TU_SIGN, ay = uy & ~TU_SIGN;
    if (ux == uy || (ax == 0 && ay == 0))
        return y;
    if (ax == 0)
        return t_from_bits((uy & TU_SIGN) | TU_ONE);
    bool xneg = (ux & TU_SIGN) != 0, yneg = (uy & TU_SIGN) != 0;
    bool lt = xneg != yneg ? xneg : (xneg ? ax > ay : ax < ay);
    return t_from_bits(lt != xneg ? ux + TU_ONE : ux - TU_ONE);
}

// C's fmod, exact (integer long division on the significands, as musl does).
T_R f_fmod(T_R x, T_R y)
{
    TU ux = t_bits(x), uy = t_bits(y);
    int ex = int((ux >> T_MANT) & T_EXPMASK), ey = int((uy >> T_MANT) & T_EXPMASK);
    TU sx = ux & TU_SIGN;
    TU i;
    if ((uy << 1) == 0 || isnan(y) || uint(ex) == uint(T_EXPMASK))
        return f_nan();
    if ((ux << 1) <= (uy << 1)) {
        if ((ux << 1) == (uy << 1))
            return t_from_bits(sx);
        return x;
    }
    TU implicit = TU_ONE << T_MANT;
    if (ex == 0) {
        for (i = ux << (T_TOTAL - T_MANT); (i >> (T_TOTAL - 1)) == 0; ex--, i <<= 1)
            ;
        ux <<= -ex + 1;
    } else {
        ux &= implicit - TU_ONE;
        ux |= implicit;
    }
    if (ey == 0) {
        for (i = uy << (T_TOTAL - T_MANT); (i >> (T_TOTAL - 1)) == 0; ey--, i <<= 1)
            ;
        uy <<= -ey + 1;
    } else {
        uy &= implicit - TU_ONE;
        uy |= implicit;
    }
    for (; ex > ey; ex--) {
        i = ux - uy;
        if ((i >> (T_TOTAL - 1)) == 0) {
            if (i == 0)
                return t_from_bits(sx);
            ux = i;
        }
        ux <<= 1;
    }
    i = ux - uy;
    if ((i >> (T_TOTAL - 1)) == 0) {
        if (i == 0)
            return t_from_bits(sx);
        ux = i;
    }
    for (; (ux >> T_MANT) == 0; ux <<= 1, ex--)
        ;
    if (ex > 0) {
        ux -= implicit;
        ux |= TU(ex) << T_MANT;
    } else {
        ux >>= -ex + 1;
    }
    return t_from_bits(ux | sx);
}

// numpy's npy_divmod: floor quotient, remainder with the divisor's sign.
T_R f_divmod(T_R a, T_R b, out T_R modulus)
{
    precise T_R mod = f_fmod(a, b);
    if (b == 0) {
        modulus = mod;
        return f_div(a, b);
    }
    precise T_R am = a - mod;
    precise T_R div = f_div(am, b);
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0;
        }
    } else {
        mod = f_copysign(T_R(0), b);
    }
    precise T_R floordiv;
    if (div != 0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5)
            floordiv += 1.0;
    } else {
        floordiv = f_copysign(T_R(0), f_div(a, b));
    }
    modulus = mod;
    return floordiv;
}

T_R f_hypot(T_R a, T_R b)
{
    T_R x = abs(a), y = abs(b);
    if (isinf(x) || isinf(y))
        return f_inf();
    if (isnan(x) || isnan(y))
        return f_nan();
    T_R hi = x >= y ? x : y, lo = x >= y ? y : x;  // selects keep subnormals (see reduce.comp)
    if (hi == 0)
        return hi;
    precise T_R r = f_div(lo, hi);
    precise T_R r2 = T_R(1) + r * r;
    precise T_R s = hi * f_sqrt(r2);
    return s;
}

#if T_K == K_CPLX
// numpy's complex division (Smith's method).
T_C c_div(T_C a, T_C b)
{
    precise T_R ar = abs(b.x), ai = abs(b.y);
    precise T_R re, im;
    if (ar >= ai) {
        if (ar == 0 && ai == 0) {
            re = f_div(a.x, ar);
            im = f_div(a.y, ar);
        } else {
            precise T_R rat = f_div(b.y, b.x);
            precise T_R den = b.x + b.y * rat;
            precise T_R scl = f_div(T_R(1.0), den);
            re = (a.x + a.y * rat) * scl;
            im = (a.y - a.x * rat) * scl;
        }
    } else {
        precise T_R rat = f_div(b.x, b.y);
        precise T_R den = b.y + b.x * rat;
        precise T_R scl = f_div(T_R(1.0), den);
        re = (a.x * rat + a.y) * scl;
        im = (a.y * rat - a.x) * scl;
    }
    return T_C(re, im);
}

T_C c_mul(T_C a, T_C b)
{
    precise T_R re = a.x * b.x - a.y * b.y;
    precise T_R im = a.x * b.y + a.y * b.x;
    return T_C(re, im);
}
#endif

#endif
