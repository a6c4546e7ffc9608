"""Dense factorizations (the linalg family, glsl/linalg.comp): cholesky, LU-based det, slogdet,
solve and inv, Householder QR, for float32, float64, complex64 and complex128 stacks of matrices.

Ask first: the spec layer calls supports(op, x[, b]); the kernels below then return their
results, and raise NotNative where they cannot (a bug in the answer): no helper here answers
None for "not native" (supports() and _shader() are the questions). Every op begins with one
preamble, _setup (its shader and operands, see _Call).

Matrices of order up to BLOCKED_MIN: one workgroup factorizes one matrix of the batch (any
number of batch dimensions: they collapse to one stride, else the operand is first copied
contiguous), reading its operands in place through their strides, so a transposed or strided
input costs no copy; one dispatch. Larger ones: blocked in columns of NB (see "blocked paths"
below), every step recorded by one compiled plan per layout. Cholesky, solve and inv then read
a status word per matrix on the host (the caller raises on a non-positive-definite or singular
matrix): the one host synchronisation of a call.
"""
import math
from typing import NamedTuple

import numpy as np

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, NotNative, table

FAMILY = "linalg"
CODES = table.FAMILY_CODES[FAMILY]
PUSH_WORDS = 32
A_IN, A_B, A_W, A_P, A_O1, A_O2, A_O3, A_ST = 16, 18, 20, 22, 24, 26, 28, 30
W_A, W_B = 5, 9
FLAG_UPPER, FLAG_INV, FLAG_COMPLETE, FLAG_COPY, FLAG_FINAL = 1, 2, 4, 8, 16
FLAG_FACTORED, FLAG_INIT, FLAG_FWD, FLAG_BWD = 32, 64, 128, 256
FLAG_PANEL, FLAG_ROUT, FLAG_DIAG, FLAG_ST0 = 512, 1024, 2048, 4096
FLAG_SLOTS, FLAG_LREG, FLAG_CPANEL, FLAG_LOOK, FLAG_SGP = 32768, 65536, 131072, 262144, 524288
W_K0, W_K1 = 13, 14
MAX_GRID = 65535
MAX_PLANS = 256
# matrices of order above BLOCKED_MIN are factorized in block columns of NB (NB_OP: per
# factorization, "cholesky", "lu", "qr", where it differs) (a panel dispatch,
# then the trailing update as a matmul); smaller ones whole, in one dispatch. 32: on the H100
# (tune_linalg.py, 2026-11-23 run 8) float64 1024^2 cholesky 2.25 ms against 2.93 with 64, solve
# 11.7 against 12.9, qr 48.8 against 57.3 (a diagonal block or panel is one workgroup's work).
# The cholesky's one-step panels with look-ahead take 16 (2026-11-24 run 18: float64 1024^2
# 0.84 ms against 0.97 with 32 on one machine, 0.99 against 1.14 on another; float32 0.80
# against 0.92)
BLOCKED_MIN = 64
NB = 32
NB_OP = {"cholesky": 16}

_plans = {}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _dtypes():
    from .. import _dtypes as d

    return d


def _shader(op, dt, dev):
    code = _code(dt)
    if code not in table._FLOAT or not _launch.device_supports(dev, code):
        return None
    if code in "dD" and not dev.supports_float64:
        return None
    # the `_sg` flavour (lu_reg's pivot search and the TRSM's S_SG form by subgroup shuffles)
    # where dev has them
    return _launch.subgroup_variant(_launch.variant(FAMILY, code, code, None, dev), dev,
                                    "shuffle")


def local_size(n):
    """Workgroup size for matrices of order n: small ones take few invocations (each step of a
    column is a barrier), large ones a full 256."""
    if n <= 4:
        return 16
    if n <= 32:
        return 64
    if n <= 64:
        return 128
    return 256


def _cdiv(a, b):
    return -(-a // b)


# QR's one-workgroup path walks all M rows for each column, serially per invocation: on the
# H200 (run 31, float64) 4096 x 64 took 72 ms there against 2.6 in the blocked path (whose
# panels hold their rows in subgroups' registers and whose updates are GEMMs over many
# workgroups). Over 64 to 2048 rows, 8 to 64 columns and stacks of 1 to 256
# (benchmarks/diag_qr_tall.py --cross) the blocked path was 1.7 to 12 times faster everywhere
# (64 x 8: 50 us against 182; 256 of them: 77 against 190). So on GPUs the small path is kept
# only below that grid, for at most QR_SMALL_ROWS_GPU rows, and for stacks too long for the
# blocked path's grid (MAX_Z).
QR_SMALL_ROWS_GPU = 32


def _small_fits(dev, op, m, n, k=0, nbatch=1):
    """Whether the one-workgroup path of op (qr of m x n with k columns of Q, solve of order n
    with k right-hand sides) is taken on dev: on CPU devices where it stays within
    CPU_LOOP_LIMIT, on GPUs for QR where it is the faster path; else the blocked path."""
    nt = local_size(max(m, n) if op == "qr" else n)
    if op == "qr" and not _launch.on_cpu(dev) and m > QR_SMALL_ROWS_GPU and nbatch <= MAX_Z:
        return False
    if op == "qr":
        kmin = min(m, n)
        # Q's formation: each invocation a column of Q, down all m rows, for each reflector
        its = 2 * m * kmin * _cdiv(k, nt) + kmin * _cdiv(m, nt) * (2 + _cdiv(n, 64))
    else:
        # the substitutions: each invocation a right-hand side, n x n steps
        its = 2 * _cdiv(k, nt) * n * n + n * _cdiv(n * n, nt)
    return _launch.cpu_loops_fit(dev, its)


def _groups(nbatch):
    gx = min(nbatch, MAX_GRID)
    return (gx, -(-nbatch // gx), 1)


def _real(dt):
    d = _dtypes()
    return d._real_of.get(dt, dt)


def _fits(*arrays):
    return all(a._alloc.nbytes // a._dtype.itemsize < 1 << 31 for a in arrays)


def _batch_layout(arrays, batch):
    """Per array, its one batch stride over the broadcast batch shape `batch`, or None where
    the batch dimensions do not collapse to one."""
    if 0 in batch:
        return [0] * len(arrays)
    sts = []
    for a in arrays:
        nb = a.ndim - 2
        own = list(zip(a._shape[:nb], a._strides[:nb]))
        own = [(1, 0)] * (len(batch) - nb) + own
        sts.append([st if sz != 1 else 0 for sz, st in own])
    sh, cs = _launch._collapse(list(batch), sts)
    if len(sh) > 1:
        return None
    return [c[0] if sh else 0 for c in cs]


def _expanded(a, batch):
    """a broadcast to the batch shape `batch` (its own matrix dimensions kept), contiguous."""
    shape = tuple(batch) + a._shape[-2:]
    return _launch.contiguous(a, shape)


_OPS = {"cholesky": "linalg_cholesky", "det": "linalg_det", "slogdet": "linalg_slogdet",
        "solve": "linalg_solve", "inv": "linalg_solve", "qr": "linalg_qr", "eigh": "linalg_eigh",
        "svd": "linalg_svd"}
_BLOCKED_OPS = {"cholesky": ("linalg_gemm", "linalg_trsm", "linalg_aux"),
                "qr": ("linalg_gemm", "linalg_aux")}


def _solve_batch(a, b):
    na, nb = a.ndim - 2, b.ndim - 2
    nd = max(na, nb)
    pa = (1,) * (nd - na) + tuple(a._shape[:-2])
    pb = (1,) * (nd - nb) + tuple(b._shape[:-2])
    return tuple(max(u, v) if min(u, v) != 0 else 0 for u, v in zip(pa, pb))


def supports(op, x, b=None):
    """Whether linalg op `op` (cholesky, det, slogdet, solve, inv, qr) of x (and b, solve's
    right-hand sides, of x's dtype) runs natively: then the kernel below returns its result."""
    dev, dt = x._alloc.device, x._dtype
    if _shader(_OPS[op], dt, dev) is None or not _fits(x):
        return False
    if b is not None and (b._dtype != dt or not _fits(b)):
        return False
    if op == "eigh":
        # one workgroup a matrix, the rotations of a step in its reduction arrays
        # (NT >= n), O(n^3) a sweep in one workgroup: larger ones go to the host
        n = x._shape[-1]
        return n <= EIGH_MAX and _launch.cpu_loops_fit(dev, _jacobi_loops(dev, n, True, False))
    if op == "svd":
        # square matrices (the spec layer reduces others by a QR) in one workgroup, as eigh
        n = x._shape[-1]
        return (n == x._shape[-2] <= SVD_MAX
                and _launch.cpu_loops_fit(dev, _jacobi_loops(dev, n, True, True)))
    if op == "qr":
        order = min(x._shape[-2:])
        batch = x._shape[:-2]
        blocked = order > BLOCKED_MIN or not _small_fits(dev, "qr", *x._shape[-2:], x._shape[-2],
                                                          math.prod(batch))
    else:
        order = x._shape[-1]
        batch = _solve_batch(x, b) if b is not None else x._shape[:-2]
        k = b._shape[-1] if b is not None and b.ndim >= 2 else order
        blocked = order > BLOCKED_MIN or (op in ("solve", "inv")
                                          and not _small_fits(dev, "solve", order, order, k))
    if blocked:
        if math.prod(batch) > MAX_Z:
            return False
        if op == "qr" and not _launch.cpu_loops_fit(
                dev, 3 * min(_nb("qr"), order) * _cdiv(x._shape[-2], 256)):
            # a panel's one workgroup walks all M rows for each of its columns: past the CPU
            # loop limit from about 100000 rows (200000 x 65 came out wrong), so numpy there
            return False
        extra = _BLOCKED_OPS.get(op, ("linalg_lu", "linalg_gemm", "linalg_trsm", "linalg_aux"))
        if any(_shader(e, dt, dev) is None for e in extra):
            return False
    return True


def _u32(v):
    return int(v) & 0xFFFFFFFF


def _step(shader, op, nt, words, nbatch, bufs, gs=None, extra=()):
    """bufs: [(kind, index, writes, address word or None, offset word or None)]; gs: the
    shared array's elements (specialisation constant 2), where not the shader's default;
    extra: specialisation constants from 3."""
    buffers, patches = [], []
    for kind, idx, wr, aw, ow in bufs:
        buffers.append((kind, idx, wr))
        if aw is not None:
            patches.append((aw, ADDRESS, kind, idx))
        if ow is not None:
            patches.append((ow, OFFSET, kind, idx))
    spec = [CODES[op], nt] + ([] if gs is None else [gs]) + list(extra)
    return (shader, spec, words, _groups(nbatch), buffers, patches)


def _jacobi_spec(two):
    """Specialisation constants 3 and 4 of the Jacobi kernels: CP_RPT's default (unused there)
    and JACOBI_TWO, on where their rotations' copies are in device memory."""
    return (8, 1 if two else 0)


def _cached(key, build, *args):
    """The plan of `key` (made by build() the first time) called on args: its results as a
    tuple; raises NotNative where the plan refuses the operands."""
    plan = _plans.get(key)
    if plan is None:
        plan = build()
        if len(_plans) >= MAX_PLANS:
            _plans.clear()
        _plans[key] = plan
    out = plan(*args)
    if out is None:
        raise NotNative(f"linalg {key[0]}: the compiled plan refused its operands "
                        "(one outside the device's arenas?)")
    return out if isinstance(out, tuple) else (out,)


def _status(st):
    """The status words of a call (host read: the one synchronisation)."""
    n = st._shape[0]
    return st._alloc.device.download_bytes(st._alloc, st._offset * 4, n * 4).view(np.uint32)


class _Call(NamedTuple):
    """What every op works out first (_setup)."""
    dev: object
    dt: object
    shader: str
    ops: tuple    # the operands, or their contiguous copies broadcast to the batch shape
    sts: list     # each one's one batch stride
    batch: tuple  # the (broadcast) batch shape
    nbatch: int
    n: int        # the columns of ops[0] (a square one's order)


def _need(op, dt, dev):
    """The family's shader for op on dt; raises NotNative without one."""
    shader = _shader(op, dt, dev)
    if shader is None:
        raise NotNative(f"{op}: no {dt.name} variant of the linalg family on this device")
    return shader


def _setup(op, *ops, batch=None):
    """The preamble of every op on ops (one matrix stack, or solve's a and b): the shader, and
    the operands with their batch strides, each copied contiguous (broadcast to `batch`, by
    default ops[0]'s batch shape) where the batch dimensions do not collapse to one stride.
    Raises NotNative where op does not run natively (supports() said it would)."""
    x = ops[0]
    dev, dt = x._alloc.device, x._dtype
    shader = _need(op, dt, dev)
    for o in ops:
        if o._dtype != dt:
            raise NotNative(f"{op}: operands of {dt.name} and {o._dtype.name}")
        if not _fits(o):
            raise NotNative(f"{op}: an operand beyond 32-bit element indices")
    batch = tuple(x._shape[:-2]) if batch is None else tuple(batch)
    sts = _batch_layout(ops, batch)
    if sts is None:
        ops = tuple(_expanded(o, batch) for o in ops)
        sts = _batch_layout(ops, batch)
    return _Call(dev, dt, shader, tuple(ops), sts, batch, math.prod(batch), x._shape[-1])


def _empty(dev, dt, shape):
    return _launch.result_type._new(dev.alloc(0), dt, shape)


def _matrix_words(w, at, x, bstride):
    w[at + 1] = _u32(x._strides[-2])
    w[at + 2] = _u32(x._strides[-1])
    w[at + 3] = _u32(bstride)


def cholesky(x, upper):
    """(factor, status ndarray per matrix): the caller has asked supports("cholesky", x)."""
    s = _setup("linalg_cholesky", x)
    dev, dt, shader, (x,), (bst,), batch, nbatch, n = s
    shape = batch + (n, n)
    if nbatch == 0 or n == 0:
        return _empty(dev, dt, shape), np.zeros(0, np.uint32)
    if n > BLOCKED_MIN:
        return _cholesky_blocked(s, upper)
    nt = local_size(n)

    def build():
        w = [0] * PUSH_WORDS
        w[0:4] = [n, n, nbatch, FLAG_COPY | FLAG_FINAL | (FLAG_UPPER if upper else 0)]
        w[W_K0], w[W_K1] = 0, n
        _matrix_words(w, W_A, x, bst)
        outs = [(nbatch * n * n * dt.itemsize, dt, shape, _launch._c_strides(shape)),
                (nbatch * 4, _dtypes().uint32, (nbatch,), (1,))]
        step = _step(shader, "linalg_cholesky", nt, w, nbatch,
                     [(ARG, 0, False, A_IN, W_A), (OUT, 0, True, A_O1, None),
                      (OUT, 1, True, A_ST, None)])
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, [], [step])

    key = ("cholesky", dt, x._shape, x._strides, bool(upper), dev)
    out = _cached(key, build, x)
    return out[0], _status(out[1])


def det(x, want_slogdet=False):
    """det(x) as an Array, or (sign, mantissa, exponent) Arrays for slogdet."""
    op = "linalg_slogdet" if want_slogdet else "linalg_det"
    s = _setup(op, x)
    dev, dt, shader, (x,), (bst,), batch, nbatch, n = s
    rdt = _real(dt)
    i32 = _dtypes().int32
    if nbatch == 0 or n == 0:
        from . import full

        kind = table.DTYPES[dt.name][3]
        one = complex(1) if kind == "c" else 1.0
        if nbatch == 0:
            outs = [_empty(dev, t, batch) for t in (dt, rdt, i32)]
        else:
            outs = [full(batch, one, dt, dev), full(batch, 1.0, rdt, dev), full(batch, 0, i32, dev)]
        return tuple(outs) if want_slogdet else outs[0]
    if n > BLOCKED_MIN:
        return _det_blocked(s, op, want_slogdet)
    nt = local_size(n)
    gs = _lu_gs(dev, dt, n * n, nt, nbatch)

    def build():
        w = [0] * PUSH_WORDS
        w[0:4] = [n, n, nbatch, 0]
        _matrix_words(w, W_A, x, bst)
        outs = [(nbatch * dt.itemsize, dt, batch, _launch._c_strides(batch))]
        bufs = [(ARG, 0, False, A_IN, W_A), (TMP, 0, True, A_W, None), (TMP, 1, True, A_P, None),
                (OUT, 0, True, A_O1, None)]
        if want_slogdet:
            outs += [(nbatch * rdt.itemsize, rdt, batch, _launch._c_strides(batch)),
                     (nbatch * 4, i32, batch, _launch._c_strides(batch))]
            bufs += [(OUT, 1, True, A_O2, None), (OUT, 2, True, A_O3, None)]
        temps = [nbatch * n * n * dt.itemsize, nbatch * n * 4]
        step = _step(shader, op, nt, w, nbatch, bufs, gs)
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, temps, [step])

    key = (op, dt, x._shape, x._strides, gs, dev)
    out = _cached(key, build, x)
    return out if want_slogdet else out[0]


# Solve's whole small systems (the LU and X, n * n + n * k elements) in shared memory
# (FLAG_XSHARED, _lu_gs), and det's whole small matrix, where they fit beside the other shared
# arrays and take at most LU_SHARED_BYTES a matrix or LU_SHARED_STACK_BYTES for the stack (the
# rule of svd's and eigh's copies); else GS 1024, the LU in gS only where n * n fits that.
LU_SHARED = True
LU_SHARED_BYTES = 16384
LU_SHARED_STACK_BYTES = 4 << 20
FLAG_XSHARED = 2097152


def _lu_gs(dev, dt, elements, nt, nbatch):
    """GS for a stack of nbatch LUs whose working copies take `elements` each: the shared
    copies' size where LU_SHARED's rule takes them, else None (the kernel's default, 1024)."""
    gs = _gs_size(dev, elements)
    room = _launch.shared_bytes(dev) - _other_shared(dt, nt, perm=False)
    if (LU_SHARED and gs * dt.itemsize <= room
            and _copies_pay(elements * dt.itemsize, nbatch, LU_SHARED_BYTES, LU_SHARED_STACK_BYTES)):
        return gs
    return None


def solve(a, b, inv=False):
    """(X, status ndarray) with X = a^-1 b (b: (..., n, k), batch dimensions broadcasting with
    a's), or X = a^-1 where inv."""
    if inv:
        s = _setup("linalg_solve", a)
        k = s.n
    else:
        s = _setup("linalg_solve", a, b, batch=_solve_batch(a, b))
        k = s.ops[1]._shape[-1]
    dev, dt, shader, ops, sts, batch, nbatch, n = s
    shape = batch + (n, k)
    if nbatch == 0 or n == 0 or k == 0:
        return _empty(dev, dt, shape), np.zeros(0, np.uint32)
    if n > BLOCKED_MIN or not _small_fits(dev, "solve", n, n, k):
        return _solve_blocked(s, k, inv)
    nt = local_size(n)
    gs = _lu_gs(dev, dt, n * n + n * k, nt, nbatch)

    def build():
        w = [0] * PUSH_WORDS
        w[0:4] = [n, k, nbatch, (FLAG_INIT | FLAG_FWD | FLAG_BWD | (FLAG_INV if inv else 0)
                                 | (FLAG_XSHARED if gs else 0))]
        w[W_K0], w[W_K1] = 0, n
        _matrix_words(w, W_A, ops[0], sts[0])
        bufs = [(ARG, 0, False, A_IN, W_A)]
        args = [("array", dt.itemsize)]
        if not inv:
            _matrix_words(w, W_B, ops[1], sts[1])
            bufs.append((ARG, 1, False, A_B, W_B))
            args.append(("array", dt.itemsize))
        bufs += [(TMP, 0, True, A_W, None), (TMP, 1, True, A_P, None),
                 (OUT, 0, True, A_O1, None), (OUT, 1, True, A_ST, None)]
        outs = [(nbatch * n * k * dt.itemsize, dt, shape, _launch._c_strides(shape)),
                (nbatch * 4, _dtypes().uint32, (nbatch,), (1,))]
        temps = [nbatch * n * n * dt.itemsize, nbatch * n * 4]
        step = _step(shader, "linalg_solve", nt, w, nbatch, bufs, gs)
        return dev.compile_plan(_launch.result_type, args, outs, temps, [step])

    key = ("solve", dt, inv, batch, gs) + tuple((o._shape, o._strides) for o in ops) + (dev,)
    out = _cached(key, build, *ops)
    return out[0], _status(out[1])


def qr(x, complete):
    """(Q, R) Arrays of Householder QR."""
    s = _setup("linalg_qr", x)
    dev, dt, shader, (x,), (bst,), batch, nbatch, n = s
    m = x._shape[-2]
    kmin = min(m, n)
    q = r = m if complete else kmin
    qshape, rshape = batch + (m, q), batch + (r, n)
    if nbatch == 0 or m == 0 or (n == 0 and not complete):
        return _empty(dev, dt, qshape), _empty(dev, dt, rshape)
    if n == 0:
        # complete mode of an m x 0 matrix: Q the identity, R empty
        from . import eye

        return _launch.contiguous(eye(m, m, 0, dt, dev), qshape), _empty(dev, dt, rshape)
    if kmin > BLOCKED_MIN or not _small_fits(dev, "qr", m, n, q, nbatch):
        return _qr_blocked(s, m, complete)
    nt = local_size(max(m, n))

    def build():
        w = [0] * PUSH_WORDS
        w[0:5] = [m, n, nbatch, FLAG_COMPLETE if complete else 0, q]
        _matrix_words(w, W_A, x, bst)
        outs = [(nbatch * m * q * dt.itemsize, dt, qshape, _launch._c_strides(qshape)),
                (nbatch * r * n * dt.itemsize, dt, rshape, _launch._c_strides(rshape))]
        temps = [max(nbatch * m * n, 1) * dt.itemsize, max(nbatch * kmin, 1) * dt.itemsize]
        step = _step(shader, "linalg_qr", nt, w, nbatch,
                     [(ARG, 0, False, A_IN, W_A), (TMP, 0, True, A_W, None),
                      (TMP, 1, True, A_P, None), (OUT, 0, True, A_O1, None),
                      (OUT, 1, True, A_O2, None)])
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, temps, [step])

    key = ("qr", dt, x._shape, x._strides, bool(complete), dev)
    return _cached(key, build, x)


# eigh: the largest order served natively (the workgroup holds a step's n / 2 rotations in its
# reduction arrays of NT <= 256 entries; a sweep is O(n^3) work in one workgroup), the most
# sweeps (Jacobi converges quadratically: 6 to 12 sweeps in float64 are usual)
EIGH_MAX = 256
EIGH_SWEEPS = 30
# the most sweeps of eigh and svd on CPU devices, where every loop iteration counts against
# CPU_LOOP_LIMIT (float64 Jacobi converges in 6 to 12 sweeps at the orders served there)
JACOBI_SWEEPS_CPU = 16


def _sweeps(dev, sweeps):
    return min(sweeps, JACOBI_SWEEPS_CPU) if _launch.on_cpu(dev) else sweeps


def _jacobi_loops(dev, n, vectors, svd):
    """About the most loop iterations an invocation of eigh (svd: of the one-sided Jacobi SVD)
    of order n runs: the sweeps' steps, and the set-up and the ordering (svd: the completion of
    U where every singular value is 0)."""
    nt = _eigh_nt(n)
    mp = n + (n & 1)
    pairs = mp // 2
    if svd:
        g = max(nt // pairs, 1)
        step = _cdiv(n, g) + g + 2 + _cdiv(pairs * (2 * n if vectors else n), nt)
        ends = 2 * n + 3 * _cdiv(n * n, nt)
        if vectors:
            ends += n * (3 * n * _cdiv(n, nt) + n + nt)
        sweeps = _sweeps(dev, SVD_SWEEPS)
    else:
        step = 2 + _cdiv(pairs * pairs, nt) + (_cdiv(n * pairs, nt) if vectors else 0)
        ends = n * _cdiv(n, nt) + 3 * _cdiv(n * n, nt)
        sweeps = _sweeps(dev, EIGH_SWEEPS)
    return sweeps * ((mp - 1) * (step + 1) + nt + 2) + ends + 3 * nt


FLAG_VECTORS, FLAG_SHARED = 8192, 16384


def _eigh_nt(n):
    m = n + (n & 1)
    nt = 64
    while nt < m or (nt < 256 and nt * 16 < n * n):
        nt *= 2
    return nt


def _eigh_gs(dev, dt, n, nt, vectors=False, nbatch=1):
    """(GS, working copy shared, V shared) for a stack of nbatch eighs of order n: n * n (its
    working copy in shared memory), and with vectors 2 n * n (V after it: FLAG_VSHARED; at
    most EIGH_V_SHARED_BYTES, or EIGH_V_SHARED_STACK_BYTES for the whole stack), where that fits
    the device's shared memory beside the other shared arrays, else 1024 (device memory)."""
    room = _launch.shared_bytes(dev) - _other_shared(dt, nt, perm=False)
    both = _gs_size(dev, 2 * n * n)
    small = _copies_pay(2 * n * n * dt.itemsize, nbatch, EIGH_V_SHARED_BYTES, EIGH_V_SHARED_STACK_BYTES)
    if vectors and small and both * dt.itemsize <= room:
        return both, True, True
    need = _gs_size(dev, n * n)
    if need * dt.itemsize <= room:
        return need, True, False
    return 1024, False, False


def _copies_pay(copy_bytes, nbatch, per_matrix, per_stack):
    """Whether a stack of nbatch matrices keeps working copies of copy_bytes each in shared
    memory (where they fit): up to per_matrix bytes a matrix, since more leave fewer workgroups
    an SM, or up to per_stack bytes for the whole stack, whose few workgroups fit at once anyway."""
    return copy_bytes <= per_matrix or nbatch * copy_bytes <= per_stack


def _gs_size(dev, elements):
    """GS for a shared array of at least `elements`, from 1024: on CPU devices the next power of
    two, on GPUs the next of 1, 1.25, 1.5 and 1.75 times one. Each GS is a pipeline of its own,
    compiled once per process and device; sizes exact to the order made one per order (on
    lavapipe a second or more each: minutes of the test suite). On a GPU the shared bytes of a
    workgroup decide how many of a stack's workgroups an SM holds: powers of two made a stack of
    1000 svds of 32^2 in float32 45 % slower than exact sizes (H200, run 32)."""
    if elements <= 1024:
        return 1024
    top = 1 << (elements - 1).bit_length()
    if _launch.on_cpu(dev):
        return top
    return next(top // 8 * q for q in (5, 6, 7, 8) if top // 8 * q >= elements)


# eigh's V in shared memory beside the working copy where both take at most this many bytes
# (_eigh_gs; 0: V always in device memory). H200, stacks of 1000, GPU time: run 31, float32 32^2
# 2.20 -> 1.81 ms, float64 16^2 0.67 -> 0.61; run 32 (the permutation's 8 KiB gone), float64
# 24^2 (9 KiB) 0.97 -> 0.86, but float64 32^2 (16 KiB) 1.87 -> 2.59: fewer workgroups fit an SM
EIGH_V_SHARED_BYTES = 12288
# ... or where the whole stack's copies take at most this many bytes (as svd's): a few matrices
# leave most SMs idle, so fewer workgroups an SM costs nothing
EIGH_V_SHARED_STACK_BYTES = 4 << 20
# Stacks of at most EIGH_WIDE_BATCH matrices of order EIGH_WIDE_MIN or more run EIGH_WIDE_NT
# invocations a matrix (0: never): one matrix leaves the GPU idle but for its workgroup, whose
# steps then loop fewer times.
EIGH_WIDE_BATCH = 16
EIGH_WIDE_MIN = 32
EIGH_WIDE_NT = 512
EIGH_WIDE_CPU = False  # (lavapipe runs a workgroup on one core: wider is only slower; tests set it)
FLAG_VSHARED = 1048576


def eigh(x, want_vectors):
    """(eigenvalues (real dtype), eigenvectors or None) Arrays of symmetric or Hermitian x (its
    lower triangle), the eigenvalues ascending: the caller has asked supports("eigh", x)."""
    if x._shape[-1] > EIGH_MAX:
        raise NotNative(f"eigh of order {x._shape[-1]}: beyond EIGH_MAX ({EIGH_MAX})")
    dev, dt, shader, (x,), (bst,), batch, nbatch, n = _setup("linalg_eigh", x)
    wshape, vshape = batch + (n,), batch + (n, n)
    rdt = _real(dt)
    if nbatch == 0 or n == 0:
        return _empty(dev, rdt, wshape), _empty(dev, dt, vshape) if want_vectors else None
    nt = _eigh_nt(n)
    if (nbatch <= EIGH_WIDE_BATCH and n >= EIGH_WIDE_MIN
            and nt < EIGH_WIDE_NT <= _launch.max_invocations(dev)
            and (EIGH_WIDE_CPU or not _launch.on_cpu(dev))):
        # few matrices: a wider workgroup each, where the working copy still fits shared memory
        # as it does with the usual width
        if _eigh_gs(dev, dt, n, EIGH_WIDE_NT)[1] or not _eigh_gs(dev, dt, n, nt)[1]:
            nt = EIGH_WIDE_NT
    gs, shared, vshared = _eigh_gs(dev, dt, n, nt, want_vectors, nbatch)

    def build():
        w = [0] * PUSH_WORDS
        flags = ((FLAG_VECTORS if want_vectors else 0) | (FLAG_SHARED if shared else 0)
                 | (FLAG_VSHARED if vshared else 0))
        w[0:5] = [n, n, nbatch, flags, _sweeps(dev, EIGH_SWEEPS)]
        _matrix_words(w, W_A, x, bst)
        outs = [(nbatch * n * rdt.itemsize, rdt, wshape, _launch._c_strides(wshape))]
        bufs = [(ARG, 0, False, A_IN, W_A), (OUT, 0, True, A_O1, None)]
        temps = [4 if shared else nbatch * n * n * dt.itemsize]
        bufs.append((TMP, 0, True, A_W, None))
        if want_vectors:
            outs.append((nbatch * n * n * dt.itemsize, dt, vshape, _launch._c_strides(vshape)))
            temps.append(4 if vshared else nbatch * n * n * dt.itemsize)
            bufs += [(TMP, 1, True, A_P, None), (OUT, 1, True, A_O2, None)]
        step = _step(shader, "linalg_eigh", nt, w, nbatch, bufs, gs,
                     _jacobi_spec(want_vectors and not vshared))
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, temps, [step])

    key = ("eigh", dt, x._shape, x._strides, bool(want_vectors), dev)
    out = _cached(key, build, x)
    return out[0], out[1] if want_vectors else None


# svd: the largest order served natively (one workgroup a matrix, as eigh) and the most sweeps
# (one-sided Jacobi converges quadratically: 6 to 12 sweeps are usual; more: status 1)
SVD_MAX = 256
SVD_SWEEPS = 60
# Whether the native svd pays on a GPU (svd_pays). The one-sided Jacobi runs a matrix in one
# workgroup: fine for stacks, slow for one large matrix. H200, run 31 (benchmarks/diag_svd.py),
# float64: a step of order n takes about SVD_STEP_US[0] + SVD_STEP_US[1] n^2 us (64: 10.5,
# 128: 30, 256: 110), about SVD_TYPICAL_SWEEPS sweeps of n - 1 steps, SVD_CONCURRENT matrices at
# once; a tall matrix's blocked QR about SVD_QR_US per element (4096 x 64: 2.6 ms). numpy's svd
# with the round trip: about SVD_HOST_US[0] + SVD_HOST_US[1] m n^2 us a matrix (64^2: 0.6 ms,
# 256^2: 12.5, 4096 x 64: 13.6). So one 256^2 matrix took 299 ms native, 100 of 64^2 6.2 ms
# against numpy's 68.
SVD_STEP_US = (3.0, 1.7e-3)
SVD_TYPICAL_SWEEPS = 10
SVD_CONCURRENT = 256
SVD_QR_US = 0.01
SVD_HOST_US = (300.0, 8e-4)


def svd_pays(x):
    """Whether the native svd of x (any shape the spec layer serves natively) is expected to
    beat numpy's with its round trip: always on CPU devices (the native path is what they test)
    and in strict mode (which never leaves the device); on GPUs by the estimates above."""
    dev = x._alloc.device
    if _launch.on_cpu(dev) or _launch.strict():
        return True
    m, n = sorted(x._shape[-2:], reverse=True)
    nbatch = math.prod(x._shape[:-2])
    waves = _cdiv(nbatch, SVD_CONCURRENT)
    step = SVD_STEP_US[0] + SVD_STEP_US[1] * n * n
    native = waves * SVD_TYPICAL_SWEEPS * max(n - 1, 1) * step
    if m > n:
        native += SVD_QR_US * nbatch * m * n
    host = nbatch * (SVD_HOST_US[0] + SVD_HOST_US[1] * m * n * n)
    return native <= host


def _svd_gs(dev, dt, n, nt, vectors, nbatch=1):
    """(GS, shared) for a stack of nbatch svds of order n: its 3 NT partial sums, then W (and V)
    in shared memory where they fit the device's beside the other shared arrays and take at
    most SVD_SHARED_BYTES, or the stack's copies at most SVD_SHARED_STACK_BYTES (FLAG_SHARED: a
    step's loads and stores then skip device memory, which is what a batch of small matrices
    waits on), else 1024 (the partial sums and the completion's vector only)."""
    copies = n * n * (2 if vectors else 1)
    need = _gs_size(dev, 3 * nt + copies)
    small = _copies_pay(copies * dt.itemsize, nbatch, SVD_SHARED_BYTES, SVD_SHARED_STACK_BYTES)
    fits = need * dt.itemsize + _other_shared(dt, nt, perm=False) <= _launch.shared_bytes(dev)
    if SVD_SHARED and small and fits:
        return need, True
    return 1024, False


# W and V in shared memory where they fit (_svd_gs); False: always in device memory. H200, run
# 32, GPU time: stacks of 1000, float32 32^2 (8 KiB of copies) 2.19 ms in device memory against
# 1.43 shared, float64 16^2 0.71 against 0.56, but float64 24^2 (9 KiB) 1.71 against 1.82,
# float32 40^2 (12.5 KiB) 3.06 against 3.16 and float64 32^2 (16 KiB) 2.82 against 3.28: fewer
# workgroups fit an SM. Small stacks gain whatever the order: 200 float32 48^2 (18 KiB, 3.6 MB
# in all) 2.58 against 1.76, 100 float64 32^2 2.54 against 1.68.
SVD_SHARED = True
SVD_SHARED_BYTES = 8192
SVD_SHARED_STACK_BYTES = 4 << 20


def svd(x, want_vectors):
    """(singular values descending (real dtype), U, Vh (None without vectors), status ndarray per
    matrix: 1 where x held a NaN or the sweeps did not converge, 2 where it held an inf (its
    results NaN)) of square matrices x, by one-sided Jacobi: the caller has asked
    supports("svd", x)."""
    if x._shape[-1] > SVD_MAX or x._shape[-1] != x._shape[-2]:
        raise NotNative(f"svd of {x._shape[-2:]}: square matrices up to SVD_MAX ({SVD_MAX}) only")
    dev, dt, shader, (x,), (bst,), batch, nbatch, n = _setup("linalg_svd", x)
    sshape, ushape = batch + (n,), batch + (n, n)
    rdt = _real(dt)
    if nbatch == 0 or n == 0:
        u = _empty(dev, dt, ushape) if want_vectors else None
        return _empty(dev, rdt, sshape), u, u, np.zeros(0, np.uint32)
    nt = _eigh_nt(n)
    gs, shared = _svd_gs(dev, dt, n, nt, want_vectors, nbatch)

    def build():
        w = [0] * PUSH_WORDS
        flags = (FLAG_VECTORS if want_vectors else 0) | (FLAG_SHARED if shared else 0)
        w[0:5] = [n, n, nbatch, flags, _sweeps(dev, SVD_SWEEPS)]
        _matrix_words(w, W_A, x, bst)
        outs = [(nbatch * n * rdt.itemsize, rdt, sshape, _launch._c_strides(sshape)),
                (nbatch * 4, _dtypes().uint32, (nbatch,), (1,))]
        bufs = [(ARG, 0, False, A_IN, W_A), (TMP, 0, True, A_W, None), (OUT, 0, True, A_O1, None),
                (OUT, 1, True, A_ST, None)]
        # (W and V unused in device memory where they are in shared memory)
        temps = [4 if shared else nbatch * n * n * dt.itemsize]
        if want_vectors:
            outs += [(nbatch * n * n * dt.itemsize, dt, ushape, _launch._c_strides(ushape))] * 2
            temps.append(4 if shared else nbatch * n * n * dt.itemsize)
            bufs += [(TMP, 1, True, A_P, None), (OUT, 2, True, A_O2, None), (OUT, 3, True, A_O3, None)]
        step = _step(shader, "linalg_svd", nt, w, nbatch, bufs, gs, _jacobi_spec(not shared))
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, temps, [step])

    key = ("svd", dt, x._shape, x._strides, bool(want_vectors), dev)
    out = _cached(key, build, x)
    st = _status(out[1])
    if want_vectors:
        return out[0], out[2], out[3], st
    return out[0], None, None, st


# -- blocked paths: every step of a factorization recorded as one compiled plan per layout ----
# Steps over many workgroups (a batch item per gl_WorkGroupID.z): the GEMM of the trailing
# updates, the triangular solves of the off-diagonal blocks (TRSM) and elementwise steps (AUX);
# in one workgroup per matrix: the diagonal block of a cholesky, the tall panel of an LU or QR.
G_TA, G_TB, G_CA, G_CB, G_NEG, G_ACC, G_LOWER = 1, 2, 4, 8, 16, 32, 64
GEMM_TILE = 64
GEMM_KSTEP = 8   # the GEMM step's K step (glsl/linalg.comp GK)
S_UPPER, S_UNIT, S_CONJ, S_SHARED, S_TSHARED, S_SG = 1, 2, 4, 8, 16, 32
TRSM_SLOTS = 8   # rows a lane of the subgroup TRSM holds (glsl/linalg.comp TRSM_SLOTS)
X_COPY, X_TRIL, X_TRIU, X_ZLOW, X_EYE, X_GATHER, X_PERM, X_SPLITSUM = 1, 2, 3, 4, 5, 6, 7, 8
X_UPPER, X_IDENT, X_NEG, X_ACC = 16, 32, 64, 128
# split-K of the GEMM steps: a product of fewer than SPLIT_TILES tiles (GEMM_TILE square, all
# batch items) with K of at least 2 * SPLIT_CHUNK (QR's V^H A22: nb rows, K the panel's height)
# is cut in chunks of at least SPLIT_CHUNK for about SPLIT_GROUPS workgroups, its partial
# products summed by an AUX step (G_LOWER products are not split: their skipped tiles would
# leave the partials unset)
SPLIT_TILES = 64
SPLIT_GROUPS = 256
SPLIT_CHUNK = 64
# the most of K a GEMM step's tile loads at once (glsl/linalg.comp GKC): its shared array is sized
# for min(K, GEMM_KC) (8: the K step of 8 every GEMM step had before). 16: on the H100 (run 18)
# float64 1024^2 qr 7.71 ms against 8.11 with 8, 8.22 with 32 and 8.37 with 64; solve 6.58
# against 6.92; cholesky the same within 2 %
GEMM_KC = 16
# the widest panel of the blocked QR's panel step (glsl/linalg.comp QR_NBMAX)
QR_NBMAX = 64
# the widest register-held LU panel (glsl/linalg.comp LU_REG)
LU_REG_COLS = 16
# columns of X per TRSM workgroup (256 / TRSM_CW invocations per column); 8: on the H100, float64
# 1024^2 cholesky 2.29 ms against 2.93 with 16, solve 11.2 against 12.9 (run 8)
TRSM_CW = 8
# the most elements of the shared array (GS; 4096: a 64 x 64 cholesky diagonal block)
SHARED_MAX = 4096
# invocations of the one-workgroup-a-matrix steps (panels, the cholesky diagonal block): 256,
# or up to 1024 where the device's shared memory holds their reduction arrays. 1024: on the H100,
# float64 1024^2 qr 38.2 ms against 57.3 with 256, and no slower elsewhere (run 8)
PANEL_NT = 1024
# the TRSM's block of X in shared memory (else read and written in device memory), and its
# triangle's block too where both fit
TRSM_SHARED = True
TRSM_TSHARED = True
# triangles of up to TRSM_SLOTS times the subgroup size solved a column a subgroup, by shuffles
# (the `_sg` variants; S_SG), else the forms above
TRSM_SG = True
# invocations of the cholesky diagonal block's step (0: PANEL_NT's, the panels'). 256: on the
# H100, float64 1024^2 cholesky 1.73 ms against 1.96 with 1024 (the panels' 1024 invocations
# wait longer at each of the block's barriers than they gain; 2026-11-24 run 16)
CHOL_NT = 256
# the cholesky panel as one step (glsl/linalg.comp chol_panel: every workgroup factorizes the
# diagonal block again beside CHOL_CR rows below it (0: as many as the block's columns), in
# registers, a barrier a column), else the diagonal block's step and a TRSM; CHOL_PANEL_NT
# invocations, a column of the tile a lane of 16, 32 or 64 and up to CP_RPT_MAX tile rows an
# invocation (specialisation constant CP_RPT: the least power of two from 4 that holds them)
CHOL_PANEL = True
CHOL_CR = 0
CHOL_PANEL_NT = 256
CP_RPT_MAX = 32
# look-ahead (with CHOL_PANEL, CHOL_PANEL_NT 256): each block's trailing update made by the
# next block's panel step (its panel workgroups update their own tile first, more workgroups
# the rest as GEMM tiles), so a block is one dispatch
CHOL_LOOK = True
# LU panels factorized in inner blocks of PANEL_IB columns (0: whole, one dispatch a panel).
# 16: the one-workgroup column steps then update 16 columns rather than up to NB (a quarter
# of the single-workgroup memory traffic of a panel), for three more TRSM + GEMM pairs a panel
# (on the H100, run 8: float64 1024^2 solve 12.9 ms against 23.9 with 0)
PANEL_IB = 16
# the LU panel step by column slots times row groups (lu_slots in glsl/linalg.comp), else one
# column's elements spread over the workgroup (lu). lu: on the H100 (2026-11-24 run 15,
# tune_linalg.py), float64 1024^2 solve 10.3 ms against 12.7 with lu_slots (the QR panel's
# layout, which took QR from 21.6 to 11.5 ms, loses here: a pivot search and a pivot-row copy
# a column besides the update)
LU_SLOTS = False
# LU panels of up to 16 columns (glsl/linalg.comp LU_REG) and as many rows as the panel step's
# invocations held in registers, a row an invocation (lu_reg; its pivot search by subgroup
# shuffles in the `_sg` variants); larger ones as LU_SLOTS says. On the H100 (run 16), float64
# 1024^2 solve 6.6 ms against 10.4 without, inv 7.0 against 10.7
LU_REG = True
# QR panels held in registers a column a subgroup (glsl/linalg.comp qr_sgp; the `_sg` variants,
# panels of at most QRS_RPT times the subgroup size rows), else qr_panel; with it the blocked
# QR takes panels of QR_SGP_NB columns
QR_SGP = True
QR_SGP_NB = 16
QRS_RPT = 32
# the trailing updates: "plan" (the GEMM steps above, the whole call one compiled plan) or
# "matmul" (_matmul.matmul_update between steps recorded one by one: a tuning comparison; on the
# H100 the plan was 1.3-1.5x faster, run 8)
UPDATE = "plan"
# most workgroups of an AUX step (grid-stride loop)
AUX_GROUPS = 1024
MAX_Z = 65535


def shared_elements(dev, dt):
    """GS (specialisation constant 2): the elements of the shared array that holds the GEMM's
    tiles, the TRSM's block of X and the cholesky diagonal block: a power of two from 1024, as
    large as the device's shared memory allows beside the kernels' other shared arrays (the
    reduction arrays of 256 invocations and the permutation's 2048 words)."""
    limit, other = _launch.shared_bytes(dev), _other_shared(dt, 256)
    g = 1024
    while g < SHARED_MAX and 2 * g * dt.itemsize + other <= limit:
        g *= 2
    return g


def _other_shared(dt, nt, perm=True):
    """Bytes of the linalg kernel's shared arrays besides GS for nt invocations: the reduction
    arrays (a real, a word and an element each), the permutation's 2048 words (the AUX step's
    only; perm=False: a kernel of one other op, as eigh's or svd's), the QR panel's QR_NBMAX + 4
    elements, the LU panel's pivot (a word and a real) and lu_reg's interchange words (5
    LU_REG_COLS)."""
    it = dt.itemsize
    real = it // 2 if table.DTYPES[dt.name][3] == "c" else it
    return (nt * (real + 4 + it) + (2048 if perm else 1) * 4 + (QR_NBMAX + 4) * it + 4 + real
            + 5 * LU_REG_COLS * 4)


class _Rec:
    """The steps, results and temporaries of one blocked factorization (one compiled plan)."""

    def __init__(self, dev, dt, shader, nbatch):
        self.dev, self.dt, self.shader, self.nbatch = dev, dt, shader, nbatch
        self.steps, self.temps, self.outs = [], [], []
        self.gs = shared_elements(dev, dt)   # the most a step may take
        self.scratch = None                  # the split GEMMs' partial products (one temporary)

    def panel_nt(self, gs=1024):
        """The workgroup size of the one-workgroup-a-matrix steps: PANEL_NT, halved (to 256)
        until the reduction arrays (NT each) fit the device's shared memory beside GS."""
        limit = _launch.shared_bytes(self.dev)
        nt = max(256, min(PANEL_NT, 1024))
        while nt > 256 and _other_shared(self.dt, nt) + gs * self.dt.itemsize > limit:
            nt //= 2
        return nt

    def out(self, count, dt, shape):
        shape = tuple(shape)
        self.outs.append((max(count, 1) * dt.itemsize, dt, shape, _launch._c_strides(shape)))
        return (OUT, len(self.outs) - 1)

    def tmp(self, nbytes):
        self.temps.append(max(int(nbytes), 4))
        return (TMP, len(self.temps) - 1)

    def fit(self, count):
        """GS for a step that keeps `count` elements in the shared array: the least power of
        two from 1024 (the GEMM's tiles) that holds them, or 1024 where none within the
        device's limit does (the step then works in device memory)."""
        g = 1024
        while g < count:
            g *= 2
        return g if g <= self.gs else 1024

    def step(self, op, words, groups, bufs, nt=256, gs=1024, extra=()):
        """bufs: [(ref, writes, address word, offset word or None)]; extra: specialisation
        constants from 3"""
        w = [_u32(v) for v in words] + [0] * (PUSH_WORDS - len(words))
        seen, buffers, patches = {}, [], []
        for ref, wr, aw, ow in bufs:
            if ref in seen:
                i = seen[ref]
                buffers[i] = (ref[0], ref[1], buffers[i][2] or wr)
            else:
                seen[ref] = len(buffers)
                buffers.append((ref[0], ref[1], wr))
            patches.append((aw, ADDRESS, ref[0], ref[1]))
            if ow is not None:
                patches.append((ow, OFFSET, ref[0], ref[1]))
        self.steps.append((self.shader, [CODES[op], nt, gs, *extra], w, groups, buffers,
                           patches))

    def whole(self, op, words, bufs, nt=256, gs=1024):
        """A step of one workgroup per matrix (the original kernels' grid)."""
        self.step(op, words, _groups(self.nbatch), bufs, nt, gs)

    def gemm(self, c, a, b, m, n, k, flags):
        """C = (G_ACC: C) +- op(A) op(B); each operand (ref, element offset, ld, batch stride)."""
        if m == 0 or n == 0:
            return
        if UPDATE == "matmul":
            self.steps.append(("mm", c, a, b, m, n, k, flags))
            return
        splits, kc = self.splits(m, n, k, flags)
        if splits == 1:
            self.gemm_step(c, a, b, m, n, k, flags)
            return
        part = self.scratch_ref(self.nbatch * splits * m * n * self.dt.itemsize)
        self.gemm_step((part, 0, n, splits * m * n), a, b, m, n, k, flags, splits, kc)
        mode = X_SPLITSUM | (X_NEG if flags & G_NEG else 0) | (X_ACC if flags & G_ACC else 0)
        w = [m, n, 0, mode, splits, 0, 0, 0, splits * m * n, c[1], c[2], c[3]]
        g = (max(1, min(-(-m * n // 256), AUX_GROUPS)), 1, self.nbatch)
        self.step("linalg_aux", w, g, [(c[0], True, 18, None), (part, False, 16, None)])

    def splits(self, m, n, k, flags):
        """(chunks, chunk) of K for a product C (m x n) += A (m x k) B: (1, k) unless its
        tiles are too few for the GPU and K long (SPLIT_TILES)."""
        tiles = -(-m // GEMM_TILE) * -(-n // GEMM_TILE) * self.nbatch
        if flags & G_LOWER or tiles >= SPLIT_TILES or k < 2 * SPLIT_CHUNK:
            return 1, k
        s = max(2, min(k // SPLIT_CHUNK, -(-SPLIT_GROUPS // tiles)))
        kc = -(-k // s)
        kc = -(-kc // GEMM_KSTEP) * GEMM_KSTEP
        s = -(-k // kc)
        if -(-m // GEMM_TILE) * s > MAX_GRID:   # the grid's y: C's tile rows times the chunks
            return 1, k
        return s, kc

    def scratch_ref(self, nbytes):
        """The plan's one scratch temporary, grown to at least nbytes (its users are steps
        in order: each split GEMM's partials are summed before the next split writes)."""
        if self.scratch is None:
            self.scratch = self.tmp(nbytes)
        else:
            i = self.scratch[1]
            self.temps[i] = max(self.temps[i], int(nbytes))
        return self.scratch

    def gemm_step(self, c, a, b, m, n, k, flags, splits=1, kc=0):
        """The GEMM step gemm records (also _matmul's float64 route). An operand's element
        offset None: an argument's own view offset, patched in at each call. splits > 1:
        chunk s of kc of K into C + s m ld (the partials of a split product)."""
        w = [m, n, k, flags, splits, a[1] or 0, a[2], a[3], b[1] or 0, b[2], b[3], c[1], c[2],
             c[3], kc]
        g = (-(-n // GEMM_TILE), -(-m // GEMM_TILE) * splits, self.nbatch)
        self.step("linalg_gemm", w, g, [(a[0], False, 16, 5 if a[1] is None else None),
                                        (b[0], False, 18, 8 if b[1] is None else None),
                                        (c[0], True, 20, None)],
                  gs=self.gemm_gs(kc if splits > 1 else k))

    def gemm_gs(self, k):
        """GS for GEMM tiles over K = k: room for both tiles' min(k, GEMM_KC) columns (rounded
        up to the K step of 8), within the device's limit."""
        kc = min(-(-k // GEMM_KSTEP) * GEMM_KSTEP, max(GEMM_KC, GEMM_KSTEP))
        gs = 1024
        while gs < 2 * GEMM_TILE * kc and 2 * gs <= self.gs:
            gs *= 2
        return gs

    def trsm(self, t, x, nb, ncols, flags):
        """X = T^-1 X; t (ref, offset, ld, batch stride), x (ref, offset, rs, cs, batch stride)."""
        if ncols == 0 or nb == 0:
            return
        cw = TRSM_CW
        sg = _launch.subgroup_size(self.dev)
        if TRSM_SG and self.shader.endswith("_sg") and 4 <= sg and nb <= TRSM_SLOTS * sg \
                and nb * nb <= self.gs:
            # a column a subgroup (the shader falls back to the forms below where its
            # subgroups are narrower than the device reported)
            flags |= S_SG
            cw = max(1, 256 // sg)
        gs = 1024
        if TRSM_SHARED:
            # X's block in the shared tile of 2 * 8 * GEMM_TILE elements
            while cw > 1 and nb * cw > self.gs:
                cw //= 2
            flags |= S_SHARED
            gs = self.fit(nb * cw)
            if TRSM_TSHARED and nb * (nb + cw) <= self.gs:
                # T's block beside X's
                flags |= S_TSHARED
                gs = self.fit(nb * (nb + cw))
        w = [nb, ncols, 0, flags, cw, t[1], t[2], t[3], x[1], x[2], x[3], x[4]]
        g = (-(-ncols // cw), 1, self.nbatch)
        if flags & S_SG:
            gs = max(gs, self.fit(nb * nb))
        self.step("linalg_trsm", w, g, [(t[0], False, 16, None), (x[0], True, 18, None)],
                  gs=gs)

    def aux(self, mode, rows, cols, d, src=None, perm=None, piv=None):
        """An elementwise AUX step on D (rows x cols a batch item); src (ref, offset, rs, cs,
        batch stride) with the offset patched for an argument."""
        w = [rows, cols, 0, mode, 0, 0, 0, 0, 0]
        bufs = [(d, True, 18, None)]
        if src is not None:
            w[5:9] = src[1:5]
            bufs.append((src[0], False, 16, 5 if src[0][0] == ARG else None))
        if perm is not None:
            bufs.append((perm, mode & 15 == X_PERM, 20, None))
        if piv is not None:
            bufs.append((piv, False, 22, None))
        if mode & 15 == X_PERM:
            g = (1, 1, self.nbatch)
        else:
            g = (max(1, min(-(-rows * cols // 256), AUX_GROUPS)), 1, self.nbatch)
        self.step("linalg_aux", w, g, bufs)

    def run(self, args):
        """Records the steps at once (UPDATE == "matmul": the products through
        _matmul.matmul_update / matmul, outside any plan); the results, as a plan's."""
        from . import assign, elementwise
        from . import _matmul

        dev, dt = self.dev, self.dt
        outs = [_launch.result_type._new(dev.alloc(nb), odt, shape, strides)
                for nb, odt, shape, strides in self.outs]
        temps = [dev.alloc(nb) for nb in self.temps]

        def arr(ref):
            return (args if ref[0] == ARG else outs)[ref[1]]

        def alloc(ref):
            return temps[ref[1]] if ref[0] == TMP else arr(ref)._alloc

        def view(op, rows, cols, trans, conj):
            """op(X) as a (nbatch, rows, cols) view: X[j][i] where trans."""
            ref, off, ld, bs = op
            st = (bs, 1, ld) if trans else (bs, ld, 1)
            v = _launch.result_type._new(alloc(ref), dt, (self.nbatch, rows, cols), st, off)
            if conj and table.DTYPES[dt.name][3] == "c":
                v = elementwise("conj", [v], dt, v._shape)
            return v

        for st in self.steps:
            if st[0] == "mm":
                _, c, a, b, m, n, k, flags = st
                A = view(a, m, k, flags & G_TA, flags & G_CA)
                B = view(b, k, n, flags & G_TB, flags & G_CB)
                C = view(c, m, n, False, False)
                if flags & G_ACC:
                    _matmul.matmul_update(C, A, B, -1 if flags & G_NEG else 1)
                else:
                    P = _matmul.matmul(A, B)
                    if flags & G_NEG:
                        P = elementwise("negative", [P], dt, P._shape)
                    assign(C, P)
                continue
            shader, spec, words, groups, buffers, patches = st
            push = np.zeros(PUSH_WORDS, np.uint32)
            push[:] = words
            for wd, kind, bk, bi in patches:
                if kind == ADDRESS:
                    _launch.put_address(push, wd, alloc((bk, bi)))
                else:
                    push[wd] = arr((bk, bi))._offset & 0xFFFFFFFF
            dev.launch(shader, spec, [alloc((bk, bi)) for bk, bi, _ in buffers],
                       [wr for _, _, wr in buffers], push, 0, groups)
            _launch.state.launches += 1
        _launch.state.last_plan = None
        return tuple(outs)

    def compile(self, nargs):
        return self.dev.compile_plan(_launch.result_type, [("array", self.dt.itemsize)] * nargs,
                                     self.outs, self.temps, self.steps)


def _begin(op, x, nbatch):
    """The recorder of a blocked factorization of x's dtype; raises NotNative where it cannot
    serve (no variant, or more matrices than a grid's z dimension)."""
    dev, dt = x._alloc.device, x._dtype
    shader = _need(op, dt, dev)
    if nbatch > MAX_Z:
        raise NotNative(f"{op}: {nbatch} matrices, beyond a blocked step's grid ({MAX_Z})")
    return _Rec(dev, dt, shader, nbatch)


def _knobs():
    return (NB, tuple(sorted(NB_OP.items())), TRSM_CW, TRSM_SHARED, TRSM_TSHARED, TRSM_SG,
            CHOL_NT, CHOL_PANEL, CHOL_CR, CHOL_PANEL_NT, CP_RPT_MAX, CHOL_LOOK, QR_SGP,
            QR_SGP_NB, LU_SLOTS, LU_REG, PANEL_IB, SHARED_MAX, PANEL_NT, SPLIT_TILES,
            SPLIT_GROUPS, SPLIT_CHUNK, GEMM_KC, _launch.USE_SUBGROUPS)


def _nb(kind):
    nb = NB_OP.get(kind) or NB
    return min(nb, QR_NBMAX) if kind == "qr" else nb


def _blocks(n, kind, nb=None):
    nb = nb or _nb(kind)
    return [(k0, min(n, k0 + nb)) for k0 in range(0, n, nb)]


def _qr_sgp(rec, m, nb):
    """(invocations, GS) of the qr_sgp panel step for panels of nb columns and at most m rows,
    or None where it cannot serve (no subgroup variant, too many rows for the subgroups'
    registers, more invocations than 1024, or its buffers beyond the device's shared memory)."""
    sg = _launch.subgroup_size(rec.dev)
    if not (QR_SGP and rec.shader.endswith("_sg") and 4 <= sg and m <= sg * QRS_RPT
            and nb <= QR_NBMAX):
        return None
    cw = 1
    while cw < nb:
        cw *= 2
    nt = cw * sg
    if nt > 1024:
        return None
    need = 2 * sg * QRS_RPT + (2 * nb * nb if nt < 2 * nb * nb else 0)
    gs = rec.fit(need)
    if gs < need or (_other_shared(rec.dt, nt) + gs * rec.dt.itemsize
                     > _launch.shared_bytes(rec.dev)):
        return None
    return nt, gs


def _run_blocked(key, build, *args):
    if UPDATE == "matmul":
        return build().run(args)
    return _cached(key, lambda: build().compile(len(args)), *args)


def _copy_in(rec, x, bst, rows, cols, d):
    rec.aux(X_COPY, rows, cols, d, (( ARG, 0), 0, x._strides[-2], x._strides[-1], bst))


def _cholesky_blocked(s, upper):
    dev, dt, _, (x,), (bst,), batch, nbatch, n = s

    def build():
        rec = _begin("linalg_cholesky", x, nbatch)
        W = rec.out(nbatch * n * n, dt, batch + (n, n))
        ST = rec.out(nbatch, _dtypes().uint32, (nbatch,))
        ld, bs = n, n * n
        _copy_in(rec, x, bst, n, n, W)
        if _chol_panel_rows(_nb("cholesky"))[0]:
            _chol_panel_steps(rec, n, W, ST)
            return _chol_final(rec, n, W, upper)
        for k0, k1 in _blocks(n, "cholesky"):
            w = [0] * 16
            w[0:4] = [n, n, nbatch, FLAG_DIAG | (FLAG_ST0 if k0 == 0 else 0)]
            w[W_K0], w[W_K1] = k0, k1
            gs = rec.fit((k1 - k0) ** 2)
            rec.whole("linalg_cholesky", w, [(W, True, A_O1, None), (ST, True, A_ST, None)],
                      CHOL_NT or rec.panel_nt(gs), gs)
            if k1 < n:
                # L21^H = L11^-1 A21^H, then A22 -= L21 L21^H (lower tiles only)
                rec.trsm((W, k0 * ld + k0, ld, bs), (W, k1 * ld + k0, 1, ld, bs), k1 - k0,
                         n - k1, S_CONJ)
                a21 = (W, k1 * ld + k0, ld, bs)
                rec.gemm((W, k1 * ld + k1, ld, bs), a21, a21, n - k1, n - k1, k1 - k0,
                         G_TB | G_CB | G_NEG | G_ACC | G_LOWER)
        return _chol_final(rec, n, W, upper)

    key = ("cholesky-b", dt, x._shape, x._strides, bst, bool(upper), _knobs(), dev)
    out = _run_blocked(key, build, x)
    return out[0], _status(out[1])


def _chol_panel_rows(nb):
    """(rows below the diagonal block that one chol_panel workgroup takes: CHOL_CR or nb, at
    most what CP_RPT_MAX rows an invocation hold beside the block; CP_RPT for them), or (0, 0)
    where it cannot serve."""
    if not CHOL_PANEL or nb > 64:
        return 0, 0
    cw = 16 if nb <= 16 else 32 if nb <= 32 else 64
    nt = CHOL_PANEL_NT
    if nt < cw or nt > 1024:
        return 0, 0
    rgn = nt // cw
    cr = max(0, min(CHOL_CR or nb, rgn * CP_RPT_MAX - nb))
    rpt = 4
    while rpt * rgn < nb + cr:
        rpt *= 2
    return (cr, rpt) if cr else (0, 0)


def _chol_panel_steps(rec, n, W, ST):
    """The blocked cholesky's steps in the chol_panel form: per block one step, the panel
    with the previous block's trailing update (look-ahead: CHOL_LOOK, and where the grid and
    the shared array allow); without look-ahead, the panel then A22 -= L21 L21^H (a GEMM
    step, lower tiles only)."""
    ld, bs = n, n * n
    nb = _nb("cholesky")
    cr, rpt = _chol_panel_rows(nb)
    slot = rec.tmp(rec.nbatch * nb * nb * rec.dt.itemsize)
    blocks = _blocks(n, "cholesky")

    def tiles(k1):
        mt = -(-(n - k1) // GEMM_TILE)
        return mt * (mt + 1) // 2

    # (the look-ahead's update of a tile takes L's columns through gS, 8 at least)
    look = (CHOL_LOOK and CHOL_PANEL_NT == 256 and (nb + cr) * 8 <= rec.gemm_gs(nb)
            and all(-(-(n - k1) // cr) + tiles(k1) <= MAX_GRID for _, k1 in blocks))
    prev = 0
    for k0, k1 in blocks:
        chunks = max(1, -(-(n - k1) // cr))
        flags = FLAG_CPANEL | (FLAG_ST0 if k0 == 0 else 0)
        groups = chunks
        if look and prev:
            flags |= FLAG_LOOK
            groups += tiles(k1)
        w = [0] * 16
        w[0:7] = [n, n, rec.nbatch, flags, cr, prev, chunks]
        w[W_K0], w[W_K1] = k0, k1
        rec.step("linalg_cholesky", w, (groups, 1, rec.nbatch),
                 [(W, True, A_O1, None), (slot, True, A_P, None), (ST, True, A_ST, None)],
                 CHOL_PANEL_NT, rec.gemm_gs(nb) if look else 1024, [rpt])
        prev = k0 + 1
        if k1 < n and not look:
            a21 = (W, k1 * ld + k0, ld, bs)
            rec.gemm((W, k1 * ld + k1, ld, bs), a21, a21, n - k1, n - k1, k1 - k0,
                     G_TB | G_CB | G_NEG | G_ACC | G_LOWER)


def _chol_final(rec, n, W, upper):
    if upper:
        rec.aux(X_TRIU, n, n, W)
        rec.aux(X_ZLOW, n, n, W)
    else:
        rec.aux(X_TRIL, n, n, W)
    return rec


def _lu_steps(rec, x, bst, n, W, ST):
    """Records the blocked LU of argument 0 (x's layout) into W (pivots into the returned
    temporary)."""
    nbatch = rec.nbatch
    P = rec.tmp(nbatch * n * 4)
    ld, bs = n, n * n
    _copy_in(rec, x, bst, n, n, W)
    ib = PANEL_IB if 0 < PANEL_IB < _nb("lu") else _nb("lu")
    for k0, k1 in _blocks(n, "lu"):
        # the panel [k0, k1) in inner blocks of ib columns: each factorized by one workgroup
        # a matrix (its row interchanges applied to whole rows), the panel's columns right of
        # it updated by a TRSM and a GEMM over many workgroups
        for j0 in range(k0, k1, ib):
            j1 = min(k1, j0 + ib)
            w = [0] * 16
            w[0:4] = [n, n, nbatch, FLAG_DIAG | (FLAG_ST0 if j0 == 0 else 0)
                      | (FLAG_SLOTS if LU_SLOTS else 0) | (FLAG_LREG if LU_REG else 0)]
            w[W_K0], w[W_K1] = j0, j1
            rec.whole("linalg_lu", w, [(W, True, A_W, None), (P, True, A_P, None),
                                       (ST, True, A_ST, None)], rec.panel_nt())
            if j1 < k1:
                rec.trsm((W, j0 * ld + j0, ld, bs), (W, j0 * ld + j1, ld, 1, bs), j1 - j0,
                         k1 - j1, S_UNIT)
                rec.gemm((W, j1 * ld + j1, ld, bs), (W, j1 * ld + j0, ld, bs),
                         (W, j0 * ld + j1, ld, bs), n - j1, k1 - j1, j1 - j0, G_NEG | G_ACC)
        if k1 < n:
            rec.trsm((W, k0 * ld + k0, ld, bs), (W, k0 * ld + k1, ld, 1, bs), k1 - k0, n - k1,
                     S_UNIT)
            rec.gemm((W, k1 * ld + k1, ld, bs), (W, k1 * ld + k0, ld, bs),
                     (W, k0 * ld + k1, ld, bs), n - k1, n - k1, k1 - k0, G_NEG | G_ACC)
    return P


def _det_blocked(s, op, want_slogdet):
    dev, dt, _, (x,), (bst,), batch, nbatch, n = s

    def build():
        rec = _begin(op, x, nbatch)
        _need("linalg_lu", dt, dev)
        W = rec.tmp(nbatch * n * n * dt.itemsize)
        ST = rec.tmp(nbatch * 4)
        P = _lu_steps(rec, x, bst, n, W, ST)
        outs = [rec.out(nbatch, dt, batch)]
        bufs = [(W, False, A_W, None), (P, False, A_P, None), (outs[0], True, A_O1, None)]
        if want_slogdet:
            outs += [rec.out(nbatch, _real(dt), batch), rec.out(nbatch, _dtypes().int32, batch)]
            bufs += [(outs[1], True, A_O2, None), (outs[2], True, A_O3, None)]
        rec.whole(op, [n, n, nbatch, FLAG_FACTORED], bufs, 64)
        return rec

    key = (op + "-b", dt, x._shape, x._strides, bst, _knobs(), dev)
    out = _run_blocked(key, build, x)
    return out if want_slogdet else out[0]


def _solve_blocked(s, k, inv):
    dev, dt, _, ops, sts, batch, nbatch, n = s
    a = ops[0]

    def build():
        rec = _begin("linalg_solve", a, nbatch)
        _need("linalg_lu", dt, dev)
        X = rec.out(nbatch * n * k, dt, batch + (n, k))
        ST = rec.out(nbatch, _dtypes().uint32, (nbatch,))
        W = rec.tmp(nbatch * n * n * dt.itemsize)
        P = _lu_steps(rec, a, sts[0], n, W, ST)
        PM = rec.tmp(nbatch * n * 4)
        rec.aux(X_PERM, n, n, PM, perm=PM, piv=P)
        if inv:
            rec.aux(X_GATHER | X_IDENT, n, k, X, perm=PM)
        else:
            b = ops[1]
            rec.aux(X_GATHER, n, k, X, ((ARG, 1), 0, b._strides[-2], b._strides[-1], sts[1]),
                    perm=PM)
        ld, bs, xb = n, n * n, n * k
        blocks = _blocks(n, "lu")
        for k0, k1 in blocks:
            rec.trsm((W, k0 * ld + k0, ld, bs), (X, k0 * k, k, 1, xb), k1 - k0, k, S_UNIT)
            if k1 < n:
                rec.gemm((X, k1 * k, k, xb), (W, k1 * ld + k0, ld, bs), (X, k0 * k, k, xb),
                         n - k1, k, k1 - k0, G_NEG | G_ACC)
        for k0, k1 in reversed(blocks):
            rec.trsm((W, k0 * ld + k0, ld, bs), (X, k0 * k, k, 1, xb), k1 - k0, k, S_UPPER)
            if k0 > 0:
                rec.gemm((X, 0, k, xb), (W, k0, ld, bs), (X, k0 * k, k, xb), k0, k, k1 - k0,
                         G_NEG | G_ACC)
        return rec

    key = ("solve-b", dt, inv, batch, tuple(sts)) + tuple(
        (o._shape, o._strides) for o in ops) + (_knobs(), dev)
    out = _run_blocked(key, build, *ops)
    return out[0], _status(out[1])


def _qr_blocked(s, m, complete):
    """Blocked Householder QR: per panel (QR_SGP_NB columns by qr_sgp where its rows fit the
    subgroups' registers, else NB by qr_panel) one workgroup a matrix gives the
    reflectors' V and T (I - V T V^H = H_k0 ... H_k1-1), the trailing columns updated by
    A22 -= V (T^H (V^H A22)) (three GEMMs); then R from W, and Q from the identity by the
    panels' blocks, last first: Q -= V (T (V^H Q))."""
    dev, dt, _, (x,), (bst,), batch, nbatch, n = s
    kmin = min(m, n)
    q = m if complete else kmin

    def build():
        rec = _begin("linalg_qr", x, nbatch)
        it = dt.itemsize
        Q = rec.out(nbatch * m * q, dt, batch + (m, q))
        R = rec.out(nbatch * q * n, dt, batch + (q, n))
        W = rec.tmp(nbatch * m * n * it)
        wide = max(n, q)
        Y = rec.tmp(nbatch * max(_nb("qr"), QR_SGP_NB) * wide * it)
        Z = rec.tmp(nbatch * max(_nb("qr"), QR_SGP_NB) * wide * it)
        _copy_in(rec, x, bst, m, n, W)
        # panels of NB columns (qr_panel) while their rows are too many for qr_sgp, then of
        # QR_SGP_NB (qr_sgp)
        blocks, sgps, k0 = [], [], 0
        while k0 < kmin:
            sgp = _qr_sgp(rec, m - k0, QR_SGP_NB)
            k1 = min(kmin, k0 + (QR_SGP_NB if sgp else _nb("qr")))
            blocks.append((k0, k1))
            sgps.append(sgp)
            k0 = k1
        # every panel's V (rows k0..m-1 x nbp) and T (nbp x nbp) in two temporaries
        V = rec.tmp(nbatch * sum((m - k0) * (k1 - k0) for k0, k1 in blocks) * it)
        T = rec.tmp(nbatch * sum((k1 - k0) ** 2 for k0, k1 in blocks) * it)
        panels = []
        voff = toff = 0
        for (k0, k1), sgp in zip(blocks, sgps):
            nbp, mv = k1 - k0, m - k0
            w = [0] * 16
            w[0:5] = [m, n, nbatch, FLAG_PANEL | (FLAG_SGP if sgp else 0), q]
            w[9], w[10] = voff, toff
            w[W_K0], w[W_K1] = k0, k1
            nt, gs = sgp or (rec.panel_nt(), 1024)
            rec.whole("linalg_qr", w, [(W, True, A_W, None), (V, True, A_O1, None),
                                       (T, True, A_O2, None)], nt, gs)
            v = (V, voff, nbp, mv * nbp)
            t = (T, toff, nbp, nbp * nbp)
            voff += nbatch * mv * nbp
            toff += nbatch * nbp * nbp
            if k1 < n:
                nc = n - k1
                y = (Y, 0, nc, nbp * nc)
                z = (Z, 0, nc, nbp * nc)
                a22 = (W, k0 * n + k1, n, m * n)
                rec.gemm(y, v, a22, nbp, nc, mv, G_TA | G_CA)
                rec.gemm(z, t, y, nbp, nc, nbp, G_TA | G_CA)
                rec.gemm(a22, v, z, mv, nc, nbp, G_NEG | G_ACC)
            panels.append((k0, k1, v, t))
        rec.aux(X_COPY | X_UPPER, q, n, R, (W, 0, n, 1, m * n))
        rec.aux(X_EYE, m, q, Q)
        for k0, k1, v, t in reversed(panels):
            nbp, mv, qc = k1 - k0, m - k0, q - k0
            y = (Y, 0, qc, nbp * qc)
            z = (Z, 0, qc, nbp * qc)
            qb = (Q, k0 * q + k0, q, m * q)
            rec.gemm(y, v, qb, nbp, qc, mv, G_TA | G_CA)
            rec.gemm(z, t, y, nbp, qc, nbp, 0)
            rec.gemm(qb, v, z, mv, qc, nbp, G_NEG | G_ACC)
        return rec

    key = ("qr-b", dt, x._shape, x._strides, bst, bool(complete), _knobs(), dev)
    return _run_blocked(key, build, x)
