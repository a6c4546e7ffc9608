"""Reductions (the reduce family, glsl/reduce.comp): sum, prod, min, max, all, any, mean, var,
std, count_nonzero, argmin, argmax over any axes, as compiled plans of one or two passes.

After dpctl's _reduction_over_axis: the reduced axes go last (a permuted view), so one kernel
shape serves every axis: `rows` independent rows of `n` elements. The kept axes must collapse
to at most two dimensions and the reduced ones to one (else the permuted view is first copied
contiguous): element i of row r is at  off + (r / R1) * rs0 + (r % R1) * rs1 + i * is.
Reduced axes trailing and contiguous (is == 1): ROWS mode, workgroups along each row; leading
ones (the rows contiguous, rs1 == 1): COLS mode, one invocation per row, coalesced across rows,
no copy. A long row is split into G chunks whose partials a second pass reduces; both passes
are one compiled plan (Device.compile_plan), kept per layout.
"""
import math

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, table

FAMILY = "reduce"
CODES = table.FAMILY_CODES[FAMILY]
LOCAL = 256
ROWS, COLS = 0, 1
FIN_NONE, FIN_MEAN, FIN_VAR, FIN_STD = 0, 1, 2, 3
AUX_NONE, AUX_ROW, AUX_ELEM = 0, 1, 2
# push words (glsl/include/reduce.glsl): the layout words, then 4 addresses from word 24
W_IN_OFF, W_AUX_OFF = 9, 10
A_IN, A_OUT, A_AUX, A_OUT2 = 24, 26, 28, 30
PUSH_WORDS = 32
# Grid sizing: aim for about this many workgroups (ROWS) or invocations (COLS) per pass, with
# at least MIN_ROWS_CHUNK elements per ROWS workgroup and MIN_COLS_CHUNK per COLS invocation.
TARGET_GROUPS = 512
TARGET_THREADS = 1 << 16
MIN_ROWS_CHUNK = 2048
MIN_COLS_CHUNK = 64
MAX_GRID = 65535
# compiled plans kept per op
MAX_PLANS = 256

# (op, input code) -> result code of each signature of the op table's reduce rows
_SIGS = {}
for _name, _ops in table.OPS.items():
    for _op in _ops:
        if _op.family == FAMILY:
            for _t, _r in _op.sigs.items():
                _SIGS.setdefault((_name, _t), set()).add(_r)
del _name, _ops, _op, _t, _r

# the op whose pass reduces a first pass's partials, and whether partials carry a second array
_SECOND = {"sum": "sum", "prod": "prod", "min": "min", "max": "max", "all": "all", "any": "any",
           "count_nonzero": "sum", "argmax": "argmax", "argmin": "argmin", "sqdev": "sqdev"}
ORDER_FREE = frozenset(("sum", "prod", "min", "max", "all", "any", "count_nonzero", "mean", "var",
                        "std"))

_plans = {}
# the result of reducing nothing (min/max/argmin/argmax: the caller raises)
_EMPTY = {"prod": 1, "all": True, "mean": math.nan, "var": math.nan, "std": math.nan}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _variant(op, tc, rc, dev):
    """The spv variant of reduce op `op` for (tc -> rc) on dev, or None."""
    if rc not in _SIGS.get((op, tc), ()):
        return None
    if not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    return _launch.variant(FAMILY, tc, rc, None, dev)


def _f32_bits(v):
    return _launch.scalar_words(float(v), "f")[0]


def _f64_words(v):
    return _launch.scalar_words(float(v), "d")


class _Builder:
    """Collects the steps, temporaries and results of one plan."""

    def __init__(self):
        self.steps, self.temps, self.outputs = [], [], []

    def temp(self, nbytes):
        self.temps.append(int(nbytes))
        return (TMP, len(self.temps) - 1)

    def out(self, nbytes, dtype, shape):
        self.outputs.append((int(nbytes), dtype, tuple(shape), _launch._c_strides(tuple(shape))))
        return (OUT, len(self.outputs) - 1)


def _choose_mode(n, rows, r1, rs1, is_):
    if rows == 1:
        return ROWS
    # Contiguous rows: a workgroup per row where rows are long or few; many short rows take a
    # thread each (65536 rows of 16 took 20 s on lavapipe as 65536 workgroups of 256 threads).
    if is_ == 1 and (n >= 128 or (n >= 16 and rows <= 256)):
        return ROWS
    if r1 > 1 and rs1 == 1:
        return COLS
    return ROWS if n >= 64 else COLS


def _chunks(mode, n, rows, single):
    """(chunk length, G) for a pass: G == 1 where `single` or the rows alone fill the device."""
    if single or n == 0:
        return max(n, 1), 1
    if mode == ROWS:
        g = min(-(-n // MIN_ROWS_CHUNK), -(-TARGET_GROUPS // rows), MAX_GRID)
    else:
        g = min(-(-n // MIN_COLS_CHUNK), -(-TARGET_THREADS // rows), MAX_GRID)
    g = max(g, 1)
    length = -(-n // g)
    return length, -(-n // length)


def _grid(mode, rows, g):
    if mode == ROWS:
        gy = min(rows, MAX_GRID)
        return (g, gy, -(-rows // gy))
    blocks = -(-rows // LOCAL)
    gx = min(blocks, MAX_GRID)
    return (gx, g, -(-blocks // gx))


def _pass(b, shader, op, src, n, rows, r1, rs0, rs1, is_, out, out2=None, aux=None, auxk=AUX_NONE,
          fin=FIN_NONE, divisor=0.0, full_n=0.0, single=False):
    """Adds one pass (or two, where the row is long) reducing src's rows into `out` (and the
    second output `out2` of argmin/argmax/sqdev partials). Returns G (1: out has the result)."""
    mode = _choose_mode(n, rows, r1, rs1, is_)
    length, g = _chunks(mode, n, rows, single)
    w = [0] * PUSH_WORDS
    w[0:9] = [n, rows, max(r1, 1), rs0 & 0xFFFFFFFF, rs1 & 0xFFFFFFFF, is_ & 0xFFFFFFFF, length, g,
              mode | (fin << 4 if g == 1 else 0) | (auxk << 8)]
    w[11] = _f32_bits(divisor)
    w[12:14] = _f64_words(divisor)
    w[14] = _f32_bits(full_n)
    w[15:17] = _f64_words(full_n)
    buffers, patches = [], []
    kind, idx = src
    buffers.append((kind, idx, False))
    patches.append((A_IN, ADDRESS, kind, idx))
    if kind == ARG:
        patches.append((W_IN_OFF, OFFSET, kind, idx))
    if aux is not None:
        buffers.append((aux[0], aux[1], False))
        patches.append((A_AUX, ADDRESS, aux[0], aux[1]))
    spec = [CODES[op]]
    if g == 1:
        buffers.append((out[0], out[1], True))
        patches.append((A_OUT, ADDRESS, out[0], out[1]))
        b.steps.append((shader, spec, w, _grid(mode, rows, 1), buffers, patches))
        return 1
    # pass 1: partials, then pass 2 over them
    tsz, rsz = b.partial_sizes
    first = b.temp(rows * g * (tsz if op in ("argmax", "argmin") else rsz))
    second = None
    buffers.append((first[0], first[1], True))
    patches.append((A_OUT, ADDRESS, first[0], first[1]))
    if op in ("argmax", "argmin", "sqdev") or (op == "sum" and b.floating):
        # argmin/argmax: indices; var: sums of deviations; float sums: compensations
        second = b.temp(rows * g * rsz)
        buffers.append((second[0], second[1], True))
        patches.append((A_OUT2, ADDRESS, second[0], second[1]))
    b.steps.append((shader, spec, w, _grid(mode, rows, g), buffers, patches))
    if mode == ROWS:  # partials [row][chunk]
        p = (g, rows, rows, 0, g, 1)
    else:             # partials [chunk][row]
        p = (g, rows, rows, 0, 1, rows)
    op2 = _SECOND[op]
    shader2 = b.second_shader
    _pass(b, shader2, op2, first, *p, out, aux=second, auxk=AUX_ELEM if second else AUX_NONE,
          fin=fin, divisor=divisor, full_n=full_n, single=True)
    return g


def _layout(x, axes, order_free):
    """(n, is, rows, R1, rs0, rs1) of x's reduction over `axes`, or None where the kept or
    reduced axes do not collapse (the permuted view must be copied first)."""
    kept = [k for k in range(x.ndim) if k not in axes]
    red = list(axes)
    if order_free:
        red.sort(key=lambda k: -abs(x._strides[k]))
    rsh, rst = _launch._collapse([x._shape[k] for k in red], [[x._strides[k] for k in red]])
    ksh, kst = _launch._collapse([x._shape[k] for k in kept], [[x._strides[k] for k in kept]])
    if len(rsh) > 1 or len(ksh) > 2:
        return None
    n = rsh[0] if rsh else 1
    is_ = rst[0][0] if rsh else 0
    rows = math.prod(ksh)
    if not ksh:
        r1, rs0, rs1 = 1, 0, 0
    elif len(ksh) == 1:
        r1, rs0, rs1 = ksh[0], 0, kst[0][0]
    else:
        r1, rs0, rs1 = ksh[1], kst[0][0], kst[0][1]
    return n, is_, rows, r1, rs0, rs1


def _out_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if k in axes else m for k, m in enumerate(shape))
    return tuple(m for k, m in enumerate(shape) if k not in axes)


def _replay(plans, op, key, x):
    """(op's plan cache, the result of its compiled plan for layout `key` on x, or None)."""
    cache = plans.get(op)
    if cache is None:
        cache = plans[op] = {}
    plan = cache.get(key)
    return cache, (plan(x) if plan is not None else None)


def reduce(op, x, axes, keepdims, dtype, correction=0.0, _copied=False):
    """op over `axes` (a sorted tuple of distinct non-negative axes; every axis for a full
    reduction) of x, keepdims as the standard; dtype: the result's (sum/prod: the accumulator,
    x is converted to it first where no signature takes x's dtype to it; mean/var/std: x's
    floating dtype, integers converted first; count_nonzero/argmin/argmax: the index dtype).
    The caller has checked the standard's rules (min/max/argmin/argmax of nothing raise).
    Returns the result, or None where no kernel covers the case."""
    key = (x._dtype, x._shape, x._strides, axes, keepdims, dtype, correction)
    cache, out = _replay(_plans, op, key, x)
    if out is not None:
        return out
    dev = x._alloc.device
    tc, rc = _code(x._dtype), _code(dtype)
    base = {"mean": "sum", "var": "sqdev", "std": "sqdev"}.get(op, op)
    if op in ("sum", "prod", "mean", "var", "std") and rc not in _SIGS.get((base, tc), ()):
        # dtype= (or an integer mean): convert first, then reduce in the result's dtype
        if _variant(base, rc, rc, dev) is None:
            return None
        from . import astype

        y = astype(x, dtype)
        return None if y is None else reduce(op, y, axes, keepdims, dtype, correction)
    shader = _variant(base, tc, rc, dev)
    if shader is None:
        return None
    if x._alloc.nbytes // x._dtype.itemsize >= 1 << 32:
        return None  # (32-bit element indices)
    out_shape = _out_shape(x._shape, axes, keepdims)
    rows = math.prod(m for k, m in enumerate(x._shape) if k not in axes)
    n = math.prod(x._shape[k] for k in axes)
    if rows == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, out_shape)
    if n == 0:
        # (an empty input has no memory to hand a plan): the identity, or NaN
        from . import full

        kind = table.DTYPES[dtype.name][3]
        v = _EMPTY.get(op, 0)
        if v != v and kind == "c":
            v = complex(v, v)
        v = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind](v)
        return full(out_shape, v, dtype, dev)
    lay = _layout(x, axes, op in ORDER_FREE)
    if lay is None:
        # copy the permuted view (kept axes, then reduced ones) contiguous, then reduce its tail
        kept = [k for k in range(x.ndim) if k not in axes]
        perm = kept + list(axes)
        v = _launch.result_type._new(x._alloc, x._dtype, tuple(x._shape[k] for k in perm),
                                     tuple(x._strides[k] for k in perm), x._offset)
        if _copied:
            return None  # (a contiguous copy always collapses: not reached)
        c = _launch.contiguous(v)
        if c is None:
            return None
        r = reduce(op, c, tuple(range(len(kept), x.ndim)), False, dtype, correction, _copied=True)
        return None if r is None else _launch.result_type._new(r._alloc, r._dtype, out_shape)
    n, is_, rows, r1, rs0, rs1 = lay
    b = _Builder()
    b.partial_sizes = (x._dtype.itemsize, dtype.itemsize)
    b.floating = table.DTYPES[dtype.name][3] in "fc"
    res = b.out(rows * dtype.itemsize, dtype, out_shape)
    src = (ARG, 0)
    if op in ("var", "std"):
        mean_shader = _variant("sum", tc, tc, dev)
        if mean_shader is None:
            return None
        b.second_shader = mean_shader
        mean = b.temp(rows * x._dtype.itemsize)
        _pass(b, mean_shader, "sum", src, n, rows, r1, rs0, rs1, is_, mean, fin=FIN_MEAN,
              divisor=n)
        b.second_shader = shader
        _pass(b, shader, "sqdev", src, n, rows, r1, rs0, rs1, is_, res, aux=mean, auxk=AUX_ROW,
              fin=FIN_STD if op == "std" else FIN_VAR, divisor=max(n - correction, 0.0), full_n=n)
    else:
        op2 = _SECOND[base]
        shader2 = shader if op2 == base and base in ("argmax", "argmin") else _variant(op2, rc, rc, dev)
        if shader2 is None:
            return None
        b.second_shader = shader2
        _pass(b, shader, base, src, n, rows, r1, rs0, rs1, is_, res,
              fin=FIN_MEAN if op == "mean" else FIN_NONE, divisor=n)
    plan = dev.compile_plan(_launch.result_type, [("array", x._dtype.itemsize)], b.outputs, b.temps,
                            b.steps)
    if len(cache) >= MAX_PLANS:
        cache.clear()
    cache[key] = plan
    return plan(x)


# -- scans (glsl/scan.comp) -----------------------------------------------------------------
SCAN_CODES = table.FAMILY_CODES["scan"]
_SCAN_SIGS = {}
for _name, _ops in table.OPS.items():
    for _op in _ops:
        if _op.family == "scan":
            for _t, _r in _op.sigs.items():
                _SCAN_SIGS.setdefault((_name, _t), set()).add(_r)
del _name, _ops, _op, _t, _r
_scan_plans = {}


def _group(shape, strides):
    """(count, stride) of dims that collapse to one (count 1: none), or None."""
    sh, st = _launch._collapse(list(shape), [list(strides)])
    if len(sh) > 1:
        return None
    return (sh[0], st[0][0]) if sh else (1, 0)


def scan(op, x, axis, dtype, include_initial):
    """cumulative_sum / cumulative_prod of x (ndim >= 1) along `axis` (non-negative) in the
    accumulator dtype `dtype` (x is converted to it first where no signature takes x's dtype
    to it), with the identity first where include_initial. The result or None."""
    key = (x._dtype, x._shape, x._strides, axis, dtype, include_initial)
    cache, out = _replay(_scan_plans, op, key, x)
    if out is not None:
        return out
    dev = x._alloc.device
    tc, rc = _code(x._dtype), _code(dtype)
    if rc not in _SCAN_SIGS.get((op, tc), ()):
        if rc not in _SCAN_SIGS.get((op, rc), ()):
            return None
        from . import astype

        y = astype(x, dtype)
        return None if y is None else scan(op, y, axis, dtype, include_initial)
    if not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    shader = _launch.variant("scan", tc, rc, None, dev)
    if shader is None or x._alloc.nbytes // x._dtype.itemsize >= 1 << 32:
        return None
    inc = 1 if include_initial else 0
    n = x._shape[axis]
    m = n + inc
    out_shape = x._shape[:axis] + (m,) + x._shape[axis + 1:]
    outer = math.prod(x._shape[:axis])
    inner = math.prod(x._shape[axis + 1:])
    rows = outer * inner
    if rows == 0 or m == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, out_shape)
    if n == 0:
        from . import full

        kind = table.DTYPES[dtype.name][3]
        v = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind](
            1 if op == "cumulative_prod" else 0)
        return full(out_shape, v, dtype, dev)
    before = _group(x._shape[:axis], x._strides[:axis])
    after = _group(x._shape[axis + 1:], x._strides[axis + 1:])
    if before is None or after is None:
        c = _launch.contiguous(x)
        return None if c is None else scan(op, c, axis, dtype, include_initial)
    is_ = x._strides[axis] if n > 1 else 0
    r1, rs0, rs1 = inner, before[1], after[1]
    if inner == 1:
        rs1 = 0
    mode = COLS if rows > 1 and ((r1 > 1 and rs1 == 1) or n < 64) else ROWS
    w = [0] * PUSH_WORDS
    w[0:9] = [n, rows, r1, rs0 & 0xFFFFFFFF, rs1 & 0xFFFFFFFF, is_ & 0xFFFFFFFF, mode, inc,
              m * inner]
    w[10], w[11] = 1, inner
    buffers = [(ARG, 0, False), (OUT, 0, True)]
    patches = [(A_IN, ADDRESS, ARG, 0), (W_IN_OFF, OFFSET, ARG, 0), (A_OUT, ADDRESS, OUT, 0)]
    step = (shader, [SCAN_CODES[op]], w, _grid(mode, rows, 1), buffers, patches)
    outputs = [(rows * m * dtype.itemsize, dtype, out_shape, _launch._c_strides(out_shape))]
    plan = dev.compile_plan(_launch.result_type, [("array", x._dtype.itemsize)], outputs, [], [step])
    if len(cache) >= MAX_PLANS:
        cache.clear()
    cache[key] = plan
    return plan(x)
