#version 450
// Scans: cumulative_sum / cumulative_prod of `rows` independent rows of `n` elements (input
// layout as the reduce family's, include/reduce.glsl), op code in specialisation constant 0,
// variants per (T, R): R is the accumulator and result dtype.
//   w[6] mode: ROWS (0) a workgroup per row, through tiles of 256 x ITEMS elements: each
//        invocation scans ITEMS consecutive ones, a Hillis-Steele scan in shared memory joins
//        the invocations, a carry joins the tiles;
//        COLS (1) an invocation per row, in order (coalesced across rows where rs1 == 1: a
//        scan along a leading axis needs no copy)
//   w[7] include_initial: the result row has n + 1 elements, the first the identity
//   w[8] ors0, w[10] ors1, w[11] os: the result's strides (rows as the input's, R1 shared)
// The order of the operations is fixed by the layout: same input, same result.
#extension GL_GOOGLE_include_directive : require
#include "reduce.glsl"

#define MODE_ROWS 0u
#define MODE_COLS 1u
#define ITEMS 8u
#define TILE (AVK_LOCAL_SIZE * ITEMS)

shared R_C sh[AVK_LOCAL_SIZE];

R_C ident()
{
    if (OP == OP_CUMULATIVE_PROD) {
#if R_K == K_CPLX
        return R_C(1, 0);
#else
        return R_C(1);
#endif
    }
    return R_C(0);
}

R_C op2(R_C a, R_C b)
{
    if (OP == OP_CUMULATIVE_PROD)
        return R_MUL(a, b);
    return a + b;
}

uint out_base(uint r)
{
    uint r1 = p.w[2];
    uint q = r / r1;
    return q * p.w[8] + (r - q * r1) * p.w[10];
}

R_C load(uint ib, uint i)
{
    return T_TO_R(T_C(AvkTIn(p.addr[0]).v[ib + i * p.w[5]]));
}

void main()
{
    uint n = p.w[0], rows = p.w[1], mode = p.w[6], inc = p.w[7], os = p.w[11];
    uint t = gl_LocalInvocationID.x;
    uint r;
    if (mode == MODE_COLS)
        r = (gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x) * AVK_LOCAL_SIZE + t;
    else
        r = gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y;
    if (r >= rows)
        return;  // (ROWS: the whole workgroup)
    uint ib = avk_row_base(r), ob = out_base(r);
    if (inc != 0u && (mode == MODE_COLS || t == 0u))
        AvkROut(p.addr[1]).v[ob] = R_S(ident());
    if (mode == MODE_COLS) {
        R_C acc = ident();
        for (uint i = 0; i < n; ++i) {
            acc = op2(acc, load(ib, i));
            AvkROut(p.addr[1]).v[ob + (i + inc) * os] = R_S(acc);
        }
        return;
    }
    R_C carry = ident();
    for (uint base = 0; base < n; base += TILE) {
        R_C v[ITEMS];
        R_C run = ident();
        uint first = base + t * ITEMS;
        [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
            uint i = first + k;
            if (i < n)
                run = op2(run, load(ib, i));
            v[k] = run;
        }
        sh[t] = run;
        barrier();
        for (uint off = 1u; off < AVK_LOCAL_SIZE; off <<= 1) {
            R_C y = t >= off ? sh[t - off] : ident();
            barrier();
            sh[t] = op2(y, sh[t]);
            barrier();
        }
        R_C pre = op2(carry, t == 0u ? ident() : sh[t - 1u]);
        [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
            uint i = first + k;
            if (i < n)
                AvkROut(p.addr[1]).v[ob + (i + inc) * os] = R_S(op2(pre, v[k]));
        }
        carry = op2(carry, sh[AVK_LOCAL_SIZE - 1u]);
        barrier();
    }
}
