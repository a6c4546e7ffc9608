"""Index families: gather/scatter through integer index arrays (glsl/gather.comp) and the
compaction of a boolean mask (glsl/compact.comp). See docs/kernels.md, "Indexing".

The spec layer (array_api_vulkan/_indexing.py) maps take, take_along_axis, integer-array and
boolean-mask __getitem__/__setitem__ and nonzero onto these. Each function returns None / False
where no kernel covers the case (the spec layer falls back to numpy, counted).
"""
import math

import numpy as np

from . import _launch
from ._launch import table

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


def _index_op(op, x, other, out_shape, xs, xoff, idx):
    """Records one gather (other: the fresh result) or scatter (other: the contiguous source)
    dispatch. idx: [(index Array, its strides over out_shape, axis length, x's axis stride)]."""
    dev = x._alloc.device
    n = math.prod(out_shape)
    if n == 0:
        return True
    if len(idx) > 2 or any(k[2] == 0 for k in idx):
        return False  # more than two index arrays; an empty axis (the fallback raises)
    icodes = {_code(k[0]._dtype) for k in idx}
    if len(icodes) > 1:
        return False
    icode = icodes.pop() if icodes else "i"
    shader = _index_variant(icode, x._dtype.itemsize, dev)
    if shader is None:
        return False
    lim = 1 << 31
    arrays = [x, other] + [k[0] for k in idx]
    if any(_elems(a._alloc, a._dtype.itemsize) >= lim for a in arrays):
        return False  # 32-bit element offsets
    sh, sts = _launch._collapse(tuple(out_shape), [list(xs)] + [list(k[1]) for k in idx])
    nd = len(sh)
    if _FIRST_LIST + nd * (1 + len(idx)) > _launch.LAYOUT_WORDS:
        return False
    words = [0] * _launch.LAYOUT_WORDS
    words[0] = n
    words[1] = nd | (len(idx) << 8)
    words[2] = xoff & 0xFFFFFFFF
    for j, (a, _, axn, s) in enumerate(idx):
        words[3 + j] = a._offset
        words[5 + j] = axn
        words[7 + j] = s & 0xFFFFFFFF
    words[9] = other._offset
    words[_FIRST_LIST:_FIRST_LIST + nd] = sh
    for j, st in enumerate(sts):
        o = _FIRST_LIST + nd * (1 + j)
        words[o:o + nd] = [s & 0xFFFFFFFF for s in st]
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
    return True


def gather(x, out_shape, xs, xoff, idx):
    """A new C-contiguous array of out_shape: element at coordinates c is
    x[xoff + sum_d c_d xs_d + sum_k wrapclamp(I_k[c]) s_k] (glsl/gather.comp), or None.
    idx: up to two (index Array, strides over out_shape, axis length n_k, x stride s_k);
    negative indices wrap once, then every index is clamped into [0, n_k - 1]."""
    dev = x._alloc.device
    n = math.prod(out_shape)
    out = _launch.result_type._new(dev.alloc(max(n, 1) * x._dtype.itemsize), x._dtype,
                                   tuple(out_shape))
    return out if _index_op(GATHER, x, out, out_shape, xs, xoff, idx) else None


def scatter(x, src, out_shape, xs, xoff, idx):
    """x[position of c] = src[c] for every c of out_shape (positions as gather's); src a
    C-contiguous array of x's dtype and out_shape. Where several c reach one position, one of
    them wins (which one is unspecified: the dispatch's invocations race). False: not done."""
    if src._alloc is x._alloc:
        return False
    for k in idx:
        if k[0]._alloc is x._alloc:
            return False
    return _index_op(SCATTER, x, src, out_shape, xs, xoff, idx)


def compact(mask, shape, index_dtype):
    """The coordinates of the set elements of the C-contiguous bool array `mask` (viewed with
    `shape`) in C order: (Array of shape (len(shape), count) of index_dtype, count), or None.
    One small read back (the count) is made here: the result's shape depends on the data."""
    from . import _reduce

    dev = mask._alloc.device
    icode = _code(index_dtype)
    shader = _launch.named(f"compact_{index_dtype.name}", dev)
    n = math.prod(shape)
    k = len(shape)
    if (shader is None or icode not in table.COMPACT_CODES or 5 + k > _launch.LAYOUT_WORDS
            or n >= 1 << 31):
        return None
    if n == 0:
        out = _launch.result_type._new(dev.alloc(index_dtype.itemsize), index_dtype, (k, 0))
        return out, 0
    flat = _launch.result_type._new(mask._alloc, mask._dtype, (n,), (1,), mask._offset)
    cs = _reduce.scan("cumulative_sum", flat, 0, index_dtype, False)
    if cs is None:
        return None
    count = int(dev.download(cs._alloc, index_dtype._np, (1,), (1,), cs._offset + n - 1)[0])
    out = _launch.result_type._new(dev.alloc(max(k * count, 1) * index_dtype.itemsize),
                                   index_dtype, (k, count))
    if count == 0:
        return out, 0
    words = [n, mask._offset, cs._offset, count, k] + list(shape)
    push = np.zeros(_launch.PUSH_WORDS, np.uint32)
    push[:len(words)] = words
    _launch.put_address(push, _launch.ADDR_WORD, out._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 2, mask._alloc)
    _launch.put_address(push, _launch.ADDR_WORD + 4, cs._alloc)
    dev.launch(shader, (0,), [out._alloc, mask._alloc, cs._alloc], [True, False, False], push, n)
    _launch.state.launches += 1
    _launch.state.last_plan = None
    return out, count
