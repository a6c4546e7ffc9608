#version 450
// Reductions: `rows` independent rows of `n` elements each (push layout: include/reduce.glsl),
// op code in specialisation constant 0, variants per (T, R) from the op table.
//
// Mode (w[8] bits 0-1):
//   ROWS  one workgroup per (row, chunk of `chunk` elements): its 256 invocations take every
//         256th element (coalesced where is == 1), then a tree in shared memory.
//         Grid (G, gy, gz): row = gz_id * gy + gy_id.
//   COLS  one invocation per row, through `chunk` elements of it in order (coalesced across
//         the rows where rs1 == 1: a reduction over leading axes needs no copy).
//         Grid (gx, G, gz): row = (gz_id * gx + gx_id) * 256 + local id.
// With G > 1 chunks per row this pass writes partials (ROWS: [row][chunk], COLS: [chunk][row])
// and a second pass reduces them (as rows of G elements).
//
// Numerics: float sums (sum, mean, var) accumulate with Neumaier's compensated summation in
// each invocation, then a fixed tree (sums carry their compensation through it by TwoSum, and
// their partials are value and compensation pairs): the order depends only on the layout and the grid, never
// on timing (no atomics). Integers wrap in the accumulator dtype (R), as numpy's do. min/max
// propagate NaN; argmin/argmax take the first occurrence and the first NaN.
#extension GL_GOOGLE_include_directive : require
#include "reduce.glsl"

#define MODE_ROWS 0u
#define MODE_COLS 1u
// finalisation of the last pass (w[8] bits 4-7): mean divides by the divisor; var computes
// (sum d^2 - (sum d)^2 / N) / divisor (the corrected two-pass formula); std its square root.
#define FIN_NONE 0u
#define FIN_MEAN 1u
#define FIN_VAR 2u
#define FIN_STD 3u
// aux input (w[8] bits 8-9): ROW: aux[aux_off + row] (var's per-row mean); ELEM: aux at the
// element's own index (a second pass's second partials: argmin/argmax indices, var's sum d).
#define AUX_NONE 0u
#define AUX_ROW 1u
#define AUX_ELEM 2u

#define NO_INDEX 0xffffffffu

#if R_K == K_FLOAT || R_K == K_CPLX
#define R_FLOATING 1
#endif

struct Acc
{
    R_C a;  // the value (argmin/argmax: unused)
    R_C b;  // var: sum of deviations
    T_C x;  // argmin/argmax: the best value so far
    uint i; //               and its index (NO_INDEX: none yet)
};

bool is_arg() { return OP == OP_ARGMAX || OP == OP_ARGMIN; }

// Extremes of a compute type, for min/max identities.
#if R_K == K_FLOAT
#define R_HIGH R_C(1.0 / 0.0)
#define R_LOW R_C(-1.0 / 0.0)
#elif R_K == K_INT && R_BITS == 64
#define R_HIGH R_C(0x7fffffffffffffffl)
#define R_LOW R_C(0x8000000000000000ul)
#elif R_K == K_INT
#define R_HIGH R_C(0x7fffffff)
#define R_LOW R_C(0x80000000u)
#elif R_BITS == 64
#define R_HIGH R_C(0xfffffffffffffffful)
#define R_LOW R_C(0)
#else
#define R_HIGH R_C(0xffffffffu)
#define R_LOW R_C(0)
#endif

Acc identity()
{
    Acc acc;
    acc.a = R_C(0);
    acc.b = R_C(0);
    acc.x = T_C(0);
    acc.i = NO_INDEX;
#if R_K != K_CPLX
    if (OP == OP_MIN)
        acc.a = R_HIGH;
    if (OP == OP_MAX)
        acc.a = R_LOW;
#endif
    if (OP == OP_PROD || OP == OP_ALL) {
#if R_K == K_CPLX
        acc.a = R_C(1, 0);
#else
        acc.a = R_C(1);
#endif
    }
    return acc;
}

#ifdef R_FLOATING
// Neumaier's compensated sum: s + c carries the exact sum to within an ulp or so.
#if R_K == K_CPLX
#define R_GE(s, x) greaterThanEqual(abs(s), abs(x))
#define R_FINITE(s) bvec2(!(isinf((s).x) || isnan((s).x)), !(isinf((s).y) || isnan((s).y)))
#else
#define R_GE(s, x) (abs(s) >= abs(x))
#define R_FINITE(s) (!(isinf(s) || isnan(s)))
#endif

void nsum(inout R_C s, inout R_C c, R_C x)
{
    precise R_C t = s + x;
    precise R_C big = (s - t) + x;
    precise R_C small = (x - t) + s;
    precise R_C e = mix(small, big, R_GE(s, x));
    precise R_C c2 = c + e;
    c = c2;
    s = t;
}

// s + c where s is finite (an infinite or NaN s is the answer, and c may be NaN then).
R_C nfold(R_C s, R_C c)
{
    precise R_C f = s + c;
    return mix(s, f, R_FINITE(s));
}
#endif

R_C minmax(R_C a, R_C b)
{
#if R_K == K_FLOAT
    if (isnan(a))
        return a;
    if (isnan(b))
        return b;
#endif
#if R_K == K_CPLX
    return a;
#else
    // A select, not min()/max(): NVIDIA's FMin/FMax flush float32 subnormals even under
    // DenormPreserve (benchmarks/diag_denorm.py), and a select returns an operand's exact bits.
    return OP == OP_MIN ? (b < a ? b : a) : (b > a ? b : a);
#endif
}

// Whether (x2, i2) beats (x1, i1) for argmin/argmax: the first NaN, else the extreme value,
// ties to the lower index.
bool arg_better(T_C x1, uint i1, T_C x2, uint i2)
{
    if (i2 == NO_INDEX)
        return false;
    if (i1 == NO_INDEX)
        return true;
#if T_K == K_CPLX
    return false;
#else
#if T_K == K_FLOAT
    bool n1 = isnan(x1), n2 = isnan(x2);
    if (n1 || n2)
        return n2 && (!n1 || i2 < i1);
#endif
    if (x2 == x1)
        return i2 < i1;
    return OP == OP_ARGMAX ? x2 > x1 : x2 < x1;
#endif
}

// Merges two partial results (tree).
Acc combine(Acc u, Acc v)
{
    if (is_arg()) {
        if (arg_better(u.x, u.i, v.x, v.i)) {
            u.x = v.x;
            u.i = v.i;
        }
    } else if (OP == OP_SUM) {
#ifdef R_FLOATING
        // float sums carry their compensation (b) through the tree: TwoSum of the values
        precise R_C s = u.a + v.a;
        precise R_C bv = s - u.a;
        precise R_C e = (u.a - (s - bv)) + (v.a - bv);
        precise R_C c = (u.b + v.b) + e;
        u.a = s;
        u.b = c;
#else
        u.a = u.a + v.a;
#endif
    } else if (OP == OP_COUNT_NONZERO || OP == OP_SQDEV) {
        u.a = u.a + v.a;
        u.b = u.b + v.b;
    } else if (OP == OP_PROD) {
        u.a = R_MUL(u.a, v.a);
    } else if (OP == OP_MIN || OP == OP_MAX) {
        u.a = minmax(u.a, v.a);
    } else if (OP == OP_ALL) {
        u.a = R_C(uint(u.a != R_C(0) && v.a != R_C(0)));
    } else if (OP == OP_ANY) {
        u.a = R_C(uint(u.a != R_C(0) || v.a != R_C(0)));
    }
    return u;
}

shared Acc sh[AVK_LOCAL_SIZE];

#ifdef R_FLOATING
// The last pass's finalisation of a floating result.
R_C finalize(Acc acc, uint fin)
{
    if (OP == OP_SUM)
        acc.a = nfold(acc.a, acc.b);
    if (fin == FIN_MEAN) {
#if defined(AVK_NO_F64) || R_BITS == 128 || (R_K == K_FLOAT && R_BITS == 64)
#if R_BITS == 32 || R_BITS == 64 && R_K == K_CPLX
        return acc.a / avk_f32(11);
#else
        return acc.a / avk_f64(12);
#endif
#else
        // float32 / complex64: divided in float64, then rounded (correctly rounded; Vulkan
        // lets float32 division be ulps off)
        return R_C(acc.a / avk_f64(12));
#endif
    }
#if R_K == K_FLOAT
    if (fin == FIN_VAR || fin == FIN_STD) {
#if R_BITS == 32 && !defined(AVK_NO_F64)
        double s2 = double(acc.a), s1 = double(acc.b);
        double v = (s2 - s1 * (s1 / avk_f64(15))) / avk_f64(12);
#elif R_BITS == 32
        float s2 = acc.a, s1 = acc.b;
        float v = (s2 - s1 * (s1 / avk_f32(14))) / avk_f32(11);
#else
        double s2 = acc.a, s1 = acc.b;
        double v = (s2 - s1 * (s1 / avk_f64(15))) / avk_f64(12);
#endif
        if (v < 0)
            v = 0;  // (rounding; NaN stays NaN)
        if (fin == FIN_STD)
            v = sqrt(v);
        return R_C(v);
    }
#endif
    return acc.a;
}
#endif

void main()
{
    uint n = p.w[0], rows = p.w[1], len = p.w[6], nchunks = p.w[7];
    uint mode = p.w[8] & 3u, fin = (p.w[8] >> 4) & 15u, auxk = (p.w[8] >> 8) & 3u;
    uint t = gl_LocalInvocationID.x;
    uint r, c, first, step;
    if (mode == MODE_ROWS) {
        c = gl_WorkGroupID.x;
        r = gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y;
        first = c * len + t;
        step = AVK_LOCAL_SIZE;
        if (r >= rows)
            return;  // (the whole workgroup)
    } else {
        c = gl_WorkGroupID.y;
        r = (gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x) * AVK_LOCAL_SIZE + t;
        first = c * len;
        step = 1u;
        if (r >= rows)
            return;
    }
    uint end = c * len + min(len, n - c * len);

    Acc acc = identity();
    uint base = avk_row_base(r);
    uint is = p.w[5];
#ifdef R_FLOATING
    R_C ca = R_C(0), cb = R_C(0);
    bool compensated = OP == OP_SUM || OP == OP_SQDEV;
    R_C mean = R_C(0);
    if (auxk == AUX_ROW)
        mean = R_C(AvkRIn(p.addr[2]).v[p.w[10] + r]);
#endif
    for (uint i = first; i < end; i += step) {
        uint idx = base + i * is;
        T_C x = T_C(AvkTIn(p.addr[0]).v[idx]);
        if (is_arg()) {
            uint ii = auxk == AUX_ELEM ? uint(AvkRIn(p.addr[2]).v[idx]) : i;
            if (arg_better(acc.x, acc.i, x, ii)) {
                acc.x = x;
                acc.i = ii;
            }
            continue;
        }
#ifdef R_FLOATING
        if (compensated) {
            R_C v = T_TO_R(x);
            if (OP == OP_SUM && auxk == AUX_ELEM) {
                precise R_C c2 = ca + R_C(AvkRIn(p.addr[2]).v[idx]);  // a partial's compensation
                ca = c2;
            }
            if (OP == OP_SQDEV) {
                if (auxk == AUX_ELEM) {
                    nsum(acc.b, cb, R_C(AvkRIn(p.addr[2]).v[idx]));
                } else {
                    precise R_C d = v - mean;
                    nsum(acc.b, cb, d);
                    precise R_C d2 = d * d;
                    v = d2;
                }
            }
            nsum(acc.a, ca, v);
            continue;
        }
#endif
        if (OP == OP_SUM) {
            acc.a += T_TO_R(x);
        } else if (OP == OP_COUNT_NONZERO) {
            if (T_TRUTH(x))
                acc.a += R_C(1);
        } else if (OP == OP_PROD) {
            acc.a = R_MUL(acc.a, T_TO_R(x));
        } else if (OP == OP_MIN || OP == OP_MAX) {
            acc.a = minmax(acc.a, T_TO_R(x));
        } else if (OP == OP_ALL) {
            if (!T_TRUTH(x))
                acc.a = R_C(0);
        } else if (OP == OP_ANY) {
            if (T_TRUTH(x))
                acc.a = R_C(1);
        }
    }
#ifdef R_FLOATING
    if (OP == OP_SUM) {
        acc.b = ca;  // folded at the end (finalize) or stored as a second partial
    } else if (compensated) {
        acc.a = nfold(acc.a, ca);
        acc.b = nfold(acc.b, cb);
    }
#endif

    if (mode == MODE_ROWS) {
        sh[t] = acc;
        barrier();
        [[unroll]] for (uint s = AVK_LOCAL_SIZE / 2; s > 0; s >>= 1) {
            if (t < s)
                sh[t] = combine(sh[t], sh[t + s]);
            barrier();
        }
        if (t != 0)
            return;
        acc = sh[0];
    }

    if (nchunks == 1u) {
        if (is_arg()) {
            AvkROut(p.addr[1]).v[r] = R_S(acc.i);
        } else {
#ifdef R_FLOATING
            AvkROut(p.addr[1]).v[r] = R_S(finalize(acc, fin));
#else
            AvkROut(p.addr[1]).v[r] = R_S(acc.a);
#endif
        }
        return;
    }
    uint q = mode == MODE_ROWS ? r * nchunks + c : c * rows + r;
    if (is_arg()) {
        AvkTOut(p.addr[1]).v[q] = T_S(acc.x);
        AvkROut(p.addr[3]).v[q] = R_S(acc.i);
    } else {
        AvkROut(p.addr[1]).v[q] = R_S(acc.a);
#ifdef R_FLOATING
        if (OP == OP_SQDEV || OP == OP_SUM)
            AvkROut(p.addr[3]).v[q] = R_S(acc.b);  // var's sum d; a sum's compensation
#endif
    }
}
