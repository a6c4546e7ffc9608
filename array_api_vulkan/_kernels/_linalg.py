"""Dense factorizations (the linalg family, glsl/linalg.comp): cholesky, LU-based det, slogdet,
solve and inv, Householder QR, for float32, float64, complex64 and complex128 stacks of matrices.

One workgroup factorizes one matrix of the batch (any number of batch dimensions: they collapse
to one stride, else the operand is first copied contiguous), reading its operands in place
through their strides, so a transposed or strided input costs no copy. Each call is one
dispatch, kept as a compiled plan per layout; cholesky, solve and inv then read a status word
per matrix on the host (the caller raises on a non-positive-definite or singular matrix).
"""
import math

import numpy as np

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, table

FAMILY = "linalg"
CODES = table.FAMILY_CODES[FAMILY]
PUSH_WORDS = 32
A_IN, A_B, A_W, A_P, A_O1, A_O2, A_O3, A_ST = 16, 18, 20, 22, 24, 26, 28, 30
W_A, W_B = 5, 9
FLAG_UPPER, FLAG_INV, FLAG_COMPLETE, FLAG_COPY, FLAG_FINAL = 1, 2, 4, 8, 16
FLAG_FACTORED, FLAG_INIT, FLAG_FWD, FLAG_BWD = 32, 64, 128, 256
FLAG_PANEL, FLAG_ROUT = 512, 1024
W_K0, W_K1 = 13, 14
MAX_GRID = 65535
MAX_PLANS = 256
# matrices of order above BLOCKED_MIN are factorized in block columns of NB (a panel dispatch,
# then the trailing update as a matmul); smaller ones whole, in one dispatch
BLOCKED_MIN = 64
NB = 64

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
    return _launch.variant(FAMILY, code, code, None, dev)


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


def _u32(v):
    return int(v) & 0xFFFFFFFF


def _step(shader, op, nt, words, nbatch, bufs):
    """bufs: [(kind, index, writes, address word or None, offset word or None)]"""
    buffers, patches = [], []
    for kind, idx, wr, aw, ow in bufs:
        buffers.append((kind, idx, wr))
        if aw is not None:
            patches.append((aw, ADDRESS, kind, idx))
        if ow is not None:
            patches.append((ow, OFFSET, kind, idx))
    return (shader, [CODES[op], nt], words, _groups(nbatch), buffers, patches)


def _cached(key, build, *args):
    plan = _plans.get(key)
    if plan is None:
        plan = build()
        if plan is None:
            return None
        if len(_plans) >= MAX_PLANS:
            _plans.clear()
        _plans[key] = plan
    out = plan(*args)
    if out is None:
        return None
    return out if isinstance(out, tuple) else (out,)


def _status(st):
    """The status words of a call (host read: the one synchronisation)."""
    n = st._shape[0]
    return st._alloc.device.download_bytes(st._alloc, st._offset * 4, n * 4).view(np.uint32)


def _prepare(x, batch=None):
    """(x or a contiguous copy, batch shape, its batch stride), or None."""
    batch = tuple(x._shape[:-2]) if batch is None else tuple(batch)
    st = _batch_layout([x], batch)
    if st is None:
        x = _expanded(x, batch)
        if x is None:
            return None
        st = _batch_layout([x], batch)
    return x, batch, st[0]


def _matrix_words(w, at, x, bstride):
    w[at + 1] = _u32(x._strides[-2])
    w[at + 2] = _u32(x._strides[-1])
    w[at + 3] = _u32(bstride)


def cholesky(x, upper):
    """(factor, status ndarray per matrix) or None."""
    dev = x._alloc.device
    dt = x._dtype
    shader = _shader("linalg_cholesky", dt, dev)
    if shader is None or not _fits(x):
        return None
    n = x._shape[-1]
    prep = _prepare(x)
    if prep is None:
        return None
    x, batch, bst = prep
    nbatch = math.prod(batch)
    shape = batch + (n, n)
    if nbatch == 0 or n == 0:
        return _launch.result_type._new(dev.alloc(0), dt, shape), np.zeros(0, np.uint32)
    if n > BLOCKED_MIN:
        return _cholesky_blocked(shader, x, bst, batch, n, nbatch, upper)
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
    if out is None:
        return None
    return out[0], _status(out[1])


def det(x, want_slogdet=False):
    """det(x) as an Array, or (sign, mantissa, exponent) Arrays for slogdet; None if not native."""
    dev = x._alloc.device
    dt = x._dtype
    op = "linalg_slogdet" if want_slogdet else "linalg_det"
    shader = _shader(op, dt, dev)
    if shader is None or not _fits(x):
        return None
    n = x._shape[-1]
    prep = _prepare(x)
    if prep is None:
        return None
    x, batch, bst = prep
    nbatch = math.prod(batch)
    rdt = _real(dt)
    i32 = _dtypes().int32
    if nbatch == 0 or n == 0:
        from . import full

        kind = table.DTYPES[dt.name][3]
        one = complex(1) if kind == "c" else 1.0
        if nbatch == 0:
            outs = [_launch.result_type._new(dev.alloc(0), t, batch) for t in (dt, rdt, i32)]
        else:
            outs = [full(batch, one, dt, dev), full(batch, 1.0, rdt, dev), full(batch, 0, i32, dev)]
            if any(o is None for o in outs):
                return None
        return tuple(outs) if want_slogdet else outs[0]
    if n > BLOCKED_MIN:
        return _det_blocked(shader, op, x, bst, batch, n, nbatch, want_slogdet)
    nt = local_size(n)

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
        step = _step(shader, op, nt, w, nbatch, bufs)
        return dev.compile_plan(_launch.result_type, [("array", dt.itemsize)], outs, temps, [step])

    key = (op, dt, x._shape, x._strides, dev)
    out = _cached(key, build, x)
    if out is None:
        return None
    return out if want_slogdet else out[0]


def solve(a, b, inv=False):
    """(X, status ndarray) with X = a^-1 b (b: (..., n, k), batch dimensions broadcasting with
    a's), or X = a^-1 where inv; None where not native."""
    dev = a._alloc.device
    dt = a._dtype
    shader = _shader("linalg_solve", dt, dev)
    if shader is None or not _fits(a) or (b is not None and (b._dtype != dt or not _fits(b))):
        return None
    n = a._shape[-1]
    if inv:
        batch = tuple(a._shape[:-2])
        k = n
        ops = [a]
    else:
        k = b._shape[-1]
        na, nb = a.ndim - 2, b.ndim - 2
        nd = max(na, nb)
        pa = (1,) * (nd - na) + tuple(a._shape[:-2])
        pb = (1,) * (nd - nb) + tuple(b._shape[:-2])
        batch = tuple(max(u, v) if min(u, v) != 0 else 0 for u, v in zip(pa, pb))
        ops = [a, b]
    sts = _batch_layout(ops, batch)
    if sts is None:
        ops = [_expanded(o, batch) for o in ops]
        if any(o is None for o in ops):
            return None
        sts = _batch_layout(ops, batch)
    nbatch = math.prod(batch)
    shape = batch + (n, k)
    if nbatch == 0 or n == 0 or k == 0:
        return _launch.result_type._new(dev.alloc(0), dt, shape), np.zeros(0, np.uint32)
    if n > BLOCKED_MIN:
        return _solve_blocked(shader, ops, sts, batch, n, k, nbatch, inv)
    nt = local_size(n)

    def build():
        w = [0] * PUSH_WORDS
        w[0:4] = [n, k, nbatch, FLAG_INIT | FLAG_FWD | FLAG_BWD | (FLAG_INV if inv else 0)]
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
        step = _step(shader, "linalg_solve", nt, w, nbatch, bufs)
        return dev.compile_plan(_launch.result_type, args, outs, temps, [step])

    key = ("solve", dt, inv, batch) + tuple((o._shape, o._strides) for o in ops) + (dev,)
    out = _cached(key, build, *ops)
    if out is None:
        return None
    return out[0], _status(out[1])


def qr(x, complete):
    """(Q, R) Arrays of Householder QR, or None."""
    dev = x._alloc.device
    dt = x._dtype
    shader = _shader("linalg_qr", dt, dev)
    if shader is None or not _fits(x):
        return None
    m, n = x._shape[-2:]
    kmin = min(m, n)
    q = m if complete else kmin
    r = m if complete else kmin
    prep = _prepare(x)
    if prep is None:
        return None
    x, batch, bst = prep
    nbatch = math.prod(batch)
    qshape, rshape = batch + (m, q), batch + (r, n)
    if nbatch == 0 or m == 0 or (n == 0 and not complete):
        return (_launch.result_type._new(dev.alloc(0), dt, qshape),
                _launch.result_type._new(dev.alloc(0), dt, rshape))
    if n == 0:
        # complete mode of an m x 0 matrix: Q the identity, R empty
        from . import eye

        i = eye(m, m, 0, dt, dev)
        q_ = None if i is None else _launch.contiguous(i, qshape)
        if q_ is None:
            return None
        return q_, _launch.result_type._new(dev.alloc(0), dt, rshape)
    if kmin > BLOCKED_MIN:
        return _qr_blocked(shader, x, bst, batch, m, n, nbatch, complete)
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
    out = _cached(key, build, x)
    if out is None:
        return None
    return out


# -- blocked paths: a dispatch per panel, the trailing updates through the matmul kernels -----
def _new(dev, dt, shape):
    return _launch.result_type._new(dev.alloc(math.prod(shape) * dt.itemsize), dt, tuple(shape))


def _view(a, shape, strides, offset):
    return _launch.result_type._new(a._alloc, a._dtype, tuple(shape), tuple(strides),
                                    a._offset + offset)


def _block(W, r0, r1, c0, c1):
    """The view W[:, r0:r1, c0:c1] of a (nbatch, n, m) C-contiguous W."""
    nb, n, m = W._shape
    return _view(W, (nb, r1 - r0, c1 - c0), (n * m, m, 1), r0 * m + c0)


def _dispatch(shader, op, words, nbatch, arrays):
    """Records one dispatch. arrays: [(Array, writes, address word, offset word or None)]."""
    push = np.zeros(PUSH_WORDS, np.uint32)
    push[:] = [int(v) & 0xFFFFFFFF for v in words]
    for a, _, aw, ow in arrays:
        _launch.put_address(push, aw, a._alloc)
        if ow is not None:
            push[ow] = a._offset & 0xFFFFFFFF
    dev = arrays[0][0]._alloc.device
    dev.launch(shader, [CODES[op], 256], [a._alloc for a, *_ in arrays],
               [wr for _, wr, *_ in arrays], push, 0, _groups(nbatch))
    _launch.state.launches += 1
    _launch.state.last_plan = None


def _herm(B):
    """B^H: a transposed view (of a conjugated copy for complex B), or None."""
    from . import elementwise

    dt = B._dtype
    if table.DTYPES[dt.name][3] == "c":
        B = elementwise("conj", [B], dt, B._shape)
        if B is None:
            return None
    return _view(B, B._shape[:-2] + (B._shape[-1], B._shape[-2]),
                 B._strides[:-2] + (B._strides[-1], B._strides[-2]), 0)


def _sub_update(C, A, B, herm=False):
    """C -= A @ B (B^H where herm) in place, C a view: a matmul, a subtract, an assignment."""
    from . import assign, elementwise
    from ._matmul import matmul

    dt = C._dtype
    if herm:
        B = _herm(B)
        if B is None:
            return False
    P = matmul(A, B)
    if P is None:
        return False
    D = elementwise("subtract", [C, P], dt, C._shape)
    return D is not None and assign(C, D)


def _blocks(n):
    return [(k0, min(n, k0 + NB)) for k0 in range(0, n, NB)]


def _cholesky_blocked(shader, x, bst, batch, n, nbatch, upper):
    dev, dt = x._alloc.device, x._dtype
    W = _new(dev, dt, (nbatch, n, n))
    ST = _new(dev, _dtypes().uint32, (nbatch,))
    for k0, k1 in _blocks(n):
        w = [0] * PUSH_WORDS
        flags = (FLAG_COPY if k0 == 0 else 0) | (
            (FLAG_FINAL | (FLAG_UPPER if upper else 0)) if k1 == n else 0)
        w[0:4] = [n, n, nbatch, flags]
        _matrix_words(w, W_A, x, bst)
        w[W_K0], w[W_K1] = k0, k1
        _dispatch(shader, "linalg_cholesky", w, nbatch,
                  [(x, False, A_IN, W_A), (W, True, A_O1, None), (ST, True, A_ST, None)])
        if k1 < n:
            L21 = _block(W, k1, n, k0, k1)
            if not _sub_update(_block(W, k1, n, k1, n), L21, L21, herm=True):
                return None
    return _launch.result_type._new(W._alloc, dt, batch + (n, n)), _status(ST)


def _lu_blocked(x, bst, n, nbatch):
    """(W, P, ST): the blocked LU of x's matrices, pivots and status; None if not native."""
    dev, dt = x._alloc.device, x._dtype
    shader = _shader("linalg_lu", dt, dev)
    if shader is None:
        return None
    W = _new(dev, dt, (nbatch, n, n))
    P = _new(dev, _dtypes().uint32, (nbatch * n,))
    ST = _new(dev, _dtypes().uint32, (nbatch,))
    for k0, k1 in _blocks(n):
        w = [0] * PUSH_WORDS
        w[0:4] = [n, n, nbatch, FLAG_COPY if k0 == 0 else 0]
        _matrix_words(w, W_A, x, bst)
        w[W_K0], w[W_K1] = k0, k1
        _dispatch(shader, "linalg_lu", w, nbatch,
                  [(x, False, A_IN, W_A), (W, True, A_W, None), (P, True, A_P, None),
                   (ST, True, A_ST, None)])
        if k1 < n:
            if not _sub_update(_block(W, k1, n, k1, n), _block(W, k1, n, k0, k1),
                               _block(W, k0, k1, k1, n)):
                return None
    return W, P, ST


def _det_blocked(shader, op, x, bst, batch, n, nbatch, want_slogdet):
    dev, dt = x._alloc.device, x._dtype
    lu = _lu_blocked(x, bst, n, nbatch)
    if lu is None:
        return None
    W, P, _ = lu
    outs = [_new(dev, dt, batch)]
    arrays = [(W, False, A_W, None), (P, False, A_P, None), (outs[0], True, A_O1, None)]
    if want_slogdet:
        outs += [_new(dev, _real(dt), batch), _new(dev, _dtypes().int32, batch)]
        arrays += [(outs[1], True, A_O2, None), (outs[2], True, A_O3, None)]
    w = [0] * PUSH_WORDS
    w[0:4] = [n, n, nbatch, FLAG_FACTORED]
    _dispatch(shader, op, w, nbatch, arrays)
    return tuple(outs) if want_slogdet else outs[0]


def _solve_blocked(shader, ops, sts, batch, n, k, nbatch, inv):
    a = ops[0]
    dev, dt = a._alloc.device, a._dtype
    lu = _lu_blocked(a, sts[0], n, nbatch)
    if lu is None:
        return None
    W, P, ST = lu
    X = _new(dev, dt, (nbatch, n, k))
    common = [(W, False, A_W, None), (P, False, A_P, None), (X, True, A_O1, None),
              (ST, False, A_ST, None)]

    def step(flags, k0, k1):
        w = [0] * PUSH_WORDS
        w[0:4] = [n, k, nbatch, FLAG_FACTORED | flags]
        w[W_K0], w[W_K1] = k0, k1
        arrays = list(common)
        if flags & FLAG_INIT and not inv:
            _matrix_words(w, W_B, ops[1], sts[1])
            arrays.append((ops[1], False, A_B, W_B))
        _dispatch(shader, "linalg_solve", w, nbatch, arrays)

    step(FLAG_INIT | (FLAG_INV if inv else 0), 0, 0)
    blocks = _blocks(n)
    for k0, k1 in blocks:
        step(FLAG_FWD, k0, k1)
        if k1 < n and not _sub_update(_block(X, k1, n, 0, k), _block(W, k1, n, k0, k1),
                                      _block(X, k0, k1, 0, k)):
            return None
    for k0, k1 in reversed(blocks):
        step(FLAG_BWD, k0, k1)
        if k0 > 0 and not _sub_update(_block(X, 0, k0, 0, k), _block(W, 0, k0, k0, k1),
                                      _block(X, k0, k1, 0, k)):
            return None
    return _launch.result_type._new(X._alloc, dt, batch + (n, k)), _status(ST)


def _qr_blocked(shader, x, bst, batch, m, n, nbatch, complete):
    """Blocked Householder QR: per panel of NB columns a dispatch giving the reflectors' V and T
    (I - V T V^H = H_k0 ... H_k1-1), the trailing columns updated by A22 -= V (T^H (V^H A22))
    (matmuls); then R from W, and Q from the identity by the panels' blocks, last first:
    Q -= V (T (V^H Q))."""
    from . import eye
    from ._matmul import matmul

    dev, dt = x._alloc.device, x._dtype
    kmin = min(m, n)
    q = m if complete else kmin
    W = _new(dev, dt, (nbatch, m, n))
    panels = []
    for k0, k1 in _blocks(kmin):
        nbp = k1 - k0
        V = _new(dev, dt, (nbatch, m - k0, nbp))
        T = _new(dev, dt, (nbatch, nbp, nbp))
        w = [0] * PUSH_WORDS
        w[0:5] = [m, n, nbatch, FLAG_PANEL | (FLAG_COPY if k0 == 0 else 0), q]
        _matrix_words(w, W_A, x, bst)
        w[W_K0], w[W_K1] = k0, k1
        _dispatch(shader, "linalg_qr", w, nbatch,
                  [(x, False, A_IN, W_A), (W, True, A_W, None), (V, True, A_O1, None),
                   (T, True, A_O2, None)])
        if k1 < n:
            A22 = _block(W, k0, m, k1, n)
            Vh, Th = _herm(V), _herm(T)
            Y = None if Vh is None else matmul(Vh, A22)
            Z = None if Y is None or Th is None else matmul(Th, Y)
            if Z is None or not _sub_update(A22, V, Z):
                return None
        panels.append((k0, V, T))
    R = _new(dev, dt, (nbatch, q, n))
    w = [0] * PUSH_WORDS
    w[0:5] = [m, n, nbatch, FLAG_ROUT | (FLAG_COMPLETE if complete else 0), q]
    _dispatch(shader, "linalg_qr", w, nbatch, [(W, False, A_W, None), (R, True, A_O2, None)])
    i = eye(m, q, 0, dt, dev)
    Q = None if i is None else _launch.contiguous(i, (nbatch, m, q))
    if Q is None:
        return None
    for k0, V, T in reversed(panels):
        Qb = _block(Q, k0, m, k0, q)
        Vh = _herm(V)
        Y = None if Vh is None else matmul(Vh, Qb)
        Z = None if Y is None else matmul(T, Y)
        if Z is None or not _sub_update(Qb, V, Z):
            return None
    return (_launch.result_type._new(Q._alloc, dt, batch + (m, q)),
            _launch.result_type._new(R._alloc, dt, batch + (q, n)))
