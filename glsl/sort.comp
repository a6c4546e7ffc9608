#version 450
// Sorting, sets and searching (docs/kernels.md, "Sorting, sets, searching"): an LSD radix sort
// of order-preserving unsigned keys, 8 bits a pass, over rows (stable), and the kernels built on
// it. Op code in specialisation constant 0; variants per (T, R) from the op table:
//   KEYS      T -> uint32 keys: K[i * KW + w] (KW = 2 for 64-bit T: word 0 low, 1 high), V[i] = i
//             (8/16-bit T and bool; 32/64-bit T are read as they are by the passes)
//   ZERO, GHIST, INFO, HIST, SCAN, SCATTER   the global passes (uint32; radix_* below)
//   ROWS      rows of n <= 256 x KPT sorted a workgroup per row in shared memory (uint32)
//   GATHER    out[i] = x[off + V[i]]                       (T -> T)
//   FLAGS     f[i] = i == 0 || key(s[i]) != key(s[i-1]) || isnan(s[i])    (T -> uint32)
//   COMPACT   out[pos[i]] = s[i] where f[i]                (T -> T)
//   UFIRST    out[pos[i]] = V[i] where f[i]                (uint32 -> index dtype)
//   USTART    st[pos[i]] = i where f[i]; st[U] = N         (uint32)
//   UCOUNT    out[k] = st[k + 1] - st[k]                   (uint32 -> index dtype)
//   UINV      out[V[i]] = pos[i + 1] - 1                   (uint32 -> index dtype)
//   SEARCH    binary search of x2[i] in x1 (through sorter), left or right   (T -> index dtype)
// unique over a dense key range (bool and integers of at most 32 bits; no sort):
//   URANGE    out[0] = min, out[1] = max of the keys (atomics; preset to ~0, 0)   (T -> uint32)
//   UBINS     c[key - kmin] += 1 (w[1] = R bins, w[2] = kmin; shared bins where R fits)
//   UZERO     out[i] = 0;  UPRESENT  f[i] = c[i] != 0                        (uint32)
//   UDENSE    out[pos[i]] = the value of key kmin + i where c[i] != 0          (T -> T)
//   UDCOUNT   out[pos[i]] = c[i] where c[i] != 0                (uint32 -> index dtype)
//   UDINV     out[i] = pos[key(x[i]) - kmin]                          (T -> index dtype)
// Keys: bool/unsigned as is; signed with the sign bit flipped; floats with -0 as +0, every NaN
// as the largest key (last), negative ones inverted, positive ones with the sign bit set.
// Descending: every key inverted (a stable sort of the inverted keys keeps equal keys in input
// order, NaNs first: as array-api-strict's flip/argsort/flip).
//
// Push block: w[0] count N, w[1] n (row length) or U, w[2] G (tiles; rows for ROWS), w[3] the
// pass (ROWS: rows a workgroup), w[4] flags, w[5] KW, w[6] input element offset, w[7] x1 stride
// or the key passes, w[8] x2 offset or the row passes, w[9] sorter offset or the raw key kind,
// w[10] the first pass's payload, w[11] the outputs, w[12] payload words; addr[0..7]
// (the passes: X, K0, K1, V0, V1, out, tile histograms, global histograms + pass info).
#extension GL_GOOGLE_include_directive : require
// the workgroup width: specialisation constant 5 (256 but for the radix passes' LS knob)
#define AVK_LOCAL_SIZE_ID 5
#include "common.glsl"
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#ifdef AVK_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#ifdef AVK_PARTITIONED
#extension GL_NV_shader_subgroup_partitioned : require
#endif

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
#define F_ONESWEEP 32u
#define F_DYNPAY 64u

#define T_ALIGN (T_BITS / 8)
#define R_ALIGN (R_BITS / 8)
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) readonly buffer TIn { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) writeonly buffer TOut { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) readonly buffer RIn { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) writeonly buffer ROut { R_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32 { uint v[]; };
// int64 indices, one 8-byte store each (outputs start 16-byte aligned): store_index
layout(buffer_reference, std430, buffer_reference_align = 8) writeonly buffer U32x2 { uvec2 v[]; };
// The single sweep's status words as the look-back polls them: a plain load that is never
// cached or hoisted (an atomicAdd of 0 made every poll a read-modify-write at the L2)
layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile readonly buffer U32Poll { uint v[]; };

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

// ---- the radix sort: 8 bits a pass, LSD, stable ------------------------------------------
#define BINS 256u
// Keys per invocation (specialisation constant 1): a tile is 256 x KPT keys. Specialisation
// constant 2 (3): the per-pass (global) histogram aggregates equal digits of a subgroup before
// its shared atomics (the _sg variant only).
layout(constant_id = 1) const uint KPT = 16;
layout(constant_id = 2) const uint HIST_AGG = 1;
layout(constant_id = 3) const uint GH_AGG = 0;
// 1: the look-back polls status words by coherent volatile loads; 0: by atomicAdd of 0
layout(constant_id = 4) const uint LOOKBACK_POLL = 0;
// (constant 5: the workgroup width, AVK_LOCAL_SIZE; the radix passes run with LS >= 256
// invocations, one per digit where a step works per digit and the rest idle there)
// 1: a key pass's scatter reorders the tile's digit-bearing key words (not its digits) and
// takes each digit from them, so the key registers are free before the look-back
layout(constant_id = 6) const uint KEY_REORDER = 0;
// Diagnostics only (benchmarks/diag_sort.py; wrong results on purpose, 0 otherwise): the
// scatter without parts of its work, to time them. 1: no look-back walk (each tile takes no
// earlier tiles' counts); 2: no global writes of keys or payloads; 4: keys made from their
// index, not loaded, and 16: no ranking (each key's rank its place in its group; both only with
// 2: the positions they give may lie outside the output); 8: no payload reordering.
layout(constant_id = 7) const uint DIAG_PARTS = 0;
// The look-back reads this many earlier tiles' status words at once (all loads issued, then
// taken in order); 1: one at a time.
layout(constant_id = 8) const uint WALK_WINDOW = 1;
#define TILE (AVK_LOCAL_SIZE * KPT)
// Shared words: the tile's reordering buffer, aliased with the packed (16-bit) counters of up to
// 32 groups x 256 digits, and with the global histogram kernel's 12 x 256 counters.
const uint SH_WORDS = TILE > 4096u ? TILE : 4096u;
#define GH_WORDS 3072u
// info word of a pass (addr[7] at GH_WORDS + pass); GH_WORDS + 15: the payload flag (F_DYNPAY);
// GH_WORDS + 16 + pass: the pass's tile tickets (F_ONESWEEP)
#define GH_PAYLOAD (GH_WORDS + 15u)
#define GH_TICKETS (GH_WORDS + 16u)
// tile status words of the single-sweep scatter: flag (2 bits) and a count (30 bits)
#define ST_AGG 0x40000000u
#define ST_INC 0x80000000u
#define ST_COUNT 0x3FFFFFFFu
#define I_SKIP 1u
#define I_SRC 2u
#define I_LAST 4u
#define I_KEYS 8u
// key kinds of raw input (w[9]); 0: keys from K0
#define RK_UINT 1u
#define RK_INT 2u
#define RK_FLOAT 3u
// final outputs (w[11])
#define OM_V 1u
#define OM_IDX32 2u
#define OM_IDX64 3u
#define OM_PAYLOAD 4u
#define OM_UNKEY 5u

shared uint sh[SH_WORDS];
shared uint s_a[BINS];
shared uint s_b[BINS];
shared uint s_gofs[BINS];
shared uint s_tstart[BINS];
shared uint s_dig[AVK_LOCAL_SIZE];
shared uint s_flag;
shared uint s_tile;

uint info_of(uint pass_) { return U32(p.addr[7]).v[GH_WORDS + pass_]; }

// Index v as output element o: int32 (OM_IDX32) or int64 (OM_IDX64, one 8-byte store).
void store_index(uint om, uint o, uint v)
{
    if (om == OM_IDX32)
        U32(p.addr[5]).v[o] = v;
    else
        U32x2(p.addr[5]).v[o] = uvec2(v, 0u);
}

// Order-preserving key words of raw words u (low, high) of a 32/64-bit dtype.
uvec2 raw_key(uvec2 u, uint kind, uint kw)
{
    if (kind == RK_INT) {
        if (kw == 2u)
            u.y ^= 0x80000000u;
        else
            u.x ^= 0x80000000u;
    } else if (kind == RK_FLOAT) {
        if (kw == 2u) {
            uint ah = u.y & 0x7FFFFFFFu;
            if (ah > 0x7FF00000u || (ah == 0x7FF00000u && u.x != 0u))
                u = uvec2(0xFFFFFFFFu);
            else if (ah == 0u && u.x == 0u)
                u = uvec2(0u, 0x80000000u);
            else if ((u.y & 0x80000000u) != 0u)
                u = ~u;
            else
                u.y |= 0x80000000u;
        } else {
            uint a = u.x & 0x7FFFFFFFu;
            if (a > 0x7F800000u)
                u.x = 0xFFFFFFFFu;
            else if (a == 0u)
                u.x = 0x80000000u;
            else if ((u.x & 0x80000000u) != 0u)
                u.x = ~u.x;
            else
                u.x |= 0x80000000u;
        }
    }
    return u;
}

// The value word w of a key word (integer kinds: the key is a bijection).
uint unkey_word(uint v, uint w)
{
    if ((p.w[4] & F_DESC) != 0u)
        v = ~v;
    if (p.w[9] == RK_INT && w + 1u == p.w[5])
        v ^= 0x80000000u;
    // float32 where the input had no -0.0 and no NaN but the canonical one (F_DYNPAY): the key
    // is then a bijection on the values present
    if (p.w[9] == RK_FLOAT && p.w[5] == 1u)
        v = v == 0xFFFFFFFFu ? 0x7FC00000u : (v & 0x80000000u) != 0u ? v & 0x7FFFFFFFu : ~v;
    return v;
}

// Whether raw float32 bits are a value the key loses (-0.0, a NaN other than 0x7FC00000).
bool key_loses(uint u)
{
    return u == 0x80000000u || ((u & 0x7FFFFFFFu) > 0x7F800000u && u != 0x7FC00000u);
}

uvec2 load_key(uint i, uint pass_, uint src)
{
    uint kw = p.w[5];
    uvec2 u = uvec2(0u);
    if (pass_ == 0u && p.w[9] != 0u) {
        uint b = p.w[6] + i * kw;
        u.x = U32(p.addr[0]).v[b];
        if (kw == 2u)
            u.y = U32(p.addr[0]).v[b + 1u];
        u = raw_key(u, p.w[9], kw);
        if ((p.w[4] & F_DESC) != 0u)
            u = ~u;
    } else {
        uvec2 a = p.addr[1u + src];
        u.x = U32(a).v[i * kw];
        if (kw == 2u)
            u.y = U32(a).v[i * kw + 1u];
    }
    return u;
}

uint load_payload(uint i, uint w, uint pass_, uint src)
{
    uint pw = p.w[12];
    if (pass_ == 0u) {
        uint s = p.w[10];
        if (s == 1u)
            return i;
        if (s == 2u)
            return U32(p.addr[0]).v[p.w[6] + i * pw + w];
    }
    return U32(p.addr[3u + src]).v[i * pw + w];
}

uint key_digit(uvec2 key, uint pass_)
{
    uint s = 8u * pass_;
    return ((s < 32u ? key.x : key.y) >> (s & 31u)) & 0xFFu;
}

uint row_digit(uint v, uint pass_)
{
    return ((v / p.w[1]) >> (8u * (pass_ - p.w[7]))) & 0xFFu;
}

// The digit of element i in this pass (and its key, for key passes).
uint digit_of(uint i, uint pass_, uint src, out uvec2 key)
{
    key = uvec2(0u);
    if (pass_ >= p.w[7])
        return row_digit(load_payload(i, 0u, pass_, src), pass_);
    key = load_key(i, pass_, src);
    return key_digit(key, pass_);
}

// Whether this workgroup ranks by subgroup ballots: the _sg variant, subgroups of 8..128
// invocations that are consecutive runs of the local index (uniform; call from uniform flow).
bool use_ballot()
{
#ifdef AVK_SUBGROUP
    if (gl_LocalInvocationID.x == 0u)
        s_flag = 0u;
    barrier();
    uint w = gl_SubgroupSize;
    if (w < 8u || w > 128u || (AVK_LOCAL_SIZE % w) != 0u
        || gl_SubgroupID * w + gl_SubgroupInvocationID != gl_LocalInvocationID.x)
        s_flag = 1u;
    barrier();
    return s_flag == 0u;
#else
    return false;
#endif
}

#ifdef AVK_SUBGROUP
// The invocations of this subgroup with digit d (valid ones only), as a ballot mask.
uvec4 match_digit(uint d, bool valid)
{
#ifdef AVK_PARTITIONED
    // one instruction (match.any) where the driver has VK_NV_shader_subgroup_partitioned
    return subgroupPartitionNV(valid ? d : 0xFFFFFFFFu);
#else
    uvec4 m = subgroupBallot(valid);
    [[unroll]] for (uint b = 0u; b < 8u; ++b) {
        bool bit = ((d >> b) & 1u) != 0u;
        uvec4 bb = subgroupBallot(bit);
        m &= bit ? bb : ~bb;
    }
    return m;
#endif
}
#endif

void radix_zero()
{
    for (uint j = gl_LocalInvocationID.x; j < GH_WORDS + 32u; j += AVK_LOCAL_SIZE)
        U32(p.addr[7]).v[j] = 0u;
}

// Every pass's 256-bin digit histogram over all N keys (key passes from the keys, row passes
// from the row of each element), in one read: addr[7][pass * 256 + digit].
void radix_ghist()
{
    uint t = gl_LocalInvocationID.x, wg = wg_index(), N = p.w[0], G = p.w[2];
    uint PK = p.w[7], P = PK + p.w[8];
    for (uint j = t; j < P * BINS; j += AVK_LOCAL_SIZE)
        sh[j] = 0u;
    barrier();
    bool agg = GH_AGG != 0u && use_ballot();
    bool dyn = (p.w[4] & F_DYNPAY) != 0u;
    bool raw = p.w[9] != 0u;
    uint kw = p.w[5];
    // Each workgroup takes tiles wg, wg + groups, ... (fewer workgroups than tiles: each
    // flushes its bins by global atomics, and 8192 workgroups' flushes of 1024 bins each
    // contended on the same 1024 words)
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    bool lose = false;
    for (uint tile = wg; tile < G; tile += groups) {
        // the single-sweep scatter's first pass reads status buffer 0: zero this tile's row
        if ((p.w[4] & F_ONESWEEP) != 0u)
            for (uint j = t; j < BINS; j += AVK_LOCAL_SIZE)
                U32(p.addr[6]).v[tile * BINS + j] = 0u;
        // the tile's keys of this invocation, all loads issued before any is used (memory
        // parallelism: one load at a time kept this pass at a fifth of the bandwidth): a raw
        // dtype's words first, made keys after, as load_key reads and transforms them (written
        // out here: load_key split into two helper functions, used by both, made this pass 153
        // us against 108 on the H100, run 21)
        uvec2 keys[KPT];
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            uint i = tile * TILE + k * AVK_LOCAL_SIZE + t;
            keys[k] = uvec2(0u);
            if (i < N) {
                if (raw) {
                    uint b = p.w[6] + i * kw;
                    keys[k].x = U32(p.addr[0]).v[b];
                    if (kw == 2u)
                        keys[k].y = U32(p.addr[0]).v[b + 1u];
                } else {
                    keys[k] = load_key(i, 0u, 0u);
                }
            }
        }
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            uint i = tile * TILE + k * AVK_LOCAL_SIZE + t;
            bool valid = i < N;
            if (raw && valid) {
                if (dyn)  // (float32: one word)
                    lose = lose || key_loses(keys[k].x);
                keys[k] = raw_key(keys[k], p.w[9], kw);
                if ((p.w[4] & F_DESC) != 0u)
                    keys[k] = ~keys[k];
            }
            uvec2 key = keys[k];
            uint r = valid && P > PK ? i / p.w[1] : 0u;  // (row passes only)
            for (uint q = 0u; q < P; ++q) {
                uint d = q < PK ? key_digit(key, q) : (r >> (8u * (q - PK))) & 0xFFu;
#ifdef AVK_SUBGROUP
                if (agg) {
                    uvec4 m = match_digit(d, valid);
                    if (valid && subgroupBallotExclusiveBitCount(m) == 0u)
                        atomicAdd(sh[q * BINS + d], subgroupBallotBitCount(m));
                    continue;
                }
#endif
                if (valid)
                    atomicAdd(sh[q * BINS + d], 1u);
            }
        }
    }
    if (lose)
        atomicOr(U32(p.addr[7]).v[GH_PAYLOAD], 1u);
    barrier();
    if (wg < G) {
        for (uint j = t; j < P * BINS; j += AVK_LOCAL_SIZE) {
            uint c = sh[j];
            if (c != 0u)
                atomicAdd(U32(p.addr[7]).v[j], c);
        }
    }
}

// One workgroup: which passes to skip (a key pass whose digit is the same for every key is the
// identity: stable), where each pass reads (parity of the passes run before it), the last pass
// run (it writes the outputs) and whether a later key pass needs the keys a pass writes.
void radix_info()
{
    uint t = gl_LocalInvocationID.x, N = p.w[0], PK = p.w[7], P = PK + p.w[8];
    if (t == 0u)
        s_flag = 0u;
    barrier();
    for (uint q = 1u; q < PK; ++q)
        for (uint j = t; j < BINS; j += AVK_LOCAL_SIZE)
            if (U32(p.addr[7]).v[q * BINS + j] == N)
                atomicOr(s_flag, 1u << q);
    barrier();
    if (t == 0u) {
        uint skip = s_flag, lastp = 0u, par = 0u;
        for (uint q = 0u; q < P; ++q)
            if (((skip >> q) & 1u) == 0u)
                lastp = q;
        for (uint q = 0u; q < P; ++q) {
            bool sk = ((skip >> q) & 1u) != 0u;
            bool later = false;
            for (uint r = q + 1u; r < PK; ++r)
                later = later || ((skip >> r) & 1u) == 0u;
            uint info = (sk ? I_SKIP : 0u) | (par != 0u ? I_SRC : 0u) | (q == lastp ? I_LAST : 0u)
                      | (later ? I_KEYS : 0u);
            U32(p.addr[7]).v[GH_WORDS + q] = info;
            if (!sk)
                par ^= 1u;
        }
    }
}

// This pass's digit counts of each tile: addr[6][digit * G + tile].
void radix_hist()
{
    uint pass_ = p.w[3], info = info_of(pass_);
    if ((info & I_SKIP) != 0u)
        return;
    uint src = (info & I_SRC) != 0u ? 1u : 0u;
    uint t = gl_LocalInvocationID.x, wg = wg_index(), N = p.w[0], G = p.w[2];
    bool agg = HIST_AGG != 0u && use_ballot();
    for (uint j = t; j < BINS; j += AVK_LOCAL_SIZE)
        sh[j] = 0u;
    barrier();
    for (uint k = 0u; k < KPT; ++k) {
        uint i = wg * TILE + k * AVK_LOCAL_SIZE + t;
        bool valid = wg < G && i < N;
        uvec2 key;
        uint d = valid ? digit_of(i, pass_, src, key) : 0u;
#ifdef AVK_SUBGROUP
        if (agg) {
            uvec4 m = match_digit(d, valid);
            if (valid && subgroupBallotExclusiveBitCount(m) == 0u)
                atomicAdd(sh[d], subgroupBallotBitCount(m));
            continue;
        }
#endif
        if (valid)
            atomicAdd(sh[d], 1u);
    }
    barrier();
    if (wg < G)
        for (uint j = t; j < BINS; j += AVK_LOCAL_SIZE)
            U32(p.addr[6]).v[j * G + wg] = sh[j];
}

// Exclusive scan, in place, of each digit's tile counts: workgroup d scans addr[6][d * G ..).
void radix_scan()
{
    uint pass_ = p.w[3];
    if ((info_of(pass_) & I_SKIP) != 0u)
        return;
    uint t = gl_LocalInvocationID.x, d = wg_index(), G = p.w[2];
    if (gl_NumWorkGroups.x * gl_NumWorkGroups.y == 1u) {
        // few tiles: one workgroup, an invocation per digit walks its G counts
        uint run = 0u;
        for (uint j = t * G; t < BINS && j < t * G + G; ++j) {
            uint c = U32(p.addr[6]).v[j];
            U32(p.addr[6]).v[j] = run;
            run += c;
        }
        return;
    }
    if (d >= BINS)
        return;
    uint base = d * G, carry = 0u;
    for (uint c0 = 0u; c0 < G; c0 += AVK_LOCAL_SIZE * 8u) {
        uint v[8];
        uint s = 0u;
        [[unroll]] for (uint k = 0u; k < 8u; ++k) {
            uint j = c0 + t * 8u + k;
            v[k] = j < G ? U32(p.addr[6]).v[base + j] : 0u;
            s += v[k];
        }
        s_a[t] = s;
        barrier();
        for (uint off = 1u; off < AVK_LOCAL_SIZE; off <<= 1) {
            uint y = t >= off ? s_a[t - off] : 0u;
            barrier();
            s_a[t] += y;
            barrier();
        }
        uint run = carry + s_a[t] - s, total = s_a[AVK_LOCAL_SIZE - 1u];
        barrier();
        [[unroll]] for (uint k = 0u; k < 8u; ++k) {
            uint j = c0 + t * 8u + k;
            if (j < G)
                U32(p.addr[6]).v[base + j] = run;
            run += v[k];
        }
        carry += total;
    }
}

// The stable scatter of a tile: each group of W invocations (a subgroup, or 32 invocations in
// shared memory) ranks its W x KPT consecutive keys in order; the groups' counts are scanned per
// digit; the tile is reordered in shared memory by (digit, rank) and written out in runs.
void radix_scatter()
{
    uint pass_ = p.w[3], info = info_of(pass_);
    if ((info & I_SKIP) != 0u)
        return;
    uint src = (info & I_SRC) != 0u ? 1u : 0u, dstb = 1u - src;
    bool last = (info & I_LAST) != 0u;
    uint om = last ? p.w[11] : 0u;
    // values carried as the payload only where the keys lose some (F_DYNPAY: ghist looked)
    bool nopay = (p.w[4] & F_DYNPAY) != 0u && U32(p.addr[7]).v[GH_PAYLOAD] == 0u;
    if (nopay && om == OM_PAYLOAD)
        om = OM_UNKEY;
    bool keys_out = ((info & I_KEYS) != 0u || om == OM_UNKEY) && (DIAG_PARTS & 2u) == 0u;
    uint t = gl_LocalInvocationID.x, wg = wg_index(), N = p.w[0], G = p.w[2], kw = p.w[5];
    uint pw = om == OM_UNKEY || nopay || (DIAG_PARTS & 8u) != 0u ? 0u : p.w[12];
    bool onesweep = (p.w[4] & F_ONESWEEP) != 0u;
    if (onesweep) {
        // tiles in the order workgroups start (a tile only waits for tiles started before it)
        if (t == 0u)
            s_tile = atomicAdd(U32(p.addr[7]).v[GH_TICKETS + pass_], 1u);
        barrier();
        wg = s_tile;
        if (wg >= G)
            return;
    }
    bool sg = use_ballot();
#ifdef AVK_SUBGROUP
    uint W = sg ? gl_SubgroupSize : 32u;
#else
    uint W = 32u;
#endif
    uint grp = t / W, l = t % W, NG = AVK_LOCAL_SIZE / W;
    for (uint j = t; j < NG * 128u; j += AVK_LOCAL_SIZE)
        sh[j] = 0u;
    // (steps per digit below: invocation t < BINS takes digit t; wider workgroups' others idle)
    bool dig = t < BINS;
    uint gtot = dig ? U32(p.addr[7]).v[pass_ * BINS + t] : 0u;
    uint hb = dig && wg < G && !onesweep ? U32(p.addr[6]).v[t * G + wg] : 0u;
    barrier();
    uint base = wg * TILE + grp * W * KPT;
    uint pr[KPT];
    uvec2 kk[KPT];
    [[unroll]] for (uint k = 0u; k < KPT; ++k) {
        uint i = base + k * W + l;
        bool valid = wg < G && i < N;
        uvec2 key = uvec2(0u);
        uint d = 0u;
        if (valid && (DIAG_PARTS & 4u) != 0u) {
            key = uvec2(i * 2654435761u, 0u);
            d = key_digit(key, pass_);
        } else if (valid)
            d = digit_of(i, pass_, src, key);
        kk[k] = key;
        uint rank, c;
        uint word = grp * 128u + (d >> 1), s16 = (d & 1u) * 16u;
        if ((DIAG_PARTS & 16u) != 0u) {
            pr[k] = (d << 16) | (k * W + l);
            continue;
        }
#ifdef AVK_SUBGROUP
        if (sg) {
            uvec4 m = match_digit(d, valid);
            rank = subgroupBallotExclusiveBitCount(m);
            c = subgroupBallotBitCount(m);
            // the last invocation of each digit adds the digit's count; its old value, shuffled
            // to the others, is where the digit's run starts (no barrier within the subgroup)
            uint leader = valid ? subgroupBallotFindMSB(m) : gl_SubgroupInvocationID;
            uint old = 0u;
            if (valid && gl_SubgroupInvocationID == leader)
                old = atomicAdd(sh[word], c << s16);
            old = subgroupShuffle(old, leader);
            pr[k] = (d << 16) | (((old >> s16) & 0xFFFFu) + rank);
            continue;
        }
#endif
        s_dig[t] = valid ? d : 0xFFFFFFFFu;
        barrier();
        rank = 0u;
        bool lead = true;
        for (uint j = grp * W; j < t; ++j)
            rank += s_dig[j] == d ? 1u : 0u;
        for (uint j = t + 1u; j < grp * W + W; ++j)
            lead = lead && s_dig[j] != d;
        uint pre = valid ? (sh[word] >> s16) & 0xFFFFu : 0u;
        barrier();
        if (valid && lead)
            atomicAdd(sh[word], (rank + 1u) << s16);
        barrier();
        pr[k] = (d << 16) | (pre + rank);
    }
    barrier();
    // each digit's counts over the groups, exclusive, in place; the tile's digit counts
    if (t < 128u) {
        uint rl = 0u, rh = 0u;
        for (uint g = 0u; g < NG; ++g) {
            uint c = sh[g * 128u + t];
            sh[g * 128u + t] = rl | (rh << 16);
            rl += c & 0xFFFFu;
            rh += c >> 16;
        }
        s_a[2u * t] = rl;
        s_a[2u * t + 1u] = rh;
    }
    if (dig)
        s_b[t] = gtot;
    barrier();
    uint tc = dig ? s_a[t] : 0u;
    if (onesweep && dig) {
        // this tile's digit counts published at once (the walk back comes later, below);
        // status words are two buffers, `src` this pass's: this tile zeroes its row of the
        // other, which the next pass run reads
        uint sb = src * G * BINS, ob = (1u - src) * G * BINS;
        U32(p.addr[6]).v[ob + wg * BINS + t] = 0u;
        if (wg == 0u) {
            atomicExchange(U32(p.addr[6]).v[sb + t], ST_INC | tc);
        } else {
            atomicExchange(U32(p.addr[6]).v[sb + wg * BINS + t], ST_AGG | tc);
        }
    }
    for (uint off = 1u; off < BINS; off <<= 1) {
        uint ya = dig && t >= off ? s_a[t - off] : 0u;
        uint yb = dig && t >= off ? s_b[t - off] : 0u;
        barrier();
        if (dig) {
            s_a[t] += ya;
            s_b[t] += yb;
        }
        barrier();
    }
    if (dig) {
        uint tstart = s_a[t] - tc;
        s_tstart[t] = tstart;
        s_gofs[t] = (s_b[t] - gtot) + hb - tstart;
    }
    barrier();
    uint pos[KPT];
    [[unroll]] for (uint k = 0u; k < KPT; ++k) {
        uint d = pr[k] >> 16;
        pos[k] = s_tstart[d] + ((sh[grp * 128u + (d >> 1)] >> ((d & 1u) * 16u)) & 0xFFFFu)
               + (pr[k] & 0xFFFFu);
    }
    barrier();
    uint tileN = wg < G ? min(TILE, N - wg * TILE) : 0u;
    // digits by tile position (or, KEY_REORDER, a key pass's key words bearing them), then each
    // output's words through the same reordering
    bool kr = KEY_REORDER != 0u && pass_ < p.w[7];
    uint dsh = (8u * pass_) & 31u, dw = 8u * pass_ < 32u ? 0u : 1u;
    [[unroll]] for (uint k = 0u; k < KPT; ++k)
        if (base + k * W + l < N && wg < G)
            sh[pos[k]] = kr ? (dw == 0u ? kk[k].x : kk[k].y) : pr[k] >> 16;
    if (onesweep && wg != 0u && dig && (DIAG_PARTS & 1u) == 0u) {
        // the decoupled look-back per digit over the earlier tiles' status words (buffer `src`
        // of two), walked only now, after the tile's own scans and reordering: walked right
        // after publishing the aggregate, it waited on tiles that started with this one
        // WALK_WINDOW tiles j, j - 1, ... at a time (none before tile 0, whose words are
        // inclusive), taken in order; the walk goes on from the first word still empty
        uint sb = src * G * BINS, excl = 0u, j = wg - 1u;
        for (;;) {
            uint v[WALK_WINDOW];
            [[unroll]] for (uint q = 0u; q < WALK_WINDOW; ++q) {
                uint w = sb + (j - q) * BINS + t;
                v[q] = q > j ? 0u : LOOKBACK_POLL == 0u ? atomicAdd(U32(p.addr[6]).v[w], 0u)
                                                        : U32Poll(p.addr[6]).v[w];
            }
            bool done = false, stop = false;
            uint used = 0u;
            [[unroll]] for (uint q = 0u; q < WALK_WINDOW; ++q) {
                if (stop || done || q > j)
                    continue;
                if ((v[q] & (ST_AGG | ST_INC)) == 0u) {
                    stop = true;
                    continue;
                }
                excl += v[q] & ST_COUNT;
                used = q + 1u;
                done = (v[q] & ST_INC) != 0u || q == j;
            }
            if (done)
                break;
            j -= used;
        }
        atomicExchange(U32(p.addr[6]).v[sb + wg * BINS + t], ST_INC | (excl + tc));
        s_gofs[t] += excl;
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < KPT; ++k) {
        uint j = k * AVK_LOCAL_SIZE + t;
        if (j < tileN) {
            uint v = sh[j], o = s_gofs[kr ? (v >> dsh) & 0xFFu : v] + j;
            pr[k] = o;
            if (kr && keys_out) {
                if (om == OM_UNKEY)
                    U32(p.addr[5]).v[o * kw + dw] = unkey_word(v, dw);
                else
                    U32(p.addr[1u + dstb]).v[o * kw + dw] = v;
            }
        }
    }
    barrier();
    if (keys_out) {
        for (uint w = 0u; w < kw; ++w) {
            if (kr && w == dw)
                continue;  // (written above)
            [[unroll]] for (uint k = 0u; k < KPT; ++k) {
                uint i = base + k * W + l;
                if (i < N && wg < G) {
                    // KEY_REORDER: read again (L2), not kept in registers over the look-back
                    uvec2 key = KEY_REORDER != 0u ? load_key(i, pass_, src) : kk[k];
                    sh[pos[k]] = w == 0u ? key.x : key.y;
                }
            }
            barrier();
            [[unroll]] for (uint k = 0u; k < KPT; ++k) {
                uint j = k * AVK_LOCAL_SIZE + t;
                if (j < tileN) {
                    uint v = sh[j];
                    if (om == OM_UNKEY)
                        U32(p.addr[5]).v[pr[k] * kw + w] = unkey_word(v, w);
                    else
                        U32(p.addr[1u + dstb]).v[pr[k] * kw + w] = v;
                }
            }
            barrier();
        }
    }
    for (uint w = 0u; w < pw; ++w) {
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            uint i = base + k * W + l;
            if (i < N && wg < G)
                sh[pos[k]] = load_payload(i, w, pass_, src);
        }
        barrier();
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            uint j = k * AVK_LOCAL_SIZE + t;
            if (j < tileN && (DIAG_PARTS & 2u) == 0u) {
                uint v = sh[j], o = pr[k];
                if (om == 0u)
                    U32(p.addr[3u + dstb]).v[o * pw + w] = v;
                else if (om == OM_V || om == OM_PAYLOAD)
                    U32(p.addr[5]).v[o * pw + w] = v;
                else {
                    // the index within its row (one row: the element index itself, no division)
                    if (p.w[0] != p.w[1])
                        v = v % p.w[1];
                    store_index(om, o, v);
                }
            }
        }
        barrier();
    }
}

// Rows of n <= 256 x KPT elements: a workgroup per row (or per RPW short rows) sorts them in
// shared memory, every pass (ranking as the scatter's) reordering the keys and each element's
// position (the payload), then writes the outputs once.
void radix_rows()
{
    // RPW = w[3] rows a workgroup: its m elements are sorted by key, then (RPW > 1) by row
    uint RPW = p.w[3], r0 = wg_index() * RPW, rows = p.w[2];
    if (r0 >= rows)
        return;
    uint t = gl_LocalInvocationID.x, n = p.w[1], kw = p.w[5], PK = p.w[7], om = p.w[11];
    uint m = min(RPW, rows - r0) * n, P = RPW > 1u ? PK + 1u : PK;
    bool sg = use_ballot();
#ifdef AVK_SUBGROUP
    uint W = sg ? gl_SubgroupSize : 32u;
#else
    uint W = 32u;
#endif
    uint grp = t / W, l = t % W, NG = AVK_LOCAL_SIZE / W;
    uint base = grp * W * KPT + l;
    uvec2 kk[KPT];
    uint orig[KPT];
    uint pr[KPT];
    [[unroll]] for (uint k = 0u; k < KPT; ++k) {
        uint j = base + k * W;
        orig[k] = j;
        kk[k] = j < m ? load_key(r0 * n + j, 0u, 0u) : uvec2(0u);
    }
    for (uint q = 0u; q < P; ++q) {
        for (uint j = t; j < NG * 128u; j += AVK_LOCAL_SIZE)
            sh[j] = 0u;
        barrier();
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            bool valid = base + k * W < m;
            uint d = valid ? (q < PK ? key_digit(kk[k], q) : orig[k] / n) : 0u;
            uint word = grp * 128u + (d >> 1), s16 = (d & 1u) * 16u;
#ifdef AVK_SUBGROUP
            if (sg) {
                uvec4 m = match_digit(d, valid);
                uint rank = subgroupBallotExclusiveBitCount(m);
                uint c = subgroupBallotBitCount(m);
                uint leader = valid ? subgroupBallotFindMSB(m) : gl_SubgroupInvocationID;
                uint old = 0u;
                if (valid && gl_SubgroupInvocationID == leader)
                    old = atomicAdd(sh[word], c << s16);
                old = subgroupShuffle(old, leader);
                pr[k] = (d << 16) | (((old >> s16) & 0xFFFFu) + rank);
                continue;
            }
#endif
            s_dig[t] = valid ? d : 0xFFFFFFFFu;
            barrier();
            uint rank = 0u;
            bool lead = true;
            for (uint j = grp * W; j < t; ++j)
                rank += s_dig[j] == d ? 1u : 0u;
            for (uint j = t + 1u; j < grp * W + W; ++j)
                lead = lead && s_dig[j] != d;
            uint pre = valid ? (sh[word] >> s16) & 0xFFFFu : 0u;
            barrier();
            if (valid && lead)
                atomicAdd(sh[word], (rank + 1u) << s16);
            barrier();
            pr[k] = (d << 16) | (pre + rank);
        }
        barrier();
        if (t < 128u) {
            uint rl = 0u, rh = 0u;
            for (uint g = 0u; g < NG; ++g) {
                uint c = sh[g * 128u + t];
                sh[g * 128u + t] = rl | (rh << 16);
                rl += c & 0xFFFFu;
                rh += c >> 16;
            }
            s_a[2u * t] = rl;
            s_a[2u * t + 1u] = rh;
        }
        barrier();
        uint tc = s_a[t];
        for (uint off = 1u; off < BINS; off <<= 1) {
            uint ya = t >= off ? s_a[t - off] : 0u;
            barrier();
            s_a[t] += ya;
            barrier();
        }
        s_tstart[t] = s_a[t] - tc;
        barrier();
        [[unroll]] for (uint k = 0u; k < KPT; ++k) {
            uint d = pr[k] >> 16;
            pr[k] = s_tstart[d] + ((sh[grp * 128u + (d >> 1)] >> ((d & 1u) * 16u)) & 0xFFFFu)
                  + (pr[k] & 0xFFFFu);
        }
        barrier();
        // exchange: element at position pr[k] goes to the invocation owning that slot
        uint nw = kw + 1u;
        for (uint w = 0u; w < nw; ++w) {
            [[unroll]] for (uint k = 0u; k < KPT; ++k)
                if (base + k * W < m)
                    sh[pr[k]] = w == kw ? orig[k] : (w == 0u ? kk[k].x : kk[k].y);
            barrier();
            [[unroll]] for (uint k = 0u; k < KPT; ++k) {
                uint j = base + k * W;
                uint v = j < m ? sh[j] : 0u;
                if (w == kw)
                    orig[k] = v;
                else if (w == 0u)
                    kk[k].x = v;
                else
                    kk[k].y = v;
            }
            barrier();
        }
    }
    // outputs: position j holds the element orig[k] of the workgroup's rows
    [[unroll]] for (uint k = 0u; k < KPT; ++k) {
        uint j = base + k * W;
        if (j >= m)
            continue;
        uint o = r0 * n + j, src = r0 * n + orig[k];
        if (om == OM_UNKEY) {
            U32(p.addr[5]).v[o * kw] = unkey_word(kk[k].x, 0u);
            if (kw == 2u)
                U32(p.addr[5]).v[o * kw + 1u] = unkey_word(kk[k].y, 1u);
        } else if (om == OM_PAYLOAD) {
            U32(p.addr[5]).v[o * kw] = U32(p.addr[0]).v[src * kw];
            if (kw == 2u)
                U32(p.addr[5]).v[o * kw + 1u] = U32(p.addr[0]).v[src * kw + 1u];
        } else if (om == OM_V) {
            U32(p.addr[5]).v[o] = src;
        } else {
            store_index(om, o, orig[k] % n);
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

// ---- unique over a dense key range ------------------------------------------------------
uint invocations() { return gl_NumWorkGroups.x * gl_NumWorkGroups.y * AVK_LOCAL_SIZE; }

// The min and max keys of x's N elements (w[0]; element offset w[6]): each invocation over a
// grid stride, then the workgroup's tree, then one atomic each into addr[1][0..1].
void unique_range()
{
    uint t = gl_LocalInvocationID.x, stride = invocations();
    uint lo = 0xFFFFFFFFu, hi = 0u;
    for (uint i = wg_index() * AVK_LOCAL_SIZE + t; i < p.w[0]; i += stride) {
        uint k = key_of(load_t(p.addr[0], p.w[6] + i)).x;
        lo = min(lo, k);
        hi = max(hi, k);
    }
    s_a[t] = lo;
    s_b[t] = hi;
    barrier();
    for (uint h = AVK_LOCAL_SIZE / 2u; h > 0u; h >>= 1u) {
        if (t < h) {
            s_a[t] = min(s_a[t], s_a[t + h]);
            s_b[t] = max(s_b[t], s_b[t + h]);
        }
        barrier();
    }
    if (t == 0u) {
        atomicMin(U32(p.addr[1]).v[0], s_a[0]);
        atomicMax(U32(p.addr[1]).v[1], s_b[0]);
    }
}

// Counts of each key of x in the R = w[1] bins from kmin = w[2] (addr[1], zeroed): in shared
// memory where the bins fit (one global atomic per bin and workgroup after), else global.
void unique_bins()
{
    uint t = gl_LocalInvocationID.x, stride = invocations(), R = p.w[1], kmin = p.w[2];
    bool local = R <= SH_WORDS;
    if (local) {
        for (uint b = t; b < R; b += AVK_LOCAL_SIZE)
            sh[b] = 0u;
        barrier();
    }
    for (uint i = wg_index() * AVK_LOCAL_SIZE + t; i < p.w[0]; i += stride) {
        uint b = key_of(load_t(p.addr[0], p.w[6] + i)).x - kmin;
        if (local)
            atomicAdd(sh[b], 1u);
        else
            atomicAdd(U32(p.addr[1]).v[b], 1u);
    }
    if (local) {
        barrier();
        for (uint b = t; b < R; b += AVK_LOCAL_SIZE)
            if (sh[b] != 0u)
                atomicAdd(U32(p.addr[1]).v[b], sh[b]);
    }
}

// The T value whose key (key_of(v).x) is k: key_of's inverse for bool and integers of at most
// 32 bits (signed keys are offset binary).
T_S value_of_key(uint k)
{
#if T_K == K_INT && T_BITS == 32
    return T_S(int(k ^ 0x80000000u));
#elif T_K == K_INT
    return T_S(int(k) - (1 << (T_BITS - 1)));
#elif T_K == K_FLOAT || T_BITS == 64
    return T_S(0);  // (no dense unique of these)
#else
    return T_S(k);
#endif
}

void main()
{
    if (OP == OP_SORT_ZERO) {
        radix_zero();
        return;
    }
    if (OP == OP_SORT_GHIST) {
        radix_ghist();
        return;
    }
    if (OP == OP_SORT_INFO) {
        radix_info();
        return;
    }
    if (OP == OP_SORT_HIST) {
        radix_hist();
        return;
    }
    if (OP == OP_SORT_SCAN) {
        radix_scan();
        return;
    }
    if (OP == OP_SORT_ROWS) {
        radix_rows();
        return;
    }
    if (OP == OP_SORT_SCATTER) {
        radix_scatter();
        return;
    }
    if (OP == OP_UNIQUE_RANGE) {
        unique_range();
        return;
    }
    if (OP == OP_UNIQUE_BINS) {
        unique_bins();
        return;
    }
    uint i = avk_index();
    if (i >= p.w[0])
        return;
    if (OP == OP_UNIQUE_ZERO) {
        U32(p.addr[0]).v[i] = 0u;
    } else if (OP == OP_UNIQUE_PRESENT) {
        U32(p.addr[1]).v[i] = U32(p.addr[0]).v[i] != 0u ? 1u : 0u;
    } else if (OP == OP_UNIQUE_DENSE) {
        if (U32(p.addr[0]).v[i] != 0u)
            TOut(p.addr[2]).v[U32(p.addr[1]).v[i]] = value_of_key(p.w[2] + i);
    } else if (OP == OP_UNIQUE_DENSE_COUNT) {
        uint c = U32(p.addr[0]).v[i];
        if (c != 0u)
            ROut(p.addr[2]).v[U32(p.addr[1]).v[i]] = R_S(c);
    } else if (OP == OP_UNIQUE_DENSE_INV) {
        uint b = key_of(load_t(p.addr[0], p.w[6] + i)).x - p.w[2];
        ROut(p.addr[2]).v[i] = R_S(U32(p.addr[1]).v[b]);
    } else if (OP == OP_SORT_KEYS) {
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
