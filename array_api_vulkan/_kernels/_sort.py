"""Sorting, sets and searching (the sort family, glsl/sort.comp): sort/argsort as an LSD radix
sort over rows, unique_* on top of it, searchsorted as one binary search per query.

sort/argsort: the axis goes last (a permuted view, copied contiguous where it is not), then the
problem is `rows` rows of `n` elements, N = rows * n in all. Every element gets an unsigned key
whose order is the standard's (KW uint32 words: 2 for 64-bit dtypes) and its flat index V; a
stable LSD radix sort, 4 bits a pass (per tile histograms, an exclusive scan of them with the
scan family, a stable scatter), sorts (K, V) by key, then more passes sort V by row (V // n),
so that each row ends sorted and ties stay in input order. All passes of one layout are one
compiled plan. unique_*: a sort of the flattened input, adjacent-difference flags, an exclusive
scan (its total, the count of unique values, is read back: the shapes depend on it), then
compactions.
"""
import math

import numpy as np

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, table
from ._reduce import _native  # (raises NotNative where supports_sort promised a variant)

FAMILY = "sort"
CODES = table.FAMILY_CODES[FAMILY]
LOCAL = 256
TILE = 256 * 16
BITS = 4
# flags (push word 4)
F_ROWDIGIT, F_MOVEKEYS, F_DESC, F_RIGHT, F_SORTER = 1, 2, 4, 8, 16
W_FLAGS, W_IN_OFF = 4, 6
ADDR = 16  # push word of addr[0]
PUSH_WORDS = 32
MAX_PLANS = 256
MAX_GRID = 65535
_plans = {}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _variant(op, tc, rc, dev):
    if not any(o.family == FAMILY and o.sigs.get(tc) == rc for o in table.OPS.get(op, ())):
        return None
    if not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    return _launch.variant(FAMILY, tc, rc, None, dev)


def _key_bits(code):
    if code == "?":
        return BITS
    return table.DTYPES[table.CODE[code]][4]


def _groups(g):
    gx = min(g, MAX_GRID)
    return (gx, -(-g // gx), 1)


def _words(**kw):
    w = [0] * PUSH_WORDS
    for k, v in kw.items():
        w[int(k[1:])] = int(v) & 0xFFFFFFFF
    return w


def _step(shader, op, words, groups, bufs):
    """bufs: [(kind, index, writes, addr slot or None, offset word or None)]"""
    buffers, patches = [], []
    for kind, idx, wr, slot, offw in bufs:
        buffers.append((kind, idx, wr))
        if slot is not None:
            patches.append((ADDR + 2 * slot, ADDRESS, kind, idx))
        if offw is not None:
            patches.append((offw, OFFSET, kind, idx))
    return (shader, [CODES[op]], words, groups, buffers, patches)


def _scan_step(dev, m, src, dst):
    """Exclusive scan of m uint32 at TMP src into m + 1 uint32 at TMP dst (the scan family's
    cumulative_sum with include_initial, one row)."""
    shader = _launch.variant("scan", "I", "I", None, dev)
    w = [0] * PUSH_WORDS
    w[0:12] = [m, 1, 1, 0, 0, 1, 0, 1, m + 1, 0, 1, 1]
    buffers = [(TMP, src, False), (TMP, dst, True)]
    patches = [(24, ADDRESS, TMP, src), (26, ADDRESS, TMP, dst)]
    return (shader, [table.FAMILY_CODES["scan"]["cumulative_sum"]], w, (1, 1, 1), buffers, patches)


def _radix_plan(dev, dtype, rows, n, descending, want, index_dtype):
    """A compiled plan sorting the rows of a C-contiguous (rows, n) array (its argument),
    giving `want` outputs: "values" (the sorted values), "indices" (argsort, index_dtype),
    "perm" (uint32 flat indices). None where a variant is missing."""
    tc = _code(dtype)
    N = rows * n
    kw = 2 if _key_bits(tc) == 64 else 1
    keys = _variant("sort_keys", tc, "I", dev)
    radix = _variant("sort_hist", "I", "I", dev)
    scan = _launch.variant("scan", "I", "I", None, dev)
    if keys is None or radix is None or scan is None:
        return None
    G = -(-N // TILE)
    temps = [N * kw * 4, N * 4, N * kw * 4, N * 4, 16 * G * 4, (16 * G + 1) * 4]
    K = [0, 2]
    V = [1, 3]
    HIST, OFFS = 4, 5
    outputs, steps = [], []
    out_idx = {}
    for wnt in want:
        if wnt == "values":
            outputs.append((N * dtype.itemsize, dtype, (rows, n), (n, 1)))
        elif wnt == "indices":
            outputs.append((N * index_dtype.itemsize, index_dtype, (rows, n), (n, 1)))
        else:
            outputs.append((N * 4, None, (N,), (1,)))
        out_idx[wnt] = len(outputs) - 1
    steps.append(_step(keys, "sort_keys", _words(w0=N, w4=F_DESC if descending else 0),
                       _launch.grid_1d(N),
                       [(ARG, 0, False, 0, W_IN_OFF), (TMP, K[0], True, 1, None),
                        (TMP, V[0], True, 2, None)]))
    passes = [(s, False) for s in range(0, _key_bits(tc), BITS)]
    rowbits = (rows - 1).bit_length()
    passes += [(s, True) for s in range(0, rowbits, BITS)]
    cur = 0
    for j, (shift, rowdigit) in enumerate(passes):
        last_value = not rowdigit and (j + 1 == len(passes) or passes[j + 1][1])
        flags = (F_ROWDIGIT if rowdigit else 0) | (0 if rowdigit or last_value else F_MOVEKEYS)
        w = _words(w0=N, w1=n, w2=G, w3=shift, w4=flags, w5=kw)
        src = [(TMP, K[cur], False, 0, None), (TMP, V[cur], False, 1, None)]
        steps.append(_step(radix, "sort_hist", w, _groups(G),
                           src + [(TMP, HIST, True, 2, None)]))
        steps.append(_scan_step(dev, 16 * G, HIST, OFFS))
        vdst = (TMP, V[1 - cur])
        if j + 1 == len(passes) and "perm" in out_idx:
            vdst = (OUT, out_idx["perm"])
        steps.append(_step(radix, "sort_scatter", w, _groups(G),
                           src + [(TMP, OFFS, False, 2, None), (TMP, K[1 - cur], True, 3, None),
                                  (vdst[0], vdst[1], True, 4, None)]))
        cur = 1 - cur
    vfinal = (TMP, V[cur])
    if "perm" in out_idx:
        vfinal = (OUT, out_idx["perm"])
    if "values" in out_idx:
        g = _variant("sort_gather", tc, tc, dev)
        if g is None:
            return None
        steps.append(_step(g, "sort_gather", _words(w0=N), _launch.grid_1d(N),
                           [(vfinal[0], vfinal[1], False, 0, None), (ARG, 0, False, 1, W_IN_OFF),
                            (OUT, out_idx["values"], True, 2, None)]))
    if "indices" in out_idx:
        ic = _code(index_dtype)
        g = _variant("sort_index", "I", ic, dev)
        if g is None:
            return None
        steps.append(_step(g, "sort_index", _words(w0=N, w1=n), _launch.grid_1d(N),
                           [(vfinal[0], vfinal[1], False, 0, None),
                            (OUT, out_idx["indices"], True, 1, None)]))
    outs = [(nb, dt if dt is not None else _uint32(), sh, st) for nb, dt, sh, st in outputs]
    return dev.compile_plan(_launch.result_type, [("array", dtype.itemsize)], outs, temps, steps)


def _uint32():
    from .. import _dtypes

    return _dtypes.uint32


def _rows_view(x, axis):
    """x with `axis` moved last, as a C-contiguous array (x itself, or a copy), or None."""
    perm = [k for k in range(x.ndim) if k != axis] + [axis]
    shape = tuple(x._shape[k] for k in perm)
    strides = tuple(x._strides[k] for k in perm)
    cst = _launch._c_strides(shape)
    if all(s == c for s, c, m in zip(strides, cst, shape) if m != 1):
        return _launch.result_type._new(x._alloc, x._dtype, shape, cst, x._offset)
    v = _launch.result_type._new(x._alloc, x._dtype, shape, strides, x._offset)
    return _launch.contiguous(v)


def _radix(x2, rows, n, descending, want, index_dtype):
    dev = x2._alloc.device
    key = (x2._dtype, rows, n, bool(descending), want, index_dtype, dev)
    plan = _plans.get(key)
    if plan is None:
        plan = _radix_plan(dev, x2._dtype, rows, n, descending, want, index_dtype)
        if plan is None:
            return None
        if len(_plans) >= MAX_PLANS:
            _plans.clear()
        _plans[key] = plan
    out = plan(x2)
    if out is None:
        return None
    return out if isinstance(out, tuple) else (out,)


def _supported(x):
    tc = _code(x._dtype)
    if tc not in table._BOOL + table._REAL_NUMERIC:
        return False
    return x._alloc.nbytes // x._dtype.itemsize < 1 << 31


def supports_sort(x, indices, index_dtype):
    """Whether sort(x, axis, descending, indices, index_dtype) runs natively: x's dtype is
    sortable and not too long, and the device has every variant the radix plan records (keys,
    histograms, the scan of the histograms, the gather of values or the index conversion, and
    the contiguous copy of a view whose axis is not last). The spec layer asks this first."""
    if not _supported(x):
        return False
    dev = x._alloc.device
    tc = _code(x._dtype)
    need = [_variant("sort_keys", tc, "I", dev), _variant("sort_hist", "I", "I", dev),
            _launch.variant("scan", "I", "I", None, dev), _launch.variant("cast", tc, tc, None, dev)]
    need.append(_variant("sort_index", "I", _code(index_dtype), dev) if indices else _variant("sort_gather", tc, tc, dev))
    return all(v is not None for v in need)


def sort(x, axis, descending, indices, index_dtype):
    """sort (indices False) or argsort (indices True, in index_dtype) of x along `axis`
    (non-negative; 0 for a 0-d x), stable. The caller has checked supports_sort."""
    dev = x._alloc.device
    if x.ndim == 0:
        x = _launch.result_type._new(x._alloc, x._dtype, (1,), (1,), x._offset)
        r = sort(x, 0, descending, indices, index_dtype)
        return _launch.result_type._new(r._alloc, r._dtype, (), (), r._offset)
    dtype = index_dtype if indices else x._dtype
    N = math.prod(x._shape)
    if N == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, x._shape)
    v = _native(_rows_view(x, axis), "sort: the contiguous copy")
    n = x._shape[axis]
    rows = N // n
    r = _native(_radix(v, rows, n, descending, ("indices",) if indices else ("values",), index_dtype),
                "sort: the radix plan")[0]
    # back to x's axis order: a view of the (rows..., n) result
    moved = v._shape
    cst = _launch._c_strides(moved)
    perm = [k for k in range(x.ndim) if k != axis] + [axis]
    strides = [0] * x.ndim
    for j, k in enumerate(perm):
        strides[k] = cst[j]
    return _launch.result_type._new(r._alloc, dtype, x._shape, tuple(strides), 0)


def _push(words, addrs):
    push = np.zeros(PUSH_WORDS, np.uint32)
    for k, v in words.items():
        push[k] = int(v) & 0xFFFFFFFF
    for j, a in enumerate(addrs):
        _launch.put_address(push, ADDR + 2 * j, a)
    return push


def _dispatch(dev, shader, op, count, words, addrs, writes):
    """One dispatch: addrs[j] at addr[j]; writes: which of them it writes (hazards are
    tracked per allocation, each listed once)."""
    bufs, wr = [], []
    for a, w in zip(addrs, writes):
        for k, b in enumerate(bufs):
            if b is a:
                wr[k] = wr[k] or w
                break
        else:
            bufs.append(a)
            wr.append(w)
    dev.launch(shader, [CODES[op]], bufs, wr, _push({**words, 0: count}, addrs), count)


def _launch1(dev, shader, op, count, words, reads, writes_):
    _dispatch(dev, shader, op, count, words, list(reads) + list(writes_),
              [False] * len(reads) + [True] * len(writes_))


def unique(x, values, index, inverse, counts, index_dtype):
    """np.unique(x.reshape(-1), equal_nan=False) with the asked outputs: a tuple (values,
    [indices], [inverse (x's shape)], [counts]), or None where no kernel covers the case."""
    if not _supported(x):
        return None
    dev = x._alloc.device
    tc, ic = _code(x._dtype), _code(index_dtype)
    N = math.prod(x._shape)
    shaders = [_variant("unique_flags", tc, "I", dev), _variant("unique_compact", tc, tc, dev),
               _variant("sort_hist", "I", "I", dev), _variant("unique_first", "I", ic, dev),
               _launch.variant("scan", "I", "I", None, dev)]
    if any(s is None for s in shaders):
        return None
    flags_s, compact_s, u32_s, idx_s, scan_s = shaders
    if N == 0:
        outs = [_launch.result_type._new(dev.alloc(0), x._dtype, (0,))]
        if index:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, (0,)))
        if inverse:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, x._shape))
        if counts:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, (0,)))
        return tuple(outs)
    flat = x
    cst = _launch._c_strides(x._shape)
    if not all(s == c for s, c, m in zip(x._strides, cst, x._shape) if m != 1):
        flat = _launch.contiguous(x)
        if flat is None:
            return None
    flat = _launch.result_type._new(flat._alloc, x._dtype, (1, N), (N, 1), flat._offset)
    r = _radix(flat, 1, N, False, ("values", "perm"), index_dtype)
    if r is None:
        return None
    s, perm = r
    sa, pa = s._alloc, perm._alloc
    f = dev.alloc(N * 4)
    pos = dev.alloc((N + 1) * 4)
    _launch1(dev, flags_s, "unique_flags", N, {}, [sa], [f])
    from ._reduce import exclusive_scan_u32

    exclusive_scan_u32(dev, f, pos, N)  # (scan_s exists: it cannot fail)
    U = int(dev.download_bytes(pos, N * 4, 4).view(np.uint32)[0])
    outs = []
    vals = dev.alloc(U * x._dtype.itemsize)
    _launch1(dev, compact_s, "unique_compact", N, {}, [sa, f, pos], [vals])
    outs.append(_launch.result_type._new(vals, x._dtype, (U,)))
    if index:
        o = dev.alloc(U * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_first", N, {}, [pa, f, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, (U,)))
    if inverse:
        o = dev.alloc(N * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_inverse", N, {}, [pa, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, x._shape))
    if counts:
        st = dev.alloc((U + 1) * 4)
        _launch1(dev, u32_s, "unique_start", N, {1: U}, [f, pos], [st])
        o = dev.alloc(U * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_count", U, {}, [st], [o])
        outs.append(_launch.result_type._new(o, index_dtype, (U,)))
    return tuple(outs)


def searchsorted(x1, x2, side, sorter, index_dtype):
    """np.searchsorted(x1, x2, side, sorter): x1 one-dimensional, x2 an Array of x1's dtype,
    sorter None or an integer Array (converted to index_dtype). The result or None."""
    if not (_supported(x1) and _supported(x2)) or x1._dtype != x2._dtype:
        return None
    dev = x1._alloc.device
    tc, ic = _code(x1._dtype), _code(index_dtype)
    shader = _variant("sort_search", tc, ic, dev)
    if shader is None:
        return None
    m = math.prod(x2._shape)
    out = dev.alloc(m * index_dtype.itemsize)
    res = _launch.result_type._new(out, index_dtype, x2._shape)
    if m == 0:
        return res
    cst = _launch._c_strides(x2._shape)
    if not all(s == c for s, c, k in zip(x2._strides, cst, x2._shape) if k != 1):
        x2 = _launch.contiguous(x2)
        if x2 is None:
            return None
    n = x1._shape[0]
    if n == 0:
        from . import full

        return full(x2._shape, 0, index_dtype, dev)
    flags = F_RIGHT if side == "right" else 0
    words = {1: n, 6: x1._offset, 7: x1._strides[0] if n > 1 else 0, 8: x2._offset}
    allocs = [x1._alloc, x2._alloc]
    if sorter is not None:
        if sorter._dtype != index_dtype or not all(
                s == 1 for s, k in zip(sorter._strides, sorter._shape) if k != 1):
            from . import astype

            sorter = astype(sorter, index_dtype)
            if sorter is None:
                return None
        flags |= F_SORTER
        words[9] = sorter._offset
        allocs.append(sorter._alloc)
    else:
        allocs.append(x1._alloc)
    words[W_FLAGS] = flags
    _dispatch(dev, shader, "sort_search", m, words, allocs + [out],
              [False] * len(allocs) + [True])
    return res
