#version 450
// Scans: cumulative_sum / cumulative_prod of `rows` independent rows of `n` elements (input
// layout as the reduce family's, include/reduce.glsl), op code in specialisation constant 0,
// variants per (T, R): R is the accumulator and result dtype.
//   w[6] mode:
//     ROWS (0): workgroups along each row. A row is split into G chunks of L elements (w[12],
//        w[13]; L == 0: one chunk, the whole row), workgroup (x = chunk, y/z = row); each walks
//        its chunk in tiles of 256 x ITEMS elements: a tile is loaded coalesced into shared
//        memory, each invocation scans ITEMS consecutive elements, a Hillis-Steele scan in shared
//        memory joins the invocations and a carry joins the tiles. With G > 1 the carry starts at
//        the chunk's carry-in, element g of row r of the exclusive scan of the chunk totals:
//        addr[2] at element offset w[14] + r * (G + 1) + g (R).
//     COLS (1): an invocation per row, in order (coalesced across rows where rs1 == 1: a scan
//        along a leading axis needs no copy).
//     PARTIAL (2): the first pass of a long row: each workgroup (as ROWS) reduces its chunk to
//        one value, written to addr[1][r * G + g] (R). A fixed tree: same input, same result.
//   w[7] include_initial: the result row has n + 1 elements, the first the identity
//   w[8] ors0, w[10] ors1, w[11] os: the result's strides (rows as the input's, R1 shared)
// A long row is thus three passes (PARTIAL, a ROWS scan of the partials with include_initial,
// ROWS with carry-in): reduce-then-scan, with no inter-workgroup waiting (no forward-progress
// guarantee is needed). The order of the operations is fixed by the layout: same input, same
// result.
#extension GL_GOOGLE_include_directive : require
#include "reduce.glsl"
#ifdef AVK_SUBGROUP
// _sg variants (32-bit compute types, devices with subgroup arithmetic in compute shaders): the
// workgroup scan of the invocations' totals is a subgroup scan, the subgroups' totals in shared
// memory and a short serial walk over them, where the subgroups are consecutive runs of the
// local invocation index (checked once per workgroup; else, and for complex products, the
// shared-memory scan).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

#define MODE_ROWS 0u
#define MODE_COLS 1u
#define MODE_PARTIAL 2u
#if R_BITS == 128
#define ITEMS 4u
#else
#define ITEMS 8u
#endif
#define TILE (AVK_LOCAL_SIZE * ITEMS)
// a padded tile in shared memory: one slot every 32 skipped (bank conflicts of the strided reads)
#define PAD(i) ((i) + ((i) >> 5))

// Specialisation constant 1: stage tiles through shared memory (GPUs: coalesced loads and stores)
// or not (CPU devices, where the extra shared-memory traffic only costs)
layout(constant_id = 1) const uint STAGE = 1;

shared R_C sh[AVK_LOCAL_SIZE];
shared uint sg_bad;
shared R_C tile[STAGE != 0u ? PAD(TILE) : 1];

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

#if defined(AVK_SUBGROUP) && R_K == K_CPLX
#define SG_OP (OP != OP_CUMULATIVE_PROD)
#elif defined(AVK_SUBGROUP)
#define SG_OP true
#else
#define SG_OP false
#endif

#ifdef AVK_SUBGROUP
R_C sg_exclusive(R_C x)
{
#if R_K != K_CPLX
    if (OP == OP_CUMULATIVE_PROD)
        return subgroupExclusiveMul(x);
#endif
    return subgroupExclusiveAdd(x);
}

R_C sg_reduce(R_C x)
{
#if R_K != K_CPLX
    if (OP == OP_CUMULATIVE_PROD)
        return subgroupMul(x);
#endif
    return subgroupAdd(x);
}
#endif

// Whether the subgroup path applies to this workgroup (uniform; call from uniform control flow).
bool use_subgroups()
{
#ifdef AVK_SUBGROUP
    if (!SG_OP)
        return false;
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

// The exclusive scan of x over the workgroup's invocations (local index order) and its total
// in `total`. Leaves sh in use: the caller puts a barrier before sh is written again.
R_C wg_exclusive(R_C x, bool sg, out R_C total)
{
    uint t = gl_LocalInvocationID.x;
#ifdef AVK_SUBGROUP
    if (sg) {
        R_C e = sg_exclusive(x);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
            sh[gl_SubgroupID] = op2(e, x);
        barrier();
        R_C pre = ident();
        for (uint j = 0u; j < gl_SubgroupID; ++j)
            pre = op2(pre, sh[j]);
        R_C all = pre;
        for (uint j = gl_SubgroupID; j < gl_NumSubgroups; ++j)
            all = op2(all, sh[j]);
        total = all;
        return op2(pre, e);
    }
#endif
    sh[t] = x;
    barrier();
    for (uint off = 1u; off < AVK_LOCAL_SIZE; off <<= 1) {
        R_C y = t >= off ? sh[t - off] : ident();
        barrier();
        sh[t] = op2(y, sh[t]);
        barrier();
    }
    total = sh[AVK_LOCAL_SIZE - 1u];
    return t == 0u ? ident() : sh[t - 1u];
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
        return;  // (ROWS/PARTIAL: the whole workgroup)
    uint ib = avk_row_base(r);
    if (mode == MODE_COLS) {
        uint ob = out_base(r);
        if (inc != 0u)
            AvkROut(p.addr[1]).v[ob] = R_S(ident());
        R_C acc = ident();
        for (uint i = 0; i < n; ++i) {
            acc = op2(acc, load(ib, i));
            AvkROut(p.addr[1]).v[ob + (i + inc) * os] = R_S(acc);
        }
        return;
    }
    uint L = p.w[12], G = p.w[13], g = gl_WorkGroupID.x;
    uint start = 0u, end = n;
    if (L != 0u) {
        start = g * L;
        end = min(n, start + L);
    }
    if (mode == MODE_PARTIAL) {
        // coalesced strided walk, then a fixed tree over the invocations
        R_C acc = ident();
        for (uint i = start + t; i < end; i += AVK_LOCAL_SIZE)
            acc = op2(acc, load(ib, i));
#ifdef AVK_SUBGROUP
        if (SG_OP) {
            R_C v = sg_reduce(acc);
            if (subgroupElect())
                sh[gl_SubgroupID] = v;
            barrier();
            if (t == 0u) {
                R_C all = sh[0];
                for (uint j = 1u; j < gl_NumSubgroups; ++j)
                    all = op2(all, sh[j]);
                AvkROut(p.addr[1]).v[r * G + g] = R_S(all);
            }
            return;
        }
#endif
        sh[t] = acc;
        barrier();
        for (uint s = AVK_LOCAL_SIZE / 2u; s > 0u; s >>= 1) {
            if (t < s)
                sh[t] = op2(sh[t], sh[t + s]);
            barrier();
        }
        if (t == 0u)
            AvkROut(p.addr[1]).v[r * G + g] = R_S(sh[0]);
        return;
    }
    uint ob = out_base(r);
    if (inc != 0u && t == 0u && g == 0u)
        AvkROut(p.addr[1]).v[ob] = R_S(ident());
    bool sg = use_subgroups();
    R_C carry = ident();
    if (L != 0u && G > 1u)
        carry = R_C(AvkRIn(p.addr[2]).v[p.w[14] + r * (G + 1u) + g]);
    for (uint base = start; base < end; base += TILE) {
        R_C v[ITEMS];
        R_C run = ident();
        uint first = base + t * ITEMS;
        if (STAGE != 0u) {
            // coalesced load of the tile (identity past the end)
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                uint j = k * AVK_LOCAL_SIZE + t;
                uint i = base + j;
                tile[PAD(j)] = i < end ? load(ib, i) : ident();
            }
            barrier();
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                run = op2(run, tile[PAD(t * ITEMS + k)]);
                v[k] = run;
            }
        } else {
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                uint i = first + k;
                if (i < end)
                    run = op2(run, load(ib, i));
                v[k] = run;
            }
        }
        R_C total;
        R_C pre = op2(carry, wg_exclusive(run, sg, total));
        carry = op2(carry, total);
        if (STAGE != 0u) {
            [[unroll]] for (uint k = 0; k < ITEMS; ++k)
                tile[PAD(t * ITEMS + k)] = op2(pre, v[k]);
            barrier();
            // coalesced store
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                uint j = k * AVK_LOCAL_SIZE + t;
                uint i = base + j;
                if (i < end)
                    AvkROut(p.addr[1]).v[ob + (i + inc) * os] = R_S(tile[PAD(j)]);
            }
        } else {
            [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
                uint i = first + k;
                if (i < end)
                    AvkROut(p.addr[1]).v[ob + (i + inc) * os] = R_S(op2(pre, v[k]));
            }
        }
        barrier();
    }
}
