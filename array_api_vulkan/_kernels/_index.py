"""Index families: gather/scatter through integer index arrays (glsl/gather.comp) and the
compaction of a boolean mask (glsl/compact.comp). See docs/kernels.md, "Indexing".

The spec layer (array_api_vulkan/_indexing.py) maps take, take_along_axis, integer-array and
boolean-mask __getitem__/__setitem__ and nonzero onto these, after asking supports_gather /
supports_compact / supports_compact_values (a no: the spec layer falls back to numpy, counted);
the entries then serve, raising NotNative where they cannot (a bug in the answer).
"""
import math

import numpy as np

from . import _launch, _reduce
from ._launch import NotNative, table

GATHER, SCATTER = 1, 2
_FIRST_LIST = 10  # first push word of shape / strides (glsl/gather.comp)


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _index_variant(icode, itemsize, dev):
    from .variants import gather_name

    if not (_launch.device_supports(dev, icode)):
        return None
    return _launch.named(gather_name(icode, itemsize * 8), dev)


def _elems(alloc, itemsize):
    return alloc.nbytes // itemsize


def _index_layout(x, out_shape, xs, idx, other=None):
    """(shader, collapsed shape, collapsed strides) of a gather / scatter, or None where no
    kernel covers it. idx entries (index Array or its DType, strides, axis length, x stride);
    other: the result / source Array where it exists already."""
    dev = x._alloc.device
    if len(idx) > 2 or any(k[2] == 0 for k in idx):
        return None  # more than two index arrays; an empty axis (the fallback raises)
    icodes = {_code(getattr(k[0], "_dtype", k[0])) for k in idx}
    if len(icodes) > 1:
        return None
    icode = icodes.pop() if icodes else "i"
    shader = _index_variant(icode, x._dtype.itemsize, dev)
    if shader is None:
        return None
    lim = 1 << 31
    arrays = [x] + ([other] if other is not None else []) + [k[0] for k in idx
                                                            if hasattr(k[0], "_alloc")]
    if (any(_elems(a._alloc, a._dtype.itemsize) >= lim for a in arrays)
            or math.prod(out_shape) >= lim):
        return None  # 32-bit element offsets
    sh, sts = _launch._collapse(tuple(out_shape), [list(xs)] + [list(k[1]) for k in idx])
    if _FIRST_LIST + len(sh) * (1 + len(idx)) > _launch.LAYOUT_WORDS:
        return None
    return shader, sh, sts


def supports_gather(x, out_shape, xs, idx):
    """Whether gather(x, out_shape, xs, xoff, idx) / scatter(...) is native: idx as gather's,
    an index Array's DType standing for an index array made later (a mask's coordinates).
    The index dtypes must be one (the spec layer converts them first)."""
    if math.prod(out_shape) == 0:
        return True
    return _index_layout(x, out_shape, xs, idx) is not None


def _index_words(n, sh, sts, xoff, idx, other_offset):
    """The push words (layout part) of a gather / scatter."""
    nd = len(sh)
    words = [0] * _launch.LAYOUT_WORDS
    words[0] = n
    words[1] = nd | (len(idx) << 8)
    words[2] = xoff & 0xFFFFFFFF
    for j, (a, _, axn, s) in enumerate(idx):
        words[3 + j] = getattr(a, "_offset", 0)
        words[5 + j] = axn
        words[7 + j] = s & 0xFFFFFFFF
    words[9] = other_offset
    words[_FIRST_LIST:_FIRST_LIST + nd] = sh
    for j, st in enumerate(sts):
        o = _FIRST_LIST + nd * (1 + j)
        words[o:o + nd] = [s & 0xFFFFFFFF for s in st]
    return words


def _index_op(op, x, other, out_shape, xs, xoff, idx):
    """Records one gather (other: the fresh result) or scatter (other: the contiguous source)
    dispatch. idx: [(index Array, its strides over out_shape, axis length, x's axis stride)]."""
    dev = x._alloc.device
    n = math.prod(out_shape)
    if n == 0:
        return
    layout = _index_layout(x, out_shape, xs, idx, other)
    if layout is None:
        raise NotNative("gather/scatter: no kernel covers this layout, though supports_gather said one did")
    shader, sh, sts = layout
    words = _index_words(n, sh, sts, xoff, idx, other._offset)
    push = np.zeros(_launch.PUSH_WORDS, np.uint32)
    push[:len(words)] = words
    _launch.put_address(push, _launch.ADDR_WORD, other._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 2, x._alloc)
    for j, k in enumerate(idx):
        _launch.put_address(push, _launch.ADDR_WORD + 4 + 2 * j, k[0]._alloc)
    buffers = [other._alloc, x._alloc] + [k[0]._alloc for k in idx]
    writes = [op == GATHER, op == SCATTER] + [False] * len(idx)
    dev.launch(shader, (op,), buffers, writes, push, n)
    _launch.state.launches += 1
    _launch.state.last_plan = None


# A gather's layout (x's dtype and device, out_shape, xs, each index array's dtype, strides, axis
# length and x stride) -> its compiled plan: plan(x, *index arrays, xoff) -> the result, or None
# (the general path). x's and the index arrays' offsets are the plan's to patch; xoff a scalar.
_gather_plans = {}
MAX_GATHER_PLANS = 256
_SMALL = 1 << 31  # (allocations below this many bytes have 32-bit element offsets)


def _gather_key(x, out_shape, xs, idx):
    if x._alloc.nbytes >= _SMALL or any(k[0]._alloc.nbytes >= _SMALL for k in idx):
        return None
    return (x._dtype, x._alloc.device, tuple(out_shape), tuple(xs),
            tuple([(k[0]._dtype, tuple(k[1]), k[2], k[3]) for k in idx]))


def gather_plan(x, out_shape, xs, idx, make=False):
    """The compiled plan of a gather of this layout (see _gather_plans), or None where none
    serves (an empty result, big allocations) or none is made yet: with make (after a gather of
    the layout ran), as _launch.keep_on_second_call makes it. After supports_gather."""
    key = _gather_key(x, out_shape, xs, idx)
    if key is None:
        return None
    if make:
        plan = _launch.keep_on_second_call(
            _gather_plans, key, lambda: _make_gather_plan(x, out_shape, xs, idx), MAX_GATHER_PLANS)
    else:
        plan = _gather_plans.get(key)
    return plan if plan else None


def _make_gather_plan(x, out_shape, xs, idx):
    n = math.prod(out_shape)
    layout = _index_layout(x, out_shape, xs, idx) if n else None
    if layout is None:
        return None
    shader, sh, sts = layout
    template = [0] * _launch.PUSH_WORDS
    template[:_launch.LAYOUT_WORDS] = _index_words(n, sh, sts, 0, idx, 0)
    A, OUT, ARG = _launch.ADDR_WORD, _launch.OUT, _launch.ARG
    nidx = len(idx)
    buffers = [(OUT, 0, True), (ARG, 0, False)] + [(ARG, 1 + j, False) for j in range(nidx)]
    patches = [(A, _launch.ADDRESS, OUT, 0), (A + 2, _launch.ADDRESS, ARG, 0),
               (2, _launch.SCALAR, ARG, 1 + nidx)]
    for j in range(nidx):
        patches += [(3 + j, _launch.OFFSET, ARG, 1 + j), (A + 4 + 2 * j, _launch.ADDRESS, ARG, 1 + j)]
    args = ([("array", x._dtype.itemsize)] + [("array", k[0]._dtype.itemsize) for k in idx]
            + [("scalar", "I", 0, 0xFFFFFFFF)])
    step = (shader, [GATHER], template, _launch.grid_1d(n), buffers, patches)
    outputs = [(n * x._dtype.itemsize, x._dtype, tuple(out_shape), _launch._c_strides(tuple(out_shape)))]
    return x._alloc.device.compile_plan(_launch.result_type, args, outputs, [], [step])


def gather(x, out_shape, xs, xoff, idx):
    """A new C-contiguous array of out_shape: element at coordinates c is
    x[xoff + sum_d c_d xs_d + sum_k wrapclamp(I_k[c]) s_k] (glsl/gather.comp).
    idx: up to two (index Array, strides over out_shape, axis length n_k, x stride s_k);
    negative indices wrap once, then every index is clamped into [0, n_k - 1].
    After supports_gather(x, out_shape, xs, idx). A layout seen before replays as one compiled
    plan (gather_plan)."""
    plan = gather_plan(x, out_shape, xs, idx)
    if plan is not None:
        out = plan(x, *[k[0] for k in idx], xoff & 0xFFFFFFFF)
        if out is not None:
            return out
    else:
        gather_plan(x, out_shape, xs, idx, make=True)
    dev = x._alloc.device
    n = math.prod(out_shape)
    out = _launch.result_type._new(dev.alloc(max(n, 1) * x._dtype.itemsize), x._dtype,
                                   tuple(out_shape))
    _index_op(GATHER, x, out, out_shape, xs, xoff, idx)
    return out


def scatter(x, src, out_shape, xs, xoff, idx):
    """x[position of c] = src[c] for every c of out_shape (positions as gather's); src a
    C-contiguous array of x's dtype and out_shape. Where several c reach one position, one of
    them wins (which one is unspecified: the dispatch's invocations race). After
    supports_gather(x, out_shape, xs, idx), src and the index arrays not x's memory."""
    if src._alloc is x._alloc or any(k[0]._alloc is x._alloc for k in idx):
        raise NotNative("scatter: the source or an index array is the destination's memory")
    _index_op(SCATTER, x, src, out_shape, xs, xoff, idx)


# -- compaction (glsl/compact.comp) ----------------------------------------------------------
COUNT, INDEX, VALUE, SCATTER, FILL = range(5)
_TILE = 256 * 8          # compact.comp's tile: a chunk is whole tiles
_MIN_TILES = 2


def _compact_chunks(n, dev):
    """(L, G): G chunks of L elements (whole tiles) of an n-element mask, about as many as a
    long scan has (_reduce.scan_target_groups; the scan of their counts is one workgroup)."""
    L = max(-(-n // _reduce.scan_target_groups(dev)), _MIN_TILES * _TILE)
    L = -(-L // _TILE) * _TILE
    return L, -(-n // L)


def _mask_words(mask, n, L, G):
    push = np.zeros(_launch.PUSH_WORDS, np.uint32)
    push[0:4] = [n, mask._offset, L, G]
    _launch.put_address(push, _launch.ADDR_WORD + 2, mask._alloc)
    return push


def _offsets(shader, mask, n):
    """The count pass and the exclusive scan of the counts of the contiguous n-element bool
    mask: (L, G, offsets Allocation (G + 1 uint32), total), one small read back (the total).
    After _chunks_ok(n, dev)."""
    dev = mask._alloc.device
    if not _chunks_ok(n, dev):
        raise NotNative("compaction: no scan variant, or too many chunks")
    L, G = _compact_chunks(n, dev)
    counts = dev.alloc(G * 4)
    push = _mask_words(mask, n, L, G)
    _launch.put_address(push, _launch.ADDR_WORD, counts)
    dev.launch(shader, (COUNT,), [counts, mask._alloc], [True, False], push, groups=(G, 1, 1))
    offs = dev.alloc((G + 1) * 4)
    _launch.state.launches += 1
    _reduce.exclusive_scan_u32(dev, counts, offs, G)
    total = int(dev.download_bytes(offs, G * 4, 4).view(np.uint32)[0])
    return L, G, offs, total


def _value_shader(x):
    dev = x._alloc.device
    # (asked two or three times by every mask index: cached per width, device and subgroup
    # switch, which the tests flip on a live device)
    key = (x._dtype.itemsize, dev, _launch.features(dev), _launch.USE_SUBGROUPS)
    name = _value_shaders.get(key, False)
    if name is False:
        from .variants import compact_value_name

        name = _value_shaders[key] = _launch.subgroup_variant(
            _launch.named(compact_value_name(x._dtype.itemsize * 8), dev), dev)
    return name


_value_shaders = {}


def _strided_ok(x, n, xoff, xs, d=1, rs=0):
    """x's elements xoff + i * xs + j * rs (i < n, j < d) within 32-bit element indices."""
    lim = 1 << 31
    corners = [xoff + a * xs + b * rs for a in (0, n - 1) for b in (0, d - 1)]
    return (0 <= min(corners) and max(corners) < lim
            and _elems(x._alloc, x._dtype.itemsize) < lim)


def _row_words(push, xoff, xs, d, rs):
    push[5:7] = [xoff, xs & 0xFFFFFFFF]
    push[9:11] = [d, rs & 0xFFFFFFFF]


def supports_compact(n, k, index_dtype, dev):
    """Whether compact() of an n-element mask viewed with k dimensions into index_dtype
    coordinates is native on dev (the mask itself is bool: C-contiguous, the caller asks for
    that copy)."""
    icode = _code(index_dtype)
    shader = _launch.named(f"compact_{index_dtype.name}", dev)
    return (shader is not None and icode in table.COMPACT_CODES and 7 + k <= _launch.LAYOUT_WORDS
            and n < 1 << 31 and _chunks_ok(n, dev))


def supports_compact_values(x, n, xoff, xs, d=1, rs=0):
    """Whether compact_values / mask_count + mask_scatter / mask_fill of x's n rows (as
    compact_values takes them) is native."""
    return (_value_shader(x) is not None and n < 1 << 31 and _chunks_ok(n, x._alloc.device)
            and (not n or not d or _strided_ok(x, n, xoff, xs, d, rs)))


def _chunks_ok(n, dev):
    scan = _scan_ok.get(dev)
    if scan is None:
        scan = _scan_ok[dev] = _launch.variant("scan", "I", "I", None, dev) is not None
    return scan and (n == 0 or _compact_chunks(n, dev)[1] <= 65535)


_scan_ok = {}


def compact(mask, shape, index_dtype):
    """The coordinates of the set elements of the C-contiguous bool array `mask` (viewed with
    `shape`) in C order: (Array of shape (len(shape), count) of index_dtype, count). After
    supports_compact(size, len(shape), index_dtype, device). Count pass, scan of the counts,
    then the coordinates at each element's rank; one small read back (the count) is made here:
    the result's shape depends on the data."""
    dev = mask._alloc.device
    n = math.prod(shape)
    k = len(shape)
    if not supports_compact(n, k, index_dtype, dev):
        raise NotNative(f"compact into {index_dtype.name}: not native here")
    shader = _launch.subgroup_variant(_launch.named(f"compact_{index_dtype.name}", dev), dev)
    if n == 0:
        out = _launch.result_type._new(dev.alloc(index_dtype.itemsize), index_dtype, (k, 0))
        return out, 0
    L, G, offs, count = _offsets(shader, mask, n)
    out = _launch.result_type._new(dev.alloc(max(k * count, 1) * index_dtype.itemsize),
                                   index_dtype, (k, count))
    if count == 0:
        return out, 0
    push = _mask_words(mask, n, L, G)
    push[5:7 + k] = [count, k] + list(shape)
    _launch.put_address(push, _launch.ADDR_WORD, out._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 4, offs)
    dev.launch(shader, (INDEX,), [out._alloc, mask._alloc, offs], [True, False, False], push,
               groups=(G, 1, 1))
    _launch.state.launches += 1
    _launch.state.last_plan = None
    return out, count


def _value_check(x, n, xoff, xs, d, rs, what):
    """compact_values' shader for x, after supports_compact_values(x, n, xoff, xs, d, rs)."""
    if not supports_compact_values(x, n, xoff, xs, d, rs):
        raise NotNative(f"{what}: not native here, though supports_compact_values said it was")
    return _value_shader(x)


def compact_values(x, n, xoff, xs, mask, row=(), d=1, rs=0):
    """x[mask] for x's n rows at xoff + i * xs (of `row` shape: d elements j * rs apart) and
    the C-contiguous n-element bool mask: a new (count,) + row array of x's dtype, the set rows
    in order (no index arrays). After supports_compact_values(x, n, xoff, xs, d, rs)."""
    dev = x._alloc.device
    shader = _value_check(x, n, xoff, xs, d, rs, "compact values")
    L, G, offs, count = _offsets(shader, mask, n) if n else (0, 0, None, 0)
    out = _launch.result_type._new(dev.alloc(max(count * d, 1) * x._dtype.itemsize), x._dtype,
                                   (count,) + tuple(row))
    if count * d == 0:
        return out
    push = _mask_words(mask, n, L, G)
    _row_words(push, xoff, xs, d, rs)
    _launch.put_address(push, _launch.ADDR_WORD, out._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 4, offs)
    _launch.put_address(push, _launch.ADDR_WORD + 6, x._alloc)
    dev.launch(shader, (VALUE,), [out._alloc, mask._alloc, offs, x._alloc],
               [True, False, False, False], push, groups=(G, 1, 1))
    _launch.state.launches += 1
    _launch.state.last_plan = None
    return out


def mask_count(x, mask, n):
    """(shader, L, G, offsets, count) for a later mask_scatter of x's n rows. After
    supports_compact_values, n > 0."""
    shader = _value_shader(x)
    if shader is None or n == 0 or n >= 1 << 31 or not _chunks_ok(n, x._alloc.device):
        raise NotNative("mask count: not native here")
    return (shader,) + _offsets(shader, mask, n)


def mask_scatter(x, n, xoff, xs, mask, src, counted, d=1, rs=0):
    """Row i of x (xoff + i * xs + j * rs, j < d) = src's row of i's rank, for the set elements
    i of the n-element mask; src a C-contiguous (count,) + row array of x's dtype (counted:
    mask_count's answer). After supports_compact_values, src and mask not x's memory."""
    shader, L, G, offs, count = counted
    if src._alloc is x._alloc or mask._alloc is x._alloc:
        raise NotNative("mask scatter: the source or the mask is the destination's memory")
    if count == 0 or d == 0:
        return
    if not _strided_ok(x, n, xoff, xs, d, rs):
        raise NotNative("mask scatter: beyond 32-bit element indices")
    dev = x._alloc.device
    push = _mask_words(mask, n, L, G)
    _row_words(push, xoff, xs, d, rs)
    _launch.put_address(push, _launch.ADDR_WORD, x._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 4, offs)
    _launch.put_address(push, _launch.ADDR_WORD + 6, src._alloc)
    push[7] = src._offset
    dev.launch(shader, (SCATTER,), [x._alloc, mask._alloc, offs, src._alloc],
               [True, False, False, False], push, groups=(G, 1, 1))
    _launch.state.launches += 1
    _launch.state.last_plan = None


def mask_fill(x, n, xoff, xs, mask, value_words, d=1, rs=0):
    """Row i of x (xoff + i * xs + j * rs, j < d) = the value (its bytes as uint32 words) for
    the set elements i of the n-element C-contiguous bool mask: one dispatch, no count. After
    supports_compact_values, mask not x's memory."""
    dev = x._alloc.device
    shader = _value_check(x, n, xoff, xs, d, rs, "mask fill")
    if mask._alloc is x._alloc:
        raise NotNative("mask fill: the mask is the destination's memory")
    if n == 0 or d == 0:
        return
    push = _mask_words(mask, n, 0, 0)
    _row_words(push, xoff, xs, d, rs)
    push[11:11 + len(value_words)] = value_words
    _launch.put_address(push, _launch.ADDR_WORD, x._alloc)
    dev.launch(shader, (FILL,), [x._alloc, mask._alloc], [True, False], push, n)
    _launch.state.launches += 1
    _launch.state.last_plan = None
