#version 450
// Matrix products C[b] = A[b] @ B[b] (docs/kernels.md, "Matrix products"): variants per dtype
// (T_* defines: input = accumulator = result), from the op table's matmul row.
//
// Operands are read in place through their strides (element strides, signed, uint arithmetic:
// negative ones wrap): element (m, k) of A in batch b is at
//   a_off + (b / B1) * a_bs0 + (b % B1) * a_bs1 + m * a_rs + k * a_cs
// and likewise B's (k, n); a broadcast batch dimension has stride 0. C is a fresh C-contiguous
// array of nbatch * M * N elements.
//
// Specialisation constants: 0 unused (the op code slot), 1 WX, 2 WY (the workgroup's size),
// 3 RM, 4 RN (each invocation's register block of C), 5 TK (the K depth of a shared tile),
// 6 SMALL.
//   SMALL == 0 (tiled): a workgroup computes a TM x TN tile of C (TM = WY * RM, TN = WX * RN)
//     through shared tiles of A (TM x TK) and B (TK x TN); invocation (tx, ty) holds C's
//     elements (ty + i * WY, tx + j * WX), i < RM, j < RN: its B reads are consecutive across
//     tx (no bank conflicts), its A reads broadcast. Tiles are loaded with the operand's
//     contiguous axis fastest across invocations (coalesced for A, A.mT, B and B.mT alike).
//     Grid (ceil(N / TN), ceil(M / TM), min(S * nbatch, 65535)); a workgroup walks
//     z = gl_WorkGroupID.z, + gl_NumWorkGroups.z, ... (z = s * nbatch + batch)
//   SMALL == 1 (direct): TK invocations per element of C (all batches flattened), a dot
//     product straight from memory: batched small products, matrix-vector products.
//     Grid: a 2-D grid of WX-wide groups (row-major over gl_NumWorkGroups.x).
//   SMALL == 2 (fast, float32/float64): see fast() below.
// Integers wrap as numpy's (8/16-bit ones computed in 32 bits and truncated on store).
//
// Push block (32 words):
//   w[0] M  w[1] N  w[2] K  w[3] nbatch  w[4] B1 (inner batch extent)
//   w[5] a_off  w[6] a_rs  w[7] a_cs  w[8] a_bs0  w[9] a_bs1
//   w[10] b_off w[11] b_rs w[12] b_cs w[13] b_bs0 w[14] b_bs1
//   w[15] S (split-K: the K range is cut in S chunks of w[16] elements, chunk s writing its
//         partial products at C + s * nbatch * M * N; a second pass sums them; 1: no split)
//   w[16] KC (elements of K per chunk)
//   addr[0] C, addr[1] A, addr[2] B: each the first byte of its allocation.
// UPDATE (spec constant 7) == 1: C += alpha * (A @ B) in place, C a strided view (S == 1):
//   w[17..20] alpha (the compute type's words), w[21] c_off, w[22] c_rs, w[23] c_cs,
//   words 30, 31 (addr[3]) c_bs0, c_bs1: element (b, m, n) of C at
//   c_off + (b / B1) * c_bs0 + (b % B1) * c_bs1 + m * c_rs + n * c_cs.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#define K_BOOL 0
#define K_INT 1
#define K_UINT 2
#define K_FLOAT 3
#define K_CPLX 4

#ifdef AVK_DENORM_PRESERVE
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif

layout(local_size_x_id = 1, local_size_y_id = 2, local_size_z = 1) in;
layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const uint WX = 16;
layout(constant_id = 2) const uint WY = 16;
layout(constant_id = 3) const uint RM = 4;
layout(constant_id = 4) const uint RN = 4;
layout(constant_id = 5) const uint TK = 16;
layout(constant_id = 6) const uint SMALL = 0;
layout(constant_id = 7) const uint UPDATE = 0;
// The fast path's mode word fixed at pipeline creation (0: read from w[19] at run time): the
// word | FM_STATIC, plus FM_EXACT where M, N and K are multiples of the tiles (no edge tests).
// The driver then compiles one load path per operand, not all four.
layout(constant_id = 8) const uint FMODE = 0;
const uint FM_EXACT = 512u;
const uint FM_STATIC = 1024u;
const uint TM = WY * RM;
const uint TN = WX * RN;
const uint NT = WX * WY;

layout(push_constant) uniform Push { uint w[24]; uvec2 addr[4]; } p;

#define T_ALIGN (T_BITS / 8)
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) readonly buffer AvkIn { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) writeonly buffer AvkOut { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) buffer AvkRW { T_S v[]; };

#if T_K == K_CPLX
#define MAD(acc, a, b) ((acc) + T_C((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))
#else
#define MAD(acc, a, b) ((acc) + (a) * (b))
#endif

#if T_K == K_CPLX
#define MUL(a, b) T_C((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x)
#else
#define MUL(a, b) ((a) * (b))
#endif

// alpha of an update, from push words 17...
T_C alpha()
{
#if T_K == K_CPLX && T_BITS == 64
    return vec2(uintBitsToFloat(p.w[17]), uintBitsToFloat(p.w[18]));
#elif T_K == K_CPLX
    return dvec2(packDouble2x32(uvec2(p.w[17], p.w[18])), packDouble2x32(uvec2(p.w[19], p.w[20])));
#elif T_K == K_FLOAT && T_BITS == 32
    return uintBitsToFloat(p.w[17]);
#elif T_K == K_FLOAT
    return packDouble2x32(uvec2(p.w[17], p.w[18]));
#elif T_BITS == 64
    return T_C(packUint2x32(uvec2(p.w[17], p.w[18])));
#else
    return T_C(p.w[17]);
#endif
}

// C's element (batch b0, b1; m, n) += alpha * v (UPDATE)
void update(uint b0, uint b1, uint m, uint n, T_C v)
{
    uint i = p.w[21] + b0 * p.addr[3].x + b1 * p.addr[3].y + m * p.w[22] + n * p.w[23];
    AvkRW C = AvkRW(p.addr[0]);
    C.v[i] = T_S(T_C(C.v[i]) + MUL(alpha(), v));
}

shared T_C As[SMALL == 0u ? TK * TM : 1u];
shared T_C Bs[SMALL == 0u ? TK * TN : 1u];

// SMALL == 1: KL = TK invocations (consecutive in the workgroup) per element of C, lane l
// summing k = kbeg + l, + KL, ... (consecutive lanes read consecutive k: coalesced where A's rows
// are k-contiguous); their partial sums added in shared memory.
shared T_C Rs[SMALL == 1u && TK > 1u ? NT : 1u];

void direct()
{
    uint M = p.w[0], N = p.w[1], K = p.w[2];
    uint gi = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * NT + gl_LocalInvocationID.x;
    uint g = gi / TK, lane = gi - g * TK;
    uint mn = M * N;
    uint per = p.w[3] * mn;
    bool live = g < per * p.w[15];
    if (TK == 1u && !live)
        return;
    uint s = g / per;
    uint b = (g - s * per) / mn;
    uint r = g - s * per - b * mn;
    uint kc = p.w[16];
    uint kbeg = s * kc;
    uint kend = live ? min(K, kbeg + kc) : 0u;
    uint m = r / N;
    uint n = r - m * N;
    uint B1 = p.w[4];
    uint b0 = b / B1, b1 = b - (b / B1) * B1;
    uint acs = p.w[7], brs = p.w[11];
    uint ai = p.w[5] + b0 * p.w[8] + b1 * p.w[9] + m * p.w[6] + (kbeg + lane) * acs;
    uint bi = p.w[10] + b0 * p.w[13] + b1 * p.w[14] + n * p.w[12] + (kbeg + lane) * brs;
    AvkIn A = AvkIn(p.addr[1]);
    AvkIn B = AvkIn(p.addr[2]);
    T_C acc = T_C(0);
    for (uint k = kbeg + lane; k < kend; k += TK) {
        acc = MAD(acc, T_C(A.v[ai]), T_C(B.v[bi]));
        ai += acs * TK;
        bi += brs * TK;
    }
    if (TK > 1u) {
        uint lid = gl_LocalInvocationID.x;
        Rs[lid] = acc;
        barrier();
        [[unroll]] for (uint h = TK / 2u; h > 0u; h >>= 1u) {
            if (lane < h)
                Rs[lid] = Rs[lid] + Rs[lid + h];
            barrier();
        }
        if (!live || lane != 0u)
            return;
        acc = Rs[lid];
    }
    if (UPDATE != 0u)
        update(b0, b1, m, n, acc);
    else
        AvkOut(p.addr[0]).v[g] = T_S(acc);
}

void tiled()
{
    uint M = p.w[0], N = p.w[1], K = p.w[2];
    uint nbatch = p.w[3], B1 = p.w[4];
    uint a_rs = p.w[6], a_cs = p.w[7], b_rs = p.w[11], b_cs = p.w[12];
    // the operand's contiguous axis fastest across invocations when loading its tile
    bool a_kfast = a_cs == 1u || (a_rs != 1u && K > M);
    bool b_nfast = b_cs == 1u || (b_rs != 1u && N > K);
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint lid = ty * WX + tx;
    uint m0 = gl_WorkGroupID.y * TM, n0 = gl_WorkGroupID.x * TN;
    AvkIn A = AvkIn(p.addr[1]);
    AvkIn B = AvkIn(p.addr[2]);
    AvkOut C = AvkOut(p.addr[0]);
    uint S = p.w[15], kc = p.w[16];
    for (uint z = gl_WorkGroupID.z; z < nbatch * S; z += gl_NumWorkGroups.z) {
        uint s = z / nbatch;
        uint b = z - s * nbatch;
        uint kbeg = s * kc;
        uint kend = min(K, kbeg + kc);
        uint b0 = b / B1, b1 = b - (b / B1) * B1;
        uint abase = p.w[5] + b0 * p.w[8] + b1 * p.w[9];
        uint bbase = p.w[10] + b0 * p.w[13] + b1 * p.w[14];
        T_C acc[RM][RN];
        [[unroll]] for (uint i = 0; i < RM; i++)
            [[unroll]] for (uint j = 0; j < RN; j++)
                acc[i][j] = T_C(0);
        for (uint k0 = kbeg; k0 < kend; k0 += TK) {
            for (uint e = lid; e < TM * TK; e += NT) {
                uint mm, kk;
                if (a_kfast) {
                    mm = e / TK;
                    kk = e - mm * TK;
                } else {
                    kk = e / TM;
                    mm = e - kk * TM;
                }
                uint gm = m0 + mm, gk = k0 + kk;
                T_C v = T_C(0);
                if (gm < M && gk < kend)
                    v = T_C(A.v[abase + gm * a_rs + gk * a_cs]);
                As[kk * TM + mm] = v;
            }
            for (uint e = lid; e < TN * TK; e += NT) {
                uint nn, kk;
                if (b_nfast) {
                    kk = e / TN;
                    nn = e - kk * TN;
                } else {
                    nn = e / TK;
                    kk = e - nn * TK;
                }
                uint gn = n0 + nn, gk = k0 + kk;
                T_C v = T_C(0);
                if (gn < N && gk < kend)
                    v = T_C(B.v[bbase + gk * b_rs + gn * b_cs]);
                Bs[kk * TN + nn] = v;
            }
            barrier();
            [[unroll]] for (uint kk = 0; kk < TK; kk++) {
                T_C av[RM];
                T_C bv[RN];
                [[unroll]] for (uint i = 0; i < RM; i++)
                    av[i] = As[kk * TM + ty + i * WY];
                [[unroll]] for (uint j = 0; j < RN; j++)
                    bv[j] = Bs[kk * TN + tx + j * WX];
                [[unroll]] for (uint i = 0; i < RM; i++)
                    [[unroll]] for (uint j = 0; j < RN; j++)
                        acc[i][j] = MAD(acc[i][j], av[i], bv[j]);
            }
            barrier();
        }
        uint cbase = z * M * N;
        [[unroll]] for (uint i = 0; i < RM; i++) {
            uint gm = m0 + ty + i * WY;
            if (gm < M) {
                [[unroll]] for (uint j = 0; j < RN; j++) {
                    uint gn = n0 + tx + j * WX;
                    if (gn < N) {
                        if (UPDATE != 0u)
                            update(b0, b1, gm, gn, acc[i][j]);
                        else
                            C.v[cbase + gm * N + gn] = T_S(acc[i][j]);
                    }
                }
            }
        }
    }
}


#if T_K == K_FLOAT
// -- SMALL == 2 (fast, real floats): the tiled product with 16-byte vectors --------------------
// T_V: 16 bytes of T (VW elements). A workgroup computes a TM x TN tile of C (TM = WY * RM,
// TN = WX * RN; RM, RN and TK multiples of VW); invocation (tx, ty) holds the rows
// (q * WY + ty) * VW + r and the columns (p * WX + tx) * VW + c (q < RM / VW, p < RN / VW,
// r, c < VW), so its reads of the shared tiles are whole vectors, consecutive across tx.
// Shared tiles: A k-major (As[k][TM / VW + 1], one vector of padding per k row), B likewise,
// two of each: the next K step is loaded from memory into registers while the current one is
// computed, then stored into the other pair (one barrier per K step).
// Global loads come in units of VW elements along one axis, per operand (w[19]: bits 0-1 A,
// 4-5 B): 0 scalar loads along k, 1 scalar loads along m (n for B), 2 one vector along k,
// 3 one vector along m (n) (the host picks 2/3 where that axis is contiguous and every offset,
// stride and extent along it keeps vectors aligned). Bit 8: C stored as vectors (N % VW == 0).
// w[20]: tile-row group size of the workgroup order (below; 0 or 1: row by row).
#if T_BITS == 32
#define T_V vec4
#define VW 4u
#else
#define T_V dvec2
#define VW 2u
#endif
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer AvkIn4 { T_V v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer AvkOut4 { T_V v[]; };
const uint TMV = TM / VW + 1u;
const uint TNV = TN / VW + 1u;
const uint UA = TM * TK / VW;
const uint UB = TN * TK / VW;
const uint LA = (UA + NT - 1u) / NT;
const uint LB = (UB + NT - 1u) / NT;
shared T_V Av[SMALL == 2u ? 2u * TK * TMV : 1u];
shared T_V Bv[SMALL == 2u ? 2u * TK * TNV : 1u];

// Unit u of a tile of X (rows R x TK, R = TM for A, TN for B) in mode `mode`: its row and k
// (the first of its VW elements along the unit's axis).
void unit_of(uint u, uint R, uint mode, out uint row, out uint k)
{
    if ((mode & 1u) == 0u) {   // along k
        row = u / (TK / VW);
        k = (u - row * (TK / VW)) * VW;
    } else {                   // along rows
        k = u / (R / VW);
        row = (u - k * (R / VW)) * VW;
    }
}

// VW elements of X from memory: rows/k from (row, k) along the unit's axis, zeros outside
// [0, R_end) x [kbeg, kend). X(row, k) is at base + row * rs + k * cs.
T_V load_unit(AvkIn X, uvec2 Xv, uint base, uint rs, uint cs, uint mode, uint row, uint k,
              uint rend, uint kend)
{
    const bool exact = (FMODE & FM_EXACT) != 0u;
    T_V v = T_V(0);
    if (mode == 2u) {
        if (exact || (row < rend && k < kend))
            v = AvkIn4(Xv).v[(base + row * rs + k) / VW];
    } else if (mode == 3u) {
        if (exact || (row < rend && k < kend))
            v = AvkIn4(Xv).v[(base + row + k * cs) / VW];
    } else if (mode == 0u) {
        if (exact || row < rend) {
            [[unroll]] for (uint c = 0u; c < VW; c++)
                if (exact || k + c < kend)
                    v[c] = X.v[base + row * rs + (k + c) * cs];
        }
    } else {
        if (exact || k < kend) {
            [[unroll]] for (uint c = 0u; c < VW; c++)
                if (exact || row + c < rend)
                    v[c] = X.v[base + (row + c) * rs + k * cs];
        }
    }
    return v;
}

void fast()
{
    uint M = p.w[0], N = p.w[1], K = p.w[2];
    uint nbatch = p.w[3], B1 = p.w[4];
    uint a_rs = p.w[6], a_cs = p.w[7], b_rs = p.w[11], b_cs = p.w[12];
    uint modew = (FMODE & FM_STATIC) != 0u ? FMODE : p.w[19];
    uint amode = modew & 3u, bmode = (modew >> 4) & 3u;
    bool cvec = (modew & 256u) != 0u;
    const bool exact = (FMODE & FM_EXACT) != 0u;
    uint lid = gl_LocalInvocationID.y * WX + gl_LocalInvocationID.x;
    uint tx, ty;
    if (WX % 8u == 0u && WY % 4u == 0u && NT % 32u == 0u) {
        // a 32-wide subgroup covers 8 x 4 invocations: its reads of a shared row are 8 vectors
        uint wg = lid / 32u, lane = lid - wg * 32u;
        tx = (wg % (WX / 8u)) * 8u + (lane & 7u);
        ty = (wg / (WX / 8u)) * 4u + (lane >> 3u);
    } else {
        tx = lid % WX;
        ty = lid / WX;
    }
    // w[20] = G > 1: the workgroups' tiles taken in groups of G tile rows, column by column
    // within a group (consecutive workgroups share B's column panels and A's row panels in L2)
    uint bx = gl_WorkGroupID.x, by = gl_WorkGroupID.y;
    uint G = p.w[20];
    if (G > 1u) {
        uint gx = gl_NumWorkGroups.x, gy = gl_NumWorkGroups.y;
        uint pid = by * gx + bx;
        uint first = (pid / (G * gx)) * G;
        uint rows = min(gy - first, G);
        uint inner = pid - (first * gx);
        by = first + inner % rows;
        bx = inner / rows;
    }
    uint m0 = by * TM, n0 = bx * TN;
    AvkIn A = AvkIn(p.addr[1]);
    AvkIn B = AvkIn(p.addr[2]);
    uint S = p.w[15], kc = p.w[16];
    for (uint z = gl_WorkGroupID.z; z < nbatch * S; z += gl_NumWorkGroups.z) {
        uint s = z / nbatch;
        uint b = z - s * nbatch;
        uint kbeg = s * kc;
        uint kend = min(K, kbeg + kc);
        uint b0 = b / B1, b1 = b - (b / B1) * B1;
        // A's rows from m0, B's (as rows of B^T) from n0: the bases include them
        uint abase = p.w[5] + b0 * p.w[8] + b1 * p.w[9] + m0 * a_rs;
        uint bbase = p.w[10] + b0 * p.w[13] + b1 * p.w[14] + n0 * b_cs;
        uint arend = M - min(M, m0), brend = N - min(N, n0);
        T_C acc[RM][RN];
        [[unroll]] for (uint i = 0u; i < RM; i++)
            [[unroll]] for (uint j = 0u; j < RN; j++)
                acc[i][j] = T_C(0);
        T_V ra[LA];
        T_V rb[LB];
        uint nt = (kend - kbeg + TK - 1u) / TK;
        // loads of K step t into registers
#define LOAD_STEP(k0) \
        [[unroll]] for (uint i = 0u; i < LA; i++) { \
            uint u = lid + i * NT, row, k; \
            unit_of(u, TM, amode, row, k); \
            ra[i] = u < UA ? load_unit(A, p.addr[1], abase, a_rs, a_cs, amode, row, (k0) + k, arend, kend) : T_V(0); \
        } \
        [[unroll]] for (uint i = 0u; i < LB; i++) { \
            uint u = lid + i * NT, row, k; \
            unit_of(u, TN, bmode, row, k); \
            rb[i] = u < UB ? load_unit(B, p.addr[2], bbase, b_cs, b_rs, bmode, row, (k0) + k, brend, kend) : T_V(0); \
        }
        // stores of the registers into shared buffer `buf`
#define STORE_STEP(buf) \
        [[unroll]] for (uint i = 0u; i < LA; i++) { \
            uint u = lid + i * NT, row, k; \
            unit_of(u, TM, amode, row, k); \
            if (u < UA) { \
                if ((amode & 1u) == 1u) \
                    Av[(buf) * TK * TMV + k * TMV + row / VW] = ra[i]; \
                else \
                    [[unroll]] for (uint c = 0u; c < VW; c++) \
                        Av[(buf) * TK * TMV + (k + c) * TMV + row / VW][row % VW] = ra[i][c]; \
            } \
        } \
        [[unroll]] for (uint i = 0u; i < LB; i++) { \
            uint u = lid + i * NT, row, k; \
            unit_of(u, TN, bmode, row, k); \
            if (u < UB) { \
                if ((bmode & 1u) == 1u) \
                    Bv[(buf) * TK * TNV + k * TNV + row / VW] = rb[i]; \
                else \
                    [[unroll]] for (uint c = 0u; c < VW; c++) \
                        Bv[(buf) * TK * TNV + (k + c) * TNV + row / VW][row % VW] = rb[i][c]; \
            } \
        }
        LOAD_STEP(kbeg)
        STORE_STEP(0u)
        barrier();
        for (uint t = 0u; t < nt; t++) {
            uint buf = t & 1u;
            bool more = t + 1u < nt;
            if (more) {
                LOAD_STEP(kbeg + (t + 1u) * TK)
            }
            [[unroll]] for (uint kk = 0u; kk < TK; kk++) {
                T_V av[RM / VW];
                T_V bv[RN / VW];
                [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                    av[q] = Av[buf * TK * TMV + kk * TMV + q * WY + ty];
                [[unroll]] for (uint q = 0u; q < RN / VW; q++)
                    bv[q] = Bv[buf * TK * TNV + kk * TNV + q * WX + tx];
                [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                    [[unroll]] for (uint r = 0u; r < VW; r++)
                        [[unroll]] for (uint pq = 0u; pq < RN / VW; pq++)
                            [[unroll]] for (uint c = 0u; c < VW; c++)
                                acc[q * VW + r][pq * VW + c] =
                                    fma(av[q][r], bv[pq][c], acc[q * VW + r][pq * VW + c]);
            }
            if (more) {
                STORE_STEP(buf ^ 1u)
            }
            barrier();
        }
        uint cbase = z * M * N;
        [[unroll]] for (uint q = 0u; q < RM / VW; q++) {
            [[unroll]] for (uint r = 0u; r < VW; r++) {
                uint gm = m0 + (q * WY + ty) * VW + r;
                // (no `continue` in these loops: with one, NVIDIA's compiler kept float64
                // accumulators in local memory, at about 1 TFLOP/s; _matmul.GEMM_STEP_CODES)
                [[unroll]] for (uint pq = 0u; pq < RN / VW; pq++) {
                    uint gn = n0 + (pq * WX + tx) * VW;
                    if (!exact && (gm >= M || gn >= N)) {
                    } else if (UPDATE != 0u) {
                        [[unroll]] for (uint c = 0u; c < VW; c++)
                            if (gn + c < N)
                                update(b0, b1, gm, gn + c, acc[q * VW + r][pq * VW + c]);
                    } else if (cvec) {
                        T_V v;
                        [[unroll]] for (uint c = 0u; c < VW; c++)
                            v[c] = acc[q * VW + r][pq * VW + c];
                        AvkOut4(p.addr[0]).v[(cbase + gm * N + gn) / VW] = v;
                    } else {
                        AvkOut C = AvkOut(p.addr[0]);
                        [[unroll]] for (uint c = 0u; c < VW; c++)
                            if (gn + c < N)
                                C.v[cbase + gm * N + gn + c] = acc[q * VW + r][pq * VW + c];
                    }
                }
            }
        }
    }
}
#else
void fast() {}
#endif

void main()
{
    if (SMALL == 2u)
        fast();
    else if (SMALL == 1u)
        direct();
    else
        tiled();
}
