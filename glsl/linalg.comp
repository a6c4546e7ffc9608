#version 450
// Dense factorizations (docs/kernels.md, "Linear algebra"): variants per floating dtype (T_*
// defines), from the op table's linalg rows. Small matrices are factorized whole in one
// dispatch, one workgroup a matrix of the batch, in a working copy in device memory (workgroup
// barriers between the steps of a column; the first phase copies the input in through its
// strides). Large ones are blocked by the kernels layer, every step one dispatch of one
// compiled plan: CHOL factorizes the diagonal block (FLAG_DIAG), LU one panel, QR one panel,
// and the many-workgroup ops GEMM, TRSM and AUX do the rest (their layouts above each).
//
// Op codes (specialisation constant 0, the op table's linalg rows):
//   1 CHOL     cholesky (lower; FLAG_UPPER: the conjugate transpose), in place in O1 (n x n),
//              columns [k0, k1); FLAG_DIAG: only the diagonal block's rows (in shared memory
//              where k1 - k0 squared fits GS); FLAG_CPANEL: the whole panel over many
//              workgroups (chol_panel), FLAG_LOOK with the previous block's trailing update
//   2 DET      LU with partial pivoting in W, then O1[b] = det
//   3 SLOGDET  LU in W, then O1[b] = sign, O2[b] = mantissa of |det| (real dtype, in [0.5, 1),
//              0 for a singular matrix), O3[b] = its binary exponent (int32): the kernels layer
//              takes logabsdet = log(mantissa) + exponent * log(2) with the math family's log
//   4 SOLVE    LU in W (pivots in P), then X = A^-1 B in O1 (n x k), B read through its strides,
//              or the identity (FLAG_INV: the inverse)
//   6 LU       one panel [k0, k1) of a blocked LU in W (pivots in P, status in ST), then U12
//              (FLAG_DIAG: without U12, which a TRSM step solves)
//   (DET, SLOGDET and SOLVE with FLAG_FACTORED take W and P from LU dispatches)
//   5 QR with FLAG_PANEL: one panel [k0, k1) of a blocked QR in W, giving V (O1, from element
//        w[9]) and T (O2, from w[10]) (FLAG_SGP: qr_sgp, a column a subgroup); with FLAG_ROUT:
//        R (O2) from W
//   5 QR       Householder QR (LAPACK's geqr2/larfg conventions: R's diagonal real, Q = H1..Hk)
//              of W (m x n): Q in O1 (m x q), R in O2 (r x n), tau in P
//   7 GEMM, 8 TRSM, 9 AUX: the blocked paths' many-workgroup steps (a batch item per
//              gl_WorkGroupID.z; push layouts at their functions below)
//  10 EIGH     symmetric / Hermitian eigensolver, cyclic Jacobi in parallel (round-robin)
//              order: the lower triangle of A symmetrized and scaled by a power of two into a
//              working copy (gS where FLAG_SHARED, else W), V (FLAG_VECTORS) accumulated in P;
//              eigenvalues ascending in O1 (n), eigenvectors as columns in O2 (n x n);
//              w[4] the most sweeps. NaN or inf in the lower triangle: all NaN. Needs NT >= n
//              rounded up to even (the pairs' rotations live in red_v / red_c / red_i).
// CHOL and SOLVE write ST[b] = 0, or j + 1 for the first column j without a positive pivot
// (CHOL) or with a zero pivot (SOLVE): the kernels layer reads it and raises. FLAG_ST0 zeroes
// ST[b] first (the first step of a blocked factorization).
//
// Specialisation constants: 0 op, 1 the workgroup size (a power of two, 16 to 1024; GEMM:
// 256), 2 GS, the elements of the shared array gS (from 1024), 3 CP_RPT (chol_panel's tile
// rows an invocation), 4 JACOBI_TWO (eigh, svd: their rotations take two elements an iteration).
// Grid (ops 1-6): one workgroup per batch item, b = gl_WorkGroupID.y * gl_NumWorkGroups.x + x.
//
// Push block (32 words, ops 1-6):
//   w[0] n (QR: m)  w[1] columns (QR: n; SOLVE: k)  w[2] nbatch  w[3] flags  w[4] q (QR: Q's
//   columns)  w[5] a_off w[6] a_rs w[7] a_cs w[8] a_bs  w[9] b_off w[10] b_rs w[11] b_cs
//   w[12] b_bs (element offsets and strides, signed, uint arithmetic)  w[13] k0  w[14] k1
//   w[16..17] A  w[18..19] B  w[20..21] W  w[22..23] P  w[24..25] O1  w[26..27] O2
//   w[28..29] O3  w[30..31] ST   (device addresses, first byte of each allocation)
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#ifdef AVK_SUBGROUP
// the `_sg` variants: lu_reg's pivot search and the TRSM's S_SG form by subgroup shuffles
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif

#define K_FLOAT 3
#define K_CPLX 4

#ifdef AVK_DENORM_PRESERVE
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);
#endif

layout(local_size_x_id = 1, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const uint NT = 256;

#define OP_CHOL 1
#define OP_DET 2
#define OP_SLOGDET 3
#define OP_SOLVE 4
#define OP_QR 5
#define OP_LU 6
#define FLAG_UPPER 1u
#define FLAG_INV 2u
#define FLAG_COMPLETE 4u
#define FLAG_COPY 8u
#define FLAG_FINAL 16u
#define FLAG_FACTORED 32u
#define FLAG_INIT 64u
#define FLAG_FWD 128u
#define FLAG_BWD 256u
#define FLAG_PANEL 512u
#define FLAG_ROUT 1024u
#define FLAG_DIAG 2048u
#define FLAG_ST0 4096u
#define OP_GEMM 7
#define OP_TRSM 8
#define OP_AUX 9
#define OP_EIGH 10
#define OP_SVD 11
#define FLAG_VECTORS 8192u
#define FLAG_SHARED 16384u
#define FLAG_SLOTS 32768u
#define FLAG_LREG 65536u
#define FLAG_CPANEL 131072u
#define FLAG_LOOK 262144u
#define FLAG_SGP 524288u
#define FLAG_VSHARED 1048576u
#define FLAG_XSHARED 2097152u

layout(push_constant) uniform Push { uint w[32]; } p;

#if T_K == K_CPLX
#if T_BITS == 64
#define T_R float
#else
#define T_R double
#endif
#else
#define T_R T_C
#endif

#define T_ALIGN (T_BITS / 8)
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) readonly buffer InT { T_S v[]; };
layout(buffer_reference, std430, buffer_reference_align = T_ALIGN) coherent buffer MatT { T_S v[]; };
#if T_K == K_CPLX
#define R_ALIGN (T_BITS / 16)
#else
#define R_ALIGN (T_BITS / 8)
#endif
layout(buffer_reference, std430, buffer_reference_align = R_ALIGN) writeonly buffer OutR { T_R v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer UintB { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer IntB { int v[]; };

uvec2 addr(uint k) { return uvec2(p.w[k], p.w[k + 1]); }

#if T_K == K_CPLX
T_C cmul(T_C a, T_C b) { return T_C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
T_C cconj(T_C a) { return T_C(a.x, -a.y); }
T_C cdiv(T_C a, T_C b)
{
    // Smith's algorithm
    if (abs(b.x) >= abs(b.y)) {
        T_R r = b.y / b.x, d = b.x + b.y * r;
        return T_C((a.x + a.y * r) / d, (a.y - a.x * r) / d);
    }
    T_R r = b.x / b.y, d = b.x * r + b.y;
    return T_C((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
T_R re(T_C a) { return a.x; }
T_R im(T_C a) { return a.y; }
T_R abs2(T_C a) { return a.x * a.x + a.y * a.y; }
T_R cabs1(T_C a) { return abs(a.x) + abs(a.y); }
T_R cabs(T_C a) { return length(a); }
T_C creal(T_R a) { return T_C(a, T_R(0)); }
T_C cscale(T_C a, T_R s) { return a * s; }
#else
T_C cmul(T_C a, T_C b) { return a * b; }
T_C cconj(T_C a) { return a; }
T_C cdiv(T_C a, T_C b) { return a / b; }
T_R re(T_C a) { return a; }
T_R im(T_C a) { return T_R(0); }
T_R abs2(T_C a) { return a * a; }
T_R cabs1(T_C a) { return abs(a); }
T_R cabs(T_C a) { return abs(a); }
T_C creal(T_R a) { return a; }
T_C cscale(T_C a, T_R s) { return a * s; }
#endif

shared T_R red_v[NT];
shared uint red_i[NT];
shared T_C red_c[NT];
// the GEMM's A tile at gS[0, GK * GT), its B tile after it; the TRSM's X block (S_SHARED);
// the cholesky diagonal block (FLAG_DIAG, where nb^2 <= GS). Its size is specialisation
// constant 2 (at least 2 * GK * GT), chosen by the kernels layer within the device's limit.
layout(constant_id = 2) const uint GS = 1024;
shared T_C gS[GS];

void sync()
{
    memoryBarrierBuffer();
    memoryBarrierShared();
    barrier();
}

// A flat loop e = lid, lid + NT, ... over rows of `cols` elements, walked as (row, column)
// without a division an element (a 32-bit division by a variable is a long instruction sequence
// on GPUs): rc_first(cols) is e = lid's, rc_next steps NT on with rc_step(cols) = NT's.
uvec2 rc_first(uint cols)
{
    uint r = gl_LocalInvocationID.x / cols;
    return uvec2(r, gl_LocalInvocationID.x - r * cols);
}
uvec2 rc_step(uint cols)
{
    uint r = NT / cols;
    return uvec2(r, NT - r * cols);
}
uvec2 rc_next(uvec2 rc, uvec2 step, uint cols)
{
    rc += step;
    if (rc.y >= cols) {
        rc.y -= cols;
        rc.x++;
    }
    return rc;
}

// sync() where the step's data may be in device memory, a shared-memory barrier where it is
// all in gS (sh: uniform)
void sync_in(bool sh)
{
    if (sh) {
        memoryBarrierShared();
        barrier();
    } else {
        sync();
    }
}

// Element e of a working copy: gS[so + e] where it is in shared memory (sh), else M.v[mo + e]
// (the offsets in uint arithmetic: so may be a negative offset's wrap-around).
T_C copy_ld(MatT M, bool sh, uint so, uint mo, uint e)
{
    return sh ? gS[so + e] : T_C(M.v[mo + e]);
}
void copy_st(MatT M, bool sh, uint so, uint mo, uint e, T_C v)
{
    if (sh)
        gS[so + e] = v;
    else
        M.v[mo + e] = T_S(v);
}

// Copies the b-th (rows x cols) matrix of the strided input at word `aw` (offset, rs, cs, bs in
// w[ow..ow+3]) into M (C-contiguous from element mb), or into gS from gS[o] where sh.
void copy_into(MatT M, bool sh, uint o, uint mb, uint aw, uint ow, uint b, uint rows, uint cols)
{
    InT A = InT(addr(aw));
    uint base = p.w[ow] + b * p.w[ow + 3];
    uint rs = p.w[ow + 1], cs = p.w[ow + 2];
    uint tot = rows * cols;
    for (uint e = gl_LocalInvocationID.x; e < tot; e += NT) {
        uint i = e / cols, j = e - i * cols;
        copy_st(M, sh, o, mb, e, T_C(A.v[base + i * rs + j * cs]));
    }
}

void copy_in(MatT M, uint mb, uint aw, uint ow, uint b, uint rows, uint cols)
{
    copy_into(M, false, 0u, mb, aw, ow, b, rows, cols);
}

// LU with partial pivoting of columns [k0, k1) of the n x n matrix at M[mb..] (LAPACK getf2 on
// the panel: the pivot is the first of the largest |re| + |im|; a zero pivot column is left as
// is), whole rows swapped (laswp), the panel's own columns updated; then, where k1 < n, the
// block row U12 = L11^-1 A12 (trsm): the caller updates A22 -= L21 U12 (a matmul). Pivot rows
// go to P[pb + j]. Returns info (0, or 1 + the first zero pivot).
// The largest |re| + |im| of column col over rows from, from + step, ... < n, the first among
// equals (LAPACK's idamax), folded into best / bi.
// lu()'s matrix: in gS where lu_sh (a whole small matrix: k0 = 0, k1 = n, n * n <= GS; a stack
// of them ran their columns in device memory, several round trips each), else M. lu_keep: the
// caller put the matrix in gS[0, n * n) and keeps the factors there (solve's FLAG_XSHARED).
bool lu_sh = false, lu_keep = false;
uint lu_mb;
T_C lm(MatT M, uint e) { return copy_ld(M, lu_sh, 0u - lu_mb, 0u, e); }
void lms(MatT M, uint e, T_C v) { copy_st(M, lu_sh, 0u - lu_mb, 0u, e, v); }

void col_best(MatT M, uint mb, uint n, uint col, uint from, uint step, inout T_R best,
              inout uint bi)
{
    for (uint i = from; i < n; i += step) {
        T_R v = cabs1(lm(M, mb + i * n + col));
        if (v > best) {
            best = v;
            bi = i;
        }
    }
}

bool pivot_better(T_R o, uint oi, T_R bv, uint bj)
{
    return o > bv || (o == bv && oi < bj);
}

// The pivot among the invocations' candidates in red_v / red_i (written before a barrier): two
// levels (three barriers rather than log2(NT) + 1), rg invocations each take NT / rg entries,
// then the first takes the rg (the largest, the lowest row among equals) into red_v[0] /
// red_i[0], valid in invocation 0 (the caller's barrier publishes them).
void pivot_pick(uint rg)
{
    uint lid = gl_LocalInvocationID.x;
    uint per = NT / rg;
    if (lid < rg) {
        T_R bv = red_v[lid * per];
        uint bj = red_i[lid * per];
        for (uint q = 1; q < per; q++) {
            if (pivot_better(red_v[lid * per + q], red_i[lid * per + q], bv, bj)) {
                bv = red_v[lid * per + q];
                bj = red_i[lid * per + q];
            }
        }
        red_v[lid * per] = bv;
        red_i[lid * per] = bj;
    }
    barrier();
    if (lid == 0) {
        T_R bv = red_v[0];
        uint bj = red_i[0];
        for (uint g = 1; g < rg; g++) {
            if (pivot_better(red_v[g * per], red_i[g * per], bv, bj)) {
                bv = red_v[g * per];
                bj = red_i[g * per];
            }
        }
        red_v[0] = bv;
        red_i[0] = bj;
    }
}

uint lu(MatT M, uint mb, UintB P, uint pb, uint n, uint k0, uint k1, bool u12)
{
    uint lid = gl_LocalInvocationID.x;
    uint info = 0;
    // a whole small matrix in gS (lm / lms), written back at the end
    lu_sh = k0 == 0u && k1 == n && n * n <= GS;
    lu_mb = mb;
    if (lu_sh && !lu_keep) {
        sync();  // (the caller's copy_in)
        for (uint e = lid; e < n * n; e += NT)
            gS[e] = T_C(M.v[mb + e]);
    }
    for (uint j = k0; j < k1; j++) {
        sync_in(lu_sh);
        T_R best = T_R(-1);
        uint bi = j;
        col_best(M, mb, n, j, j + lid, NT, best, bi);
        red_v[lid] = best;
        red_i[lid] = bi;
        barrier();
        pivot_pick(16u);
        // the pivot and the old diagonal element, read by one invocation before anyone writes
        // column j and published with the pivot's row (no barrier between the reads and the
        // writes below)
        if (lid == 0) {
            red_c[0] = lm(M, mb + red_i[0] * n + j);
            red_c[1] = lm(M, mb + j * n + j);
        }
        barrier();
        uint piv = red_i[0];
        T_R pv = red_v[0];
        T_C d = red_c[0], dj = red_c[1];
        if (lid == 0)
            P.v[pb + j] = piv;
        if (pv == T_R(0)) {
            // a zero pivot column: nothing to eliminate (a singular matrix)
            if (info == 0u)
                info = j + 1;
            continue;
        }
        // one phase: rows j and piv swapped but for column j, which the scaling writes (row
        // piv takes the old diagonal element, the diagonal the pivot)
        if (piv != j) {
            for (uint c = lid; c < n; c += NT) {
                if (c == j)
                    continue;
                T_C t = lm(M, mb + j * n + c);
                lms(M, mb + j * n + c, lm(M, mb + piv * n + c));
                lms(M, mb + piv * n + c, t);
            }
            if (lid == 0)
                lms(M, mb + j * n + j, d);
        }
        for (uint i = j + 1 + lid; i < n; i += NT) {
            T_C v = i == piv ? dj : lm(M, mb + i * n + j);
            lms(M, mb + i * n + j, cdiv(v, d));
        }
        sync_in(lu_sh);
        uint r = n - j - 1, rc = k1 - j - 1;
        uint tot = r * rc;
        uvec2 at = rc_first(max(rc, 1u)), st = rc_step(max(rc, 1u));
        for (uint e = lid; e < tot; e += NT) {
            uint i = j + 1 + at.x, c = j + 1 + at.y;
            lms(M, mb + i * n + c, lm(M, mb + i * n + c) - cmul(lm(M, mb + i * n + j), lm(M, mb + j * n + c)));
            at = rc_next(at, st, rc);
        }
    }
    sync_in(lu_sh);
    if (lu_sh && !lu_keep) {
        for (uint e = lid; e < n * n; e += NT)
            M.v[mb + e] = T_S(gS[e]);
        lu_sh = false;
        sync();
    }
    if (!u12)
        return info;
    // U12 = L11^-1 A12, a column per invocation
    for (uint c = k1 + lid; c < n; c += NT) {
        for (uint j = k0; j < k1; j++) {
            T_C x = T_C(M.v[mb + j * n + c]);
            for (uint i = j + 1; i < k1; i++)
                M.v[mb + i * n + c] = T_S(T_C(M.v[mb + i * n + c]) - cmul(T_C(M.v[mb + i * n + j]), x));
        }
    }
    sync();
    return info;
}

// One panel [k0, k1) of a blocked LU (FLAG_DIAG: U12 is left to a TRSM step; FLAG_SLOTS, else
// lu() serves), k1 - k0 <= LU_ROWS_NB, by column slots (k1 - k0 rounded up to a power of two)
// times row groups, so that a subgroup's loads of a row are one coalesced access (as the QR
// panel). Per column: the pivot (pivot_pick, 32 level-one invocations); the pivot row's and row
// j's columns [j, k1) copied into gS; rows j and piv swapped outside [j, k1) while each later
// column's slot updates its rows below j from gS's copies (the next column's slot keeping its
// new largest |a_i,j+1| for the next pivot); then, after a barrier (the others read column j),
// column j's slot scales it to the multipliers. The same pivots, interchanges and zero-pivot
// handling as lu().
#define LU_ROWS_NB 64u
// the pivot's row and size (not in red_i / red_v: their next writes come before the barrier
// that every invocation's read of them precedes)
shared uint lu_piv;
shared T_R lu_pv;
uint lu_slots(MatT M, uint mb, UintB P, uint pb, uint n, uint k0, uint k1)
{
    uint lid = gl_LocalInvocationID.x;
    uint info = 0;
    uint nbp = k1 - k0, cw = 1u;
    while (cw < nbp)
        cw *= 2u;
    uint q = lid % cw, prt = lid / cw, np = NT / cw;
    T_R best = T_R(-1);
    uint bi = k0;
    if (q == 0u)
        col_best(M, mb, n, k0, k0 + prt, np, best, bi);
    for (uint j = k0; j < k1; j++) {
        uint jr = j - k0;
        red_v[lid] = best;
        red_i[lid] = bi;
        sync();
        pivot_pick(32u);
        if (lid == 0) {
            lu_pv = red_v[0];
            lu_piv = red_i[0];
            P.v[pb + j] = red_i[0];
        }
        barrier();
        uint piv = lu_piv;
        T_R pv = lu_pv;
        // the pivot row's and row j's columns [j, k1) into gS, one element an invocation
        if (lid < 2u * (k1 - j)) {
            uint c = j + lid % (k1 - j);
            gS[lid < k1 - j ? c - j : LU_ROWS_NB + c - j] =
                T_C(M.v[mb + (lid < k1 - j ? piv : j) * n + c]);
        }
        barrier();
        best = T_R(-1);
        bi = j + 1u;
        if (pv == T_R(0)) {
            // a zero pivot column: nothing to eliminate (a singular matrix)
            if (info == 0u)
                info = j + 1u;
            if (q == jr + 1u && q < nbp)
                col_best(M, mb, n, j + 1u, j + 1u + prt, np, best, bi);
            continue;
        }
        T_C d = gS[0];
        if (piv != j) {
            for (uint c = lid; c < n; c += NT) {
                if (c >= j && c < k1)
                    continue;
                T_S t = M.v[mb + j * n + c];
                M.v[mb + j * n + c] = M.v[mb + piv * n + c];
                M.v[mb + piv * n + c] = t;
            }
        }
        for (uint c = j + lid; c < k1; c += NT)
            M.v[mb + j * n + c] = T_S(gS[c - j]);
        if (q > jr && q < nbp) {
            uint cq = k0 + q;
            T_C u = gS[q - jr];
            bool next = q == jr + 1u;
            uint i = j + 1u + prt;
            for (; i < n; i += 4u * np) {
                T_C a[4], l[4];
                [[unroll]] for (uint e = 0; e < 4u; e++) {
                    uint r = i + e * np;
                    if (r < n) {
                        bool ip = r == piv;
                        l[e] = ip ? gS[LU_ROWS_NB] : T_C(M.v[mb + r * n + j]);
                        a[e] = ip ? gS[LU_ROWS_NB + q - jr] : T_C(M.v[mb + r * n + cq]);
                    }
                }
                [[unroll]] for (uint e = 0; e < 4u; e++) {
                    uint r = i + e * np;
                    if (r < n) {
                        T_C v = a[e] - cmul(cdiv(l[e], d), u);
                        M.v[mb + r * n + cq] = T_S(v);
                        if (next) {
                            T_R av = cabs1(v);
                            if (av > best) {
                                best = av;
                                bi = r;
                            }
                        }
                    }
                }
            }
        }
        barrier();
        if (q == jr) {
            for (uint i = j + 1u + prt; i < n; i += np) {
                T_C l = i == piv ? gS[LU_ROWS_NB] : T_C(M.v[mb + i * n + j]);
                M.v[mb + i * n + j] = T_S(cdiv(l, d));
            }
        }
    }
    sync();
    return info;
}

// One panel [k0, k1) of a blocked LU (FLAG_DIAG with FLAG_LREG, k1 - k0 <= LU_REG and
// n - k0 <= NT) held in registers, a row an invocation: a column costs the pivot's search in
// shared memory and one barrier to publish rows j and piv, no load from device memory (lu()
// waits on four round trips a column). The interchanges of the columns outside the panel are
// applied at the end as one permutation of at most 2 (k1 - k0) rows, a column an invocation
// (two for 64-bit and wider types: LU_TAIL_SPLIT) loading every source row before any stores.
// The same pivots, interchanges, zero-pivot handling and arithmetic as lu().
#define LU_REG 16u
// The interchange tail split over two invocations a column for types of 64 bits or more: 2
// LU_REG such values in one invocation spill at 1024 invocations (64 registers: float64 took 160
// bytes of local memory a lane; split, 64 bytes, and the 1024^2 solve 4 % less GPU time on the
// H200, run 35). float32's fit; split, its solve took 1-2 % more.
#define LU_TAIL_SPLIT (T_BITS >= 64)
shared uint lu_dst[2u * LU_REG], lu_src[2u * LU_REG], lu_p[LU_REG];
#ifdef AVK_SUBGROUP
// The best (pivot_better) of the subgroup's candidates (v, i), in every lane.
void sg_best(inout T_R v, inout uint i)
{
    for (uint m = gl_SubgroupSize / 2u; m > 0u; m /= 2u) {
        T_R ov = subgroupShuffleXor(v, m);
        uint oi = subgroupShuffleXor(i, m);
        if (pivot_better(ov, oi, v, i)) {
            v = ov;
            i = oi;
        }
    }
}
#endif

uint lu_reg(MatT M, uint mb, UintB P, uint pb, uint n, uint k0, uint k1)
{
    uint lid = gl_LocalInvocationID.x;
    uint nbp = k1 - k0, r = k0 + lid;
    bool mine = r < n;
    // reads through a non-coherent view: of elements no invocation of this dispatch writes
    // before they are read (a row its owner's, outside the panel a column its invocation's)
    InT Mr = InT(addr(20));
    T_C a[LU_REG];
    [[unroll]] for (uint c = 0; c < LU_REG; c++)
        a[c] = mine && c < nbp ? T_C(Mr.v[mb + r * n + k0 + c]) : T_C(0);
    uint info = 0;
    // The loop over columns is not unrolled (the shader compiler's time); a[jc] is picked and
    // put back by the unrolled loops' branches on jc, uniform in the workgroup, so that a stays
    // in registers. Branches rather than selects: with a row an invocation the workgroup's
    // many warps hide the shared loads' latency, and the invocations issue only the updates
    // of columns right of jc (selects over every column took 7 us a column on the H100).
    for (uint jc = 0; jc < nbp; jc++) {
        uint j = k0 + jc;
        T_C ajc = T_C(0);
        [[unroll]] for (uint c = 0; c < LU_REG; c++) {
            if (c == jc)
                ajc = a[c];
        }
        T_R v = mine && r >= j ? cabs1(ajc) : T_R(-1);
        // a NaN is no candidate (as in col_best)
        bool cand = v > T_R(-1);
#ifdef AVK_SUBGROUP
        // each subgroup's best into red_v / red_i, then the first subgroup's best of those
        // into lu_pv / lu_piv: two barriers and 2 log2(subgroup size) shuffles, where
        // pivot_pick's two levels scan 32 entries each in turn
        T_R bv = cand ? v : T_R(-1);
        uint bi = cand ? r : j;
        sg_best(bv, bi);
        if (gl_SubgroupInvocationID == 0u) {
            red_v[gl_SubgroupID] = bv;
            red_i[gl_SubgroupID] = bi;
        }
        barrier();
        if (gl_SubgroupID == 0u) {
            bv = T_R(-1);
            bi = j;
            for (uint g = gl_SubgroupInvocationID; g < gl_NumSubgroups; g += gl_SubgroupSize) {
                if (pivot_better(red_v[g], red_i[g], bv, bi)) {
                    bv = red_v[g];
                    bi = red_i[g];
                }
            }
            sg_best(bv, bi);
            if (gl_SubgroupInvocationID == 0u) {
                lu_pv = bv;
                lu_piv = bi;
            }
        }
        barrier();
        uint piv = lu_piv;
        T_R pv = lu_pv;
#else
        red_v[lid] = cand ? v : T_R(-1);
        red_i[lid] = cand ? r : j;
        barrier();
        pivot_pick(32u);
        barrier();
        uint piv = red_i[0];
        T_R pv = red_v[0];
#endif
        if (lid == 0) {
            P.v[pb + j] = pv == T_R(0) ? j : piv;
            lu_p[jc] = pv == T_R(0) ? j : piv;
        }
        // rows j and piv into gS (two buffers by column parity: a buffer is next written
        // two columns on, after every invocation's reads of it)
        uint buf = (jc & 1u) * 2u * LU_REG;
        if (pv != T_R(0) && r == j) {
            [[unroll]] for (uint c = 0; c < LU_REG; c++)
                gS[buf + c] = a[c];
        }
        if (pv != T_R(0) && r == piv) {
            [[unroll]] for (uint c = 0; c < LU_REG; c++)
                gS[buf + LU_REG + c] = a[c];
        }
        barrier();
        if (pv == T_R(0)) {
            // a zero pivot column: nothing to eliminate (a singular matrix)
            if (info == 0u)
                info = j + 1u;
            continue;
        }
        if (r == j || r == piv) {
            // the interchange: row j takes the pivot row, row piv the old row j
            uint from = r == j ? buf + LU_REG : buf;
            [[unroll]] for (uint c = 0; c < LU_REG; c++)
                a[c] = gS[from + c];
            [[unroll]] for (uint c = 0; c < LU_REG; c++) {
                if (c == jc)
                    ajc = a[c];
            }
        }
        if (mine && r > j) {
            T_C l = cdiv(ajc, gS[buf + LU_REG + jc]);
            [[unroll]] for (uint c = 0; c < LU_REG; c++) {
                if (c == jc)
                    a[c] = l;
                else if (c > jc)
                    a[c] -= cmul(l, gS[buf + LU_REG + c]);
            }
        }
    }
    if (mine) {
        [[unroll]] for (uint c = 0; c < LU_REG; c++) {
            if (c < nbp)
                M.v[mb + r * n + k0 + c] = T_S(a[c]);
        }
    }
    // the interchanges outside the panel: slot q < nbp is row k0 + q, slot nbp + s the pivot
    // row of column k0 + s unless an earlier slot has it; a slot's source is its row traced
    // back through the swaps, last first (the pivots from lu_p)
    barrier();
    if (lid < 2u * nbp) {
        uint q = lid < nbp ? k0 + lid : lu_p[lid - nbp];
        bool dup = false;
        if (lid >= nbp) {
            dup = q < k1;
            for (uint s2 = 0; s2 < lid - nbp; s2++)
                dup = dup || lu_p[s2] == q;
        }
        uint src = q;
        for (uint s2 = nbp; s2 > 0u; s2--) {
            uint pj = lu_p[s2 - 1u];
            src = src == k0 + s2 - 1u ? pj : (src == pj ? k0 + s2 - 1u : src);
        }
        lu_dst[lid] = dup ? 0xFFFFFFFFu : q;
        lu_src[lid] = src;
    }
    barrier();
    // every load of a column before any store of it: a slot's source may be another slot's
    // destination
#if LU_TAIL_SPLIT
    // two invocations a column, LU_REG slots each, a barrier between the loads and the stores
    // (NT is even; the passes' loop is uniform)
    uint slot0 = (lid & 1u) * LU_REG;
    for (uint c0 = 0u; c0 < n; c0 += NT / 2u) {
        uint c = c0 + (lid >> 1);
        bool act = c < n && (c < k0 || c >= k1);
        T_S t[LU_REG];
        [[unroll]] for (uint q = 0; q < LU_REG; q++) {
            uint s = slot0 + q;
            if (act && s < 2u * nbp && lu_dst[s] != 0xFFFFFFFFu && lu_dst[s] != lu_src[s])
                t[q] = Mr.v[mb + lu_src[s] * n + c];
        }
        sync();
        [[unroll]] for (uint q = 0; q < LU_REG; q++) {
            uint s = slot0 + q;
            if (act && s < 2u * nbp && lu_dst[s] != 0xFFFFFFFFu && lu_dst[s] != lu_src[s])
                M.v[mb + lu_dst[s] * n + c] = t[q];
        }
    }
#else
    // a column an invocation
    for (uint c = lid; c < n; c += NT) {
        if (c >= k0 && c < k1)
            continue;
        T_S t[2u * LU_REG];
        [[unroll]] for (uint q = 0; q < 2u * LU_REG; q++) {
            if (q < 2u * nbp && lu_dst[q] != 0xFFFFFFFFu && lu_dst[q] != lu_src[q])
                t[q] = Mr.v[mb + lu_src[q] * n + c];
        }
        [[unroll]] for (uint q = 0; q < 2u * LU_REG; q++) {
            if (q < 2u * nbp && lu_dst[q] != 0xFFFFFFFFu && lu_dst[q] != lu_src[q])
                M.v[mb + lu_dst[q] * n + c] = t[q];
        }
    }
#endif
    return info;
}

// Columns [k0, k1) of the lower cholesky factor, in place in O1: the panel's own columns
// updated, rows to n (the caller updates the trailing matrix with a matmul where k1 < n).
// FLAG_COPY: copy the input in first; FLAG_FINAL: zero the other triangle (or make the upper
// factor). ST[b] keeps the first failing column + 1.
void cholesky(uint b)
{
    uint lid = gl_LocalInvocationID.x;
    uint n = p.w[0], k0 = p.w[13], k1 = p.w[14];
    uint flags = p.w[3];
    MatT M = MatT(addr(24));
    UintB ST = UintB(addr(30));
    uint mb = b * n * n;
    if ((flags & FLAG_COPY) != 0u)
        copy_in(M, mb, 16, 5, b, n, n);
    if ((flags & (FLAG_COPY | FLAG_ST0)) != 0u && lid == 0)
        ST.v[b] = 0;
    // FLAG_DIAG: only the diagonal block's rows (the kernels layer solves the rows below)
    uint rend = (flags & FLAG_DIAG) != 0u ? k1 : n;
    uint info = 0;
    uint nb = k1 - k0;
    // the diagonal block of a blocked factorization, or a whole small matrix (k0 = 0, k1 = n: a
    // stack of them ran 2-3 round trips to device memory a column)
    bool in_shared = ((flags & FLAG_DIAG) != 0u || (k0 == 0u && k1 == n)) && nb * nb <= GS;
    if (in_shared) {
        // the block in shared memory (after copy_in's writes)
        if ((flags & FLAG_COPY) != 0u)
            sync();
        for (uint e = lid; e < nb * nb; e += NT) {
            uint i = e / nb, c = e - i * nb;
            gS[e] = T_C(M.v[mb + (k0 + i) * n + k0 + c]);
        }
        // One barrier a column: column j's update of the trailing block reads column j as it
        // is (a_ic -= a_ij conj(a_cj) / d) and column j is scaled by 1 / sqrt(d) in the next
        // column's step, which reads neither (and after the loop for the last).
        T_R lp = T_R(0);
        for (uint j = 0; j < nb; j++) {
            barrier();
            if (j > 0u) {
                for (uint i = j + lid; i < nb; i += NT)
                    gS[i * nb + j - 1u] = cscale(gS[i * nb + j - 1u], T_R(1) / lp);
                if (lid == 0)
                    gS[(j - 1u) * nb + j - 1u] = creal(lp);
            }
            T_R d = re(gS[j * nb + j]);
            // (a pivot <= 0 fails, as numpy's OpenBLAS potrf; a NaN one goes on: NaN results)
            if (d <= T_R(0)) {
                info = k0 + j + 1;
                lp = T_R(0);
                break;
            }
            lp = sqrt(d);
            T_R id = T_R(1) / d;
            uint r = nb - j - 1;
            uvec2 at = rc_first(max(r, 1u)), st = rc_step(max(r, 1u));
            for (uint e = lid; e < r * r; e += NT) {
                uint i = j + 1 + at.x, c = j + 1 + at.y;
                if (c <= i)
                    gS[i * nb + c] -= cscale(cmul(gS[i * nb + j], cconj(gS[c * nb + j])), id);
                at = rc_next(at, st, r);
            }
        }
        barrier();
        if (lp != T_R(0)) {
            // the last column (nb - 1: no rows below it) where every pivot was positive
            if (lid == 0)
                gS[(nb - 1u) * nb + nb - 1u] = creal(lp);
            barrier();
        }
        for (uint e = lid; e < nb * nb; e += NT) {
            uint i = e / nb, c = e - i * nb;
            M.v[mb + (k0 + i) * n + k0 + c] = T_S(gS[e]);
        }
        if ((flags & FLAG_FINAL) == 0u) {
            if (lid == 0 && info != 0u && ST.v[b] == 0u)
                ST.v[b] = info;
            return;
        }
    }
    // (in device memory where the block is not in gS)
    for (uint j = k0; j < (in_shared ? k0 : k1); j++) {
        sync();
        T_R d = re(T_C(M.v[mb + j * n + j]));
        if (d <= T_R(0)) {  // (NaN goes on, as above)
            info = j + 1;
            break;
        }
        T_R l = sqrt(d);
        T_R il = T_R(1) / l;
        for (uint i = j + 1 + lid; i < rend; i += NT)
            M.v[mb + i * n + j] = T_S(cscale(T_C(M.v[mb + i * n + j]), il));
        sync();
        if (lid == 0)
            M.v[mb + j * n + j] = T_S(creal(l));
        uint r = rend - j - 1, rc = k1 - j - 1;
        uint tot = r * rc;
        uvec2 at = rc_first(max(rc, 1u)), st = rc_step(max(rc, 1u));
        for (uint e = lid; e < tot; e += NT) {
            uint i = j + 1 + at.x, c = j + 1 + at.y;
            if (c <= i)
                M.v[mb + i * n + c] = T_S(T_C(M.v[mb + i * n + c]) - cmul(T_C(M.v[mb + i * n + j]), cconj(T_C(M.v[mb + c * n + j]))));
            at = rc_next(at, st, rc);
        }
    }
    sync();
    if ((flags & FLAG_FINAL) != 0u) {
        if ((flags & FLAG_UPPER) != 0u) {
            for (uint e = lid; e < n * n; e += NT) {
                uint i = e / n, c = e - i * n;
                if (c > i)
                    M.v[mb + e] = T_S(cconj(T_C(M.v[mb + c * n + i])));
            }
            sync();
            for (uint e = lid; e < n * n; e += NT) {
                uint i = e / n, c = e - i * n;
                if (c < i)
                    M.v[mb + e] = T_S(T_C(0));
            }
        } else {
            for (uint e = lid; e < n * n; e += NT) {
                uint i = e / n, c = e - i * n;
                if (c > i)
                    M.v[mb + e] = T_S(T_C(0));
            }
        }
    }
    if (lid == 0 && info != 0u && ST.v[b] == 0u)
        ST.v[b] = info;
}

// One panel of a blocked LU (OP_LU): FLAG_COPY copies the input into W first.
void lu_panel(uint b)
{
    uint n = p.w[0];
    MatT M = MatT(addr(20));
    UintB ST = UintB(addr(30));
    uint mb = b * n * n;
    if ((p.w[3] & FLAG_COPY) != 0u)
        copy_in(M, mb, 16, 5, b, n, n);
    if ((p.w[3] & (FLAG_COPY | FLAG_ST0)) != 0u && gl_LocalInvocationID.x == 0)
        ST.v[b] = 0;
    uint k0 = p.w[13], k1 = p.w[14];
    bool diag = (p.w[3] & FLAG_DIAG) != 0u;
    bool slots = (p.w[3] & FLAG_SLOTS) != 0u;
    uint info;
    if ((p.w[3] & FLAG_LREG) != 0u && diag && k1 - k0 <= LU_REG && n - k0 <= NT)
        info = lu_reg(M, mb, UintB(addr(22)), b * n, n, k0, k1);
    else if (slots && diag && k1 - k0 <= LU_ROWS_NB && 2u * LU_ROWS_NB <= GS)
        info = lu_slots(M, mb, UintB(addr(22)), b * n, n, k0, k1);
    else
        info = lu(M, mb, UintB(addr(22)), b * n, n, k0, k1, !diag);
    if (gl_LocalInvocationID.x == 0 && info != 0u && ST.v[b] == 0u)
        ST.v[b] = info;
}

void determinant(uint b)
{
    uint n = p.w[0];
    MatT M = MatT(addr(20));
    UintB P = UintB(addr(22));
    uint mb = b * n * n;
    if ((p.w[3] & FLAG_FACTORED) == 0u) {
        copy_in(M, mb, 16, 5, b, n, n);
        lu(M, mb, P, b * n, n, 0, n, true);
    }
    if (gl_LocalInvocationID.x != 0)
        return;
    // the product of the pivots kept as sign * mantissa * 2^exponent (no overflow); det is then
    // sign * (mantissa * 2^exponent), as numpy's sign * exp(logdet)
    T_R sgn = T_R(1);
    for (uint j = 0; j < n; j++)
        if (P.v[b * n + j] != j)
            sgn = -sgn;
    T_C sg = creal(sgn);
    T_R mant = T_R(1);
    int ex = 0;
    for (uint j = 0; j < n; j++) {
        T_C d = T_C(M.v[mb + j * n + j]);
        T_R a = cabs(d);
        if (a == T_R(0)) {
            sg = T_C(0);
            mant = T_R(0);
            ex = 0;
            break;
        }
#if T_K == K_CPLX
        sg = cmul(sg, d / a);
#else
        sg = d < T_R(0) ? -sg : sg;
        if (isnan(d))
            sg = d;
#endif
        int e1, e2;
        T_R fa = frexp(a, e1);
        mant = frexp(mant * fa, e2);
        ex += e1 + e2;
    }
    if (OP == OP_DET) {
        MatT(addr(24)).v[b] = T_S(cscale(sg, ldexp(mant, ex)));
    } else {
        MatT(addr(24)).v[b] = T_S(sg);
        OutR(addr(26)).v[b] = mant;
        IntB(addr(28)).v[b] = ex;
    }
}

// X = A^-1 B in O1 (n x k). Without FLAG_FACTORED: copy A into W and factorize it (one
// dispatch does everything). Phases: FLAG_INIT sets X (B through its strides, or the identity
// with FLAG_INV) and applies the row interchanges; FLAG_FWD solves rows [k0, k1) of L y = b
// (unit lower, only the diagonal block: the caller updates the rows below with a matmul);
// FLAG_BWD rows [k0, k1) of U x = y (the caller updates the rows above).
void solve(uint b)
{
    uint lid = gl_LocalInvocationID.x;
    uint n = p.w[0], k = p.w[1], flags = p.w[3];
    MatT M = MatT(addr(20));
    MatT X = MatT(addr(24));
    UintB P = UintB(addr(22));
    UintB ST = UintB(addr(30));
    uint mb = b * n * n, xb = b * n * k, pb = b * n;
    // FLAG_XSHARED (whole small systems: n * n + n * k <= GS): the factors stay in gS[0, n * n)
    // and X is worked on in gS[n * n, ...), written out once; every step's barrier then skips
    // device memory, which a stack of small systems waits on
    bool xsh = (flags & FLAG_XSHARED) != 0u;
    uint xo = n * n, xso = xo - xb;  // (X's element xb + e at gS[xo + e])
    uint info;
    if ((flags & FLAG_FACTORED) == 0u) {
        copy_into(M, xsh, 0u, mb, 16, 5, b, n, n);
        lu_keep = xsh;
        info = lu(M, mb, P, pb, n, 0, n, true);
        if (lid == 0)
            ST.v[b] = info;
    } else {
        info = ST.v[b];
    }
    if (info != 0u)
        return;
    if ((flags & FLAG_INIT) != 0u) {
        if ((flags & FLAG_INV) != 0u) {
            for (uint e = lid; e < n * k; e += NT) {
                uint i = e / k, c = e - i * k;
                copy_st(X, xsh, xso, 0u, xb + e, creal(i == c ? T_R(1) : T_R(0)));
            }
        } else {
            copy_into(X, xsh, xo, xb, 18, 9, b, n, k);
        }
        sync();
        // the row interchanges, each column of X by one invocation
        for (uint c = lid; c < k; c += NT) {
            for (uint j = 0; j < n; j++) {
                uint q = P.v[pb + j];
                if (q != j) {
                    T_C t = copy_ld(X, xsh, xso, 0u, xb + j * k + c);
                    copy_st(X, xsh, xso, 0u, xb + j * k + c, copy_ld(X, xsh, xso, 0u, xb + q * k + c));
                    copy_st(X, xsh, xso, 0u, xb + q * k + c, t);
                }
            }
        }
    }
    uint k0 = p.w[13], k1 = p.w[14];
    uvec2 at0 = rc_first(k), st = rc_step(k);
    if ((flags & FLAG_FWD) != 0u) {
        // L y = b (unit lower), rows [k0, k1)
        for (uint j = k0; j < k1; j++) {
            sync_in(xsh);
            uint tot = (k1 - j - 1) * k;
            uvec2 at = at0;
            for (uint e = lid; e < tot; e += NT) {
                uint i = j + 1 + at.x, c = at.y, x = xb + i * k + c;
                copy_st(X, xsh, xso, 0u, x, copy_ld(X, xsh, xso, 0u, x)
                        - cmul(lm(M, mb + i * n + j), copy_ld(X, xsh, xso, 0u, xb + j * k + c)));
                at = rc_next(at, st, k);
            }
        }
    }
    if ((flags & FLAG_BWD) != 0u) {
        // U x = y, rows [k0, k1): a barrier a row; row j's division by its diagonal element is
        // left to the end, the rows above taking row j times its reciprocal
        for (uint jj = k1; jj > k0; jj--) {
            uint j = jj - 1;
            sync_in(xsh);
            T_C id = cdiv(creal(T_R(1)), lm(M, mb + j * n + j));
            uint tot = (j - k0) * k;
            uvec2 at = at0;
            for (uint e = lid; e < tot; e += NT) {
                uint i = k0 + at.x, c = at.y, x = xb + i * k + c;
                T_C xj = cmul(copy_ld(X, xsh, xso, 0u, xb + j * k + c), id);
                copy_st(X, xsh, xso, 0u, x, copy_ld(X, xsh, xso, 0u, x) - cmul(lm(M, mb + i * n + j), xj));
                at = rc_next(at, st, k);
            }
        }
        sync_in(xsh);
        uint tot = (k1 - k0) * k;
        uvec2 at = at0;
        for (uint e = lid; e < tot; e += NT) {
            uint i = k0 + at.x, x = xb + i * k + at.y;
            copy_st(X, xsh, xso, 0u, x, cdiv(copy_ld(X, xsh, xso, 0u, x), lm(M, mb + i * n + i)));
            at = rc_next(at, st, k);
        }
    }
    if (xsh) {
        sync_in(true);
        for (uint e = lid; e < n * k; e += NT)
            X.v[xb + e] = T_S(gS[xo + e]);
    }
    lu_sh = false;
    lu_keep = false;
}

// Householder reflectors of columns [k0, k1) of the m x n matrix at M[mb..] (LAPACK larfg:
// R's diagonal real), each applied (as H^H) to the columns after it up to cend - 1; tau_j goes
// to Tau[tau0 + j * tstep].
void householder(MatT M, uint mb, uint m, uint n, uint k0, uint k1, uint cend, MatT Tau,
                 uint tau0, uint tstep)
{
    uint lid = gl_LocalInvocationID.x;
    for (uint j = k0; j < k1; j++) {
        sync();
        T_C alpha = T_C(M.v[mb + j * n + j]);
        T_R part = T_R(0);
        for (uint i = j + 1 + lid; i < m; i += NT)
            part += abs2(T_C(M.v[mb + i * n + j]));
        red_v[lid] = part;
        barrier();
        // two levels, as the LU pivot search: 16 partial sums of NT / 16, then their sum
        const uint HG = 16u, HPER = NT / HG;
        if (lid < HG) {
            T_R acc = T_R(0);
            for (uint q = 0; q < HPER; q++)
                acc += red_v[lid * HPER + q];
            red_v[lid * HPER] = acc;
        }
        barrier();
        if (lid == 0) {
            T_R acc = T_R(0);
            for (uint g = 0; g < HG; g++)
                acc += red_v[g * HPER];
            red_v[0] = acc;
        }
        barrier();
        T_R xn2 = red_v[0];
        barrier();
        T_C tau = T_C(0);
        T_R beta = re(alpha);
        if (!(xn2 == T_R(0) && im(alpha) == T_R(0))) {
            T_R nrm = sqrt(abs2(alpha) + xn2);
            beta = re(alpha) >= T_R(0) ? -nrm : nrm;
#if T_K == K_CPLX
            tau = T_C((beta - alpha.x) / beta, -alpha.y / beta);
#else
            tau = (beta - alpha) / beta;
#endif
            T_C sc = cdiv(creal(T_R(1)), alpha - creal(beta));
            for (uint i = j + 1 + lid; i < m; i += NT)
                M.v[mb + i * n + j] = T_S(cmul(T_C(M.v[mb + i * n + j]), sc));
        }
        if (lid == 0) {
            M.v[mb + j * n + j] = T_S(creal(beta));
            Tau.v[tau0 + (j - k0) * tstep] = T_S(tau);
        }
        sync();
        if (tau == T_C(0))
            continue;
        // H^H = I - conj(tau) v v^H applied to columns j+1.. (v_j = 1): CW columns at a time,
        // each by P invocations taking every P-th row (coalesced across the columns)
        T_C ct = cconj(tau);
        const uint CW = min(NT, 64u), P = NT / CW;
        uint col = lid % CW, prt = lid / CW;
        for (uint cb = j + 1; cb < cend; cb += CW) {
            uint c = cb + col;
            T_C acc = T_C(0);
            if (c < cend) {
                if (prt == 0u)
                    acc = T_C(M.v[mb + j * n + c]);
                for (uint i = j + 1 + prt; i < m; i += P)
                    acc += cmul(cconj(T_C(M.v[mb + i * n + j])), T_C(M.v[mb + i * n + c]));
            }
            red_c[lid] = acc;
            barrier();
            if (prt == 0u) {
                for (uint q = 1; q < P; q++)
                    acc += red_c[col + q * CW];
                red_c[col] = cmul(acc, ct);
            }
            barrier();
            T_C sv = red_c[col];
            if (c < cend) {
                if (prt == 0u)
                    M.v[mb + j * n + c] = T_S(T_C(M.v[mb + j * n + c]) - sv);
                for (uint i = j + 1 + prt; i < m; i += P)
                    M.v[mb + i * n + c] = T_S(T_C(M.v[mb + i * n + c]) - cmul(T_C(M.v[mb + i * n + j]), sv));
            }
            barrier();
        }
    }
    sync();
}

// R (r x n, O2): the upper triangle of the first r rows of W
void write_r(MatT M, uint mb, uint b, uint m, uint n, uint r)
{
    MatT R = MatT(addr(26));
    uint rb = b * r * n;
    for (uint e = gl_LocalInvocationID.x; e < r * n; e += NT) {
        uint i = e / n, c = e - i * n;
        R.v[rb + e] = (c >= i) ? M.v[mb + e] : T_S(T_C(0));
    }
}

// One panel [k0, k1) of a blocked QR (FLAG_PANEL; FLAG_COPY: copy the input into W first): the
// reflectors, then V (O1: rows k0..m-1 x nbp, unit diagonal, zeros above) and the upper
// triangular T (O2: nbp x nbp, LAPACK larft forward columnwise) with H_k0..H_k1-1 = I - V T V^H.
// Each column j in three phases between barriers (nbp <= QR_NBMAX), every phase by CW (nbp
// rounded up to a power of two) column slots times NT / CW row groups, so that a subgroup's
// loads of a row are one coalesced access (one row an invocation took a transaction an
// element, most of a panel's time on the H100):
//   1. one pass over rows i > j: every slot q's sum of conj(a_ij) a_iq. Slot j is |x|^2
//      (larfg's norm), slots after j give v^H a_q (v_i = a_ij sc below the diagonal), slots
//      before j V_q^H v (the T column, V_q from O1), so a column costs one pass and one
//      reduction, not three;
//   2. the first nbp invocations sum their slot's partials and work out beta, tau and
//      sc = 1 / (alpha - beta) (each redundantly), the update scalar conj(tau) v^H a_q of a
//      later column, or V_q^H v of an earlier one;
//   3. the later columns' update, v_i = a_ij sc into V (O1; W's column j below the diagonal is
//      left as it was: R is W's upper triangle), and T's column j (T in gS where nbp^2 fits).
#define QR_NBMAX 64u
shared T_C qv[QR_NBMAX + 4u];
bool qr_tsh;
uint qr_tb;

T_C qr_t(MatT T, uint e) { return qr_tsh ? gS[e] : T_C(T.v[qr_tb + e]); }

void qr_panel(uint b)
{
    uint lid = gl_LocalInvocationID.x;
    uint m = p.w[0], n = p.w[1], k0 = p.w[13], k1 = p.w[14];
    uint nbp = k1 - k0, mv = m - k0;
    MatT M = MatT(addr(20));
    MatT V = MatT(addr(24));
    MatT T = MatT(addr(26));
    // V and T at element offsets w[9], w[10] (the panels share two temporaries)
    uint mb = b * m * n, vb = p.w[9] + b * mv * nbp, tb = p.w[10] + b * nbp * nbp;
    qr_tb = tb;
    qr_tsh = nbp * nbp <= GS;
    if ((p.w[3] & FLAG_COPY) != 0u)
        copy_in(M, mb, 16, 5, b, m, n);
    // V's rows above and on the diagonal
    for (uint e = lid; e < nbp * nbp; e += NT) {
        uint i = e / nbp, jj = e - i * nbp;
        if (i <= jj)
            V.v[vb + e] = i < jj ? T_S(T_C(0)) : T_S(creal(T_R(1)));
    }
    uint cw = 1u;
    while (cw < nbp)
        cw *= 2u;
    uint q = lid % cw, prt = lid / cw, np = NT / cw;
    uint cq = k0 + q;
    for (uint j = k0; j < k1; j++) {
        uint jr = j - k0;
        sync();
        // step 2's loads (row j's alpha and a_jq, V's row jr), issued now so that their latency
        // overlaps step 1's sums rather than following its barrier (each is final: written
        // before the sync above by column j - 1's update or an earlier column's v)
        T_C alpha = T_C(0), ajq = T_C(0), vjq = T_C(0);
        if (lid < nbp) {
            alpha = T_C(M.v[mb + j * n + j]);
            if (lid > jr)
                ajq = T_C(M.v[mb + j * n + k0 + lid]);
            else if (lid < jr)
                vjq = T_C(V.v[vb + jr * nbp + lid]);
        }
        // 1. the partial sums of slot q over rows j + 1 + prt, step np
        T_C acc0 = T_C(0), acc1 = T_C(0);
        if (q < nbp) {
            // an earlier column's V from O1 (row i at V row i - k0), the others from W
            bool fromv = q < jr;
            uint i = j + 1u + prt;
            for (; i + 3u * np < m; i += 4u * np) {
                T_C a[4], c[4];
                [[unroll]] for (uint u = 0; u < 4u; u++) {
                    uint r = i + u * np;
                    a[u] = T_C(M.v[mb + r * n + j]);
                    c[u] = T_C(fromv ? V.v[vb + (r - k0) * nbp + q] : M.v[mb + r * n + cq]);
                }
                acc0 += cmul(cconj(a[0]), c[0]) + cmul(cconj(a[2]), c[2]);
                acc1 += cmul(cconj(a[1]), c[1]) + cmul(cconj(a[3]), c[3]);
            }
            for (; i < m; i += np)
                acc0 += cmul(cconj(T_C(M.v[mb + i * n + j])),
                             T_C(fromv ? V.v[vb + (i - k0) * nbp + q] : M.v[mb + i * n + cq]));
        }
        red_c[lid] = acc0 + acc1;
        barrier();
        // 2. the slots' totals, the reflector, the update scalars
        if (lid < nbp) {
            T_C s = T_C(0), xs = T_C(0);
            for (uint g = 0; g < np; g++) {
                s += red_c[lid + g * cw];
                xs += red_c[jr + g * cw];
            }
            T_R xn2 = re(xs);
            T_C tau = T_C(0), sc = T_C(0);
            T_R beta = re(alpha);
            if (!(xn2 == T_R(0) && im(alpha) == T_R(0))) {
                T_R nrm = sqrt(abs2(alpha) + xn2);
                beta = re(alpha) >= T_R(0) ? -nrm : nrm;
#if T_K == K_CPLX
                tau = T_C((beta - alpha.x) / beta, -alpha.y / beta);
#else
                tau = (beta - alpha) / beta;
#endif
                sc = cdiv(creal(T_R(1)), alpha - creal(beta));
            }
            if (lid > jr) {
                // conj(tau) v^H a_q, v^H a_q = a_jq + conj(sc) s
                qv[lid] = cmul(cconj(tau), ajq + cmul(cconj(sc), s));
            } else if (lid < jr) {
                // V_q^H v = conj(V_jq) + sc conj(s)
                qv[lid] = cconj(vjq) + cmul(sc, cconj(s));
            } else {
                qv[QR_NBMAX] = tau;
                qv[QR_NBMAX + 1u] = sc;
                qv[QR_NBMAX + 2u] = creal(beta);
            }
        }
        barrier();
        // 3. the later columns' update and v (slot j), by the slots' row groups; T's column j
        T_C tau = qv[QR_NBMAX], sc = qv[QR_NBMAX + 1u];
        if (q >= jr && q < nbp) {
            bool own = q == jr;
            T_C t = own ? T_C(0) : qv[q];
            if (prt == 0u) {
                if (own)
                    M.v[mb + j * n + j] = T_S(qv[QR_NBMAX + 2u]);
                else if (tau != T_C(0))
                    M.v[mb + j * n + cq] = T_S(T_C(M.v[mb + j * n + cq]) - t);
            }
            uint i = j + 1u + prt;
            for (; i + 3u * np < m; i += 4u * np) {
                T_C a[4], c[4];
                [[unroll]] for (uint u = 0; u < 4u; u++) {
                    uint r = i + u * np;
                    a[u] = cmul(T_C(M.v[mb + r * n + j]), sc);
                    if (!own)
                        c[u] = T_C(M.v[mb + r * n + cq]);
                }
                [[unroll]] for (uint u = 0; u < 4u; u++) {
                    uint r = i + u * np;
                    if (own)
                        V.v[vb + (r - k0) * nbp + jr] = T_S(tau == T_C(0) ? T_C(M.v[mb + r * n + j]) : a[u]);
                    else if (tau != T_C(0))
                        M.v[mb + r * n + cq] = T_S(c[u] - cmul(a[u], t));
                }
            }
            for (; i < m; i += np) {
                T_C v = cmul(T_C(M.v[mb + i * n + j]), sc);
                if (own)
                    V.v[vb + (i - k0) * nbp + jr] = T_S(tau == T_C(0) ? T_C(M.v[mb + i * n + j]) : v);
                else if (tau != T_C(0))
                    M.v[mb + i * n + cq] = T_S(T_C(M.v[mb + i * n + cq]) - cmul(v, t));
            }
        }
        // T[0:j, j] = -tau T[0:j, 0:j] (V_0:j^H v); T[j, j] = tau
        for (uint ii = lid; ii <= jr; ii += NT) {
            T_C s = T_C(0);
            for (uint l = ii; l < jr; l++)
                s += cmul(qr_t(T, ii * nbp + l), qv[l]);
            T_C t = ii == jr ? tau : -cmul(tau, s);
            if (qr_tsh)
                gS[ii * nbp + jr] = t;
            else
                T.v[tb + ii * nbp + jr] = T_S(t);
        }
    }
    sync();
    for (uint e = lid; e < nbp * nbp; e += NT) {
        uint i = e / nbp, c = e - i * nbp;
        if (i > c)
            T.v[tb + e] = T_S(T_C(0));
        else if (qr_tsh)
            T.v[tb + e] = T_S(gS[e]);
    }
}

#ifdef AVK_SUBGROUP
// A QR panel held in registers a column a subgroup (FLAG_SGP, the `_sg` variants): subgroup q
// holds column q of the panel, lane l its rows l + S i (i < QRS_RPT, S the subgroup size), so no
// register array is indexed by a loop variable. Column j in two phases around one barrier:
//   A. subgroup j: |x|^2 by butterflies, beta, tau and sc (larfg, as qr_panel), R's rows up to
//      j of its column into W, then v (v_j = 1, v_t = a_t sc below, zeros above) into its
//      registers and into gS (a double buffer by the parity of j, so one barrier a column);
//   B. every later subgroup: v^H a_q by butterflies, a_q -= v conj(tau) v^H a_q on rows from
//      j; every earlier one: V_q^H v (its registers hold v_q), for T.
// Subgroup j is idle in phase B of its own step: it writes V's column j then (uncoalesced, but
// beside the others' work) and T's column j - 1 (larft forward columnwise, from V_q^H v and
// T's earlier columns); T's last column follows the loop. The panel comes in through gS in
// coalesced chunks. V and T are written as qr_panel writes them. Falls back to qr_panel where
// the subgroups the shader runs with do not fit the panel (rows > S QRS_RPT or fewer
// subgroups than columns). On the H100 (run 18) a float64 step of 16 columns and 1024 rows
// took 70 us: 18 to load, about 3 a column.
#define QRS_RPT 32u
T_C sg_sum(T_C v)
{
    for (uint o = gl_SubgroupSize / 2u; o > 0u; o >>= 1u)
        v += subgroupShuffleXor(v, o);
    return v;
}

// T[ii][j] of qr_sgp's T (ii <= j): tau_j on the diagonal, else -tau_j T[ii, ii:j] Y[ii:j, j]
// (Y = V_q^H v_j at q nbp + j, T at nbp^2 + i nbp + j; in gS from yb where ysh, else in red_c)
void qr_sgp_t(uint ii, uint j, uint nbp, bool ysh, uint yb)
{
    uint nn = nbp * nbp;
    T_C t = qv[j];
    if (ii < j) {
        T_C s = T_C(0);
        for (uint l = ii; l < j; l++) {
            T_C tl = ysh ? gS[yb + nn + ii * nbp + l] : red_c[nn + ii * nbp + l];
            s += cmul(tl, ysh ? gS[yb + l * nbp + j] : red_c[l * nbp + j]);
        }
        t = -cmul(qv[j], s);
    }
    if (ysh)
        gS[yb + nn + ii * nbp + j] = t;
    else
        red_c[nn + ii * nbp + j] = t;
}

void qr_sgp(uint b)
{
    uint lid = gl_LocalInvocationID.x;
    uint S = gl_SubgroupSize;
    uint m = p.w[0], n = p.w[1], k0 = p.w[13], k1 = p.w[14];
    uint nbp = k1 - k0, mv = m - k0;
    uint VB = S * QRS_RPT, nn = nbp * nbp;
    // Y (V_q^H v_j at q nbp + j) and T (at nn + i nbp + j) in red_c, or in gS after the
    // buffers where red_c is too short
    bool ysh = NT < 2u * nn;
    uint yb = ysh ? 2u * VB : 0u;
    if (mv > VB || gl_NumSubgroups * S != NT || gl_NumSubgroups < nbp || nbp > QR_NBMAX
            || 2u * VB + (ysh ? 2u * nn : 0u) > GS) {
        qr_panel(b);
        return;
    }
    uint q = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    MatT M = MatT(addr(20));
    MatT V = MatT(addr(24));
    MatT T = MatT(addr(26));
    uint mb = b * m * n, vb = p.w[9] + b * mv * nbp, tb = p.w[10] + b * nn;
    bool col = q < nbp;
    T_C a[QRS_RPT];
    [[unroll]] for (uint i = 0; i < QRS_RPT; i++)
        a[i] = T_C(0);
    // the panel in through gS, a chunk of ch rows at a time, so that the loads of a row are one
    // coalesced access (a lane a row, straight from W, took a transaction an element); rows at
    // a stride of nbp + 1 in gS, so that the lanes' reads of a column miss each other's banks
    uint ld = nbp + 1u, ch = 2u * VB / ld;
    for (uint c0 = 0; c0 < mv; c0 += ch) {
        uint rows = min(ch, mv - c0);
        for (uint e = lid; e < rows * nbp; e += NT) {
            uint t = e / nbp, c = e - t * nbp;
            gS[t * ld + c] = T_C(M.v[mb + (k0 + c0 + t) * n + k0 + c]);
        }
        barrier();
        if (col) {
            [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                uint t = lane + S * i;
                if (t >= c0 && t < c0 + rows)
                    a[i] = gS[(t - c0) * ld + q];
            }
        }
        barrier();
    }
    for (uint jr = 0; jr < nbp; jr++) {
        uint cur = (jr & 1u) * VB;
        if (q == jr) {
            T_C mine = T_C(0);
            T_R pp[4] = T_R[4](T_R(0), T_R(0), T_R(0), T_R(0));
            [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                uint t = lane + S * i;
                if (t == jr)
                    mine = a[i];
                else if (t > jr && t < mv)
                    pp[i & 3u] += abs2(a[i]);
            }
            T_C alpha = subgroupShuffle(mine, jr % S);
            T_R xn2 = re(sg_sum(creal((pp[0] + pp[1]) + (pp[2] + pp[3]))));
            T_C tau = T_C(0), sc = T_C(0);
            T_R beta = re(alpha);
            if (!(xn2 == T_R(0) && im(alpha) == T_R(0))) {
                T_R nrm = sqrt(abs2(alpha) + xn2);
                beta = re(alpha) >= T_R(0) ? -nrm : nrm;
#if T_K == K_CPLX
                tau = T_C((beta - alpha.x) / beta, -alpha.y / beta);
#else
                tau = (beta - alpha) / beta;
#endif
                sc = cdiv(creal(T_R(1)), alpha - creal(beta));
            }
            [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                uint t = lane + S * i;
                if (t < jr)
                    M.v[mb + (k0 + t) * n + k0 + q] = T_S(a[i]);
                else if (t == jr)
                    M.v[mb + (k0 + t) * n + k0 + q] = T_S(creal(beta));
                T_C v = t < jr ? T_C(0) : t == jr ? creal(T_R(1))
                        : tau == T_C(0) ? T_C(0) : cmul(a[i], sc);
                a[i] = v;
                if (t < mv)
                    gS[cur + t] = v;
            }
            if (lane == 0u)
                qv[jr] = tau;
        }
        memoryBarrierShared();
        barrier();
        if (q == jr) {
            // idle while the others update: V's column jr, and T's column jr - 1 (its inputs,
            // Y's column jr - 1 and T's earlier columns, were written before the barrier)
            [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                uint t = lane + S * i;
                if (t < mv)
                    V.v[vb + t * nbp + q] = T_S(a[i]);
            }
            if (jr > 0u) {
                uint j = jr - 1u;
                for (uint ii = lane; ii <= j; ii += S)
                    qr_sgp_t(ii, j, nbp, ysh, yb);
            }
        } else if (col) {
            T_C ss[4] = T_C[4](T_C(0), T_C(0), T_C(0), T_C(0));
            [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                uint t = lane + S * i;
                if (t >= jr && t < mv)
                    ss[i & 3u] += cmul(cconj(gS[cur + t]), a[i]);
            }
            T_C s = sg_sum((ss[0] + ss[1]) + (ss[2] + ss[3]));
            if (q > jr) {
                T_C tau = qv[jr];
                if (tau != T_C(0)) {
                    // a_q -= v conj(tau) (v^H a_q)
                    T_C w = cmul(cconj(tau), s);
                    [[unroll]] for (uint i = 0; i < QRS_RPT; i++) {
                        uint t = lane + S * i;
                        if (t >= jr && t < mv)
                            a[i] -= cmul(gS[cur + t], w);
                    }
                }
            } else if (lane == 0u) {
                // V_q^H v_j = conj(v_j^H v_q)
                if (ysh)
                    gS[yb + q * nbp + jr] = cconj(s);
                else
                    red_c[q * nbp + jr] = cconj(s);
            }
        }
    }
    sync();
    // T's last column, then T out (zeros below the diagonal)
    if (lid <= nbp - 1u)
        qr_sgp_t(lid, nbp - 1u, nbp, ysh, yb);
    sync();
    for (uint e = lid; e < nn; e += NT) {
        uint i = e / nbp, c = e - i * nbp;
        T.v[tb + e] = T_S(i > c ? T_C(0) : ysh ? gS[yb + nn + e] : red_c[nn + e]);
    }
}
#endif

void qr(uint b)
{
    uint lid = gl_LocalInvocationID.x;
    uint m = p.w[0], n = p.w[1], q = p.w[4];
    uint kmin = min(m, n);
    bool complete = (p.w[3] & FLAG_COMPLETE) != 0u;
    uint r = complete ? m : kmin;
    MatT M = MatT(addr(20));
    uint mb = b * m * n;
    if ((p.w[3] & FLAG_PANEL) != 0u) {
#ifdef AVK_SUBGROUP
        if ((p.w[3] & FLAG_SGP) != 0u) {
            qr_sgp(b);
            return;
        }
#endif
        qr_panel(b);
        return;
    }
    if ((p.w[3] & FLAG_ROUT) != 0u) {
        write_r(M, mb, b, m, n, r);
        return;
    }
    MatT Tau = MatT(addr(22));
    MatT Q = MatT(addr(24));
    uint tb = b * kmin;
    copy_in(M, mb, 16, 5, b, m, n);
    householder(M, mb, m, n, 0, kmin, n, Tau, tb, 1);
    write_r(M, mb, b, m, n, r);
    // Q = H1 ... Hk applied to the first q columns of the identity, backwards
    uint qb = b * m * q;
    for (uint e = lid; e < m * q; e += NT) {
        uint i = e / q, c = e - i * q;
        Q.v[qb + e] = T_S(creal(i == c ? T_R(1) : T_R(0)));
    }
    for (uint jj = kmin; jj > 0; jj--) {
        uint j = jj - 1;
        sync();
        T_C tau = T_C(Tau.v[tb + j]);
        if (tau == T_C(0))
            continue;
        for (uint c = j + lid; c < q; c += NT) {
            T_C s = T_C(Q.v[qb + j * q + c]);
            for (uint i = j + 1; i < m; i++)
                s += cmul(cconj(T_C(M.v[mb + i * n + j])), T_C(Q.v[qb + i * q + c]));
            s = cmul(s, tau);
            Q.v[qb + j * q + c] = T_S(T_C(Q.v[qb + j * q + c]) - s);
            for (uint i = j + 1; i < m; i++)
                Q.v[qb + i * q + c] = T_S(T_C(Q.v[qb + i * q + c]) - cmul(T_C(M.v[mb + i * n + j]), s));
        }
    }
}

// ---- many-workgroup steps of the blocked paths (a batch item per gl_WorkGroupID.z) ----------

// OP_GEMM: C = (G_ACC ? C : 0) + (G_NEG ? -1 : 1) op(A) op(B), C M x N, K inner; op: the
// transpose (G_TA, G_TB) and/or the conjugate (G_CA, G_CB). Each operand: element offset,
// row stride (ld; column stride 1) and batch stride. G_LOWER: tiles wholly above C's diagonal
// are skipped (a Hermitian trailing update, only its lower triangle needed).
// Tiles of GT x GT by 16 x 16 invocations, (GT / 16)^2 elements each, K steps of GK.
// Split-K (w[4] = S > 1 chunks of w[14] of K, a multiple of GK): grid y is C's tile rows times
// S, and chunk s writes its partial product (flags G_NEG and G_ACC not applied) at C + s M ld;
// an AUX X_SPLITSUM step adds them up (a thin product, few tiles and a long K, then fills the
// GPU rather than a few of its multiprocessors).
// Words: 0 M 1 N 2 K 3 flags 4 S 5 a_off 6 a_ld 7 a_bs 8 b_off 9 b_ld 10 b_bs 11 c_off 12 c_ld
// 13 c_bs 14 the chunk; addresses A 16, B 18, C 20.
#define G_TA 1u
#define G_TB 2u
#define G_CA 4u
#define G_CB 8u
#define G_NEG 16u
#define G_ACC 32u
#define G_LOWER 64u
#define GT 64u
#define GK 8u
#define GR (GT / 16u)
// the K step of a GEMM tile: as many as the shared array holds (GS / (2 GT): 8 with the
// default GS of 1024; the kernels layer gives a step with a short K a larger GS, so that its
// loads are one round trip and two barriers rather than one a K step of 8), at most 64
const uint GKC = GS / (2u * GT) < 64u ? GS / (2u * GT) : 64u;

// One GT x GT tile (rows from i0, columns from j0) of C = [C] +- op(A) op(B) over K in
// [kbeg, kend); ab, bb, cb: the batch item's first elements (NT = 256). The tiles in gS are
// rows of GT by K index l, an element x of row l at x ^ (l & 15): the loads' stores walk l
// across lanes, which at a stride of GT would all hit one bank.
void gemm_tile(uint M, uint N, uint kbeg, uint kend, uint flags, InT A, uint ab, uint ald,
               InT B, uint bb, uint bld, MatT C, uint cb, uint cld, uint i0, uint j0)
{
    uint lid = gl_LocalInvocationID.x;
    uint tx = lid % 16u, ty = lid / 16u;
    bool ta = (flags & G_TA) != 0u, tb = (flags & G_TB) != 0u;
    bool ca = (flags & G_CA) != 0u, cbj = (flags & G_CB) != 0u;
    T_C acc[GR][GR];
    [[unroll]] for (uint r = 0; r < GR; r++)
        [[unroll]] for (uint c = 0; c < GR; c++)
            acc[r][c] = T_C(0);
    for (uint l0 = kbeg; l0 < kend; l0 += GKC) {
        for (uint e = lid; e < GT * GKC; e += NT) {
            // A(i, l): consecutive invocations along A's contiguous axis
            uint r, c;
            if (ta) {
                r = e % GT;
                c = e / GT;
            } else {
                c = e % GKC;
                r = e / GKC;
            }
            uint gi = i0 + r, gl = l0 + c;
            T_C v = T_C(0);
            if (gi < M && gl < kend) {
                v = T_C(A.v[ab + (ta ? gl * ald + gi : gi * ald + gl)]);
                if (ca)
                    v = cconj(v);
            }
            gS[c * GT + (r ^ (c & 15u))] = v;
        }
        for (uint e = lid; e < GT * GKC; e += NT) {
            // B(l, j)
            uint r, c;
            if (tb) {
                r = e % GKC;
                c = e / GKC;
            } else {
                c = e % GT;
                r = e / GT;
            }
            uint gl = l0 + r, gj = j0 + c;
            T_C v = T_C(0);
            if (gl < kend && gj < N) {
                v = T_C(B.v[bb + (tb ? gj * bld + gl : gl * bld + gj)]);
                if (cbj)
                    v = cconj(v);
            }
            gS[GKC * GT + r * GT + (c ^ (r & 15u))] = v;
        }
        barrier();
        [[unroll]] for (uint l = 0; l < GKC; l++) {
            T_C av[GR], bv[GR];
            [[unroll]] for (uint r = 0; r < GR; r++)
                av[r] = gS[l * GT + ((ty + 16u * r) ^ (l & 15u))];
            [[unroll]] for (uint c = 0; c < GR; c++)
                bv[c] = gS[GKC * GT + l * GT + ((tx + 16u * c) ^ (l & 15u))];
            [[unroll]] for (uint r = 0; r < GR; r++)
                [[unroll]] for (uint c = 0; c < GR; c++)
                    acc[r][c] += cmul(av[r], bv[c]);
        }
        barrier();
    }
    bool neg = (flags & G_NEG) != 0u, add = (flags & G_ACC) != 0u;
    [[unroll]] for (uint r = 0; r < GR; r++) {
        uint i = i0 + ty + 16u * r;
        [[unroll]] for (uint c = 0; c < GR; c++) {
            uint j = j0 + tx + 16u * c;
            if (i < M && j < N) {
                T_C v = neg ? -acc[r][c] : acc[r][c];
                if (add)
                    v += T_C(C.v[cb + i * cld + j]);
                C.v[cb + i * cld + j] = T_S(v);
            }
        }
    }
}

void gemm()
{
    uint M = p.w[0], N = p.w[1], K = p.w[2], flags = p.w[3];
    uint b = gl_WorkGroupID.z;
    uint mt = (M + GT - 1u) / GT;
    uint split = gl_WorkGroupID.y / mt;
    uint i0 = (gl_WorkGroupID.y - split * mt) * GT, j0 = gl_WorkGroupID.x * GT;
    if ((flags & G_LOWER) != 0u && j0 >= i0 + GT)
        return;
    uint cb = p.w[11] + b * p.w[13], cld = p.w[12];
    uint kbeg = 0u, kend = K;
    if (p.w[4] > 1u) {
        kbeg = split * p.w[14];
        kend = min(K, kbeg + p.w[14]);
        cb += split * M * cld;
        flags &= ~(G_NEG | G_ACC);
    }
    gemm_tile(M, N, kbeg, kend, flags, InT(addr(16)), p.w[5] + b * p.w[7], p.w[6],
              InT(addr(18)), p.w[8] + b * p.w[10], p.w[9], MatT(addr(20)), cb, cld, i0, j0);
}

// OP_TRSM: X = T^-1 X for the nb x nb triangle T (lower, or upper with S_UPPER; unit diagonal
// with S_UNIT) and nb x ncols X (S_CONJ: X is read and written conjugated, so that the solve
// of L21 = A21 L11^-H runs on the view A21^H). A column of X per NT / cw invocations (cw
// columns a workgroup, w[4]), taking every (NT / cw)-th row. S_TSHARED (with S_SHARED): T too
// is copied into gS, after X's block (nb * (nb + cw) <= GS), so that a step waits on no load
// from device memory (on the H100 a step's load of T's column was most of a TRSM's time).
// Words: 0 nb 1 ncols 3 flags 4 cw 5 t_off 6 t_ld 7 t_bs 8 x_off 9 x_rs 10 x_cs 11 x_bs;
// addresses T 16, X 18.
#define S_UPPER 1u
#define S_UNIT 2u
#define S_CONJ 4u
#define S_SHARED 8u
#define S_TSHARED 16u
#define S_SG 32u

#ifdef AVK_SUBGROUP
// S_SG (the `_sg` variants, nb <= TRSM_SLOTS * the subgroup size): a column of X a subgroup,
// row i in lane i % size, register slot i / size; x_j passed by a shuffle, so that a step of
// the substitution waits on no barrier (the shared forms take two a step: on the H100 a
// 32-row TRSM step was 16-28 us of them). T transposed in gS (lanes read a column of T from
// consecutive words). The workgroup's subgroups take its cw columns in turn.
#define TRSM_SLOTS 8u
void trsm_sg(uint nb, uint ncols, uint flags, uint cw, uint b, uint lid)
{
    InT Tm = InT(addr(16));
    MatT X = MatT(addr(18));
    // X read through a non-coherent view: a subgroup reads only its own column
    InT Xr = InT(addr(18));
    uint tb = p.w[5] + b * p.w[7], tld = p.w[6];
    // T's loads four at a time, all issued before any is stored
    for (uint e0 = lid; e0 < nb * nb; e0 += 4u * NT) {
        T_C tv[4];
        [[unroll]] for (uint k = 0; k < 4u; k++) {
            uint e = e0 + k * NT;
            if (e < nb * nb)
                tv[k] = T_C(Tm.v[tb + (e / nb) * tld + e % nb]);
        }
        [[unroll]] for (uint k = 0; k < 4u; k++) {
            uint e = e0 + k * NT;
            if (e < nb * nb)
                gS[(e % nb) * nb + e / nb] = tv[k];
        }
    }
    barrier();
    bool cj = (flags & S_CONJ) != 0u, unit = (flags & S_UNIT) != 0u;
    bool upper = (flags & S_UPPER) != 0u;
    uint sz = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
    uint c1 = min(ncols, (gl_WorkGroupID.x + 1u) * cw);
    for (uint c = gl_WorkGroupID.x * cw + gl_SubgroupID; c < c1; c += gl_NumSubgroups) {
        uint xc = p.w[8] + b * p.w[11] + c * p.w[10], xrs = p.w[9];
        T_C x[TRSM_SLOTS];
        [[unroll]] for (uint s = 0; s < TRSM_SLOTS; s++) {
            uint i = s * sz + lane;
            T_C v = T_C(0);
            if (i < nb) {
                v = T_C(Xr.v[xc + i * xrs]);
                if (cj)
                    v = cconj(v);
            }
            x[s] = v;
        }
        for (uint t = 0; t < nb; t++) {
            uint j = upper ? nb - 1u - t : t;
            uint js = j / sz;
            T_C xj = T_C(0);
            [[unroll]] for (uint s = 0; s < TRSM_SLOTS; s++) {
                if (s == js)
                    xj = x[s];
            }
            xj = subgroupShuffle(xj, j % sz);
            if (!unit)
                xj = cdiv(xj, gS[j * nb + j]);
            [[unroll]] for (uint s = 0; s < TRSM_SLOTS; s++) {
                if (s * sz >= nb)
                    break;
                uint i = s * sz + lane;
                if (i == j)
                    x[s] = xj;
                else if (i < nb && (upper ? i < j : i > j))
                    x[s] -= cmul(gS[j * nb + i], xj);
            }
        }
        [[unroll]] for (uint s = 0; s < TRSM_SLOTS; s++) {
            uint i = s * sz + lane;
            if (i < nb)
                X.v[xc + i * xrs] = T_S(cj ? cconj(x[s]) : x[s]);
        }
    }
}
#endif

void trsm()
{
    uint nb = p.w[0], ncols = p.w[1], flags = p.w[3], cw = p.w[4];
    uint b = gl_WorkGroupID.z;
    uint lid = gl_LocalInvocationID.x;
#ifdef AVK_SUBGROUP
    if ((flags & S_SG) != 0u && nb <= TRSM_SLOTS * gl_SubgroupSize && nb * nb <= GS) {
        trsm_sg(nb, ncols, flags, cw, b, lid);
        return;
    }
#endif
    uint rpn = NT / cw;
    uint rp = lid % rpn, c = gl_WorkGroupID.x * cw + lid / rpn;
    InT Tm = InT(addr(16));
    MatT X = MatT(addr(18));
    uint tb = p.w[5] + b * p.w[7], tld = p.w[6];
    uint xrs = p.w[9];
    uint xc = p.w[8] + b * p.w[11] + c * p.w[10];
    bool ok = c < ncols;
    bool upper = (flags & S_UPPER) != 0u, unit = (flags & S_UNIT) != 0u;
    bool cj = (flags & S_CONJ) != 0u;
    if ((flags & S_SHARED) != 0u) {
        // the workgroup's nb x cw block of X in shared memory (the caller keeps nb * cw <= GS),
        // loaded and stored along X's contiguous axis
        uint cl = lid / rpn, c0 = gl_WorkGroupID.x * cw, xb = p.w[8] + b * p.w[11];
        uint xcs = p.w[10];
        bool rows_fast = xrs == 1u;
        for (uint e = lid; e < nb * cw; e += NT) {
            uint i = rows_fast ? e % nb : e / cw, l = rows_fast ? e / nb : e % cw;
            T_C v = T_C(0);
            if (c0 + l < ncols) {
                v = T_C(X.v[xb + (c0 + l) * xcs + i * xrs]);
                if (cj)
                    v = cconj(v);
            }
            gS[i * cw + l] = v;
        }
        bool tsh = (flags & S_TSHARED) != 0u;
        uint to = nb * cw;
        if (tsh) {
            for (uint e = lid; e < nb * nb; e += NT) {
                uint i = e / nb, j = e - i * nb;
                gS[to + e] = T_C(Tm.v[tb + i * tld + j]);
            }
        }
        for (uint s = 0; s < nb; s++) {
            uint j = upper ? nb - 1u - s : s;
            barrier();
            T_C xj = gS[j * cw + cl];
            if (!unit) {
                xj = cdiv(xj, tsh ? gS[to + j * nb + j] : T_C(Tm.v[tb + j * tld + j]));
                barrier();
                if (rp == 0u)
                    gS[j * cw + cl] = xj;
            }
            uint lo = upper ? 0u : j + 1u, hi = upper ? j : nb;
            for (uint i = lo + rp; i < hi; i += rpn)
                gS[i * cw + cl] -= cmul(tsh ? gS[to + i * nb + j] : T_C(Tm.v[tb + i * tld + j]), xj);
        }
        barrier();
        for (uint e = lid; e < nb * cw; e += NT) {
            uint i = rows_fast ? e % nb : e / cw, l = rows_fast ? e / nb : e % cw;
            if (c0 + l < ncols) {
                T_C v = gS[i * cw + l];
                X.v[xb + (c0 + l) * xcs + i * xrs] = T_S(cj ? cconj(v) : v);
            }
        }
        return;
    }
    for (uint s = 0; s < nb; s++) {
        uint j = upper ? nb - 1u - s : s;
        sync();
        T_C xj = T_C(0);
        if (ok) {
            xj = T_C(X.v[xc + j * xrs]);
            if (cj)
                xj = cconj(xj);
            if (!unit)
                xj = cdiv(xj, T_C(Tm.v[tb + j * tld + j]));
        }
        if (!unit) {
            sync();
            if (ok && rp == 0u)
                X.v[xc + j * xrs] = T_S(cj ? cconj(xj) : xj);
        }
        if (ok) {
            uint lo = upper ? 0u : j + 1u, hi = upper ? j : nb;
            for (uint i = lo + rp; i < hi; i += rpn) {
                T_C xi = T_C(X.v[xc + i * xrs]);
                if (cj)
                    xi = cconj(xi);
                xi -= cmul(T_C(Tm.v[tb + i * tld + j]), xj);
                X.v[xc + i * xrs] = T_S(cj ? cconj(xi) : xi);
            }
        }
    }
}

// OP_AUX: elementwise steps over a rows x cols matrix D (C-contiguous, batch stride
// rows * cols) by a grid-stride loop; mode w[3]:
//   X_COPY   D = S (strided: words 5..8 offset, row, column and batch stride); X_UPPER: only
//            the upper triangle, zeros below (R of a QR)
//   X_TRIL   D's strictly upper triangle zeroed (in place; rows == cols)
//   X_TRIU   D's strictly upper triangle set to the conjugate transpose of the lower
//   X_ZLOW   D's strictly lower triangle zeroed
//   X_EYE    D = the identity
//   X_GATHER D[i][c] = S[perm[i]][c] (X_EYE with it: perm[i] == c), perm at 20 (rows a batch)
//   X_PERM   perm (at 20) from LU's row interchanges (at 22), one workgroup a batch item
//   X_SPLITSUM D = (X_ACC ? D : 0) +- (X_NEG) the sum of a split GEMM's w[4] partial products
//            (S: contiguous rows x cols each, batch stride w[8]); D strided: offset w[9], row
//            stride w[10], batch stride w[11]
// Addresses: S 16, D 18.
#define X_COPY 1u
#define X_TRIL 2u
#define X_TRIU 3u
#define X_ZLOW 4u
#define X_EYE 5u
#define X_GATHER 6u
#define X_PERM 7u
#define X_SPLITSUM 8u
#define X_MODE 15u
#define X_UPPER 16u
#define X_IDENT 32u
#define X_NEG 64u
#define X_ACC 128u
// Only the AUX step declares the permutation's 8 KiB: every other op's workgroups (the Jacobi
// kernels' small stacks above all) would otherwise hold it unused, and fewer of them fit an SM.
const uint PERM_SHARED = OP == OP_AUX ? 2048u : 1u;
shared uint perm_s[PERM_SHARED];

void aux()
{
    uint rows = p.w[0], cols = p.w[1], flags = p.w[3];
    uint mode = flags & X_MODE;
    uint b = gl_WorkGroupID.z;
    uint lid = gl_LocalInvocationID.x;
    MatT D = MatT(addr(18));
    UintB PM = UintB(addr(20));
    if (mode == X_PERM) {
        uint n = rows;
        UintB PV = UintB(addr(22));
        uint pb = b * n;
        if (n <= PERM_SHARED) {
            for (uint i = lid; i < n; i += NT)
                perm_s[i] = i;
            barrier();
            if (lid == 0u) {
                for (uint j = 0; j < n; j++) {
                    uint q = PV.v[pb + j];
                    uint t = perm_s[j];
                    perm_s[j] = perm_s[q];
                    perm_s[q] = t;
                }
            }
            barrier();
            for (uint i = lid; i < n; i += NT)
                PM.v[pb + i] = perm_s[i];
        } else {
            for (uint i = lid; i < n; i += NT)
                PM.v[pb + i] = i;
            sync();
            if (lid == 0u) {
                for (uint j = 0; j < n; j++) {
                    uint q = PV.v[pb + j];
                    uint t = PM.v[pb + j];
                    PM.v[pb + j] = PM.v[pb + q];
                    PM.v[pb + q] = t;
                }
            }
        }
        return;
    }
    InT S = InT(addr(16));
    uint sb = p.w[5] + b * p.w[8], srs = p.w[6], scs = p.w[7];
    uint tot = rows * cols, db = b * tot;
    if (mode == X_SPLITSUM) {
        uint ns = p.w[4], ob = p.w[9] + b * p.w[11], ld = p.w[10];
        bool neg = (flags & X_NEG) != 0u, add = (flags & X_ACC) != 0u;
        for (uint e = gl_WorkGroupID.x * NT + lid; e < tot; e += gl_NumWorkGroups.x * NT) {
            uint i = e / cols, c = e - i * cols;
            T_C v = T_C(0);
            for (uint s = 0; s < ns; s++)
                v += T_C(S.v[sb + s * tot + e]);
            if (neg)
                v = -v;
            if (add)
                v += T_C(D.v[ob + i * ld + c]);
            D.v[ob + i * ld + c] = T_S(v);
        }
        return;
    }
    for (uint e = gl_WorkGroupID.x * NT + lid; e < tot; e += gl_NumWorkGroups.x * NT) {
        uint i = e / cols, c = e - i * cols;
        if (mode == X_COPY) {
            bool keep = (flags & X_UPPER) == 0u || c >= i;
            D.v[db + e] = keep ? S.v[sb + i * srs + c * scs] : T_S(T_C(0));
        } else if (mode == X_TRIL) {
            if (c > i)
                D.v[db + e] = T_S(T_C(0));
        } else if (mode == X_TRIU) {
            if (c > i)
                D.v[db + e] = T_S(cconj(T_C(D.v[db + c * cols + i])));
        } else if (mode == X_ZLOW) {
            if (c < i)
                D.v[db + e] = T_S(T_C(0));
        } else if (mode == X_EYE) {
            D.v[db + e] = T_S(creal(i == c ? T_R(1) : T_R(0)));
        } else if (mode == X_GATHER) {
            uint q = PM.v[b * rows + i];
            if ((flags & X_IDENT) != 0u)
                D.v[db + e] = T_S(creal(q == c ? T_R(1) : T_R(0)));
            else
                D.v[db + e] = S.v[sb + q * srs + c * scs];
        }
    }
}

// -- EIGH: cyclic Jacobi, parallel ordering (docs/kernels.md, "eigh") ------------------------
// Push: w[0] n, w[2] nbatch, w[3] flags (FLAG_VECTORS, FLAG_SHARED), w[4] the most sweeps,
// w[5..8] A's offset and strides (only its lower triangle is read); addresses A 16, W 20 (the
// working copy where it is not in gS), P 22 (V), O1 24 (eigenvalues), O2 26 (eigenvectors).
// A sweep is m - 1 steps (m = n rounded up to even; index n is a dummy for odd n) of m / 2
// disjoint rotations (the circle method: index 0 fixed, the others turning), every step two
// phases between barriers: (1) one invocation a pair computes its rotation (Rutishauser:
// t = sign(th) / (|th| + sqrt(th^2 + 1)), th = (aqq - app) / (2 apq)); (2) one invocation a 2 x 2
// block of pairs (k1 <= k2) applies both rotations, J1^T A12 J2, writing the block and its
// mirror (A stays exactly symmetric), the diagonal block gets app - t apq, aqq + t apq and
// zeros; V's rows are rotated in the same phase. A rotation is skipped where |apq| is at most
// eps sqrt(|app aqq|) (relative accuracy) or eps^2 ||A||_F; sweeps end after one without a
// rotation, or after w[4].
#if (T_K == K_CPLX && T_BITS == 128) || (T_K != K_CPLX && T_BITS == 64)
#define EIGH_DOUBLE 1
#define EIGH_EPS 2.220446049250313e-16lf
#else
#define EIGH_EPS 1.1920929e-07
#endif
// Pair k (p < q) of step st of a round-robin ("circle") ordering of m indices (m even): every
// index in one pair a step, every pair once in m - 1 steps.
void rr_pair(uint k, uint st, uint m, out uint pi, out uint qi)
{
    // (k - 1 + st) mod (m - 1) for k < m / 2 and st < m - 1: below 2 (m - 1), one subtraction
    uint ia = k - 1u + st, kb = m - 1u - k, ib = kb - 1u + st;
    ia = k == 0u ? 0u : (ia >= m - 1u ? ia - (m - 1u) : ia) + 1u;
    ib = kb == 0u ? 0u : (ib >= m - 1u ? ib - (m - 1u) : ib) + 1u;
    pi = min(ia, ib);
    qi = max(ia, ib);
}

// 1: the Jacobi kernels' rotation loops (eigh's V, svdj's W and V) take two elements an
// iteration, both loaded before either is stored: where the copies are in device memory a store
// may alias a later load, so the compiler keeps them in order and each iteration waited a round
// trip. 0 where the copies are in shared memory: the plain loop, one element an iteration
// (with two, those were 3-11 % slower on the H200, run 32). The elements never overlap: a
// step's pairs are disjoint.
layout(constant_id = 4) const uint JACOBI_TWO = 0;

// The Jacobi kernels' working copies (eigh: A's copy W, V; svdj: W, V): in gS at e_wo / e_vo
// where e_sh / e_vsh (small matrices: a step's loads and stores skip device memory), else in
// device memory at e_wb / e_vb
bool e_sh, e_vsh;
uint e_wb, e_vb, e_wo, e_vo;

T_C ega(MatT W, uint e) { return copy_ld(W, e_sh, e_wo, e_wb, e); }
void esa(MatT W, uint e, T_C v) { copy_st(W, e_sh, e_wo, e_wb, e, v); }
T_C evl(MatT V, uint e) { return copy_ld(V, e_vsh, e_vo, e_vb, e); }
void evs(MatT V, uint e, T_C v) { copy_st(V, e_vsh, e_vo, e_vb, e, v); }

#if T_K == K_CPLX
bool e_bad(T_C v) { return any(isnan(v)) || any(isinf(v)); }
bool e_zero(T_C v) { return v.x == T_R(0) && v.y == T_R(0); }
#else
bool e_bad(T_C v) { return isnan(v) || isinf(v); }
bool e_zero(T_C v) { return v == T_R(0); }
#endif

// the workgroup's sum (max where !add) of v, the same in every invocation
T_R wg_reduce(T_R v, bool add)
{
    uint lid = gl_LocalInvocationID.x;
    sync();
    red_v[lid] = v;
    sync();
    if (lid == 0) {
        T_R r = red_v[0];
        for (uint i = 1; i < NT; i++)
            r = add ? r + red_v[i] : max(r, red_v[i]);
        red_v[0] = r;
    }
    sync();
    T_R r = red_v[0];
    sync();
    return r;
}

T_R eigh_nan()
{
#ifdef EIGH_DOUBLE
    return packDouble2x32(uvec2(0u, 0x7ff80000u));
#else
    return uintBitsToFloat(0x7fc00000u);
#endif
}

// Hermitian (real: symmetric) A: the rotation of a pair is J with J[p][p] = J[q][q] = c (real),
// J[p][q] = sg = s apq / |apq|, J[q][p] = -conj(sg): J^H A J zeroes apq (the real rotation of
// D^H A D, D = diag(1, conj(apq) / |apq|), conjugated back by D).
void eigh(uint b)
{
    uint n = p.w[0], flags = p.w[3], maxsw = p.w[4];
    uint lid = gl_LocalInvocationID.x;
    bool vec = (flags & FLAG_VECTORS) != 0u;
    e_sh = (flags & FLAG_SHARED) != 0u;
    e_vsh = (flags & FLAG_VSHARED) != 0u;  // (V after W in gS)
    e_vb = b * n * n;
    e_wo = 0u;
    e_vo = n * n;
    uint nn = n * n;
    e_wb = b * nn;
    MatT W = MatT(addr(20));
    MatT V = MatT(addr(22));
    OutR O1 = OutR(addr(24));
    MatT O2 = MatT(addr(26));
    InT A = InT(addr(16));
    uint base = p.w[5] + b * p.w[8], rs = p.w[6], cs = p.w[7];
    // the lower triangle's largest |re| + |im|, or -1 where one is NaN or inf
    T_R mx = T_R(0);
    for (uint e = lid; e < nn; e += NT) {
        uint i = e / n, j = e - i * n;
        if (j <= i) {
            T_C v = T_C(A.v[base + i * rs + j * cs]);
            if (e_bad(v))
                mx = T_R(-1);
            else if (mx >= T_R(0))
                mx = max(mx, cabs1(v));
        }
    }
    // any non-finite entry: every output NaN
    T_R badc = wg_reduce(mx < T_R(0) ? T_R(1) : T_R(0), true);
    if (badc > T_R(0)) {
        T_R nv = eigh_nan();
        for (uint i = lid; i < n; i += NT)
            O1.v[b * n + i] = nv;
        if (vec)
            for (uint e = lid; e < nn; e += NT)
                O2.v[b * nn + e] = T_S(T_C(nv));
        return;
    }
    mx = wg_reduce(mx, false);
    // scale by a power of two (exact) so that the largest |re| + |im| is in [0.5, 1)
    int ex = 0;
    if (mx > T_R(0))
        frexp(mx, ex);
    // 2^-ex and 2^ex both normal (near the range's ends the largest |a| lands beside [0.5, 1))
#ifdef EIGH_DOUBLE
    ex = clamp(ex, -1020, 1020);
#else
    ex = clamp(ex, -124, 124);
#endif
    T_R sc = ldexp(T_R(1), -ex);
    T_R ss = T_R(0);
    for (uint e = lid; e < nn; e += NT) {
        uint i = e / n, j = e - i * n;
        uint hi = max(i, j), lo = min(i, j);
        T_C v = cscale(T_C(A.v[base + hi * rs + lo * cs]), sc);
        // the mirror conjugated, the diagonal real (its imaginary part not read, as LAPACK)
        v = i == j ? creal(re(v)) : (i < j ? cconj(v) : v);
        esa(W, e, v);
        ss += abs2(v);
        if (vec)
            evs(V, e, creal(i == j ? T_R(1) : T_R(0)));
    }
    T_R fro = sqrt(wg_reduce(ss, true));
    T_R floor_ = T_R(EIGH_EPS) * fro / T_R(4u * n);
    uint m = n + (n & 1u);
    uint P = m / 2u, hf = NT / 2u;
    // the step loops' (row, column) walks over P columns from lid and lid + NT (rc_first)
    uvec2 pw0 = rc_first(P), pws = rc_step(P), pw1 = rc_next(pw0, pws, P);
    for (uint sw = 0; sw < maxsw; sw++) {
        T_R rot = T_R(0);
        for (uint st = 0; st + 1u < m; st++) {
            // (1) the rotations of this step's pairs
            for (uint k = lid; k < P; k += NT) {
                uint pi, qi;
                rr_pair(k, st, m, pi, qi);
                T_R c = T_R(1), dp = T_R(0), dq = T_R(0);
                T_C sg = creal(T_R(0));
                if (qi < n) {
                    T_R app = re(ega(W, pi * n + pi)), aqq = re(ega(W, qi * n + qi));
                    T_C apq = ega(W, pi * n + qi);
                    T_R aa = cabs(apq);
                    if (aa > floor_ && aa > T_R(EIGH_EPS) * sqrt(abs(app)) * sqrt(abs(aqq))) {
                        T_R th = (aqq - app) / (T_R(2) * aa);
                        T_R at = abs(th);
                        T_R t = at * T_R(EIGH_EPS) > T_R(1) ? T_R(0.5) / at
                                                             : T_R(1) / (at + sqrt(at * at + T_R(1)));
                        if (th < T_R(0))
                            t = -t;
                        c = T_R(1) / sqrt(t * t + T_R(1));
                        sg = cscale(apq, t * c / aa);
                        dp = app - t * aa;
                        dq = aqq + t * aa;
                        rot += T_R(1);
                    }
                }
                red_v[k] = c;
                red_c[k] = sg;
                red_v[hf + k] = dp;
                red_c[hf + k] = creal(dq);
                red_i[k] = pi | (qi << 16);
            }
            sync();
            // (2) the 2 x 2 blocks of pairs (k1 <= k2): J1^H A12 J2 and its mirror; V's rows
            uvec2 pw = pw0;
            for (uint t2 = lid; t2 < P * P; t2 += NT) {
                uint k1 = pw.x, k2 = pw.y;
                pw = rc_next(pw, pws, P);
                if (k1 > k2)
                    continue;
                T_R c1 = red_v[k1], c2 = red_v[k2];
                T_C s1 = red_c[k1], s2 = red_c[k2];
                if (e_zero(s1) && e_zero(s2))
                    continue;
                uint p1 = red_i[k1] & 0xffffu, q1 = red_i[k1] >> 16;
                uint p2 = red_i[k2] & 0xffffu, q2 = red_i[k2] >> 16;
                if (k1 == k2) {
                    T_C z = creal(T_R(0));
                    esa(W, p1 * n + p1, creal(red_v[hf + k1]));
                    esa(W, q1 * n + q1, red_c[hf + k1]);
                    esa(W, p1 * n + q1, z);
                    esa(W, q1 * n + p1, z);
                    continue;
                }
                bool h1 = q1 < n, h2 = q2 < n;
                T_C z = creal(T_R(0));
                T_C apr = ega(W, p1 * n + p2);
                T_C aps = h2 ? ega(W, p1 * n + q2) : z;
                T_C aqr = h1 ? ega(W, q1 * n + p2) : z;
                T_C aqs = h1 && h2 ? ega(W, q1 * n + q2) : z;
                // rows: J1^H
                T_C bpr = cscale(apr, c1) - cmul(s1, aqr), bps = cscale(aps, c1) - cmul(s1, aqs);
                T_C bqr = cmul(cconj(s1), apr) + cscale(aqr, c1);
                T_C bqs = cmul(cconj(s1), aps) + cscale(aqs, c1);
                // columns: J2
                T_C npr = cscale(bpr, c2) - cmul(bps, cconj(s2)), nps = cmul(bpr, s2) + cscale(bps, c2);
                T_C nqr = cscale(bqr, c2) - cmul(bqs, cconj(s2)), nqs = cmul(bqr, s2) + cscale(bqs, c2);
                esa(W, p1 * n + p2, npr);
                esa(W, p2 * n + p1, cconj(npr));
                if (h2) {
                    esa(W, p1 * n + q2, nps);
                    esa(W, q2 * n + p1, cconj(nps));
                }
                if (h1) {
                    esa(W, q1 * n + p2, nqr);
                    esa(W, p2 * n + q1, cconj(nqr));
                }
                if (h1 && h2) {
                    esa(W, q1 * n + q2, nqs);
                    esa(W, q2 * n + q1, cconj(nqs));
                }
            }
            if (vec) {
                // (JACOBI_TWO: two elements an iteration; else the plain loop, as the
                // shared-memory copies take it)
                if (JACOBI_TWO != 0u) {
                    uint tot = n * P;
                    uvec2 va = pw0, vb = pw1;
                    for (uint t2 = lid; t2 < tot; t2 += 2u * NT) {
                        uint u2 = t2 + NT;
                        uint i0 = va.x, k0 = va.y, i1 = vb.x, k1 = vb.y;
                        va = rc_next(rc_next(va, pws, P), pws, P);
                        vb = rc_next(rc_next(vb, pws, P), pws, P);
                        bool go0 = !e_zero(red_c[k0]);
                        bool go1 = u2 < tot && !e_zero(red_c[k1]);
                        uint p0 = i0 * n + (red_i[k0] & 0xffffu), q0 = i0 * n + (red_i[k0] >> 16);
                        uint p1 = i1 * n + (red_i[k1] & 0xffffu), q1 = i1 * n + (red_i[k1] >> 16);
                        T_C z = creal(T_R(0));
                        T_C a0 = go0 ? evl(V, p0) : z, d0 = go0 ? evl(V, q0) : z;
                        T_C a1 = go1 ? evl(V, p1) : z, d1 = go1 ? evl(V, q1) : z;
                        if (go0) {
                            T_R c = red_v[k0];
                            T_C sg = red_c[k0];
                            evs(V, p0, cscale(a0, c) - cmul(d0, cconj(sg)));
                            evs(V, q0, cmul(a0, sg) + cscale(d0, c));
                        }
                        if (go1) {
                            T_R c = red_v[k1];
                            T_C sg = red_c[k1];
                            evs(V, p1, cscale(a1, c) - cmul(d1, cconj(sg)));
                            evs(V, q1, cmul(a1, sg) + cscale(d1, c));
                        }
                    }
                } else {
                    uvec2 pw = pw0;
                    for (uint t2 = lid; t2 < n * P; t2 += NT) {
                        uint i = pw.x, k = pw.y;
                        pw = rc_next(pw, pws, P);
                        T_C sg = red_c[k];
                        if (e_zero(sg))
                            continue;
                        T_R c = red_v[k];
                        uint pi = red_i[k] & 0xffffu, qi = red_i[k] >> 16;
                        uint vp = i * n + pi, vq = i * n + qi;
                        T_C a = evl(V, vp), d = evl(V, vq);
                        evs(V, vp, cscale(a, c) - cmul(d, cconj(sg)));
                        evs(V, vq, cmul(a, sg) + cscale(d, c));
                    }
                }
            }
            sync();
        }
        if (wg_reduce(rot, true) == T_R(0))
            break;
    }
    // eigenvalues ascending: the rank of each (ties by index), into red_i
    T_R us = ldexp(T_R(1), ex);
    for (uint i = lid; i < n; i += NT) {
        T_R di = re(ega(W, i * n + i));
        uint r = 0;
        for (uint j = 0; j < n; j++) {
            T_R dj = re(ega(W, j * n + j));
            if (dj < di || (dj == di && j < i))
                r++;
        }
        red_i[i] = r;
        O1.v[b * n + r] = di * us;
    }
    if (vec) {
        sync();
        for (uint e = lid; e < nn; e += NT) {
            uint i = e / n, j = e - i * n;
            O2.v[b * nn + i * n + red_i[j]] = T_S(evl(V, e));
        }
    }
}

// One-sided (Hestenes) Jacobi SVD of an m x n matrix, m >= n (the kernels layer passes QR's R;
// m <= GS): the columns of W (a column-major copy scaled by a power of two, as eigh's) are
// rotated in pairs, in eigh's round-robin order, each step's pairs at once: the pair's Gram
// entries alpha = |w_p|^2, beta = |w_q|^2, gamma = w_p^H w_q (NT / P invocations a pair, partial
// sums in gS), then eigh's rotation of [[alpha, gamma], [gamma^*, beta]] applied to the columns
// of W and of V. A rotation is skipped where |gamma| <= sqrt(m) eps sqrt(alpha beta) (LAPACK
// gesvj's tolerance) or eps^3 ||A||_F^2; the sweeps end after one without a rotation, or after
// w[4] (status 1, as where A holds NaN or inf: numpy's "SVD did not converge"). The singular
// values are the column norms, descending (ties by index); Vh's rows V's columns conjugated;
// U's columns W's normalized, except those of singular values at most sqrt(m) eps s_max, made
// an orthonormal completion (Gram-Schmidt twice from the first unit vector whose residual is
// at least half of the smallest that must exist).
void svdj(uint b)
{
    uint m = p.w[0], n = p.w[1], flags = p.w[3], maxsw = p.w[4];
    uint lid = gl_LocalInvocationID.x;
    bool vec = (flags & FLAG_VECTORS) != 0u;
    uint mn = m * n, nn = n * n;
    uint wb = b * mn, vb = b * nn;
    MatT W = MatT(addr(20));
    MatT V = MatT(addr(22));
    OutR S = OutR(addr(24));
    MatT U = MatT(addr(26));
    MatT VH = MatT(addr(28));
    UintB ST = UintB(addr(30));
    InT A = InT(addr(16));
    // W and V in gS after the step's partial sums where FLAG_SHARED
    e_sh = e_vsh = (flags & FLAG_SHARED) != 0u;
    e_wb = wb;
    e_vb = vb;
    e_wo = 3u * NT;
    e_vo = 3u * NT + mn;
    uint base = p.w[5] + b * p.w[8], rs = p.w[6], cs = p.w[7];
    // the largest |re| + |im|; bad: 2 where a NaN is found, 1 where only infinities are
    T_R mx = T_R(0), badv = T_R(0);
    for (uint e = lid; e < mn; e += NT) {
        uint i = e / n, j = e - i * n;
        T_C v = T_C(A.v[base + i * rs + j * cs]);
#if T_K == K_CPLX
        bool vnan = any(isnan(v));
#else
        bool vnan = isnan(v);
#endif
        if (vnan)
            badv = T_R(2);
        else if (e_bad(v))
            badv = max(badv, T_R(1));
        else
            mx = max(mx, cabs1(v));
    }
    T_R bad = wg_reduce(badv, false);
    if (bad > T_R(0)) {
        // every output NaN; status 1 (numpy raises) for a NaN, 2 (numpy gives NaNs) for an inf
        T_R nv = eigh_nan();
        for (uint i = lid; i < n; i += NT)
            S.v[b * n + i] = nv;
        if (vec)
            for (uint e = lid; e < mn; e += NT) {
                U.v[wb + e] = T_S(T_C(nv));
                if (e < nn)
                    VH.v[vb + e] = T_S(T_C(nv));
            }
        if (lid == 0u)
            ST.v[b] = bad > T_R(1) ? 1u : 2u;
        return;
    }
    mx = wg_reduce(mx, false);
    int ex = 0;
    if (mx > T_R(0))
        frexp(mx, ex);
#ifdef EIGH_DOUBLE
    ex = clamp(ex, -1020, 1020);
#else
    ex = clamp(ex, -124, 124);
#endif
    T_R sc = ldexp(T_R(1), -ex);
    T_R ss = T_R(0);
    for (uint e = lid; e < mn; e += NT) {
        uint i = e / n, j = e - i * n;
        T_C v = cscale(T_C(A.v[base + i * rs + j * cs]), sc);
        esa(W, j * m + i, v);
        ss += abs2(v);
    }
    if (vec)
        for (uint e = lid; e < nn; e += NT)
            evs(V, e, creal(e / n == e % n ? T_R(1) : T_R(0)));
    T_R fro2 = wg_reduce(ss, true);
    T_R eps = T_R(EIGH_EPS);
    T_R floor_ = eps * eps * eps * fro2;
    T_R tol = eps * sqrt(T_R(m));
    uint mp = n + (n & 1u), P = mp / 2u;
    uint G = NT / P;
    uint rows = m + (vec ? n : 0u);
    // step (3)'s (pair, row) walks from lid and lid + NT (rc_first)
    uvec2 rw0 = rc_first(rows), rws = rc_step(rows), rw1 = rc_next(rw0, rws, rows);
    bool conv = false;
    for (uint sw = 0; sw < maxsw; sw++) {
        T_R rot = T_R(0);
        for (uint st = 0; st + 1u < mp; st++) {
            // (1) the partial Gram entries of each pair
            uint k = lid / G, r = lid - k * G;
            T_R pa = T_R(0), pb = T_R(0);
            T_C pg = creal(T_R(0));
            if (k < P) {
                uint pi, qi;
                rr_pair(k, st, mp, pi, qi);
                if (qi < n) {
                    for (uint i = r; i < m; i += G) {
                        T_C a = ega(W, pi * m + i), d = ega(W, qi * m + i);
                        pa += abs2(a);
                        pb += abs2(d);
                        pg += cmul(cconj(a), d);
                    }
                }
            }
            gS[lid] = pg;
            gS[NT + lid] = creal(pa);
            gS[2u * NT + lid] = creal(pb);
            sync();
            // (2) each pair's rotation
            for (uint k2 = lid; k2 < P; k2 += NT) {
                uint pi, qi;
                rr_pair(k2, st, mp, pi, qi);
                T_R c = T_R(1);
                T_C sg = creal(T_R(0));
                if (qi < n) {
                    T_R al = T_R(0), be = T_R(0);
                    T_C g = creal(T_R(0));
                    for (uint r2 = 0; r2 < G; r2++) {
                        g += gS[k2 * G + r2];
                        al += re(gS[NT + k2 * G + r2]);
                        be += re(gS[2u * NT + k2 * G + r2]);
                    }
                    T_R aa = cabs(g);
                    if (aa > floor_ && aa > tol * sqrt(al) * sqrt(be)) {
                        T_R th = (be - al) / (T_R(2) * aa);
                        T_R at = abs(th);
                        T_R t = at * eps > T_R(1) ? T_R(0.5) / at : T_R(1) / (at + sqrt(at * at + T_R(1)));
                        if (th < T_R(0))
                            t = -t;
                        c = T_R(1) / sqrt(t * t + T_R(1));
                        sg = cscale(g, t * c / aa);
                        rot += T_R(1);
                    }
                }
                red_v[k2] = c;
                red_c[k2] = sg;
                red_i[k2] = pi | (qi << 16);
            }
            sync();
            // (3) the pairs' columns of W (m rows) and V (n rows) (JACOBI_TWO: two elements an
            // iteration; else the plain loop, as the shared-memory copies take it)
            if (JACOBI_TWO != 0u) {
                uint tot = P * rows;
                uvec2 ra = rw0, rb = rw1;
                for (uint e = lid; e < tot; e += 2u * NT) {
                    uint e1 = e + NT;
                    uint k0 = ra.x, i0 = ra.y;
                    uint k1 = min(rb.x, P - 1u), i1 = rb.y;  // (past the end: go1 false)
                    ra = rc_next(rc_next(ra, rws, rows), rws, rows);
                    rb = rc_next(rc_next(rb, rws, rows), rws, rows);
                    bool go0 = !e_zero(red_c[k0]);
                    bool go1 = e1 < tot && !e_zero(red_c[k1]);
                    bool w0 = i0 < m, w1 = i1 < m;
                    uint r0 = red_i[k0], r1 = red_i[k1];
                    uint s0 = w0 ? m : n, s1 = w1 ? m : n, o0 = w0 ? i0 : i0 - m, o1 = w1 ? i1 : i1 - m;
                    uint p0 = (r0 & 0xffffu) * s0 + o0, q0 = (r0 >> 16) * s0 + o0;
                    uint p1 = (r1 & 0xffffu) * s1 + o1, q1 = (r1 >> 16) * s1 + o1;
                    T_C z = creal(T_R(0));
                    T_C a0 = go0 ? (w0 ? ega(W, p0) : evl(V, p0)) : z;
                    T_C d0 = go0 ? (w0 ? ega(W, q0) : evl(V, q0)) : z;
                    T_C a1 = go1 ? (w1 ? ega(W, p1) : evl(V, p1)) : z;
                    T_C d1 = go1 ? (w1 ? ega(W, q1) : evl(V, q1)) : z;
                    if (go0) {
                        T_R c = red_v[k0];
                        T_C sg = red_c[k0];
                        T_C x = cscale(a0, c) - cmul(d0, cconj(sg)), y = cmul(a0, sg) + cscale(d0, c);
                        if (w0) {
                            esa(W, p0, x);
                            esa(W, q0, y);
                        } else {
                            evs(V, p0, x);
                            evs(V, q0, y);
                        }
                    }
                    if (go1) {
                        T_R c = red_v[k1];
                        T_C sg = red_c[k1];
                        T_C x = cscale(a1, c) - cmul(d1, cconj(sg)), y = cmul(a1, sg) + cscale(d1, c);
                        if (w1) {
                            esa(W, p1, x);
                            esa(W, q1, y);
                        } else {
                            evs(V, p1, x);
                            evs(V, q1, y);
                        }
                    }
                }
            } else {
                uvec2 rw = rw0;
                for (uint e = lid; e < P * rows; e += NT) {
                    uint k2 = rw.x, i = rw.y;
                    rw = rc_next(rw, rws, rows);
                    T_C sg = red_c[k2];
                    if (e_zero(sg))
                        continue;
                    T_R c = red_v[k2];
                    uint pi = red_i[k2] & 0xffffu, qi = red_i[k2] >> 16;
                    if (i < m) {
                        uint ep = pi * m + i, eq = qi * m + i;
                        T_C a = ega(W, ep), d = ega(W, eq);
                        esa(W, ep, cscale(a, c) - cmul(d, cconj(sg)));
                        esa(W, eq, cmul(a, sg) + cscale(d, c));
                    } else {
                        uint ep = pi * n + i - m, eq = qi * n + i - m;
                        T_C a = evl(V, ep), d = evl(V, eq);
                        evs(V, ep, cscale(a, c) - cmul(d, cconj(sg)));
                        evs(V, eq, cmul(a, sg) + cscale(d, c));
                    }
                }
            }
            sync();
        }
        if (wg_reduce(rot, true) == T_R(0)) {
            conv = true;
            break;
        }
    }
    // the column norms, their ranks (descending, ties by index) and the singular values
    for (uint j = lid; j < n; j += NT) {
        T_R s = T_R(0);
        for (uint i = 0; i < m; i++)
            s += abs2(ega(W, j * m + i));
        red_v[j] = sqrt(s);
    }
    sync();
    T_R us = ldexp(T_R(1), ex);
    T_R smax = T_R(0);
    for (uint j = 0; j < n; j++)
        smax = max(smax, red_v[j]);
    T_R tiny = smax * tol;
    uint nz = 0;
    for (uint j = 0; j < n; j++)
        if (red_v[j] > tiny)
            nz++;
    for (uint j = lid; j < n; j += NT) {
        T_R sj = red_v[j];
        uint r = 0;
        for (uint jj = 0; jj < n; jj++) {
            T_R sk = red_v[jj];
            if (sk > sj || (sk == sj && jj < j))
                r++;
        }
        red_i[j] = r;
        S.v[b * n + r] = sj * us;
    }
    if (lid == 0u)
        ST.v[b] = conv ? 0u : 1u;
    if (!vec)
        return;
    sync();
    for (uint e = lid; e < nn; e += NT) {
        uint j = e / n, i = e - j * n;
        VH.v[vb + red_i[j] * n + i] = T_S(cconj(evl(V, e)));
    }
    for (uint e = lid; e < mn; e += NT) {
        uint j = e / m, i = e - j * m;
        T_R sj = red_v[j];
        T_C v = sj > tiny ? cscale(ega(W, e), T_R(1) / sj) : creal(T_R(0));
        U.v[wb + i * n + red_i[j]] = T_S(v);
    }
    sync();
    // the completion: columns nz.. of U (rank order) orthonormal to the ones before
    for (uint r = nz; r < n; r++) {
        for (uint t = 0; t < m; t++) {
            uint c0 = (r + t) % m;  // (e_r first: the completion of an identity or zero block)
            for (uint i = lid; i < m; i += NT) {
                T_C acc = creal(i == c0 ? T_R(1) : T_R(0));
                for (uint s = 0; s < r; s++)
                    acc -= cmul(T_C(U.v[wb + i * n + s]), cconj(T_C(U.v[wb + c0 * n + s])));
                gS[i] = acc;
            }
            sync();
            for (uint s = lid; s < r; s += NT) {
                T_C co = creal(T_R(0));
                for (uint i = 0; i < m; i++)
                    co += cmul(cconj(T_C(U.v[wb + i * n + s])), gS[i]);
                red_c[s] = co;
            }
            sync();
            T_R part = T_R(0);
            for (uint i = lid; i < m; i += NT) {
                T_C acc = gS[i];
                for (uint s = 0; s < r; s++)
                    acc -= cmul(T_C(U.v[wb + i * n + s]), red_c[s]);
                gS[i] = acc;
                part += abs2(acc);
            }
            T_R nrm2 = wg_reduce(part, true);
            // (the residuals' squares of the m unit vectors add up to the m - r missing
            // dimensions, so one of them is at least 1 / m)
            if (nrm2 > T_R(0.5) / T_R(m)) {
                T_R inv = T_R(1) / sqrt(nrm2);
                for (uint i = lid; i < m; i += NT)
                    U.v[wb + i * n + r] = T_S(cscale(gS[i], inv));
                sync();
                break;
            }
        }
    }
}

// A panel step of the blocked cholesky (FLAG_CPANEL): columns [k0, k1) (nb <= 64), the diagonal
// block and rows [r0, r0 + cr) below it, r0 = k1 + cr * gl_WorkGroupID.x, batch item
// gl_WorkGroupID.z. Every workgroup factorizes the diagonal block again beside its own rows
// (the unblocked right-looking loop on the stacked tile is the TRSM L21 = A21 L11^-H), so the
// whole panel is one dispatch. The tile is in registers: invocation lid holds column
// lid % cw of tile rows lid / cw + i * (NT / cw), i < CP_RPT (tile row t < nb: row k0 + t; else
// r0 + t - nb). A step j reads column j (raw: a_rc -= a_rj conj(a_cj) / a_jj, the scaling by
// 1 / sqrt(a_jj) left to the end) from a double buffer in gS that its owners wrote during step
// j - 1, so a column costs one barrier. Workgroup 0 keeps L11 in the temporary P (a slot of
// nb * nb a matrix) and copies the previous block's from there at its start: the other
// workgroups read the diagonal block of W while it runs, so it cannot write it (w[5]: the
// previous block's k0 + 1, or 0). The last block (k1 == n, one workgroup) writes W.
// FLAG_LOOK (look-ahead; NT = 256): the previous block's trailing update is not a step of its
// own. The panel's workgroups apply it to their tile first, and workgroups from w[6] (the
// panel's chunks) apply it to the rest (rows and columns from k1) as GEMM tiles, in the same
// dispatch: their regions are disjoint, so a block costs one dispatch.
// the tile rows an invocation holds (specialisation constant 3, chosen by the kernels layer)
layout(constant_id = 3) const uint CP_RPT = 8;
void chol_panel()
{
    uint lid = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x, b = gl_WorkGroupID.z;
    uint n = p.w[0], flags = p.w[3], cr = p.w[4], prev = p.w[5], k0 = p.w[13], k1 = p.w[14];
    if (b >= p.w[2])
        return;
    MatT M = MatT(addr(24));
    MatT S = MatT(addr(22));
    UintB ST = UintB(addr(30));
    uint nb = k1 - k0;
    uint mb = b * n * n, sb = b * nb * nb;
    uint chunks = p.w[6];
    bool look = (flags & FLAG_LOOK) != 0u && prev != 0u;
    if (g >= chunks) {
        // FLAG_LOOK: the previous block's trailing update beyond this panel, A22 -= L21 L21^H
        // on rows and columns from k1, a lower tile a workgroup (t = ti (ti + 1) / 2 + tj)
        uint t = g - chunks;
        uint ti = uint((sqrt(8.0 * float(t) + 1.0) - 1.0) * 0.5);
        while ((ti + 1u) * (ti + 2u) / 2u <= t)
            ti++;
        while (ti * (ti + 1u) / 2u > t)
            ti--;
        uint tj = t - ti * (ti + 1u) / 2u, m = n - k1, kp = prev - 1u;
        InT L = InT(addr(24));
        gemm_tile(m, m, 0u, k0 - kp, G_TB | G_CB | G_NEG | G_ACC, L, mb + k1 * n + kp, n,
                  L, mb + k1 * n + kp, n, M, mb + k1 * n + k1, n, ti * GT, tj * GT);
        return;
    }
    uint r0 = k1 + g * cr;
    uint rows = nb + (r0 < n ? min(cr, n - r0) : 0u);
    uint cw = nb <= 16u ? 16u : (nb <= 32u ? 32u : 64u);
    uint rgn = NT / cw, c = lid % cw, rg = lid / cw;
    uint buf = rgn * CP_RPT;
    if (g == 0u && prev != 0u) {
        // the previous block's L11 (its own nb: k0 - (prev - 1))
        uint pk = prev - 1u, pn = k0 - pk;
        for (uint e = lid; e < pn * pn; e += NT) {
            uint i = e / pn, q = e - i * pn;
            if (q <= i)
                M.v[mb + (pk + i) * n + pk + q] = S.v[b * pn * pn + e];
        }
    }
    T_C a[CP_RPT];
    [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
        uint t = rg + i * rgn;
        a[i] = T_C(0);
        if (t < rows && c < nb) {
            uint gr = t < nb ? k0 + t : r0 + t - nb;
            a[i] = T_C(M.v[mb + gr * n + k0 + c]);
        }
    }
    if (look) {
        // the previous block's update of this tile first: a -= L(rows, kp:k0) L(k0 + c, kp:k0)^H,
        // through gS (the tile's first nb rows are rows k0 + c)
        uint kp = prev - 1u, pn = k0 - kp;
        InT L = InT(addr(24));
        // qch of L's columns a round trip, as many as gS holds (a multiple of 8), column q of
        // them at q * rs: lanes (columns c) read row c's values from consecutive words, and the
        // stores (q across lanes) at an odd stride rs = rows + 1 miss each other's banks
        uint rs = rows + 1u, qch = min((pn + 7u) & ~7u, (GS / rs) & ~7u);
        if (qch == 0u) {
            rs = rows;
            qch = 8u;
        }
        for (uint q0 = 0; q0 < pn; q0 += qch) {
            for (uint e = lid; e < rows * qch; e += NT) {
                uint t = e / qch, q = e - t * qch;
                uint gr = t < nb ? k0 + t : r0 + t - nb;
                gS[q * rs + t] = q0 + q < pn ? T_C(L.v[mb + gr * n + kp + q0 + q]) : T_C(0);
            }
            barrier();
            if (c < nb) {
                for (uint q8 = 0; q8 < qch; q8 += 8u) {
                    T_C lc[8];
                    [[unroll]] for (uint q = 0; q < 8u; q++)
                        lc[q] = cconj(gS[(q8 + q) * rs + c]);
                    [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
                        uint t = rg + i * rgn;
                        if (t < rows && t >= c) {
                            [[unroll]] for (uint q = 0; q < 8u; q++)
                                a[i] -= cmul(gS[(q8 + q) * rs + t], lc[q]);
                        }
                    }
                }
            }
            barrier();
        }
    }
    if (c == 0u) {
        [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
            uint t = rg + i * rgn;
            if (t < rows)
                gS[t] = a[i];
        }
    }
    sync();
    uint info = 0, jend = nb;
    T_R dmine = T_R(1);
    for (uint j = 0; j < nb; j++) {
        uint cur = (j & 1u) * buf, nxt = buf - cur;
        T_R d = re(gS[cur + j]);
        if (d <= T_R(0)) {  // (NaN goes on, as in the other panels)
            info = k0 + j + 1;
            jend = j;
            break;
        }
        if (c == j)
            dmine = d;
        if (c > j && c < nb) {
            T_C lc = cscale(cconj(gS[cur + c]), T_R(1) / d);
            [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
                uint t = rg + i * rgn;
                if (t < rows && t >= c)
                    a[i] -= cmul(gS[cur + t], lc);
            }
            if (c == j + 1u) {
                [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
                    uint t = rg + i * rgn;
                    if (t < rows)
                        gS[nxt + t] = a[i];
                }
            }
        }
        barrier();
    }
    if (c < jend) {
        T_R l = sqrt(dmine), il = T_R(1) / l;
        [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
            uint t = rg + i * rgn;
            if (t == c)
                a[i] = creal(l);
            else if (t > c)
                a[i] = cscale(a[i], il);
        }
    }
    if (c < nb) {
        bool last = k1 == n;
        [[unroll]] for (uint i = 0; i < CP_RPT; i++) {
            uint t = rg + i * rgn;
            if (t >= rows || t < c)
                continue;
            if (t >= nb)
                M.v[mb + (r0 + t - nb) * n + k0 + c] = T_S(a[i]);
            else if (g == 0u && last)
                M.v[mb + (k0 + t) * n + k0 + c] = T_S(a[i]);
            else if (g == 0u)
                S.v[sb + t * nb + c] = T_S(a[i]);
        }
    }
    if (g == 0u && lid == 0u) {
        if ((flags & FLAG_ST0) != 0u)
            ST.v[b] = 0;
        if (info != 0u && ST.v[b] == 0u)
            ST.v[b] = info;
    }
}

void main()
{
    if (OP == OP_GEMM) {
        gemm();
        return;
    }
    if (OP == OP_CHOL && (p.w[3] & FLAG_CPANEL) != 0u) {
        chol_panel();
        return;
    }
    if (OP == OP_TRSM) {
        trsm();
        return;
    }
    if (OP == OP_AUX) {
        aux();
        return;
    }
    uint b = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (b >= p.w[2])
        return;
    if (OP == OP_CHOL)
        cholesky(b);
    else if (OP == OP_DET || OP == OP_SLOGDET)
        determinant(b);
    else if (OP == OP_SOLVE)
        solve(b);
    else if (OP == OP_QR)
        qr(b);
    else if (OP == OP_LU)
        lu_panel(b);
    else if (OP == OP_EIGH)
        eigh(b);
    else if (OP == OP_SVD)
        svdj(b);
}
