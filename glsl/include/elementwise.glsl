// The main of the elementwise families (unary, binary, math, clip, cast, fill), included last,
// after the family has defined:
//   AVK_OP(i, x0, ...)  result element i (R_C) from its NIN inputs' values there (T_C)
//   AVK_USES(j)         optional: whether input j is read (else it takes input 0's values)
//   AVK_OUT_MODE        optional: MODE_CONTIG (default) or MODE_STRIDED: the result's strides
//                       follow the inputs' in the push block, as input NIN's would
//   AVK_ROLLED          optional: keep the compute loop rolled (a large AVK_OP: four copies
//                       cost lavapipe up to 8x the pipeline creation time)
//   AVK_REVERSED        optional: whether the workgroups take the elements last to first
//                       (avk_index_order); default bit 31 of w[2], which the kernels layer
//                       flips from one dispatch to the next (_launch.ORDER_WORD, ORDER_SHIFT)
// It declares the buffers: the result at address p.addr[0], input j at p.addr[1 + j].
//
// An invocation handles ELEMS elements: it loads all their inputs, then computes, then stores,
// so that the loads are in flight together (a store before a load would have to wait for it if
// the two could alias). Elements are ELEMS apart in the grid (coalesced), or, where every read
// input is contiguous and all offsets are multiples of 4 elements (a uniform check), 4
// consecutive ones moved by single 4-element vector loads and stores (64-bit types: 2 pairs a
// grid of pairs apart, see AVK_VG).
//
// restrict holds: a result is a fresh allocation, and an assignment's source never overlaps its
// destination (_launch.assign copies an overlapping one first); inputs may alias each other.
#ifndef AVK_ELEMENTWISE_GLSL
#define AVK_ELEMENTWISE_GLSL

#ifndef NIN
#define NIN 0
#endif
#ifndef AVK_USES
#define AVK_USES(j) true
#endif
#ifndef AVK_OUT_MODE
#define AVK_OUT_MODE MODE_CONTIG
#endif
#ifndef AVK_REVERSED
#define AVK_REVERSED ((p.w[2] & 0x80000000u) != 0u)
#endif
#ifdef AVK_ROLLED
#define AVK_COMPUTE_LOOP [[dont_unroll]]
#else
#define AVK_COMPUTE_LOOP [[unroll]]
#endif

// The storage of 4 consecutive elements, for 8- to 64-bit real types: X_S4 the type of a vector
// view of a buffer; x_get(q, k): element k as X_C; r_put(o, k, v): sets element k (o starting
// from 0 where packed). 8- and 16-bit elements go packed in uint / uvec2, which needs no Int8 or
// Int16 capability (devices with 8/16-bit storage need not have 8/16-bit arithmetic).
#if defined(T_K) && T_K != K_CPLX
#if T_K == K_INT
#define T_SIGNED(w) int(w)  // bitfieldExtract of an int sign-extends
#else
#define T_SIGNED(w) (w)
#endif
#if T_BITS == 8
#define T_S4 uint
#define t_get(q, k) T_C(bitfieldExtract(T_SIGNED(q), int(8u * (k)), 8))
#elif T_BITS == 16
#define T_S4 uvec2
#define t_get(q, k) T_C(bitfieldExtract(T_SIGNED(q[(k) >> 1]), int(16u * ((k) & 1u)), 16))
#else
#define T_S4 AVK_VECN(T_K, T_BITS, 4)
#define t_get(q, k) T_C(q[k])
#endif
#endif
#if defined(R_K) && R_K != K_CPLX
#if R_BITS == 8
#define R_S4 uint
#define r_put(o, k, v) o |= (uint(v) & 0xffu) << (8u * (k))
#elif R_BITS == 16
#define R_S4 uvec2
#define r_put(o, k, v) o[(k) >> 1] |= (uint(v) & 0xffffu) << (16u * ((k) & 1u))
#else
#define R_S4 AVK_VECN(R_K, R_BITS, 4)
#define r_put(o, k, v) o[k] = R_S(v)
#endif
#endif
// f32vec4 ... u64vec2 by kind number (K_INT 1, K_UINT 2, K_FLOAT 3), width and length
#define AVK_VECN(K, b, n) AVK_VECN_(K, b, n)
#define AVK_VECN_(K, b, n) AVK_VECN_##K(b, n)
#define AVK_VECN_3(b, n) f##b##vec##n
#define AVK_VECN_1(b, n) i##b##vec##n
#define AVK_VECN_2(b, n) u##b##vec##n
#if defined(R_S4) && (NIN == 0 || defined(T_S4))
#define AVK_VEC
#endif
// Elements one vector load or store moves (AVK_VG): 2 where the result or the inputs are 64-bit
// and none is an 8- or 16-bit type (an invocation's 4 elements as 2 pairs, a grid of pairs
// apart: each load of a subgroup is then contiguous, where 32-byte vectors of 4 came as two
// 16-byte loads with a stride between lanes; H100, 16M: float64 add 192 -> 138 us of GPU, a
// float64 fill 179 -> 48), else 4 (packed in a word or two for 8- and 16-bit types).
// T_SV / R_SV: such a vector.
#if defined(AVK_VEC) && R_BITS >= 32 && (NIN == 0 || T_BITS >= 32) && (R_BITS == 64 || T_BITS == 64)
#define AVK_PAIRS 1
#define AVK_VG 2u
#define R_SV AVK_VECN(R_K, R_BITS, 2)
#if NIN > 0
#define T_SV AVK_VECN(T_K, T_BITS, 2)
#endif
#else
#define AVK_PAIRS 0
#define AVK_VG 4u
#ifdef R_S4
#define R_SV R_S4
#endif
#ifdef T_S4
#define T_SV T_S4
#endif
#endif

// The alignment a reference to elements of X may claim: their size (allocations start 16-byte
// aligned, and vector views are used only at offsets that are multiples of 4 elements).
#if R_BITS == 8
#define R_ALIGN 1
#elif R_BITS == 16
#define R_ALIGN 2
#elif R_BITS == 32
#define R_ALIGN 4
#elif R_BITS == 64
#define R_ALIGN 8
#else
#define R_ALIGN 16
#endif
// Vector views (AVK_VG elements): 4 bytes for packed 8-bit, 8 for packed 16-bit and for pairs of
// 32-bit, else 16 (claiming less would let a driver split the 16-byte loads).
#if R_BITS == 8
#define RV_ALIGN 4
#elif R_BITS == 16 || (R_BITS == 32 && AVK_PAIRS == 1)
#define RV_ALIGN 8
#else
#define RV_ALIGN 16
#endif
#if !defined(T_BITS) || T_BITS == 8
#define TV_ALIGN 4
#elif T_BITS == 16 || (T_BITS == 32 && AVK_PAIRS == 1)
#define TV_ALIGN 8
#else
#define TV_ALIGN 16
#endif
#if !defined(T_BITS) || T_BITS == 8
#define T_ALIGN 1
#elif T_BITS == 16
#define T_ALIGN 2
#elif T_BITS == 32
#define T_ALIGN 4
#elif T_BITS == 64
#define T_ALIGN 8
#else
#define T_ALIGN 16
#endif

layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) restrict writeonly buffer AvkR { R_S v[]; };
#define avk_r AvkR(p.addr[0]).v
#ifdef AVK_VEC
layout(buffer_reference, std430, buffer_reference_align = RV_ALIGN) restrict writeonly buffer AvkRV { R_SV v[]; };
#define avk_rv AvkRV(p.addr[0]).v
#endif
#if NIN > 0
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) restrict readonly buffer AvkIn { T_S v[]; };
#ifdef AVK_VEC
layout(buffer_reference, std430, buffer_reference_align = TV_ALIGN) restrict readonly buffer AvkInV { T_SV v[]; };
#endif
#endif

// Input j (at p.addr[b]): a vector view of it, and a loader of element i's value.
#ifdef AVK_VEC
#define AVK_INPUT_VEC(j, b) \
    T_SV avk_in##j##v(uint q) { return AvkInV(p.addr[b]).v[q]; }
#else
#define AVK_INPUT_VEC(j, b)
#endif
#define AVK_INPUT(j, b, MODE) \
    AVK_INPUT_VEC(j, b) \
    T_C avk_load##j(uint i) \
    { \
        if (avk_mode(MODE, j) == MODE_SCALAR) \
            return t_scalar(j); \
        return T_C(AvkIn(p.addr[b]).v[avk_in_index(MODE, j, i)]); \
    }
#if NIN > 0
AVK_INPUT(0, 1, MODE0)
#endif
#if NIN > 1
AVK_INPUT(1, 2, MODE1)
#endif
#if NIN > 2
AVK_INPUT(2, 3, MODE2)
#endif

// Whether this dispatch takes the vector path (uniform: spec constants and push words only).
bool avk_vec()
{
#ifdef AVK_VEC
    if (ELEMS != 4u || AVK_OUT_MODE != MODE_CONTIG || (p.w[1] & 3u) != 0u)
        return false;
    for (uint j = 0; j < NIN; ++j) {
        uint m = avk_mode(j == 0 ? MODE0 : (j == 1 ? MODE1 : MODE2), j);
        bool used = j == 0 || (j == 1 ? AVK_USES(1) : AVK_USES(2));
        if (used && (m == MODE_STRIDED || (m == MODE_CONTIG && (p.w[3 + j] & 3u) != 0u)))
            return false;
    }
    return true;
#else
    return false;
#endif
}

// The element index of this invocation's k-th element: ELEMS apart in the grid, or (vec) k %
// AVK_VG within its group k / AVK_VG of consecutive elements, the groups a grid of groups apart.
#define AVK_ELEM(k) (vec ? first + ((k) / AVK_VG) * gstep + ((k) % AVK_VG) : first + (k) * step)

// x[k] = input j's value at element AVK_ELEM(k) (clamped to the last element: the duplicates
// are computed but not stored), by one vector load a group where `full` and contiguous.
#ifdef AVK_VEC
#define AVK_LOAD_VEC(j, MODE, x) \
    if (full && avk_mode(MODE, j) == MODE_CONTIG) { \
        [[unroll]] for (uint g = 0; g < ELEMS / AVK_VG; ++g) { \
            T_SV q = avk_in##j##v((p.w[3 + j] + first + g * gstep) / AVK_VG); \
            [[unroll]] for (uint k = 0; k < AVK_VG; ++k) \
                x[g * AVK_VG + k] = t_get(q, k); \
        } \
    } else
#else
#define AVK_LOAD_VEC(j, MODE, x)
#endif
#define AVK_LOAD(j, MODE, x) \
    AVK_LOAD_VEC(j, MODE, x) \
    { \
        [[unroll]] for (uint k = 0; k < ELEMS; ++k) \
            x[k] = avk_load##j(min(AVK_ELEM(k), last)); \
    }

void main()
{
    uint n = p.w[0];
    uint last = n - 1u;
    bool vec = avk_vec();
    uint index = avk_index_order(AVK_REVERSED);
    uint first = vec ? index * AVK_VG : index;
    uint step = gl_NumWorkGroups.x * gl_NumWorkGroups.y * AVK_LOCAL_SIZE, gstep = AVK_VG * step;
    bool full = vec && first + (ELEMS / AVK_VG - 1u) * gstep + (AVK_VG - 1u) < n;

#if NIN > 0
    T_C x0[ELEMS];
    AVK_LOAD(0, MODE0, x0)
#endif
#if NIN > 1
    T_C x1[ELEMS];
    if (AVK_USES(1)) {
        AVK_LOAD(1, MODE1, x1)
    } else {
        [[unroll]] for (uint k = 0; k < ELEMS; ++k)
            x1[k] = x0[k];
    }
#endif
#if NIN > 2
    T_C x2[ELEMS];
    AVK_LOAD(2, MODE2, x2)
#endif

    R_C r[ELEMS];
    AVK_COMPUTE_LOOP for (uint k = 0; k < ELEMS; ++k) {
        uint i = min(AVK_ELEM(k), last);
#if NIN == 0
        r[k] = AVK_OP(i);
#elif NIN == 1
        r[k] = AVK_OP(i, x0[k]);
#elif NIN == 2
        r[k] = AVK_OP(i, x0[k], x1[k]);
#else
        r[k] = AVK_OP(i, x0[k], x1[k], x2[k]);
#endif
    }

#ifdef AVK_VEC
    if (full) {
        [[unroll]] for (uint g = 0; g < ELEMS / AVK_VG; ++g) {
            R_SV o = R_SV(0);
            [[unroll]] for (uint k = 0; k < AVK_VG; ++k)
                r_put(o, k, r[g * AVK_VG + k]);
            avk_rv[(p.w[1] + first + g * gstep) / AVK_VG] = o;
        }
        return;
    }
#endif
    [[unroll]] for (uint k = 0; k < ELEMS; ++k) {
        uint i = AVK_ELEM(k);
        if (i >= n)
            return;
#if NIN > 0
        if (AVK_OUT_MODE == MODE_STRIDED) {
            avk_r[uint(int(p.w[1]) + avk_strided(i, NIN))] = R_S(r[k]);
            continue;
        }
#endif
        avk_r[p.w[1] + i] = R_S(r[k]);
    }
}

#endif
