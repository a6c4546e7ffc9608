#version 450
// Sorting, sets and searching (docs/kernels.md, "Sorting, sets, searching"): an LSD radix sort
// of order-preserving unsigned keys, 4 bits a pass, over rows (stable), and the kernels built on
// it. Op code in specialisation constant 0; variants per (T, R) from the op table:
//   KEYS      T -> uint32 keys: K[i * KW + w] (KW = 2 for 64-bit T: word 0 low, 1 high), V[i] = i
//   HIST      per workgroup digit counts of a tile: hist[d * G + wg]
//   SCATTER   stable scatter of (K, V) by digit, offsets from the exclusive scan of hist
//   GATHER    out[i] = x[off + V[i]]                       (T -> T)
//   INDEX     out[i] = V[i] % n                            (uint32 -> index dtype)
//   FLAGS     f[i] = i == 0 || key(s[i]) != key(s[i-1]) || isnan(s[i])    (T -> uint32)
//   COMPACT   out[pos[i]] = s[i] where f[i]                (T -> T)
//   UFIRST    out[pos[i]] = V[i] where f[i]                (uint32 -> index dtype)
//   USTART    st[pos[i]] = i where f[i]; st[U] = N         (uint32)
//   UCOUNT    out[k] = st[k + 1] - st[k]                   (uint32 -> index dtype)
//   UINV      out[V[i]] = pos[i + 1] - 1                   (uint32 -> index dtype)
//   SEARCH    binary search of x2[i] in x1 (through sorter), left or right   (T -> index dtype)
// Keys: bool/unsigned as is; signed with the sign bit flipped; floats with -0 as +0, every NaN
// as the largest key (last), negative ones inverted, positive ones with the sign bit set.
// Descending: every key inverted (a stable sort of the inverted keys keeps equal keys in input
// order, NaNs first: as array-api-strict's flip/argsort/flip).
//
// Push block: w[0] count N, w[1] n (row length) or U, w[2] G (tiles), w[3] shift (bit of the
// digit), w[4] flags, w[5] KW, w[6] input element offset, w[7] x1 stride, w[8] x2 offset,
// w[9] sorter offset; addr[0..7].
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#define K_BOOL 0
#define K_INT 1
#define K_UINT 2
#define K_FLOAT 3

#ifdef AVK_DENORM_PRESERVE
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif

layout(push_constant) uniform Push { uint w[16]; uvec2 addr[8]; } p;
layout(constant_id = 0) const uint OP = 0;

#define F_ROWDIGIT 1u
#define F_MOVEKEYS 2u
#define F_DESC 4u
#define F_RIGHT 8u
#define F_SORTER 16u

#define T_ALIGN (T_BITS / 8)
#define R_ALIGN (R_BITS / 8)
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) readonly buffer TIn { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) writeonly buffer TOut { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) readonly buffer RIn { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) writeonly buffer ROut { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32 { uint v[]; };

#define TILE_ITEMS 16u
#define TILE (AVK_LOCAL_SIZE * TILE_ITEMS)
#define BINS 16u

#if T_BITS == 64
#define KW 2u
#else
#define KW 1u
#endif

// The order-preserving key of a T value: (low word, high word).
uvec2 key_of(T_C v)
{
#if T_K == K_FLOAT && T_BITS == 64
    if (isnan(v))
        return uvec2(0xFFFFFFFFu);
    uvec2 u = v == 0.0 ? uvec2(0u) : unpackDouble2x32(v);
    if ((u.y & 0x80000000u) != 0u)
        return ~u;
    return uvec2(u.x, u.y | 0x80000000u);
#elif T_K == K_FLOAT
    if (isnan(v))
        return uvec2(0xFFFFFFFFu, 0u);
    uint u = v == 0.0 ? 0u : floatBitsToUint(v);
    return uvec2((u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u), 0u);
#elif T_BITS == 64
    uvec2 u = unpackUint2x32(uint64_t(v));
#if T_K == K_INT
    u.y ^= 0x80000000u;
#endif
    return u;
#elif T_K == K_INT
    return uvec2((uint(v) & ((1u << (T_BITS - 1)) * 2u - 1u)) ^ (1u << (T_BITS - 1)), 0u);
#elif T_BITS == 32
    return uvec2(uint(v), 0u);
#else
    return uvec2(uint(v) & ((1u << (T_BITS - 1)) * 2u - 1u), 0u);
#endif
}

bool is_nan(T_C v)
{
#if T_K == K_FLOAT
    return isnan(v);
#else
    return false;
#endif
}

T_C load_t(uvec2 a, uint i) { return T_C(TIn(a).v[i]); }

uint wg_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

uint digit_of(uint i)
{
    uint shift = p.w[3];
    if ((p.w[4] & F_ROWDIGIT) != 0u)
        return ((U32(p.addr[1]).v[i] / p.w[1]) >> shift) & (BINS - 1u);
    return (U32(p.addr[0]).v[i * p.w[5] + (shift >> 5)] >> (shift & 31u)) & (BINS - 1u);
}

shared uint cnt[BINS * AVK_LOCAL_SIZE];
shared uint tot[AVK_LOCAL_SIZE];
shared uint bstart[BINS];

void radix_hist()
{
    uint t = gl_LocalInvocationID.x, wg = wg_index(), n = p.w[0], G = p.w[2];
    if (t < BINS)
        bstart[t] = 0u;
    barrier();
    if (wg < G) {
        uint first = wg * TILE + t * TILE_ITEMS;
        for (uint k = 0; k < TILE_ITEMS; ++k) {
            uint i = first + k;
            if (i < n)
                atomicAdd(bstart[digit_of(i)], 1u);
        }
    }
    barrier();
    if (t < BINS && wg < G)
        U32(p.addr[2]).v[t * G + wg] = bstart[t];
}

void radix_scatter()
{
    uint t = gl_LocalInvocationID.x, wg = wg_index(), n = p.w[0], G = p.w[2];
    for (uint b = 0; b < BINS; ++b)
        cnt[b * AVK_LOCAL_SIZE + t] = 0u;
    uint first = wg * TILE + t * TILE_ITEMS;
    bool live = wg < G;
    if (live) {
        for (uint k = 0; k < TILE_ITEMS; ++k) {
            uint i = first + k;
            if (i < n)
                cnt[digit_of(i) * AVK_LOCAL_SIZE + t] += 1u;
        }
    }
    barrier();
    // exclusive scan of cnt (bin-major): invocation t owns entries [t * 16, t * 16 + 16)
    uint s = 0u;
    for (uint k = 0; k < BINS; ++k)
        s += cnt[t * BINS + k];
    tot[t] = s;
    barrier();
    for (uint off = 1u; off < AVK_LOCAL_SIZE; off <<= 1) {
        uint y = t >= off ? tot[t - off] : 0u;
        barrier();
        tot[t] += y;
        barrier();
    }
    uint run = tot[t] - s;
    for (uint k = 0; k < BINS; ++k) {
        uint c = cnt[t * BINS + k];
        cnt[t * BINS + k] = run;
        run += c;
    }
    barrier();
    if (t < BINS)
        bstart[t] = cnt[t * AVK_LOCAL_SIZE];
    barrier();
    if (!live)
        return;
    bool keys = (p.w[4] & F_MOVEKEYS) != 0u;
    uint kw = p.w[5];
    for (uint k = 0; k < TILE_ITEMS; ++k) {
        uint i = first + k;
        if (i >= n)
            break;
        uint d = digit_of(i);
        uint c = cnt[d * AVK_LOCAL_SIZE + t];
        cnt[d * AVK_LOCAL_SIZE + t] = c + 1u;
        uint dest = U32(p.addr[2]).v[d * G + wg] + c - bstart[d];
        U32(p.addr[4]).v[dest] = U32(p.addr[1]).v[i];
        if (keys) {
            U32(p.addr[3]).v[dest * kw] = U32(p.addr[0]).v[i * kw];
            if (kw == 2u)
                U32(p.addr[3]).v[dest * kw + 1u] = U32(p.addr[0]).v[i * kw + 1u];
        }
    }
}

// -1, 0, 1: key a against key b
int cmp_key(uvec2 a, uvec2 b)
{
    if (a.y != b.y)
        return a.y < b.y ? -1 : 1;
    if (a.x != b.x)
        return a.x < b.x ? -1 : 1;
    return 0;
}

void search(uint i)
{
    uint n = p.w[1], flags = p.w[4];
    uvec2 q = key_of(load_t(p.addr[1], p.w[8] + i));
    bool right = (flags & F_RIGHT) != 0u;
    uint lo = 0u, hi = n;
    while (lo < hi) {
        uint mid = lo + ((hi - lo) >> 1);
        uint j = mid;
        if ((flags & F_SORTER) != 0u)
            j = min(uint(RIn(p.addr[2]).v[p.w[9] + mid]), n - 1u);  // (invalid sorter: in bounds)
        uvec2 k = key_of(load_t(p.addr[0], p.w[6] + j * p.w[7]));
        int c = cmp_key(k, q);
        if (c < 0 || (right && c == 0))
            lo = mid + 1u;
        else
            hi = mid;
    }
    ROut(p.addr[3]).v[i] = R_S(lo);
}


void main()
{
    if (OP == OP_SORT_HIST) {
        radix_hist();
        return;
    }
    if (OP == OP_SORT_SCATTER) {
        radix_scatter();
        return;
    }
    uint i = avk_index();
    if (i >= p.w[0])
        return;
    if (OP == OP_SORT_KEYS) {
        uvec2 k = key_of(load_t(p.addr[0], p.w[6] + i));
        if ((p.w[4] & F_DESC) != 0u)
            k = ~k;
        U32(p.addr[1]).v[i * KW] = k.x;
        if (KW == 2u)
            U32(p.addr[1]).v[i * KW + 1u] = k.y;
        U32(p.addr[2]).v[i] = i;
    } else if (OP == OP_SORT_GATHER) {
        uint j = U32(p.addr[0]).v[i];
        TOut(p.addr[2]).v[i] = TIn(p.addr[1]).v[p.w[6] + j];
    } else if (OP == OP_SORT_INDEX) {
        uint j = U32(p.addr[0]).v[i];
        ROut(p.addr[1]).v[i] = R_S(j % p.w[1]);
    } else if (OP == OP_UNIQUE_FLAGS) {
        T_C v = load_t(p.addr[0], i);
        bool f = i == 0u || is_nan(v) || cmp_key(key_of(v), key_of(load_t(p.addr[0], i - 1u))) != 0;
        U32(p.addr[1]).v[i] = f ? 1u : 0u;
    } else if (OP == OP_UNIQUE_COMPACT) {
        if (U32(p.addr[1]).v[i] != 0u)
            TOut(p.addr[3]).v[U32(p.addr[2]).v[i]] = TIn(p.addr[0]).v[i];
    } else if (OP == OP_UNIQUE_FIRST) {
        if (U32(p.addr[1]).v[i] != 0u)
            ROut(p.addr[3]).v[U32(p.addr[2]).v[i]] = R_S(U32(p.addr[0]).v[i]);
    } else if (OP == OP_UNIQUE_START) {
        if (U32(p.addr[0]).v[i] != 0u)
            U32(p.addr[2]).v[U32(p.addr[1]).v[i]] = i;
        if (i == 0u)
            U32(p.addr[2]).v[p.w[1]] = p.w[0];
    } else if (OP == OP_UNIQUE_COUNT) {
        ROut(p.addr[1]).v[i] = R_S(U32(p.addr[0]).v[i + 1u] - U32(p.addr[0]).v[i]);
    } else if (OP == OP_UNIQUE_INVERSE) {
        ROut(p.addr[2]).v[U32(p.addr[0]).v[i]] = R_S(U32(p.addr[1]).v[i + 1u] - 1u);
    } else if (OP == OP_SORT_SEARCH) {
        search(i);
    }
}
