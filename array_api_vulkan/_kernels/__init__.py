"""Kernels layer: the Python side of every native op (see docs/design.md).

Ask first, one entry set: every entry of this package (elementwise, astype, copy, full,
arange, eye, linspace, tri, assign, contiguous, copy_into, join, gather, scatter, compact, ...,
reduce, scan, sort, unique, searchsorted, matmul, fft...) is called only after its `supports_*`
function (dtypes, device features, compiled variants, sizes: no dispatch) answered yes, and then
always returns the result, raising `NotNative` (a bug in the answer) where it cannot: none
answers None / False for "not native". The spec layer falls back to numpy (counted) on a no;
the kernels layer's own families (linalg, fft, matmul, sort, reduce) call the same entries after
their own supports_* asked for every step they take (a family's supports_* asks for its copies,
casts and fills too), and where they choose between native routes ask a predicate first
(e.g. supports_transpose_copy).

What is native is decided by the op table (table.py) and the shader variants it generates
(variants.py); the launch mechanics (modes, strides, push constants) are in _launch.py.
"""
import math

from . import _fuse, _launch, _manip
from ._launch import table
from ._matmul import matmul, matmul_update, supports_matmul, supports_matmul_update  # noqa: F401
from . import _reduce
from ._launch import NotNative  # noqa: F401
from ._reduce import scan, supports_reduce, supports_scan  # noqa: F401
from ._sort import (repeat as sort_repeat, searchsorted, searchsorted_plan, sort,  # noqa: F401
                    supports_sort, unique)
from ._index import (compact, compact_values, gather, gather_plan, mask_count, mask_fill,  # noqa: F401
                     mask_scatter, scatter)
from ._manip import (copies, copies_plan, copy_into, join, join_plan, linspace,  # noqa: F401
                     linspace_bounds_key, linspace_plan, supports_transpose_copy, transpose_copy, tri)
from ._launch import contiguous, keep_on_second_call  # noqa: F401
from ._index import supports_compact, supports_compact_values, supports_gather  # noqa: F401
from . import _linalg  # noqa: F401
from ._fft import freq as fft_freq, repeat as fft_repeat, shift as fft_shift, supports as supports_fft, transform as fft  # noqa: F401,E501
from ._fft import supports_freq as supports_fft_freq, supports_shift as supports_fft_shift  # noqa: F401
from ._sort import supports_searchsorted, supports_unique  # noqa: F401


set_result_type = _launch.set_result_type
features = _launch.features

# (the spec layer keys its resolved reduction calls by reduce_state, so that a repeated call
# need only check reduce_indexable instead of asking supports_reduce again)
reduce_state = _reduce.state
reduce_indexable = _reduce.indexable


def reduce(op, x, axes, keepdims, dtype, correction=0.0):
    """_reduce.reduce, or held as the epilogue of the fused chain that makes x, where x is a
    held result (_fuse.hold_reduce: sum(x * y), mean((x - m) ** 2))."""
    if _fuse.on:
        out = _fuse.hold_reduce(op, x, axes, keepdims, dtype)
        if out is not None:
            return out
    return _reduce.reduce(op, x, axes, keepdims, dtype, correction)


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _empty(device, dtype, shape):
    n = math.prod(shape)
    return _launch.result_type._new(device.alloc(n * dtype.itemsize), dtype, tuple(shape))


def mark():
    """A mark of the calling thread's dispatches, for compile_since."""
    return _launch.state.launches


def eager_since(mark_):
    """Where the call made since `mark_` was an op fusion would have held, recorded at once as
    the first after a host wait, its key for eager_now (its compiled plan is for such calls
    only); else None."""
    st = _launch.state
    return st.eager_key if st.eager_at == mark_ + 1 else None


def hold_plan(mark_, args, out):
    """Where the call made since `mark_` was one op fusion held, a function holding such calls
    again (args -> result, or None: take the general path), else None (_fuse.hold_plan)."""
    return _fuse.hold_plan(mark_, args, out) if _fuse.on else None


def eager_now(args, key):
    """Whether an elementwise call on these operands, of eager_since's key, is now recorded at
    once rather than held (the first after a host wait: see _fuse.EAGER)."""
    for a in args:
        if not isinstance(a, (bool, int, float, complex)):
            return _fuse.eager_now(a._alloc.device, key)
    return False


def compile_since(mark_, args, out):
    """A compiled plan (Device.compile_plan) that replays the call just made, or None.

    Only a call that recorded exactly one map_op dispatch since `mark_`, on the operands `args`
    as given (Arrays already of the computation dtype, where's condition bool, Python scalars),
    compiles: its plan allocates a result like `out` and records that dispatch again for new
    operands of the same layout (dtypes, shapes, strides, scalar types)."""
    st = _launch.state
    if st.launches != mark_ + 1 or st.last_plan is None:
        return None
    shader, plan = st.last_plan
    tcode = plan[5]
    # (the select family's variants, named after it, take a bool condition first)
    cond = shader.startswith("select_")
    specs = []
    for j, a in enumerate(args):
        if cond and j == 0:
            if a.__class__ in (bool, int, float, complex) or _code(a._dtype) != "?":
                return None
            specs.append(("array", a._dtype.itemsize))
            continue
        if isinstance(a, (bool, int, float, complex)):
            if tcode in table._INT:
                bits = table.DTYPES[table.CODE[tcode]][4]
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if tcode in table._SINT else (0, (1 << bits) - 1)
                specs.append(("scalar", tcode, lo, hi))
            else:
                specs.append(("scalar", tcode, None, None))
        elif _code(a._dtype) != tcode:
            return None  # converted before the op: not one dispatch of these operands
        else:
            specs.append(("array", a._dtype.itemsize))
    dev = out._alloc.device
    outputs = [(out._alloc.nbytes, out._dtype, out._shape, out._strides)]
    return dev.compile_plan(type(out), specs, outputs, [], [_launch.map_plan_step(shader, plan, args)])


# -- ask first (see the module's docstring) ------------------------------------------------
def supports_cast(src, dst, device):
    """Whether astype / assign / a copy converts dtype src values to dtype dst natively."""
    return _launch.cast_variant(_code(src), _code(dst), device) is not None


def _fill_variant(dtype, device):
    code = _code(dtype)
    variant = _launch.variant("fill", None, code, None, device)
    if variant is None or not _launch.device_supports(device, code):
        return None
    return variant


def supports_fill(op, dtype, device):
    """Whether full / arange / eye (op) of dtype is native on device."""
    if op == "arange" and table.DTYPES[dtype.name][3] not in "iuf":
        return False
    return _fill_variant(dtype, device) is not None


def supports_linspace(dtype, cdt, device):
    """Whether linspace of dtype computed in cdt (see _manip.linspace) is native on device."""
    if table.DTYPES[cdt.name][3] not in "fc" or table.DTYPES[dtype.name][3] not in "fc":
        return False
    return (_fill_variant(cdt, device) is not None
            and (cdt is dtype or supports_cast(cdt, dtype, device)))


# (op name, operand dtypes (None: a Python scalar), result dtype, device) -> bool
_supported = {}


def supports_elementwise(name, operands, dtype, device):
    """Whether elementwise(name, args, dtype, shape) is native on device, for args whose
    Arrays have the dtypes in `operands` (None for a Python scalar; a clip bound that is None
    counts as a scalar): the op table's signature, the compiled variant and the device's
    dtypes and features, and for integer division the conversion of the operands."""
    key = (name, tuple(operands), dtype, device, _launch.features(device))
    ok = _supported.get(key)
    if ok is None:
        ok = _supported[key] = _supports_elementwise(name, list(operands), dtype, device)
    return ok


def _supports_elementwise(name, operands, dtype, dev):
    arrays = [d for d in operands if d is not None]
    if not arrays:
        return False
    rc = _code(dtype)
    key = table.KEY_INPUT.get(name)
    if key is None:
        tc = _code(arrays[0])
    else:
        ka = operands[key] if key < len(operands) else None
        tc = rc if ka is None else _code(ka)
    if name == "divide" and tc not in "fdFD":
        if not all(supports_cast(d, dtype, dev) for d in arrays):
            return False
        tc = rc
    return _resolve(name, tc, rc, len(operands), dev) is not False


def _no(what):
    raise NotNative(f"{what}: not native here, though supports_* said it was")


def _fill(dtype, device, op):
    variant = _fill_variant(dtype, device)
    if variant is None or not supports_fill(op, dtype, device):
        _no(f"{op} {dtype.name}")
    return variant


# (device, dtype, shape, the value's words) -> the compiled plan of a full (False: none serves;
# _launch.ONCE: seen once, its plan made on the next call)
_full_plans = {}
MAX_FULL_PLANS = 256


def full(shape, fill_value, dtype, device):
    """After supports_fill("full", dtype, device). A call seen before (device, dtype, shape and
    the value's bits) replays as one compiled plan: one C++ call."""
    code = _code(dtype)
    words = _launch.scalar_words(fill_value, code)
    key = (device, dtype, shape, tuple(words))
    plan = _full_plans.get(key)
    if plan:
        out = plan()
        if out is not None:
            return out
    variant = _fill(dtype, device, "full")
    out = _empty(device, dtype, shape)
    _launch.fill(device, variant, table.FILL_CODES["full"], out, words)

    def make():
        step = _launch.fill_plan_step(variant, table.FILL_CODES["full"], out, words)
        return step and device.compile_plan(
            type(out), [], [(out._alloc.nbytes, dtype, out._shape, out._strides)], [], [step])

    _launch.keep_on_second_call(_full_plans, key, make, MAX_FULL_PLANS)
    return out


def full_plan(shape, fill_value, dtype, device):
    """The compiled plan (no operands: plan() -> the array, or None: take full()) that full() of
    these arguments keeps once it ran twice, else None."""
    plan = _full_plans.get((device, dtype, shape, tuple(_launch.scalar_words(fill_value, _code(dtype)))))
    return plan if plan else None


def arange(start, stop, step, n, dtype, device):
    """After supports_fill("arange", dtype, device)."""
    code = _code(dtype)
    kind = table.DTYPES[dtype.name][3]
    variant = _fill(dtype, device, "arange")
    out = _empty(device, dtype, (n,))
    if kind == "f":
        # numpy: the first two elements are dtype(start) and dtype(start + step), the others
        # start + i * delta in the dtype, delta = dtype(start + step) - dtype(start)
        import numpy as np

        npdt = dtype._np
        with np.errstate(all="ignore"):
            first = npdt.type(start)
            second = npdt.type(start + step)
            delta = npdt.type(second - first)
        start, step, second = float(first), float(delta), float(second)
    else:
        start, step = int(start), int(step)
        second = start + step
    # start at w[2], delta at w[4], the second element at w[6] (each up to two words)
    words = []
    for v in (start, step, second):
        words += (_launch.scalar_words(v, code) + [0])[:2]
    _launch.fill(device, variant, table.FILL_CODES["arange"], out, words)
    return out


def eye(n_rows, n_cols, k_diag, dtype, device):
    """After supports_fill("eye", dtype, device)."""
    variant = _fill(dtype, device, "eye")
    out = _empty(device, dtype, (n_rows, n_cols))
    k = max(-(1 << 31) + 1, min((1 << 31) - 1, int(k_diag)))
    _launch.fill(device, variant, table.FILL_CODES["eye"], out, [n_cols, k & 0xFFFFFFFF])
    return out


def astype(x, dtype):
    """A new C-contiguous array of x's values converted to dtype (numpy's conversions). After
    supports_cast(x.dtype, dtype, device)."""
    tc, rc = _code(x._dtype), _code(dtype)
    dev = x._alloc.device
    variant = _launch.cast_variant(tc, rc, dev)
    if variant is None:
        _no(f"astype {x._dtype.name} to {dtype.name}")
    if tc == rc and supports_transpose_copy(x):
        return transpose_copy(x)  # a transposed view: through shared-memory tiles
    out = _empty(dev, dtype, x._shape)
    if _fuse.on and _fuse.record(variant, "cast", 0, tc, rc, out, [x], 1, False, tc):
        return out
    _launch.map_op(variant, 0, out, [x], 1)
    return out


def copy(x):
    """A new C-contiguous copy of the view x. After supports_cast(x.dtype, x.dtype, device)."""
    return astype(x, x._dtype)


def assign(dst, src):
    """Writes src into the strided view dst in place (every view of its allocation sees it):
    src an Array broadcastable to dst.shape, converted to dst's dtype as astype does, or a Python
    scalar of dst's kind. For in-place operators and basic-index __setitem__, after
    supports_cast(src's dtype (dst's for a Python scalar), dst.dtype, device). A view of more
    dimensions than the push block describes is written as several (_launch.assign_split)."""
    dev = dst._alloc.device
    rc = _code(dst._dtype)
    tc = rc if isinstance(src, (bool, int, float, complex)) else _code(src._dtype)
    variant = _launch.cast_variant(tc, rc, dev)
    if variant is None:
        _no(f"assign to {dst._dtype.name}")
    _launch.assign_split(variant, dst, src)


def _clip_bounds(args):
    """clip's None bounds as the dtype's extremes (-inf/+inf for floats)."""
    x = args[0]
    kind = table.DTYPES[x._dtype.name][3]
    if kind == "f":
        lo, hi = float("-inf"), float("inf")
    else:
        bits = table.DTYPES[x._dtype.name][4]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if kind == "i" else (0, (1 << bits) - 1)
    return [x, lo if args[1] is None else args[1], hi if args[2] is None else args[2]]


# (op name, input code, result code, arity, device) -> (op, variant), or False: no native kernel.
_resolved = {}


def _resolve(name, tc, rc, nargs, dev):
    op = table.lookup(name, tc)
    if op is None or op.sigs[tc] != rc or nargs != op.nargs:
        return False
    variant = _launch.variant(op.family, tc, rc, name, dev)
    if variant is None or not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return False
    if op.family == "math" and tc in "dD" and not dev.supports_int64:
        return False  # math_f64.glsl's bit tricks use 64-bit integers
    return op, variant


def elementwise(name, args, dtype, shape):
    """A new C-contiguous array of shape: op `name` of the op table over args (Arrays
    broadcastable to shape, Python scalars) into dtype. After supports_elementwise(name,
    operand dtypes, dtype, device)."""
    if name == "clip" and len(args) == 3 and (args[1] is None or args[2] is None):
        args = _clip_bounds(args)
    arrays = [a for a in args if not isinstance(a, (bool, int, float, complex))]
    if not arrays:
        _no(f"elementwise {name} of Python scalars")
    dev = arrays[0]._alloc.device
    rc = _code(dtype)
    key = table.KEY_INPUT.get(name)
    if key is None:
        tc = _code(arrays[0]._dtype)
    else:  # e.g. where: looked up by its values' dtype (a Python scalar takes the result's)
        ka = args[key] if key < len(args) else None
        tc = rc if isinstance(ka, (bool, int, float, complex)) or ka is None else _code(ka._dtype)
    if name == "divide" and tc not in "fdFD":
        # integer division: the spec layer hands integer operands; divide in the result dtype
        conv = []
        for a in args:
            if isinstance(a, (bool, int, float, complex)):
                conv.append(float(a))
            else:
                conv.append(astype(a, dtype))
        args, tc = conv, rc
    key = (name, tc, rc, len(args), dev)
    found = _resolved.get(key)
    if found is None:
        found = _resolved[key] = _resolve(name, tc, rc, len(args), dev)
    if found is False:
        _no(f"elementwise {name}")
    op, variant = found
    if name == "clip" and tc in table._INT:
        args = [_launch.clamp_int(a, tc) if isinstance(a, int) else a for a in args]
    out = _empty(dev, dtype, shape)
    nin = {"unary": 1, "binary": 2, "math": 2, "clip": 3, "select": 3}[op.family]
    if op.family == "math" and op.nargs == 1:
        args = [args[0], args[0]]
    dynamic = op.family in _launch.DYNAMIC_MODES
    if _fuse.on and _fuse.record(variant, op.family, op.code, tc, rc, out, list(args), nin, dynamic, tc):
        return out  # held: recorded with the ops around it as one kernel (_fuse.py)
    _launch.map_op(variant, op.code, out, list(args), nin, dynamic=dynamic, tcode=tc)
    return out
