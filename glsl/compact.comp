#version 450
// Stream compaction of a boolean mask (nonzero, boolean indexing), on the scan family's plan:
// a count pass, an exclusive scan of the counts (scan.comp) and a pass that writes each set
// element at its rank, in order. The contiguous mask (uint8, n elements from element w[1]) is
// split into G chunks of L elements (L a multiple of the tile, 256 x 8), one workgroup each.
// Specialisation constant 0, the mode:
//   COUNT (0): counts[g] (uint32, addr[0]) = set elements of chunk g
//   INDEX (1): variants compact_<index dtype> (I_*): for the set element i of rank `pos`, its
//        coordinates in shape[k] (w[6] k, w[7 ..] shape; k = 1: the flat index) to
//        out[d * w[5] + pos], one row of w[5] (the count) per dimension d
//   VALUE (2): variants compact_w<bits> (E_*): row i of x, d = w[9] elements
//        x[w[5] + i * w[6] + j * w[10]], to out[pos * d + j] (x: addr[3])
//   SCATTER (3): row i of x = src[w[7] + pos * d + j] (x: addr[0], src: addr[3])
//   FILL (4): row i of x = the value in w[11 ..] (1 to 4 words)
//        for every set i (one invocation per element, no counts)
// pos = offsets[g] (uint32, addr[2]: the exclusive scan of the counts) + the rank within the
// chunk. Push block: w[0] n, w[1] mask offset, w[2] L, w[3] G.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"
#ifdef AVK_SUBGROUP
// _sg variants: workgroup scans and sums of the counts through subgroup arithmetic (as scan.comp)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#if defined(I_BITS) && I_BITS == 64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;
layout(constant_id = 0) const uint MODE = 0;

#define MODE_COUNT 0u
#define MODE_INDEX 1u
#define MODE_VALUE 2u
#define MODE_SCATTER 3u
#define MODE_FILL 4u
#define ITEMS 8u
#define TILE (AVK_LOCAL_SIZE * ITEMS)

layout(buffer_reference, std430, buffer_reference_align = 1) restrict readonly buffer Mask { uint8_t v[]; };
// The same mask four bytes a load, where they are word-aligned (a third of the byte loads' time
// on the H100 for the count pass)
layout(buffer_reference, std430, buffer_reference_align = 4) restrict readonly buffer Mask4 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32 { uint v[]; };
#ifdef I_S
layout(buffer_reference, std430, buffer_reference_align = I_ALIGN) restrict writeonly buffer Out { I_S v[]; };
#endif
#ifdef E_S
layout(buffer_reference, std430, buffer_reference_align = E_ALIGN) restrict buffer Elems { E_S v[]; };
#endif

shared uint sh[AVK_LOCAL_SIZE];
shared uint sg_bad;
// A tile's outputs in rank order (flat indices of nonzero; single values of x[mask]), written
// out coalesced after the tile: each invocation's own writes land a few elements apart, so
// every store would touch its own 32-byte sector.
#if defined(I_S)
#define STAGE I_S
#elif defined(E_S) && E_ALIGN <= 8
#define STAGE E_S
#endif
#ifdef STAGE
shared STAGE stage[TILE];
#endif

// Whether subgroups are consecutive runs of the local invocation index (uniform).
bool use_subgroups()
{
#ifdef AVK_SUBGROUP
    if (gl_LocalInvocationID.x == 0u)
        sg_bad = 0u;
    barrier();
    if (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID != gl_LocalInvocationID.x)
        sg_bad = 1u;
    barrier();
    return sg_bad == 0u;
#else
    return false;
#endif
}

// The exclusive scan of x over the workgroup (local index order) and its total.
uint wg_exclusive(uint x, bool sg, out uint total)
{
    uint t = gl_LocalInvocationID.x;
#ifdef AVK_SUBGROUP
    if (sg) {
        uint e = subgroupExclusiveAdd(x);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
            sh[gl_SubgroupID] = e + x;
        barrier();
        uint pre = 0u, all = 0u;
        for (uint j = 0u; j < gl_NumSubgroups; ++j) {
            uint c = sh[j];
            pre += j < gl_SubgroupID ? c : 0u;
            all += c;
        }
        total = all;
        return pre + e;
    }
#endif
    sh[t] = x;
    barrier();
    for (uint off = 1u; off < AVK_LOCAL_SIZE; off <<= 1) {
        uint y = t >= off ? sh[t - off] : 0u;
        barrier();
        sh[t] += y;
        barrier();
    }
    total = sh[AVK_LOCAL_SIZE - 1u];
    return sh[t] - x;
}

bool flag(uint i)
{
    return uint(Mask(p.addr[1]).v[p.w[1] + i]) != 0u;
}

// Bit k set where byte k of the word is non-zero (k < 4).
uint nonzero_bytes(uint w)
{
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    w &= 0x01010101u;
    return (w | (w >> 7) | (w >> 14) | (w >> 21)) & 15u;
}

// The flags of the mask's 4 elements from i (i + p.w[1] a multiple of 4, i + 4 <= n).
uint flags4(uint i)
{
    return nonzero_bytes(Mask4(p.addr[1]).v[(p.w[1] + i) >> 2]);
}

#ifdef E_S
E_S fill_value()
{
#if E_ALIGN == 1
    return uint8_t(p.w[11]);
#elif E_ALIGN == 2
    return uint16_t(p.w[11]);
#elif E_ALIGN == 4
    return p.w[11];
#elif E_ALIGN == 8
    return uvec2(p.w[11], p.w[12]);
#else
    return uvec4(p.w[11], p.w[12], p.w[13], p.w[14]);
#endif
}
#endif

// writes set element i (mask order) at rank pos
void put(uint i, uint pos)
{
#ifdef I_S
    uint count = p.w[5], k = p.w[6];
    uint r = i;
    for (uint d = k; d > 0; --d) {
        uint m = p.w[7 + d - 1];
        uint q = r / m;
        Out(p.addr[0]).v[(d - 1) * count + pos] = I_S(r - q * m);
        r = q;
    }
#endif
#ifdef E_S
    uint xi = p.w[5] + i * p.w[6], d = p.w[9], rs = p.w[10];
    for (uint j = 0u; j < d; ++j) {
        if (MODE == MODE_VALUE)
            Elems(p.addr[0]).v[pos * d + j] = Elems(p.addr[3]).v[xi + j * rs];
        else
            Elems(p.addr[0]).v[xi + j * rs] = Elems(p.addr[3]).v[p.w[7] + pos * d + j];
    }
#endif
}

void main()
{
    uint n = p.w[0], t = gl_LocalInvocationID.x;
#ifdef E_S
    if (MODE == MODE_FILL) {
        uint i = avk_index();
        if (i < n && flag(i)) {
            uint xi = p.w[5] + i * p.w[6], d = p.w[9], rs = p.w[10];
            E_S v = fill_value();
            for (uint j = 0u; j < d; ++j)
                Elems(p.addr[0]).v[xi + j * rs] = v;
        }
        return;
    }
#endif
    uint L = p.w[2], G = p.w[3];
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (g >= G)
        return;  // (the whole workgroup)
    uint start = g * L, end = min(n, start + L);
    bool words = (p.w[1] & 3u) == 0u;  // (start is a multiple of the tile: aligned with it)
    if (MODE == MODE_COUNT) {
        uint c = 0u;
        if (words) {
            uint whole = start + ((end - start) & ~3u);
            for (uint i = start + 4u * t; i < whole; i += 4u * AVK_LOCAL_SIZE)
                c += bitCount(flags4(i));
            for (uint i = whole + t; i < end; i += AVK_LOCAL_SIZE)
                c += flag(i) ? 1u : 0u;
        } else {
            for (uint i = start + t; i < end; i += AVK_LOCAL_SIZE)
                c += flag(i) ? 1u : 0u;
        }
#ifdef AVK_SUBGROUP
        uint v = subgroupAdd(c);
        if (subgroupElect())
            sh[gl_SubgroupID] = v;
        barrier();
        if (t == 0u) {
            uint all = 0u;
            for (uint j = 0u; j < gl_NumSubgroups; ++j)
                all += sh[j];
            U32(p.addr[0]).v[g] = all;
        }
        return;
#endif
        sh[t] = c;
        barrier();
        for (uint s = AVK_LOCAL_SIZE / 2u; s > 0u; s >>= 1) {
            if (t < s)
                sh[t] += sh[t + s];
            barrier();
        }
        if (t == 0u)
            U32(p.addr[0]).v[g] = sh[0];
        return;
    }
    bool sg = use_subgroups();
    uint run = U32(p.addr[2]).v[g];
#ifdef STAGE
#ifdef I_S
    bool staged = MODE == MODE_INDEX && p.w[6] == 1u;
#else
    bool staged = MODE == MODE_VALUE && p.w[9] == 1u;
#endif
#endif
    for (uint base = start; base < end; base += TILE) {
        uint first = base + t * ITEMS;
        uint bits = 0u;
        if (words && first + ITEMS <= end) {
            [[unroll]] for (uint k = 0; k < ITEMS; k += 4u)
                bits |= flags4(first + k) << k;
        } else {
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                uint i = first + k;
                if (i < end && flag(i))
                    bits |= 1u << k;
            }
        }
        uint total;
        uint pos = run + wg_exclusive(uint(bitCount(bits)), sg, total);
#ifdef STAGE
        if (staged) {
            while (bits != 0u) {
                uint k = findLSB(bits);
                bits &= bits - 1u;
#ifdef I_S
                stage[pos - run] = I_S(first + k);
#else
                stage[pos - run] = Elems(p.addr[3]).v[p.w[5] + (first + k) * p.w[6]];
#endif
                pos++;
            }
            barrier();
            for (uint j = t; j < total; j += AVK_LOCAL_SIZE) {
#ifdef I_S
                Out(p.addr[0]).v[run + j] = stage[j];
#else
                Elems(p.addr[0]).v[run + j] = stage[j];
#endif
            }
        }
#endif
        while (bits != 0u) {
            uint k = findLSB(bits);
            bits &= bits - 1u;
            put(first + k, pos++);
        }
        run += total;
        barrier();
    }
}
