"""Data movement for the manipulation and creation functions (concat, stack, roll, repeat, tile,
tril/triu, linspace): everything here is the cast family's strided assignment (a view of the
result <- a possibly broadcast view of an input) or a cast/fill op code, no shader of its own.

The spec layer builds the views (an output at an offset for concat, an interleaved view for
tile, a broadcast one for repeat) and asks `copy_into` to fill them, after supports_cast.
Every entry here raises NotNative where its supports_* answers no."""
import math

import numpy as np

from . import _launch
from ._launch import table


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _cast_variant(tc, rc, dev):
    """The cast variant for tc -> rc on dev; raises NotNative without one (the caller asked
    supports_cast first)."""
    variant = _launch.cast_variant(tc, rc, dev)
    if variant is None:
        raise _launch.NotNative(f"no cast variant {tc} -> {rc} on this device")
    return variant


def copy_into(dst, src):
    """dst[...] = src (converted to dst's dtype as astype does) for any strided view dst and src
    an Array broadcastable to it: one dispatch, or one per index of the leading axes where the
    view's rank (after collapsing) is beyond the push block. After supports_cast(src.dtype,
    dst.dtype, device); raises NotNative without the cast variant (nothing is recorded then)."""
    dev = dst._alloc.device
    _launch.assign_split(_cast_variant(_code(src._dtype), _code(dst._dtype), dev), dst, src)


# layout -> the compiled plan of a join (concat, stack), or None where it has none
_join_plans = {}
MAX_JOIN_PLANS = 256
MAX_JOIN_ARGS = 8  # (the runtime's compiled plans take at most 8 operands: plan.hpp kMaxArgs)


def join(dev, dtype, shape, pieces):
    """A new C-contiguous array of `shape` and `dtype` whose disjoint views, which together cover
    it, are filled from their sources (converted as astype does). pieces: [(view shape, view
    strides, view offset, source Array)]. A layout seen before replays as one compiled plan
    (one C++ call; after a host wait, one submit). After supports_cast(source dtype, dtype,
    dev) for every source."""
    srcs = [p[3] for p in pieces]
    key = (dtype, tuple(shape), dev, _launch.features(dev),
           tuple([(p[0], p[1], p[2], s._dtype, s._shape, s._strides) for p, s in zip(pieces, srcs)]))
    plan = _join_plans.get(key, False)
    if plan is False:
        if len(_join_plans) >= MAX_JOIN_PLANS:
            _join_plans.clear()
        plan = _join_plans[key] = _join_plan(dev, dtype, shape, pieces)
    if plan is not None:
        out = plan(*srcs)
        if out is not None:
            return out
    out = new(dev, dtype, shape)
    for vshape, vstrides, voff, src in pieces:
        copy_into(_launch.result_type._new(out._alloc, dtype, vshape, vstrides, voff), src)
    return out


def join_plan(dev, dtype, shape, pieces):
    """The compiled plan join(dev, dtype, shape, pieces) keeps for this layout (plan(*sources)
    -> the array), or None where it has none (or has not run)."""
    srcs = [p[3] for p in pieces]
    key = (dtype, tuple(shape), dev, _launch.features(dev),
           tuple([(p[0], p[1], p[2], s._dtype, s._shape, s._strides) for p, s in zip(pieces, srcs)]))
    return _join_plans.get(key)


def _join_plan(dev, dtype, shape, pieces):
    # (each piece's source its own operand)
    return copies_plan(dev, dtype, shape, [p + (j,) for j, p in enumerate(pieces)],
                       [p[3] for p in pieces])


def copies(dev, dtype, shape, pieces):
    """A new C-contiguous array of `shape` and `dtype` whose disjoint views are filled from
    views of the operands (converted as astype does). pieces: [(view shape, view strides, view
    offset, source view Array, index of the operand it views)] (see copies_plan). After
    supports_cast(operand dtype, dtype, dev) for each."""
    out = new(dev, dtype, shape)
    for vshape, vstrides, voff, src, _ in pieces:
        copy_into(_launch.result_type._new(out._alloc, dtype, vshape, vstrides, voff), src)
    return out


def copies_plan(dev, dtype, shape, pieces, args):
    """The compiled plan repeating copies(dev, dtype, shape, pieces) for operands `args` of the
    same layouts (plan(*args) -> the array, or None: take copies again), or None where none
    serves. A source view's offset is kept relative to its operand's, so that a plan call needs
    the operands only (roll, tile, repeat make their views of x once)."""
    n = math.prod(shape)
    if n == 0 or len(args) > MAX_JOIN_ARGS:
        return None
    steps = []
    for vshape, vstrides, voff, src, j in pieces:
        if math.prod(vshape) == 0:
            continue
        if src._alloc is not args[j]._alloc:
            return None
        lay = _launch.assign_layout(vshape, vstrides, voff, dtype, src)
        if lay is None:
            return None
        words, spec, count = lay
        template = [0] * _launch.PUSH_WORDS
        template[:len(words)] = words
        template[3] = (src._offset - args[j]._offset) & 0xFFFFFFFF  # (+ the operand's offset)
        shader = _cast_variant(_code(src._dtype), _code(dtype), dev)
        steps.append((shader, list(spec), template, _launch.grid_1d(count),
                       [(_launch.OUT, 0, True), (_launch.ARG, j, False)],
                       [(_launch.ADDR_WORD, _launch.ADDRESS, _launch.OUT, 0),
                        (3, _launch.OFFSET_PLUS, _launch.ARG, j),
                        (_launch.ADDR_WORD + 2, _launch.ADDRESS, _launch.ARG, j)]))
    if not steps:
        return None
    outputs = [(n * dtype.itemsize, dtype, tuple(shape), _launch._c_strides(tuple(shape)))]
    return dev.compile_plan(_launch.result_type, [("array", a._dtype.itemsize) for a in args],
                            outputs, [], steps)


def new(dev, dtype, shape):
    n = math.prod(shape)
    return _launch.result_type._new(dev.alloc(n * dtype.itemsize), dtype, tuple(shape))


def tri(x, k, upper):
    """tril (upper False) / triu of x over its last two axes: one cast dispatch whose op code
    zeroes the elements off the kept triangle. After supports_cast(x.dtype, x.dtype, device)."""
    dev = x._alloc.device
    code = _code(x._dtype)
    variant = _cast_variant(code, code, dev)
    out = new(dev, x._dtype, x._shape)
    rows, cols = x._shape[-2:]
    if out.size == 0:
        return out
    k = max(-(1 << 31) + 1, min((1 << 31) - 1, int(k)))
    _launch.map_op(variant, 2 if upper else 1, out, [x], 1, tail=(cols, rows, k & 0xFFFFFFFF))
    return out


def linspace(start, stop, num, endpoint, dtype, cdt, dev):
    """numpy.linspace(start, stop, num, endpoint).astype(dtype) for a real or complex floating
    dtype, computed in cdt (numpy's float64, or complex128 for complex bounds, where the device
    has them, then a cast; else float32 / complex64 emulating float64 by double-floats): the
    fill family's linspace op with numpy's parameters. After supports_linspace(dtype, cdt, dev);
    raises NotNative where it would answer no."""
    key = _linspace_key(start, stop, num, endpoint, dtype, cdt, dev)
    plan = _linspace_plans.get(key) if key is not None else None
    if plan:
        out = plan()
        if out is not None:
            return out
    kind = table.DTYPES[cdt.name][3]
    cname = cdt.name
    ccode = table.DTYPES[cname][0]
    variant = _launch.variant("fill", None, ccode, None, dev)
    if (kind not in "fc" or table.DTYPES[dtype.name][3] not in "fc" or variant is None
            or not _launch.device_supports(dev, ccode)):
        raise _launch.NotNative(f"linspace of {dtype.name} in {cname}: not native here")
    single = cname in ("float32", "complex64")
    # the parameters as numpy works them out, in float64 / complex128 (on the host even where
    # the device lacks float64: the float32 / complex64 variants take them as double-floats)
    npdt = np.complex128 if kind == "c" else np.float64
    div = num - 1 if endpoint else num
    with np.errstate(all="ignore"):
        s0, s1 = npdt(start), npdt(stop)
        delta = npdt(s1 - s0)
        d, m = 1, delta
        if div > 0:
            step = npdt(delta / div)
            if step == 0:  # numpy's special case for subnormal steps: (i / div) * delta
                d = div
            else:
                m = step
    out = new(dev, cdt, (num,))
    words = [d, int(bool(endpoint and num > 1))]  # w[2], w[3]; then w[4], w[8], w[12]
    if single:
        with np.errstate(all="ignore"):
            for v in (s0, m):
                for c in (np.real(v), np.imag(v)):
                    hi = np.float32(c)
                    lo = np.float32(c - np.float64(hi)) if np.isfinite(hi) else np.float32(0)
                    words += [int(np.array([hi, lo], np.float32).view(np.uint32)[k])
                              for k in range(2)]
            words += [int(w) for w in np.array([np.real(s1), np.imag(s1)], np.float32)
                      .view(np.uint32)]
    else:
        for v in (s0, m, s1):
            words += (_launch.scalar_words(complex(v) if kind == "c" else float(v), ccode)
                      + [0, 0, 0])[:4]
    _launch.fill(dev, variant, table.FILL_CODES["linspace"], out, words)
    if key is not None:
        _launch.keep_on_second_call(_linspace_plans, key,
                                    lambda: _linspace_plan(dev, variant, words, out, dtype),
                                    MAX_LINSPACE_PLANS)
    if cdt is dtype:
        return out
    from . import astype

    return astype(out, dtype)  # (supports_linspace asked supports_cast(cdt, dtype))


# A repeated linspace: its arguments -> the compiled plan of its fill (and cast), no operands
_linspace_plans = {}
MAX_LINSPACE_PLANS = 256


def linspace_plan(start, stop, num, endpoint, dtype, cdt, dev):
    """The compiled plan a linspace of these arguments replays (plan() -> the result, or None
    where it cannot serve), once linspace has kept one; else None."""
    key = _linspace_key(start, stop, num, endpoint, dtype, cdt, dev)
    plan = _linspace_plans.get(key) if key is not None else None
    return plan or None


def linspace_bounds_key(start, stop):
    """start and stop as part of a plan's key (-0.0 apart from 0.0), or None: not kept (bounds
    other than int and float, or NaN). The spec layer's repeated-call key shares it."""
    key = []
    for v in (start, stop):
        if v.__class__ not in (int, float) or v != v:
            return None
        key += [v.__class__, v, math.copysign(1.0, v)]
    return tuple(key)


def _linspace_key(start, stop, num, endpoint, dtype, cdt, dev):
    """The arguments as a key, or None: not kept (see linspace_bounds_key)."""
    bounds = linspace_bounds_key(start, stop)
    return None if bounds is None else (num, bool(endpoint), dtype, cdt, dev) + bounds


def _linspace_plan(dev, variant, words, tmp, dtype):
    """The fill into tmp's layout (the result, or a temporary cast into a result of dtype)."""
    n = math.prod(tmp._shape)
    if n == 0:
        return None
    A, OUT, TMP, ADDRESS = _launch.ADDR_WORD, _launch.OUT, _launch.TMP, _launch.ADDRESS
    cast = tmp._dtype is not dtype
    dst = TMP if cast else OUT
    template = [0] * _launch.PUSH_WORDS
    template[0] = n
    template[2:2 + len(words)] = [int(w) for w in words]
    E = _launch.ELEMS
    steps = [(variant, [table.FILL_CODES["linspace"], 0, 0, 0, E], template,
              _launch.grid_1d((n + E - 1) // E), [(dst, 0, True)], [(A, ADDRESS, dst, 0)])]
    if cast:
        lay = _launch.assign_layout(tmp._shape, tmp._strides, 0, dtype, tmp)
        if lay is None:
            return None
        cw, spec, count = lay
        ct = [0] * _launch.PUSH_WORDS
        ct[:len(cw)] = cw
        ct[3] = 0  # (the temporary's offset)
        steps.append((_cast_variant(_code(tmp._dtype), _code(dtype), dev), list(spec), ct,
                      _launch.grid_1d(count), [(OUT, 0, True), (TMP, 0, False)],
                      [(A, ADDRESS, OUT, 0), (A + 2, ADDRESS, TMP, 0)]))
    outputs = [(n * dtype.itemsize, dtype, tmp._shape, _launch._c_strides(tmp._shape))]
    temps = [n * tmp._dtype.itemsize] if cast else []
    return dev.compile_plan(_launch.result_type, [], outputs, temps, steps)


# A strided copy whose source walks one axis with a small step and the result's last axis with
# a large one (a transposed view) goes through shared-memory tiles (glsl/transpose.comp), so
# that reads and writes are both coalesced; both sides at least this long.
_TRANSPOSE_MIN = 8
_MAX_GROUPS = 65535


def _transpose_layout(x):
    """(shader, B, I, J, batch stride, strides) of the tiled transpose copying the view x, or
    None where x's layout is not a (batched) transpose: collapsed to at most 3 axes (batch, i,
    j) with i's stride smaller in magnitude than j's and j's not 1, both at least
    _TRANSPOSE_MIN long, or no transpose variant of its width is built."""
    shape = x._shape
    if len(shape) < 2 or math.prod(shape) == 0:
        return None
    sh, sts = _launch._collapse(shape, [[s if n != 1 else 0 for n, s in zip(shape, x._strides)]])
    st = sts[0]
    if len(sh) not in (2, 3) or st[-1] == 1 or abs(st[-2]) >= abs(st[-1]):
        return None
    if sh[-1] < _TRANSPOSE_MIN or sh[-2] < _TRANSPOSE_MIN:
        return None
    B, sb = (sh[0], st[0]) if len(sh) == 3 else (1, 0)
    I, J = sh[-2], sh[-1]
    if max(-(-J // 32), -(-I // 32), B) > _MAX_GROUPS:
        return None
    shader = _launch.named(f"transpose_w{x._dtype.itemsize * 8}", x._alloc.device)
    if shader is None:
        return None
    return shader, B, I, J, sb, st


# x's layout (dtype, shape, strides, device) -> the compiled plan of its transpose copy
# (plan(x)), or False where the layout is not a transpose (astype asks about every copy)
_transpose_plans = {}
MAX_TRANSPOSE_PLANS = 256


def supports_transpose_copy(x):
    """Whether transpose_copy(x) serves x: a (batched) transpose (see _transpose_layout)."""
    key = (x._dtype, x._shape, x._strides, x._alloc.device)
    kept = _transpose_plans.get(key)
    if kept is not None:
        return kept is not False  # (a plan, or ONCE: a transpose seen once)
    if _transpose_layout(x) is not None:
        return True
    if len(_transpose_plans) >= MAX_TRANSPOSE_PLANS:
        _transpose_plans.clear()
    _transpose_plans[key] = False
    return False


def transpose_copy(x):
    """A new C-contiguous copy of the view x through the tiled transpose (glsl/transpose.comp).
    After supports_transpose_copy(x); raises NotNative where it answers no. A layout seen before
    replays as one compiled plan."""
    key = (x._dtype, x._shape, x._strides, x._alloc.device)
    plan = _transpose_plans.get(key)
    if plan:
        out = plan(x)
        if out is not None:
            return out
    lay = _transpose_layout(x)
    if lay is None:
        raise _launch.NotNative("transpose_copy: not a transposed layout")
    shader, B, I, J, sb, st = lay
    groups = (-(-J // 32), -(-I // 32), B)
    dev = x._alloc.device
    out = new(dev, x._dtype, x._shape)
    words = [B, I, J, x._offset, sb & 0xFFFFFFFF, st[-2] & 0xFFFFFFFF, st[-1] & 0xFFFFFFFF, 0]
    push = np.zeros(_launch.PUSH_WORDS, np.uint32)
    push[:8] = words
    _launch.put_address(push, _launch.ADDR_WORD, out._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 2, x._alloc)
    dev.launch(shader, (), [out._alloc, x._alloc], [True, False], push, groups=groups)
    _launch.state.launches += 1
    _launch.state.last_plan = None

    def make():
        A, OUT, ARG, ADDRESS = _launch.ADDR_WORD, _launch.OUT, _launch.ARG, _launch.ADDRESS
        template = [0] * _launch.PUSH_WORDS
        template[:8] = words
        template[3] = 0  # (x's offset, patched)
        step = (shader, [], template, list(groups), [(OUT, 0, True), (ARG, 0, False)],
                [(3, _launch.OFFSET, ARG, 0), (A, ADDRESS, OUT, 0), (A + 2, ADDRESS, ARG, 0)])
        outputs = [(out._alloc.nbytes, x._dtype, out._shape, out._strides)]
        return dev.compile_plan(_launch.result_type, [("array", x._dtype.itemsize)], outputs,
                                [], [step])

    _launch.keep_on_second_call(_transpose_plans, key, make, MAX_TRANSPOSE_PLANS)
    return out
