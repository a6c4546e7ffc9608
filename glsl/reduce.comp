#version 450
// Reductions: `rows` independent rows of `n` elements each (push layout: include/reduce.glsl),
// op code in specialisation constant 0, variants per (T, R) from the op table.
//
// Mode (w[8] bits 0-1):
//   ROWS  one workgroup per (row, chunk of `chunk` elements): its 256 invocations take every
//         256th element, or every 256th vector of VW elements (w[8] VEC_BIT: the row is
//         contiguous and VW-aligned; two 16-byte loads in flight, the tail scalar), lane k of
//         an invocation accumulating the k-th element of each vector; then the lanes, then a
//         workgroup tree (_sg variants: shuffles in each subgroup; else shared memory).
//         Grid (G, gy, gz): row = gz_id * gy + gy_id.
//   COLS  one invocation per row, through `chunk` elements of it in order (coalesced across
//         the rows where rs1 == 1: a reduction over leading axes needs no copy); with VEC_BIT
//         one invocation per VW adjacent rows (lane k row r + k), one vector load per element.
//         Grid (gx, G, gz): row = (gz_id * gx + gx_id) * 256 + local id (times VW).
//         With RL_BIT, RL = w[19] lanes split each chunk (lane l: elements l, l + RL, ... of it),
//         256 / RL row groups a workgroup, lane-major; the lanes' states are merged in order in
//         shared memory before the partial is stored (RL times fewer partials).
//         With PACK_BIT (fewer row groups than 256, e.g. a column sum of a tall narrow matrix,
//         where one chunk would leave most invocations idle): a workgroup takes
//         256 / row groups chunks, invocation t row group t % groups of chunk
//         gy_id * (256 / groups) + t / groups; grid (1, ceil(G / that), 1).
//   SGROWS (_sg variants, many rows of at most _reduce.SG_ROWS_MAX_N elements, G == 1): a
//         subgroup per row, as ROWS with the subgroup's invocations, w[19] rows a workgroup
//         (256 / the subgroup size) taken by its subgroups in turn. Grid (1, gy, gz).
// With G > 1 chunks per row this pass writes partials (ROWS and packed COLS: [row][chunk], so
// the second pass takes a workgroup per row; COLS: [chunk][row]) and a second pass reduces
// them (as rows of G elements).
//
// Numerics: float sums (sum, mean) accumulate with Neumaier's compensated summation in each
// lane, then a fixed tree (sums carry their compensation through it by TwoSum, and their
// partials are value and compensation pairs). var/std take one pass: each lane sums d = x - K
// and d^2 (compensated) about its first element K, turns them into (n, m = S1 / n, M2 = S2 -
// S1 m) (the mean is K + m), and the tree and the second pass merge these states by Chan et
// al.'s formulas (partials: K, then (m, M2) pairs; counts from the layout). The order depends
// only on the layout, the grid and the device's subgroup size, never on timing (no atomics).
// Integers wrap in the accumulator dtype (R), as numpy's do. min/max propagate NaN;
// argmin/argmax take the first occurrence and the first NaN.
#extension GL_GOOGLE_include_directive : require
#include "reduce.glsl"


#ifdef AVK_SUBGROUP
// _sg variants (32-bit compute types; devices with subgroup shuffles): the workgroup's tree is
// a butterfly of shuffles in each subgroup, then a short walk over the subgroups' totals.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
// Whether an _sg variant takes its subgroup tree (1) or the shared-memory one (0).
layout(constant_id = 1) const uint SG_TREE = 1;
// Whether float sums of the first pass compensate each element (Neumaier; 0: plain adds in each
// lane, then the compensated tree: a tuning switch, see _reduce.COMPENSATE).
layout(constant_id = 2) const uint COMPENSATE = 1;
// Vector loads in flight per invocation in ROWS and vector COLS modes (2 or 4; _reduce.LOADS):
// more hide more memory latency on GPUs. Each lane takes its elements in the same order either
// way.
layout(constant_id = 3) const uint LOADS = 2;
// The layout word w[8] fixed at pipeline creation (_reduce.STATIC_MODE: the word | RM_STATIC;
// 0: read from the push block), so that the driver compiles only the mode a plan takes.
layout(constant_id = 4) const uint RMODE = 0;
const uint RM_STATIC = 1u << 20;

// Vector loads (w[8] bit VEC_BIT, set where a row's or column group's elements are contiguous and
// VW-aligned): 16 bytes a load of 32- and 64-bit real dtypes.
#define VEC_BIT (1u << 12)
// COLS with several chunks a workgroup, partials [row][chunk] (see the mode notes above)
#define PACK_BIT (1u << 13)
// ROWS with G > 1: the row's last workgroup reduces its partials in this dispatch (see
// last_of_row and final_lanes), finalisation in w[8] bits 16-19, the per-row counters at
// w[20..21] and the result at w[22..23]; no second pass.
#define FINAL_BIT (1u << 14)
// COLS with RL = w[19] lanes splitting each chunk (see main's COLS part)
#define RL_BIT (1u << 15)
// Partials and counters other workgroups of this dispatch read: coherent.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer AvkCount { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) coherent readonly buffer AvkTPart { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) coherent readonly buffer AvkRPart { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) coherent writeonly buffer AvkTPartOut { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) coherent writeonly buffer AvkRPartOut { R_S v[]; };
#if T_K == K_FLOAT && T_BITS == 32
#define VW 4
#define T_V vec4
#elif T_K == K_INT && T_BITS == 32
#define VW 4
#define T_V ivec4
#elif T_K == K_UINT && T_BITS == 32
#define VW 4
#define T_V uvec4
#elif T_K == K_FLOAT && T_BITS == 64
#define VW 2
#define T_V dvec2
#elif T_K == K_INT && T_BITS == 64
#define VW 2
#define T_V i64vec2
#elif T_K == K_UINT && T_BITS == 64
#define VW 2
#define T_V u64vec2
#else
#define VW 1
#endif
#if VW > 1
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer AvkTVec { T_V v[]; };
#endif

#define MODE_ROWS 0u
#define MODE_COLS 1u
#define MODE_SGROWS 2u
// finalisation of the last pass (w[8] bits 4-7): mean divides by the divisor; var is
// M2 / divisor (n - correction); std its square root.
#define FIN_NONE 0u
#define FIN_MEAN 1u
#define FIN_VAR 2u
#define FIN_STD 3u
// aux input (w[8] bits 8-9): ELEM: aux at the element's own index (a second pass's second
// partials: argmin/argmax indices, a float sum's compensations, var's (m, M2) pairs at 2 idx).
// (ROW, aux[aux_off + row], is no longer used by reduce.)
#define AUX_NONE 0u
#define AUX_ROW 1u
#define AUX_ELEM 2u

#define NO_INDEX 0xffffffffu

#if R_K == K_FLOAT
// Bit tests and constants of the (real) compute type: NVIDIA's compiler folded a select on
// isnan() as if it were a max() (the clamp in close_lane), so these read the bits.
#if R_BITS == 64
bool r_nonfinite(R_C v) { return (unpackDouble2x32(v).y & 0x7ff00000u) == 0x7ff00000u; }
bool r_nan(R_C v) { uvec2 w = unpackDouble2x32(v); return r_nonfinite(v) && ((w.y & 0xfffffu) != 0u || w.x != 0u); }
#define R_INF packDouble2x32(uvec2(0u, 0x7ff00000u))
#define R_NAN packDouble2x32(uvec2(0u, 0x7ff80000u))
#else
bool r_nonfinite(R_C v) { return (floatBitsToUint(v) & 0x7f800000u) == 0x7f800000u; }
bool r_nan(R_C v) { return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u; }
#define R_INF uintBitsToFloat(0x7f800000u)
#define R_NAN uintBitsToFloat(0x7fc00000u)
#endif
// var's lane count: this bit marks a lane that read an infinity or a NaN (cleared by close_lane)
#define NONFINITE_SEEN 0x80000000u
#endif

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
    if (OP == OP_SQDEV)
        acc.i = 0u;  // var: the count
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
    } else if (OP == OP_SQDEV) {
#ifdef R_FLOATING
        // Chan et al.'s merge of (n, K + m, M2) states; K stays the left one's
        if (u.i == 0u)
            return v;
        if (v.i == 0u)
            return u;
        precise R_C nu = R_C(u.i), nv = R_C(v.i);
        precise R_C f = nv / (nu + nv);
        precise R_C delta = (T_TO_R(v.x) - T_TO_R(u.x)) + (v.a - u.a);
        precise R_C m = u.a + delta * f;
        precise R_C m2 = (u.b + v.b) + (delta * delta) * (nu * f);
#if R_K == K_FLOAT
        // A merge that leaves the range (either M2 +inf, whose mean may be inf or NaN, or the
        // means' term overflowing) is +inf, as numpy's overflowing squares; a NaN M2 (an
        // infinity or NaN read) stays NaN.
        if (r_nonfinite(m2) && !r_nan(u.b) && !r_nan(v.b))
            m2 = R_INF;
#endif
        u.a = m;
        u.b = m2;
        u.i = u.i + v.i;
#endif
    } else if (OP == OP_COUNT_NONZERO) {
        u.a = u.a + v.a;
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
        // M2 / divisor (n - correction; 0 or less: numpy's inf or NaN)
#if R_BITS == 32 && !defined(AVK_NO_F64)
        double v = double(acc.b) / avk_f64(12);
#elif R_BITS == 32
        float v = acc.b / avk_f32(11);
#else
        double v = acc.b / avk_f64(12);
#endif
        if (fin == FIN_STD)
            v = sqrt(v);
        return R_C(v);
    }
#endif
    return acc.a;
}
#endif

// Whether a first pass's partials carry a second array (argmin/argmax indices, var's (m, M2)
// pairs, a float sum's compensations).
bool has_aux()
{
#ifdef R_FLOATING
    if (OP == OP_SUM || OP == OP_SQDEV)
        return true;
#endif
    return is_arg();
}

// A first pass's partial x of chunk ii, with its second partial words a0 (and a1: var), into a
// lane's accumulator (the ops whose partials carry them: has_aux()). For final_lanes, which reads
// the words coherently. add_elem keeps its own copy of these merges for a second pass's
// elements: calling this from add_elem, which is inlined at every load site, made the SPIR-V
// 9-15 % larger (reduce_float32_float32_sg 397 -> 434 KB).
void add_aux_partial(inout Acc acc, inout R_C ca, T_C x, uint ii, R_S a0, R_S a1)
{
    if (is_arg()) {
        uint i2 = uint(a0);
        if (arg_better(acc.x, acc.i, x, i2)) {
            acc.x = x;
            acc.i = i2;
        }
        return;
    }
#ifdef R_FLOATING
    if (OP == OP_SQDEV) {
        // (K, m, M2) of chunk ii, whose count the layout gives
        Acc o;
        o.x = x;
        o.a = R_C(a0);
        o.b = R_C(a1);
        o.i = min(p.w[17], p.w[18] - ii * p.w[17]);
        acc = combine(acc, o);
        return;
    }
    if (OP == OP_SUM) {
        precise R_C c2 = ca + R_C(a0);  // the partial's compensation
        ca = c2;
        nsum(acc.a, ca, T_TO_R(x));
        return;
    }
#endif
}

// One element x (index ii within its row; element index idx of the input) into a lane's
// accumulator (acc, with its compensations ca and cb).
void add_elem(inout Acc acc, inout R_C ca, inout R_C cb, T_C x, uint ii, uint idx, uint auxk)
{
    if (is_arg()) {
        bool take;
        if (auxk == AUX_ELEM) {
            ii = uint(AvkRIn(p.addr[2]).v[idx]);
            take = arg_better(acc.x, acc.i, x, ii);
        } else {
            // (a lane takes its elements in increasing index order: a tie keeps the earlier
            // one, and a NaN, once taken, stays; so fewer tests than arg_better's)
            take = acc.i == NO_INDEX;
#if T_K == K_FLOAT
            take = take || (OP == OP_ARGMAX ? x > acc.x : x < acc.x) || (isnan(x) && !isnan(acc.x));
#elif T_K != K_CPLX
            take = take || (OP == OP_ARGMAX ? x > acc.x : x < acc.x);
#endif
        }
        if (take) {
            acc.x = x;
            acc.i = ii;
        }
        return;
    }
#ifdef R_FLOATING
    if (OP == OP_SUM && COMPENSATE == 0u && auxk != AUX_ELEM) {
        acc.a += T_TO_R(x);
        return;
    }
    if (OP == OP_SQDEV) {
        if (auxk == AUX_ELEM) {
            // a first pass's partial: (K, m, M2) of chunk ii, whose count the layout gives
            Acc o;
            o.x = x;
            o.a = R_C(AvkRIn(p.addr[2]).v[2u * idx]);
            o.b = R_C(AvkRIn(p.addr[2]).v[2u * idx + 1u]);
            o.i = min(p.w[17], p.w[18] - ii * p.w[17]);
            acc = combine(acc, o);
            return;
        }
        // sums of d = x - K and d^2 about the lane's first element K (compensated)
        if (acc.i == 0u)
            acc.x = x;
        precise R_C d = T_TO_R(x) - T_TO_R(acc.x);
        nsum(acc.a, ca, d);
        precise R_C d2 = d * d;
        nsum(acc.b, cb, d2);
        acc.i += 1u;
#if R_K == K_FLOAT
        if (r_nonfinite(T_TO_R(x)))
            acc.i |= NONFINITE_SEEN;
#endif
        return;
    }
    if (OP == OP_SUM) {
        R_C v = T_TO_R(x);
        if (auxk == AUX_ELEM) {
            precise R_C c2 = ca + R_C(AvkRIn(p.addr[2]).v[idx]);  // a partial's compensation
            ca = c2;
        }
        nsum(acc.a, ca, v);
        return;
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

// A lane's accumulator at the end of its loop: float sums keep their compensation in b (folded
// at the end, or stored as a second partial); var's two sums fold theirs.
Acc close_lane(Acc acc, R_C ca, R_C cb, uint auxk)
{
#ifdef R_FLOATING
    if (OP == OP_SUM) {
        acc.b = ca;
    } else if (OP == OP_SQDEV && auxk != AUX_ELEM && acc.i != 0u) {
#if R_K == K_FLOAT
        bool nonfinite = (acc.i & NONFINITE_SEEN) != 0u;
        acc.i &= ~NONFINITE_SEEN;
#endif
        // (n, S1, S2) about K -> (n, m = S1 / n, M2 = S2 - S1 m): the mean is K + m
        precise R_C s1 = nfold(acc.a, ca);
        precise R_C s2 = nfold(acc.b, cb);
        precise R_C m = s1 / R_C(acc.i);
        precise R_C m2 = s2 - s1 * m;
        acc.a = m;
#if R_K == K_FLOAT && R_BITS == 32
        // (rounding can leave a tiny negative M2: clamp it, but keep a NaN, which max() drops.
        // The NaN test is on the bits: NVIDIA's float32 code gave var([nan]) == 0 with the
        // select alone (H100, 2026-11-23), as if it had become a max().)
        acc.b = r_nan(m2) ? m2 : (m2 < R_C(0) ? R_C(0) : m2);
#elif R_K == K_FLOAT
        acc.b = m2 < R_C(0) ? R_C(0) : m2;
#else
        acc.b = m2; // (var/std are real-only: complex variants never take this op)
#endif
#if R_K == K_FLOAT
        // numpy squares x - mean: an infinity or NaN among the elements gives NaN, finite ones
        // whose squares' sum leaves the type's range +inf (here the sums overflowed: inf, or
        // inf - inf as NaN)
        if (nonfinite)
            acc.b = R_NAN;
        else if (r_nonfinite(acc.b))
            acc.b = R_INF;
#endif
    }
#endif
    return acc;
}

shared Acc sh[AVK_LOCAL_SIZE];

#ifdef AVK_SUBGROUP
// Whether this variant's subgroup tree can carry the op's accumulator (shuffles of 32-bit
// compute types: argmin/argmax move T and an index, the others R).
#if R_BITS <= 32 || (R_K == K_CPLX && R_BITS == 64)
#define SG_R 1
#endif
bool sg_ok()
{
#ifdef SG_R
    return true;
#else
    return is_arg();
#endif
}

Acc shuffle_xor(Acc u, uint m)
{
    Acc v = u;
    if (is_arg()) {
        v.x = subgroupShuffleXor(u.x, m);
        v.i = subgroupShuffleXor(u.i, m);
    }
#ifdef SG_R
    else {
        v.a = subgroupShuffleXor(u.a, m);
        v.b = subgroupShuffleXor(u.b, m);
        if (OP == OP_SQDEV) {
            v.x = subgroupShuffleXor(u.x, m);
            v.i = subgroupShuffleXor(u.i, m);
        }
    }
#endif
    return v;
}
#endif

#ifdef AVK_SUBGROUP
// The subgroup's total (valid in its invocation 0): a butterfly of shuffles, the lower
// invocation's value first. (Call where sg_ok().)
Acc sg_reduce(Acc acc)
{
    for (uint m = 1u; m < gl_SubgroupSize; m <<= 1) {
        Acc o = shuffle_xor(acc, m);
        acc = (gl_SubgroupInvocationID & m) == 0u ? combine(acc, o) : combine(o, acc);
    }
    return acc;
}
#endif

// The workgroup's total (valid in invocation 0): a butterfly of shuffles in each subgroup (the
// lower invocation's value first), then invocation 0 walks the subgroups' totals in order; or,
// without subgroups, a tree in shared memory. Fixed order: same layout, same bits.
Acc wg_reduce(Acc acc)
{
    uint t = gl_LocalInvocationID.x;
#ifdef AVK_SUBGROUP
    if (SG_TREE != 0u && sg_ok()) {
        acc = sg_reduce(acc);
        if (gl_SubgroupInvocationID == 0u)
            sh[gl_SubgroupID] = acc;
        barrier();
        if (t == 0u) {
            acc = sh[0];
            for (uint s = 1u; s < gl_NumSubgroups; ++s)
                acc = combine(acc, sh[s]);
        }
        return acc;
    }
#endif
    sh[t] = acc;
    barrier();
    [[unroll]] for (uint s = AVK_LOCAL_SIZE / 2; s > 0; s >>= 1) {
        if (t < s)
            sh[t] = combine(sh[t], sh[t + s]);
        barrier();
    }
    return sh[0];
}

// Writes row r's result at `out`.
void store_result(uvec2 out_addr, Acc acc, uint r, uint fin)
{
    if (is_arg()) {
        AvkROut(out_addr).v[r] = R_S(acc.i);
    } else {
#ifdef R_FLOATING
        AvkROut(out_addr).v[r] = R_S(finalize(acc, fin));
#else
        AvkROut(out_addr).v[r] = R_S(acc.a);
#endif
    }
}

// Writes row r's result (G == 1) or its partial q.
void store(Acc acc, uint r, uint q, uint nchunks, uint fin)
{
    if (nchunks == 1u) {
        store_result(p.addr[1], acc, r, fin);
        return;
    }
    if (is_arg()) {
        AvkTPartOut(p.addr[1]).v[q] = T_S(acc.x);
        AvkRPartOut(p.addr[3]).v[q] = R_S(acc.i);
    } else {
#ifdef R_FLOATING
        if (OP == OP_SQDEV) {
            // var: K, then (m, M2) pairs
            AvkTPartOut(p.addr[1]).v[q] = T_S(acc.x);
            AvkRPartOut(p.addr[3]).v[2u * q] = R_S(acc.a);
            AvkRPartOut(p.addr[3]).v[2u * q + 1u] = R_S(acc.b);
            return;
        }
#endif
        AvkRPartOut(p.addr[1]).v[q] = R_S(acc.a);
#ifdef R_FLOATING
        if (OP == OP_SUM)
            AvkRPartOut(p.addr[3]).v[q] = R_S(acc.b);  // a sum's compensation
#endif
    }
}

shared uint s_count;

// FINAL_BIT: after each workgroup of row r has stored its partial, it counts itself in; true in
// the workgroup that completes the count (the whole workgroup), which then reduces the row's G
// partials as the second pass would (final_lanes, then the same tree: the same bits) and writes
// the result. No workgroup waits for another. (Callers: the second pass is this variant.)
bool last_of_row(uint r, uint nchunks)
{
    if (gl_LocalInvocationID.x == 0u) {
        memoryBarrierBuffer();  // (this workgroup's partial, stored by this invocation, first)
        s_count = atomicAdd(AvkCount(uvec2(p.w[20], p.w[21])).v[r], 1u);
    }
    barrier();
    if (s_count != nchunks - 1u)
        return false;
    memoryBarrierBuffer();
    return true;
}

// This invocation's share of row r's partials (every 256th, in order), as the second pass's
// lane would take them.
Acc final_lanes(uint r, uint nchunks)
{
    Acc lane = identity();
    R_C ca = R_C(0), cb = R_C(0);
    uint q0 = r * nchunks;
    for (uint i = gl_LocalInvocationID.x; i < nchunks; i += AVK_LOCAL_SIZE) {
        T_C x = T_C(AvkTPart(p.addr[1]).v[q0 + i]);
        if (has_aux()) {
            uint ai = OP == OP_SQDEV ? 2u * (q0 + i) : q0 + i;
            R_S a0 = AvkRPart(p.addr[3]).v[ai];
            R_S a1 = OP == OP_SQDEV ? AvkRPart(p.addr[3]).v[ai + 1u] : a0;
            add_aux_partial(lane, ca, x, i, a0, a1);
        } else {
            add_elem(lane, ca, cb, x, i, 0u, AUX_NONE);  // (min/max, prod, ...: T == R)
        }
    }
    return close_lane(lane, ca, cb, AUX_ELEM);
}

// Invocation t of `step` through elements [lo, end) of the row at `base`: every step-th
// element, or (vec: contiguous, VW-aligned row and lo) every step-th vector of VW, lane k taking
// the k-th element of each, two loads in flight, then the scalar tail. (Vector loads never come
// with an aux input (_reduce._vec_ok): their elements go in as AUX_NONE, which leaves the aux
// paths out of those copies of add_elem.)
void row_loop(inout Acc lane[VW], inout R_C ca[VW], inout R_C cb[VW], uint base, uint lo,
              uint end, uint t, uint step, bool vec, uint auxk)
{
    uint is = p.w[5];
    uint i = lo + t;
#if VW > 1
    if (vec) {
        uint j = lo / VW + t, vend = end / VW, vb = base / VW;
        if (LOADS >= 4u) {
            for (; j + 3u * step < vend; j += 4u * step) {
                T_V v0 = AvkTVec(p.addr[0]).v[vb + j];
                T_V v1 = AvkTVec(p.addr[0]).v[vb + j + step];
                T_V v2 = AvkTVec(p.addr[0]).v[vb + j + 2u * step];
                T_V v3 = AvkTVec(p.addr[0]).v[vb + j + 3u * step];
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), j * VW + k, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v1[k]), (j + step) * VW + k, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v2[k]), (j + 2u * step) * VW + k, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v3[k]), (j + 3u * step) * VW + k, 0u, AUX_NONE);
            }
        }
        for (; j + step < vend; j += 2u * step) {
            T_V v0 = AvkTVec(p.addr[0]).v[vb + j];
            T_V v1 = AvkTVec(p.addr[0]).v[vb + j + step];
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), j * VW + k, 0u, AUX_NONE);
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v1[k]), (j + step) * VW + k, 0u, AUX_NONE);
        }
        if (j < vend) {
            T_V v0 = AvkTVec(p.addr[0]).v[vb + j];
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), j * VW + k, 0u, AUX_NONE);
        }
        i = vend * VW + t;  // the tail (fewer than VW elements, last chunk only)
    }
#endif
    for (; i < end; i += step) {
        uint idx = base + i * is;
        add_elem(lane[0], ca[0], cb[0], T_C(AvkTIn(p.addr[0]).v[idx]), i, idx, auxk);
    }
}

// An invocation's lanes, combined in order.
Acc close_lanes(Acc lane[VW], R_C ca[VW], R_C cb[VW], uint auxk)
{
    Acc acc = close_lane(lane[0], ca[0], cb[0], auxk);
    [[unroll]] for (uint k = 1u; k < VW; ++k)
        acc = combine(acc, close_lane(lane[k], ca[k], cb[k], auxk));
    return acc;
}

void main()
{
    uint n = p.w[0], rows = p.w[1], len = p.w[6], nchunks = p.w[7];
    uint w8 = (RMODE & RM_STATIC) != 0u ? RMODE : p.w[8];
    uint mode = w8 & 3u, fin = (w8 >> 4) & 15u, auxk = (w8 >> 8) & 3u;
    bool vec = VW > 1 && (w8 & VEC_BIT) != 0u;
    uint t = gl_LocalInvocationID.x;
    uint is = p.w[5];
    Acc lane[VW];
    R_C ca[VW], cb[VW];
    [[unroll]] for (uint k = 0u; k < VW; ++k) {
        lane[k] = identity();
        ca[k] = R_C(0);
        cb[k] = R_C(0);
    }

    if (mode == MODE_ROWS) {
        uint c = gl_WorkGroupID.x;
        uint r = gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y;
        if (r >= rows)
            return;  // (the whole workgroup)
        uint end = c * len + min(len, n - c * len);
        row_loop(lane, ca, cb, avk_row_base(r), c * len, end, t, AVK_LOCAL_SIZE, vec, auxk);
        Acc acc = close_lanes(lane, ca, cb, auxk);
        bool final = (w8 & FINAL_BIT) != 0u && nchunks > 1u;
        // (one tree for the partial and, in the row's last workgroup, the result: one copy of
        // its code)
        for (uint round = 0u;; ++round) {
            acc = wg_reduce(acc);
            if (round != 0u) {
                if (t == 0u) {
                    store_result(uvec2(p.w[22], p.w[23]), acc, r, (w8 >> 16) & 15u);
                    AvkCount(uvec2(p.w[20], p.w[21])).v[r] = 0u;  // (for the next dispatch)
                }
                return;
            }
            if (t == 0u)
                store(acc, r, r * nchunks + c, nchunks, fin);
            if (!final || !last_of_row(r, nchunks))
                return;
            acc = final_lanes(r, nchunks);
        }
    }
#ifdef AVK_SUBGROUP
    if (mode == MODE_SGROWS) {
        // a subgroup per row (whole rows, G == 1): w[19] rows a workgroup, taken by its
        // subgroups in turn (whatever their number); no barrier
        uint rpw = p.w[19];
        uint wg = gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y;
        for (uint rl = gl_SubgroupID; rl < rpw; rl += gl_NumSubgroups) {
            uint r = wg * rpw + rl;
            if (r >= rows)
                break;  // (uniform in the subgroup)
            [[unroll]] for (uint k = 0u; k < VW; ++k) {
                lane[k] = identity();
                ca[k] = R_C(0);
                cb[k] = R_C(0);
            }
            row_loop(lane, ca, cb, avk_row_base(r), 0u, n, gl_SubgroupInvocationID,
                     gl_SubgroupSize, vec, auxk);
            Acc acc = sg_reduce(close_lanes(lane, ca, cb, auxk));
            if (gl_SubgroupInvocationID == 0u)
                store(acc, r, r, 1u, fin);
        }
        return;
    }
#endif

    // COLS: an invocation per row (vec: per VW adjacent rows, lane k row r + k, one load).
    // With RL_BIT, RL = w[19] lanes split each chunk's elements (lane l: first + l, first + l +
    // RL, ...) and a workgroup takes 256 / RL rows (row groups), its lanes lane-major (a
    // subgroup's loads stay consecutive rows); the lanes' states are combined in order through
    // shared memory, so a column has RL times fewer partials for the second pass.
    bool lanes = (w8 & RL_BIT) != 0u;
    uint RL = lanes ? p.w[19] : 1u;
    uint per = AVK_LOCAL_SIZE / RL, rl = t / per, tl = t % per;
    uint c = gl_WorkGroupID.y;
    uint g = (gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x) * per + tl;
    uint nl = vec ? VW : 1u;
    bool packed = (w8 & PACK_BIT) != 0u;
    if (packed) {
        uint groups = (rows + nl - 1u) / nl, cpw = AVK_LOCAL_SIZE / groups;
        if (t >= cpw * groups)
            return;
        c = gl_WorkGroupID.y * cpw + t / groups;
        g = t % groups;
        if (c >= nchunks)
            return;
    }
    uint r = g * nl;
    // (RL_BIT: every invocation goes on to the barriers below)
    bool live = r < rows;
    if (!live && !lanes)
        return;
    uint first = c * len, end = c * len + min(len, n - c * len);
    uint base = live ? avk_row_base(r) : 0u;
#if VW > 1
    if (vec) {
        uint vis = uint(int(is) / int(VW)), vb = base / VW;  // (is may be negative)
        uint i = live ? first + rl : end;
        if (LOADS >= 4u) {
            for (; i + 3u * RL < end; i += 4u * RL) {
                T_V v0 = AvkTVec(p.addr[0]).v[vb + i * vis];
                T_V v1 = AvkTVec(p.addr[0]).v[vb + (i + RL) * vis];
                T_V v2 = AvkTVec(p.addr[0]).v[vb + (i + 2u * RL) * vis];
                T_V v3 = AvkTVec(p.addr[0]).v[vb + (i + 3u * RL) * vis];
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), i, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v1[k]), i + RL, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v2[k]), i + 2u * RL, 0u, AUX_NONE);
                [[unroll]] for (uint k = 0u; k < VW; ++k)
                    add_elem(lane[k], ca[k], cb[k], T_C(v3[k]), i + 3u * RL, 0u, AUX_NONE);
            }
        }
        for (; i + RL < end; i += 2u * RL) {
            T_V v0 = AvkTVec(p.addr[0]).v[vb + i * vis];
            T_V v1 = AvkTVec(p.addr[0]).v[vb + (i + RL) * vis];
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), i, 0u, AUX_NONE);
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v1[k]), i + RL, 0u, AUX_NONE);
        }
        if (i < end) {
            T_V v0 = AvkTVec(p.addr[0]).v[vb + i * vis];
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                add_elem(lane[k], ca[k], cb[k], T_C(v0[k]), i, 0u, AUX_NONE);
        }
        if (!lanes) {
            [[unroll]] for (uint k = 0u; k < VW; ++k)
                store(close_lane(lane[k], ca[k], cb[k], auxk), r + k,
                      packed ? (r + k) * nchunks + c : c * rows + r + k, nchunks, fin);
            return;
        }
    } else
#endif
    {
        for (uint i = live ? first + rl : end; i < end; i += RL) {
            uint idx = base + i * is;
            add_elem(lane[0], ca[0], cb[0], T_C(AvkTIn(p.addr[0]).v[idx]), i, idx, auxk);
        }
        if (!lanes) {
            store(close_lane(lane[0], ca[0], cb[0], auxk), r, packed ? r * nchunks + c : c * rows + r,
                  nchunks, fin);
            return;
        }
    }
    // RL_BIT: lane 0 of each row group merges the lanes' states, lane 0 first
    [[unroll]] for (uint k = 0u; k < VW; ++k) {
        if (k < nl) {
            sh[t] = close_lane(lane[k], ca[k], cb[k], auxk);
            barrier();
            if (rl == 0u && live) {
                Acc acc = sh[tl];
                for (uint j = 1u; j < RL; ++j)
                    acc = combine(acc, sh[j * per + tl]);
                store(acc, r + k, c * rows + r + k, nchunks, fin);
            }
            barrier();
        }
    }
}
