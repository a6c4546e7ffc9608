"""Matrix products (the matmul family, glsl/matmul.comp), as compiled plans of one dispatch.

matmul(x1, x2): both operands of one numeric dtype (the spec layer converts first). 1-D
operands are promoted as the standard says (a unit row for x1, a unit column for x2) and the
unit dimension dropped from the result. Batch dimensions broadcast (stride 0) and collapse to at
most two (else the operands are first copied contiguous over the broadcast batch shape); the
matrix dimensions are read in place through their strides, so x.mT costs no copy.

Paths (spec constant 6): tiled (shared-memory tiles, a register block of C per invocation,
tile sizes per device class and dtype width: TILES below) for products with M and N both of at
least SMALL_MN; direct (an invocation per element of C) for the others: batched small
products, matrix-vector and vector-matrix products.
"""
import math

from . import _launch, _reduce
from ._launch import ADDRESS, ARG, OFFSET, OUT, table

FAMILY = "matmul"
MAX_PLANS = 256
MAX_GRID = 65535
# direct path where min(M, N) is below this, or where the whole product is tiny
SMALL_MN = 16
DIRECT_LOCAL = 256
A_C, A_A, A_B = 24, 26, 28
W_A_OFF, W_B_OFF = 5, 10
PUSH_WORDS = 32
# split-K: where a product gives fewer than SPLIT_WORK workgroups and K >= SPLIT_MIN_K, K is cut
# in up to MAX_SPLITS chunks of at least SPLIT_MIN_K / 4 whose partial products a reduce pass sums
SPLIT_WORK = 128
SPLIT_MIN_K = 1024
MAX_SPLITS = 256

_plans = {}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _acc_bytes(code):
    """Bytes of the compute type a shared tile holds (8/16-bit integers computed in 32 bits)."""
    return max(4, table.DTYPES[table.CODE[code]][4] // 8)


def tiles(dev, code, m, n):
    """(WX, WY, RM, RN, TK) of the tiled path for dtype `code` on dev: C tiles of
    (WY * RM) x (WX * RN), K steps of TK, two shared tiles within the device's shared memory."""
    limits = getattr(dev, "limits", None) or {}
    shared = int(limits.get("max_compute_shared_memory_size", 16384) or 16384)
    s = _acc_bytes(code)
    if s == 4 and min(m, n) >= 128:
        # 128 x 128 tiles, 8 x 8 per invocation (lavapipe: 1.1-1.4 GFLOP/s at 512^3 float32,
        # against 0.6-0.9 with 4 x 4 blocks; the classic register block of an sgemm on GPUs)
        cfg = [16, 16, 8, 8, 16]
    elif s <= 8:
        cfg = [16, 16, 4, 4, 16]   # 64 x 64 tiles, 4 x 4 per invocation
    else:
        cfg = [16, 16, 4, 4, 8]    # complex128: 64 x 64 tiles, K steps of 8
    if max(m, n) <= 32:
        cfg[2] = cfg[3] = 2        # 32 x 32 tiles
    wx, wy, rm, rn, tk = cfg
    while tk > 1 and tk * (wy * rm + wx * rn) * s > shared:
        tk //= 2
    return wx, wy, rm, rn, tk


def _split_k(work, k, tk, total):
    """(S, KC): K cut in S chunks of KC elements (a multiple of tk) where the product alone
    would give the device fewer than SPLIT_WORK workgroups and K is long (tall-skinny)."""
    if work >= SPLIT_WORK or k < SPLIT_MIN_K:
        return 1, k
    s = min(-(-SPLIT_WORK // work), k // (SPLIT_MIN_K // 4), MAX_SPLITS)
    if total * s >= 1 << 31:
        s = 1
    if s <= 1:
        return 1, k
    kc = -(-k // s)
    kc = -(-kc // tk) * tk
    return -(-k // kc), kc


def _batch_strides(shape, strides, batch_shape):
    nb = len(batch_shape)
    own = list(zip(shape, strides))
    own = [(1, 0)] * (nb - len(own)) + own
    return [st if sz != 1 else 0 for sz, st in own]


def matmul(x1, x2):
    """x1 @ x2 for Arrays of one numeric dtype, or None where no kernel covers the case."""
    key = (x1._dtype, x1._shape, x1._strides, x2._shape, x2._strides)
    plan = _plans.get(key)
    if plan is not None:
        out = plan(x1, x2)
        if out is not None:
            return out
    dev = x1._alloc.device
    dt = x1._dtype
    code = _code(dt)
    if x2._dtype != dt or not _launch.device_supports(dev, code):
        return None
    shader = _launch.variant(FAMILY, code, code, None, dev)
    if shader is None:
        return None
    a_sh, a_st = list(x1._shape), list(x1._strides)
    b_sh, b_st = list(x2._shape), list(x2._strides)
    if len(a_sh) == 1:
        a_sh, a_st = [1] + a_sh, [0] + a_st
    if len(b_sh) == 1:
        b_sh, b_st = b_sh + [1], b_st + [0]
    m, k = a_sh[-2:]
    n = b_sh[-1]
    a_bsh, b_bsh = a_sh[:-2], b_sh[:-2]
    nd = max(len(a_bsh), len(b_bsh))
    pa, pb = [1] * (nd - len(a_bsh)) + a_bsh, [1] * (nd - len(b_bsh)) + b_bsh
    batch = []
    for u, v in zip(pa, pb):
        if u != v and u != 1 and v != 1:
            return None  # (the spec layer has checked broadcasting)
        batch.append(max(u, v) if min(u, v) != 0 else 0)
    out_shape = tuple(batch) + ((m,) if x1.ndim > 1 else ()) + ((n,) if x2.ndim > 1 else ())
    nbatch = math.prod(batch)
    total = nbatch * m * n
    if total == 0:
        return _launch.result_type._new(dev.alloc(0), dt, out_shape)
    if k == 0:
        from . import full

        kind = table.DTYPES[dt.name][3]
        return full(out_shape, complex(0) if kind == "c" else (0.0 if kind == "f" else 0), dt, dev)
    for x in (x1, x2):
        if x._alloc.nbytes // dt.itemsize >= 1 << 32:
            return None  # (32-bit element indices)
    if total >= 1 << 32:
        return None
    a_bst = _batch_strides(a_bsh, a_st[:-2], batch)
    b_bst = _batch_strides(b_bsh, b_st[:-2], batch)
    bsh, bsts = _launch._collapse(list(batch), [a_bst, b_bst])
    if len(bsh) > 2:
        # more than two batch dimensions after collapsing: copy both operands contiguous over
        # the broadcast batch shape (their batch dimensions then collapse to one)
        va = _launch.result_type._new(x1._alloc, dt, tuple(batch) + (m, k),
                                      tuple(a_bst) + tuple(a_st[-2:]), x1._offset)
        vb = _launch.result_type._new(x2._alloc, dt, tuple(batch) + (k, n),
                                      tuple(b_bst) + tuple(b_st[-2:]), x2._offset)
        ca, cb = _launch.contiguous(va), _launch.contiguous(vb)
        if ca is None or cb is None:
            return None
        r = matmul(ca, cb)
        return None if r is None else _launch.result_type._new(r._alloc, dt, out_shape)
    if len(bsh) == 0:
        b1, bs = 1, [(0, 0), (0, 0)]
    elif len(bsh) == 1:
        b1, bs = bsh[0], [(0, bsts[0][0]), (0, bsts[1][0])]
    else:
        b1, bs = bsh[1], [(bsts[0][0], bsts[0][1]), (bsts[1][0], bsts[1][1])]
    u32 = 0xFFFFFFFF
    direct = min(m, n) < SMALL_MN or m * n * k <= 4096
    if direct:
        spec = [0, DIRECT_LOCAL, 1, 1, 1, 1, 1]
        work, tk = -(-total // DIRECT_LOCAL), 1
    else:
        wx, wy, rm, rn, tk = tiles(dev, code, m, n)
        gx, gy = -(-n // (wx * rn)), -(-m // (wy * rm))
        if gx > MAX_GRID or gy > MAX_GRID:
            return None
        spec = [0, wx, wy, rm, rn, tk, 0]
        work = gx * gy * nbatch
    splits, kc = _split_k(work, k, tk, total)
    w = [0] * PUSH_WORDS
    w[0:15] = [m, n, k, nbatch, b1,
               0, a_st[-2] & u32, a_st[-1] & u32, bs[0][0] & u32, bs[0][1] & u32,
               0, b_st[-2] & u32, b_st[-1] & u32, bs[1][0] & u32, bs[1][1] & u32]
    w[15], w[16] = splits, kc
    if direct:
        groups = _launch.grid_1d(total * splits, DIRECT_LOCAL)
    else:
        groups = (gx, gy, min(nbatch * splits, MAX_GRID))
    b = _reduce._Builder()
    res = b.out(total * dt.itemsize, dt, out_shape)
    dst = res if splits == 1 else b.temp(splits * total * dt.itemsize)
    buffers = [(dst[0], dst[1], True), (ARG, 0, False), (ARG, 1, False)]
    patches = [(A_C, ADDRESS, dst[0], dst[1]), (A_A, ADDRESS, ARG, 0), (W_A_OFF, OFFSET, ARG, 0),
               (A_B, ADDRESS, ARG, 1), (W_B_OFF, OFFSET, ARG, 1)]
    b.steps.append((shader, spec, w, groups, buffers, patches))
    if splits > 1:
        # the partial products [split][element of C] summed over the splits (reduce family)
        sum_shader = _reduce._variant("sum", code, code, dev)
        if sum_shader is None:
            return None
        b.partial_sizes = (dt.itemsize, dt.itemsize)
        b.floating = table.DTYPES[dt.name][3] in "fc"
        b.second_shader = sum_shader
        _reduce._pass(b, sum_shader, "sum", dst, splits, total, total, 0, 1, total, res,
                      single=True)
    args = [("array", dt.itemsize), ("array", dt.itemsize)]
    plan = dev.compile_plan(_launch.result_type, args, b.outputs, b.temps, b.steps)
    if len(_plans) >= MAX_PLANS:
        _plans.clear()
    _plans[key] = plan
    return plan(x1, x2)
