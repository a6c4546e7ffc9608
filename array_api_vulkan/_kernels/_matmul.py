"""Matrix products (the matmul family, glsl/matmul.comp), as compiled plans of one dispatch.

matmul(x1, x2): both operands of one numeric dtype (the spec layer converts first). 1-D
operands are promoted as the standard says (a unit row for x1, a unit column for x2) and the
unit dimension dropped from the result. Batch dimensions broadcast (stride 0) and collapse to at
most two (else the operands are first copied contiguous over the broadcast batch shape); the
matrix dimensions are read in place through their strides, so x.mT costs no copy.

Paths (spec constant 6): fast tiled (float32/float64: 16-byte vectors, double-buffered shared
tiles; FAST below) and generic tiled (other dtypes; tiles()) for products with M and N both of
at least SMALL_MN; direct (DIRECT_KL invocations per element of C) for the others: batched
small products, matrix-vector and vector-matrix products. Split-K where the product alone
would not fill the device. matmul_update(C, A, B, alpha): C += alpha * A @ B in place.
Ask first: supports_matmul / supports_matmul_update; the kernels raise NotNative otherwise.
"""
import math

import numpy as _np

from . import _launch, _reduce
from . import variants as _variants
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
# split-K (tiled paths): where a product gives fewer than SPLIT_WORK workgroups and
# K >= SPLIT_MIN_K, K is cut into chunks of at least SPLIT_MIN_CHUNK, up to MAX_SPLITS of
# them, for about SPLIT_TARGET workgroups in all; a reduce pass sums the partial products
SPLIT_WORK = 128
SPLIT_TARGET = 128
SPLIT_MIN_K = 1024
SPLIT_MIN_CHUNK = 256
MAX_SPLITS = 256
# split-K partial sums: one reduce pass up to this many splits, else the reduce family's two
SPLIT_SINGLE_PASS = 64

_plans = {}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _acc_bytes(code):
    """Bytes of the compute type a shared tile holds (8/16-bit integers computed in 32 bits)."""
    return max(4, table.DTYPES[table.CODE[code]][4] // 8)


_shared = _launch.shared_bytes


def tiles(dev, code, m, n):
    """(WX, WY, RM, RN, TK) of the generic tiled path for dtype `code` on dev: C tiles of
    (WY * RM) x (WX * RN), K steps of TK, two shared tiles within the device's shared memory."""
    shared = _shared(dev)
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
    wx, wy, rm, rn, tk = FORCE_TILES or cfg
    while tk > 1 and tk * (wy * rm + wx * rn) * s > shared:
        tk //= 2
    return wx, wy, rm, rn, tk


# The fast path (SMALL == 2, float32 and float64): (WX, WY, RM, RN, TK) per element width and
# shape class: "big" 128 x 128 tiles where they give at least BIG_MIN_GROUPS workgroups, else
# "med" 64 x 64; "tall" (128 x 32) where N <= 32 < M, "wide" (32 x 128) where M <= 32 < N.
# TK halves until the two pairs of shared tiles fit the device's shared memory.
USE_FAST = True
FAST = {
    4: {"big": (16, 16, 8, 8, 16), "med": (16, 16, 4, 4, 16), "tall": (8, 32, 4, 4, 16),
        "wide": (32, 8, 4, 4, 16), "small": (8, 8, 4, 4, 16)},
    8: {"big": (16, 16, 8, 8, 8), "med": (16, 16, 4, 4, 8), "tall": (8, 32, 4, 4, 8),
        "wide": (32, 8, 4, 4, 8), "small": (8, 8, 4, 4, 8)},
}
# "small" (32 x 32 tiles, 64 invocations) where M and N are both at most 32: a C that small only
# takes the tiled path with a long K, cut by split-K into many workgroups (k-means' onehot.T @ X,
# 32 x 1M @ 1M x 16, float32 on the H100, both cut in 1024 chunks: 146 us against 400 with
# 64 x 64 tiles; torch 253; float64 not measured).
BIG_MIN_GROUPS = 256
# Tuning knobs (benchmarks/tune_matmul.py): {element width: (WX, WY, RM, RN, TK)} taken by the
# fast path for every shape; (WX, WY, RM, RN, TK) taken by the generic tiled path.
FORCE_FAST = None
FORCE_TILES = None
# The fast path's workgroup order: tiles in groups of SWIZZLE tile rows, column by column within
# a group (L2 reuse of both operands' panels); 0: row by row.
SWIZZLE = 0

# NVIDIA's (vendor 0x10DE) own values of the knobs above and below, replacing them on such
# devices: 2^18 invocations for the direct path's split-K (about 1 MiB of loads in flight, what
# HBM3's bandwidth-latency product asks for; reasoned, not yet measured). The H100 run of
# 2026-11-23 (run 8, tune_matmul.py) dropped the others: SWIZZLE = 8 made float32 4096^2 slower
# (6.5 TFLOP/s against 9.0 without) and float64 128 x 64 tiles changed nothing.
NVIDIA = {
    "DIRECT_SPLIT_THREADS": 1 << 19,
    "DIRECT_MIN_CHUNK": 64,
    "SPLIT_TARGET": 1024,
    "MAX_SPLITS": 1024,
    "SPLIT_MIN_CHUNK": 128,
    # "big": 128-invocation workgroups of 8 x 8 accumulators (64 x 128 tiles). With the mode word a
    # specialisation constant (STATIC_MODES) the float32 kernel takes 159 registers, so an SM runs
    # three of them (the 256-invocation one, 153-160 registers, ran one): H100 run 20
    # (benchmarks/diag_matmul_knobs.py, GPU time) float32 4096^2 37.6 -> 45.9 TFLOP/s (4000^2
    # 35.9 -> 42.2), float64 4096^2 17.5 -> 19.3 (255 registers: two a SM, not one).
    "FAST": {w: dict(c, big=(16, 8, 8, 8, 16 if w == 4 else 8)) for w, c in FAST.items()},
}
# Session 7's H100 tuning (tune_matmul.py, benchmarks/results/2026-11-23-h100-10/) set the split-K
# values above: PCA's Xc.T @ Xc (64 x 1M @ 1M x 64) 365 us against 446 with 128 workgroups of
# 8192 K each (torch 268; the product is 8.6 GFLOP, compute-bound); the vector-matrix r @ X
# (1M @ 1M x 64, direct path) 147 us against 172 with 2^18 invocations of chunks of 256. Only
# the number of chunks changed, not which products split: a first try that also split every
# product of fewer than 1024 tiles made float32 1024^2 (256 tiles, then 4 chunks) 221 us
# against 112.
# dtypes whose tiled products (one batch dimension at most, no split-K) run as the linalg
# family's GEMM step (64 x 64 tiles, 4 x 4 an invocation, strided through shared memory) rather
# than this family's kernel; none now. Until session 8 float64 went there: this family's float64
# fast path ran at about 1 TFLOP/s on the H100, its accumulators in local memory (the driver's
# pipeline statistics, benchmarks/diag_pipelines.py: RM x RN x 8 bytes of local memory at every
# tile shape) because of a `continue` in the store loops. Without it (2026-11-23 run 11, 4096^2:
# 17.6 TFLOP/s with 128 x 128 tiles against 9.9 for the GEMM step; 1024^2: 13.6 against 10.8).
GEMM_STEP_CODES = ""
# The fast path's mode word (operand load modes, vector stores) as specialisation constant 8, with
# FM_EXACT where M, N and K are whole tiles (no edge tests), so that the driver compiles only the
# paths a product takes; False: the word is read from the push block (one pipeline for all).
STATIC_MODES = True
EXACT_TILES = True
FM_EXACT, FM_STATIC = 512, 1024
# Whether the generic tiled path takes the frozen variants (_frozen) where they are built.
# On the H100 (2026-11-23 run 11) complex128 1024^2 ran at 14.5 TFLOP/s with, 1.9 without.
USE_FROZEN = True


def _knob(dev, name):
    """Module knob `name`, or NVIDIA's own value on an NVIDIA device."""
    if name in NVIDIA and (getattr(dev, "info", None) or {}).get("vendor_id") == _launch.NVIDIA_VENDOR_ID:
        return NVIDIA[name]
    return globals()[name]


def _fast_shared(cfg, width):
    wx, wy, rm, rn, tk = cfg
    vw = 16 // width
    return 2 * tk * (wy * rm // vw + 1 + wx * rn // vw + 1) * 16


# An update (matmul_update) takes the fast path's tiles only up to this many accumulators an
# invocation, else the "med" tiles: with 8 x 8, its read-modify-write of C took NVIDIA's driver
# 56-62 s to compile for float32 (7-9 s for float64; products 0.3-0.6 s) on an H200, however its
# epilogue was written (docs/benchmarks.md, run 29)
UPDATE_MOST_ACC = 16


def fast_tiles(dev, code, m, n, nbatch, update=False):
    """(WX, WY, RM, RN, TK) of the fast path for m x n products (nbatch of them; an update's
    where `update`), or None."""
    if not USE_FAST or code not in "fd":
        return None
    width = 4 if code == "f" else 8
    cfgs, big_min = _knob(dev, "FAST")[width], _knob(dev, "BIG_MIN_GROUPS")
    if m <= 32 and n <= 32:
        name = "small"
    elif n <= 32 < m:
        name = "tall"
    elif m <= 32 < n:
        name = "wide"
    else:
        wx, wy, rm, rn, _ = cfgs["big"]
        groups = -(-m // (wy * rm)) * -(-n // (wx * rn)) * nbatch
        name = "big" if groups >= big_min else "med"
    wx, wy, rm, rn, tk = cfgs[name]
    if FORCE_FAST and width in FORCE_FAST:
        wx, wy, rm, rn, tk = FORCE_FAST[width]
    if update and rm * rn > UPDATE_MOST_ACC:
        wx, wy, rm, rn, tk = cfgs["med"]
    vw = 16 // width
    if rm % vw or rn % vw or tk % vw:
        return None  # (a FORCE_FAST configuration the fast path cannot take)
    shared = _shared(dev)
    while tk > vw and _fast_shared((wx, wy, rm, rn, tk), width) > shared:
        tk //= 2
    if _fast_shared((wx, wy, rm, rn, tk), width) > shared:
        return None
    return wx, wy, rm, rn, tk


def _load_mode(off, rs, cs, bst, rows, k, vw):
    """The fast path's load mode of an operand X(row, k) = off + row * rs + k * cs (glsl)."""
    aligned = off % vw == 0 and all(b % vw == 0 for b in bst)
    if aligned and cs == 1 and rs % vw == 0 and k % vw == 0:
        return 2
    if aligned and rs == 1 and cs % vw == 0 and rows % vw == 0:
        return 3
    return 0 if cs == 1 or (rs != 1 and k > rows) else 1


# Direct path split-K: where the product has fewer than DIRECT_SPLIT_THREADS elements and K is
# at least SPLIT_MIN_K, K is cut so that about DIRECT_SPLIT_THREADS invocations run, each
# summing at least DIRECT_MIN_CHUNK products.
DIRECT_SPLIT_THREADS = 1 << 16
DIRECT_MIN_CHUNK = 256
# Direct path: DIRECT_KL invocations per element of C (summing every DIRECT_KL-th product, then
# adding up in shared memory) where A's rows are k-contiguous and B is a column or k-contiguous
# too (matrix-vector products: consecutive invocations then read consecutive memory).
DIRECT_KL = 8


def _config(dev, code, m, n, k, nbatch, a, b, update=False):
    """(spec, groups, splits, kc, mode word) of a product; a, b: (off, rs, cs, batch strides) of
    A(m, k) and of B as B^T(n, k). Raises _No."""
    total = nbatch * m * n
    direct = min(m, n) < SMALL_MN or m * n * k <= 4096
    mode = 0
    if direct:
        splits, kc = 1, k
        threads = _knob(dev, "DIRECT_SPLIT_THREADS")
        if total < threads and k >= SPLIT_MIN_K:
            s = min(-(-threads // total), k // _knob(dev, "DIRECT_MIN_CHUNK"), 1 << 16)
            if s > 1 and total * s < 1 << 31:
                kc = -(-k // s)
                splits = -(-k // kc)
        kl = 1
        if a[2] == 1 and (n == 1 or b[2] == 1) and kc >= 2 * DIRECT_KL:
            kl = DIRECT_KL
        if total * splits * kl >= 1 << 32:
            kl = 1
        spec = [0, DIRECT_LOCAL, 1, 1, 1, kl, 1, 0]
        return spec, None, splits, kc, 0
    cfg = fast_tiles(dev, code, m, n, nbatch, update)
    if cfg is not None:
        wx, wy, rm, rn, tk = cfg
        vw = 4 if code == "f" else 2
        spec = [0, wx, wy, rm, rn, tk, 2, 0]
    else:
        wx, wy, rm, rn, tk = tiles(dev, code, m, n)
        spec = [0, wx, wy, rm, rn, tk, 0, 0]
    gx, gy = -(-n // (wx * rn)), -(-m // (wy * rm))
    if gx > MAX_GRID or gy > MAX_GRID:
        raise _No("grid too large")
    splits, kc = _split_k(dev, gx * gy * nbatch, k, tk, total)
    if cfg is not None:
        mode = (_load_mode(a[0], a[1], a[2], a[3], m, k, vw)
                | _load_mode(b[0], b[1], b[2], b[3], n, k, vw) << 4
                | (256 if n % vw == 0 else 0))
        if STATIC_MODES:
            exact = EXACT_TILES and m % (wy * rm) == 0 and n % (wx * rn) == 0 and k % tk == 0
            spec.append(mode | FM_STATIC | (FM_EXACT if exact else 0))
    return spec, (gx, gy), splits, kc, mode


def _frozen(shader, spec, dev):
    """The variant of `shader` built for the generic tiled path at spec's tiles with the
    constants fixed and its loops unrolled in SPIR-V (variants.frozen_tiles: 64-bit dtypes and
    complex128, whose accumulators NVIDIA's compiler otherwise keeps in local memory), where
    there is one and the product is no update; else `shader`."""
    if not USE_FROZEN or spec[6] != 0 or spec[7] != 0:
        return shader
    return _launch.named(_variants.frozen_name(shader, tuple(spec[1:6])), dev) or shader


def _split_k(dev, work, k, tk, total):
    """(S, KC): K cut in S chunks of KC elements (a multiple of tk) where the product alone
    would give the device fewer than SPLIT_WORK workgroups and K is long (tall-skinny)."""
    if work >= SPLIT_WORK or k < SPLIT_MIN_K:
        return 1, k
    s = min(-(-_knob(dev, "SPLIT_TARGET") // work), k // _knob(dev, "SPLIT_MIN_CHUNK"),
            _knob(dev, "MAX_SPLITS"))
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


def _key(x1, x2):
    # (the fast path's vector loads depend on the operands' offsets modulo 4)
    return (x1._dtype, x1._shape, x1._strides, x2._shape, x2._strides, x1._offset & 3,
            x2._offset & 3)


class _No(Exception):
    """A case no matmul kernel covers (supports_matmul answers False)."""


def _operands(x1, x2):
    """(a_sh, a_st, b_sh, b_st, m, k, n, batch, out_shape) of x1 @ x2, 1-D operands promoted."""
    a_sh, a_st = list(x1._shape), list(x1._strides)
    b_sh, b_st = list(x2._shape), list(x2._strides)
    if len(a_sh) == 1:
        a_sh, a_st = [1] + a_sh, [0] + a_st
    if len(b_sh) == 1:
        b_sh, b_st = b_sh + [1], b_st + [0]
    m, k = a_sh[-2:]
    n = b_sh[-1]
    if b_sh[-2] != k:
        raise _No("contracted dimensions differ")
    a_bsh, b_bsh = a_sh[:-2], b_sh[:-2]
    nd = max(len(a_bsh), len(b_bsh))
    pa, pb = [1] * (nd - len(a_bsh)) + a_bsh, [1] * (nd - len(b_bsh)) + b_bsh
    batch = []
    for u, v in zip(pa, pb):
        if u != v and u != 1 and v != 1:
            raise _No("batch dimensions do not broadcast")
        batch.append(max(u, v) if min(u, v) != 0 else 0)
    out_shape = tuple(batch) + ((m,) if x1.ndim > 1 else ()) + ((n,) if x2.ndim > 1 else ())
    return a_sh, a_st, b_sh, b_st, m, k, n, batch, out_shape


def _check(x1, x2, c=None):
    """Raises _No where no kernel computes x1 @ x2 (or c += alpha * x1 @ x2); else the shader."""
    dev = x1._alloc.device
    dt = x1._dtype
    code = _code(dt)
    if x2._dtype != dt or (c is not None and c._dtype != dt):
        raise _No("operands of different dtypes")
    if not _launch.device_supports(dev, code):
        raise _No("dtype not on the device")
    shader = _launch.variant(FAMILY, code, code, None, dev)
    if shader is None:
        raise _No("no compiled variant")
    for x in (x1, x2) + (() if c is None else (c,)):
        if x._alloc.nbytes // dt.itemsize >= 1 << 32:
            raise _No("32-bit element indices")
    return shader


def supports_matmul(x1, x2):
    """Whether matmul(x1, x2) runs natively (the spec layer asks first; matmul then raises
    NotNative where this answers False)."""
    key = _key(x1, x2)
    if key in _plans:
        return True
    try:
        _check(x1, x2)
        _, _, _, _, m, k, n, batch, _ = _operands(x1, x2)
        total = math.prod(batch) * m * n
        if total >= 1 << 32:
            return False
        dev, code = x1._alloc.device, _code(x1._dtype)
        if total and k:
            _, _, splits, _, _ = _config(dev, code, m, n, k, math.prod(batch), (0, 0, 0, (0, 0)),
                                         (0, 0, 0, (0, 0)))
            if splits > 1 and _reduce._variant("sum", code, code, dev) is None:
                return False  # (split-K's sum of the partial products)
            if _launch.cast_variant(code, code, dev) is None:
                return False  # (the contiguous copies of batch dimensions that do not collapse)
        elif total and _launch.variant("fill", None, code, None, dev) is None:
            return False  # (K == 0: a fill of zeros)
    except _No:
        return False
    return True


def matmul(x1, x2):
    """x1 @ x2 for Arrays of one numeric dtype; raises NotNative where supports_matmul(x1, x2)
    answers False."""
    try:
        return _matmul(x1, x2)
    except _No as e:
        raise _reduce.NotNative(f"matmul: {e}") from None


def supports_matmul_update(c, x1, x2):
    """Whether matmul_update(c, x1, x2, alpha) runs natively."""
    try:
        _check(x1, x2, c)
        _update_layout(c, x1, x2)
    except _No:
        return False
    return True


def matmul_update(c, x1, x2, alpha=1):
    """c += alpha * (x1 @ x2) in place, c a (strided) view of the product's shape and dtype, in
    the matmul kernel's epilogue (C read, added to, written: no temporary). One dispatch. The
    memory c covers must not overlap what x1 and x2 read. Returns c; raises NotNative where
    supports_matmul_update(c, x1, x2) answers False."""
    try:
        shader = _check(x1, x2, c)
        lay = _update_layout(c, x1, x2)
    except _No as e:
        raise _reduce.NotNative(f"matmul_update: {e}") from None
    if lay is None:
        return c  # nothing to add (an empty product or K == 0)
    m, k, n, nbatch, b1, bs, cs, a_st, b_st = lay
    dev = c._alloc.device
    code = _code(c._dtype)
    u32 = 0xFFFFFFFF
    spec, gxy, _, _, mode = _config(dev, code, m, n, k, nbatch,
                                    (x1._offset, a_st[-2], a_st[-1], bs[0]),
                                    (x2._offset, b_st[-1], b_st[-2], bs[1]), update=True)
    spec[7] = 1
    if len(spec) > 8:
        spec[8] &= ~256  # (an update stores element by element: w[19] below drops the bit too)
    if gxy is None:
        groups = _launch.grid_1d(nbatch * m * n * spec[5], DIRECT_LOCAL)
    else:
        groups = (gxy[0], gxy[1], min(nbatch, MAX_GRID))
    w = [0] * PUSH_WORDS
    w[0:15] = [m, n, k, nbatch, b1,
               x1._offset, a_st[-2] & u32, a_st[-1] & u32, bs[0][0] & u32, bs[0][1] & u32,
               x2._offset, b_st[-2] & u32, b_st[-1] & u32, bs[1][0] & u32, bs[1][1] & u32]
    w[15], w[16] = 1, k
    aw = _launch.scalar_words(alpha, code)
    w[17:17 + len(aw)] = aw
    if spec[6] == 2:
        w[19] = mode & 0xFF  # (alpha of a fast-path dtype takes words 17, 18 only)
        w[20] = _knob(dev, "SWIZZLE")
    w[21:24] = [c._offset, cs[0] & u32, cs[1] & u32]
    w[30], w[31] = bs[2][0] & u32, bs[2][1] & u32
    push = _np.zeros(PUSH_WORDS, _np.uint32)
    push[:] = w
    _launch.put_address(push, A_C, c._alloc)
    _launch.put_address(push, A_A, x1._alloc)
    _launch.put_address(push, A_B, x2._alloc)
    dev.launch(shader, spec, [c._alloc, x1._alloc, x2._alloc], [True, False, False], push,
               groups=groups)
    _launch.state.launches += 1
    _launch.state.last_plan = None
    return c


def _update_layout(c, x1, x2):
    """(m, k, n, nbatch, B1, [(a_bs0, a_bs1), (b_bs0, b_bs1), (c_bs0, c_bs1)], (c_rs, c_cs),
    a_st, b_st) of an update, None where there is nothing to add; raises _No."""
    a_sh, a_st, b_sh, b_st, m, k, n, batch, out_shape = _operands(x1, x2)
    if tuple(c._shape) != out_shape:
        raise _No(f"the view's shape {c._shape} is not the product's {out_shape}")
    nbatch = math.prod(batch)
    if nbatch * m * n == 0 or k == 0:
        return None
    if nbatch * m * n >= 1 << 32:
        raise _No("32-bit element indices")
    c_st = list(c._strides)
    if x2.ndim == 1:
        c_st = c_st + [0]
    if x1.ndim == 1:
        c_st = c_st[:-1] + [0] + c_st[-1:]
    nb = len(batch)
    a_bst = _batch_strides(a_sh[:-2], a_st[:-2], batch)
    b_bst = _batch_strides(b_sh[:-2], b_st[:-2], batch)
    c_bst = [st if sz != 1 else 0 for sz, st in zip(batch, c_st[:nb])]
    bsh, bsts = _launch._collapse(list(batch), [a_bst, b_bst, c_bst])
    if len(bsh) > 2:
        raise _No("more than two batch dimensions after collapsing")
    _config(c._alloc.device, _code(c._dtype), m, n, k, nbatch, (0, 0, 0, (0, 0)),
            (0, 0, 0, (0, 0)), update=True)
    if len(bsh) == 0:
        b1, bs = 1, [(0, 0)] * 3
    elif len(bsh) == 1:
        b1, bs = bsh[0], [(0, st[0]) for st in bsts]
    else:
        b1, bs = bsh[1], [(st[0], st[1]) for st in bsts]
    return m, k, n, nbatch, b1, bs, (c_st[-2], c_st[-1]), a_st, b_st


def _matmul(x1, x2):
    """x1 @ x2 (see matmul); raises _No."""
    key = _key(x1, x2)
    plan = _plans.get(key)
    if plan is not None:
        out = plan(x1, x2)
        if out is not None:
            return out
    dev = x1._alloc.device
    dt = x1._dtype
    code = _code(dt)
    shader = _check(x1, x2)
    a_sh, a_st, b_sh, b_st, m, k, n, batch, out_shape = _operands(x1, x2)
    a_bsh, b_bsh = a_sh[:-2], b_sh[:-2]
    nbatch = math.prod(batch)
    total = nbatch * m * n
    if total == 0:
        return _launch.result_type._new(dev.alloc(0), dt, out_shape)
    if k == 0:
        from . import full

        kind = table.DTYPES[dt.name][3]
        return full(out_shape, complex(0) if kind == "c" else (0.0 if kind == "f" else 0), dt, dev)
    if total >= 1 << 32:
        raise _No("32-bit element indices")
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
        r = _matmul(_launch.contiguous(va), _launch.contiguous(vb))
        return _launch.result_type._new(r._alloc, dt, out_shape)
    if len(bsh) == 0:
        b1, bs = 1, [(0, 0), (0, 0)]
    elif len(bsh) == 1:
        b1, bs = bsh[0], [(0, bsts[0][0]), (0, bsts[1][0])]
    else:
        b1, bs = bsh[1], [(bsts[0][0], bsts[0][1]), (bsts[1][0], bsts[1][1])]
    u32 = 0xFFFFFFFF
    spec, gxy, splits, kc, mode = _config(
        dev, code, m, n, k, nbatch, (x1._offset, a_st[-2], a_st[-1], bs[0]),
        (x2._offset, b_st[-1], b_st[-2], bs[1]))
    shader = _frozen(shader, spec, dev)
    if code in GEMM_STEP_CODES and gxy is not None and splits == 1:
        gemm = _gemm_step_layout(dev, dt, nbatch, len(bsh), a_st, b_st, bs)
        if gemm is not None:
            return _cache(key, _gemm_plan(dev, dt, gemm, m, n, k, nbatch, bs, out_shape))(x1, x2)
    w = [0] * PUSH_WORDS
    w[0:15] = [m, n, k, nbatch, b1,
               0, a_st[-2] & u32, a_st[-1] & u32, bs[0][0] & u32, bs[0][1] & u32,
               0, b_st[-2] & u32, b_st[-1] & u32, bs[1][0] & u32, bs[1][1] & u32]
    w[15], w[16] = splits, kc
    w[19] = mode
    w[20] = _knob(dev, "SWIZZLE") if spec[6] == 2 else 0
    if gxy is None:
        groups = _launch.grid_1d(total * splits * spec[5], DIRECT_LOCAL)
    else:
        groups = (gxy[0], gxy[1], min(nbatch * splits, MAX_GRID))
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
            raise _No("no sum variant for split-K")
        b.partial_sizes = (dt.itemsize, dt.itemsize)
        b.floating = table.DTYPES[dt.name][3] in "fc"
        b.second_shader = sum_shader
        _reduce._pass(b, sum_shader, "sum", dst, splits, total, total, 0, 1, total, res,
                      single=splits <= SPLIT_SINGLE_PASS)
    args = [("array", dt.itemsize), ("array", dt.itemsize)]
    return _cache(key, dev.compile_plan(_launch.result_type, args, b.outputs, b.temps,
                                        b.steps))(x1, x2)


def _cache(key, plan):
    if len(_plans) >= MAX_PLANS:
        _plans.clear()
    _plans[key] = plan
    return plan


def _gemm_step_layout(dev, dt, nbatch, nbdims, a_st, b_st, bs):
    """(shader, flags, leading dimensions) of x1 @ x2 as the linalg family's GEMM step (see
    GEMM_STEP_CODES), or None where that route does not take it (this family's kernel does):
    no GEMM step variant, more than one batch dimension, an operand with neither a unit column
    nor a unit row stride, a negative stride."""
    from . import _linalg

    shader = _linalg._shader("linalg_gemm", dt, dev)
    if shader is None or nbdims > 1 or nbatch > _linalg.MAX_Z:
        return None
    flags, lds = 0, []
    for st, bsx, flag in ((a_st, bs[0][1], _linalg.G_TA), (b_st, bs[1][1], _linalg.G_TB)):
        if min(st[-2], st[-1], bsx) < 0:
            return None
        if st[-1] == 1:
            lds.append(st[-2])
        elif st[-2] == 1:
            lds.append(st[-1])
            flags |= flag
        else:
            return None
    return shader, flags, lds


def _gemm_plan(dev, dt, gemm, m, n, k, nbatch, bs, out_shape):
    """The compiled plan of x1 @ x2 as the GEMM step `gemm` (_gemm_step_layout's answer)."""
    from . import _linalg

    shader, flags, lds = gemm
    rec = _linalg._Rec(dev, dt, shader, nbatch)
    c = rec.out(nbatch * m * n, dt, out_shape)
    rec.gemm_step((c, 0, n, m * n), ((ARG, 0), None, lds[0], bs[0][1]),
                  ((ARG, 1), None, lds[1], bs[1][1]), m, n, k, flags)
    return rec.compile(2)
