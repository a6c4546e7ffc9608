"""Searching functions."""
import numpy as np

from . import _dtypes, _fallback, _kernels, _statistical_functions
from ._array_object import Array
from ._elementwise_functions import LayoutPlans, _broadcast_shapes, _promote_args, _py
from ._manipulation_functions import _axes, _axis

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]


def _index_dtype(x):
    return _dtypes.defaults(x.device)["indexing"]


def _arg(fname, npfn, x, axis, keepdims):
    out = _statistical_functions._resolved(fname, x, axis, keepdims)
    if out is not None:
        return out
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    if x.dtype not in _dtypes._real_numeric_dtypes + (_dtypes.bool,):
        raise TypeError(f"{fname}() does not accept {x.dtype.name} input")
    axis0 = axis
    if axis is not None:
        axis = _axis(axis, x.ndim)
    if (x.size if axis is None else x.shape[axis]) == 0:
        raise ValueError(f"{fname}() of an empty array (as numpy: nothing to pick along the axis)")
    axes = tuple(range(x.ndim)) if axis is None else (axis,)
    if _kernels.supports_reduce(fname, x, _index_dtype(x)):
        _statistical_functions._remember(_statistical_functions._call_key(fname, x, axis0, keepdims, None, 0.0),
                                         fname, axes, bool(keepdims), _index_dtype(x))
        return _kernels.reduce(fname, x, axes, bool(keepdims), _index_dtype(x))

    def host(a):
        if axis is None:
            r = np.asarray(npfn(a))
            return r.reshape((1,) * a.ndim) if keepdims else r
        return np.asarray(npfn(a, axis=axis, keepdims=keepdims))

    return _fallback.call(fname, host, x, dtype=_index_dtype(x))


def argmax(x, /, *, axis=None, keepdims=False):
    return _arg("argmax", np.argmax, x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    return _arg("argmin", np.argmin, x, axis, keepdims)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    if not isinstance(x, Array):
        raise TypeError("count_nonzero() expects an array")
    ax = None if axis is None else _axes(axis, x.ndim)
    if _kernels.supports_reduce("count_nonzero", x, _index_dtype(x)):
        return _kernels.reduce("count_nonzero", x, tuple(range(x.ndim)) if ax is None else tuple(sorted(ax)),
                               bool(keepdims), _index_dtype(x))
    return _fallback.call(
        "count_nonzero", lambda a: np.asarray(np.count_nonzero(a, axis=ax, keepdims=keepdims)),
        x, dtype=_index_dtype(x))


def nonzero(x, /):
    """Indices of the nonzero elements, one index array per dimension."""
    if not isinstance(x, Array):
        raise TypeError("nonzero() expects an array")
    if x.ndim == 0:
        raise ValueError("nonzero() of a zero-dimensional array")
    dev = x.device
    it = _index_dtype(x)
    ne = x.dtype != _dtypes.bool
    copy = not ne and not x._is_c_contiguous()
    if ((_kernels.supports_elementwise("not_equal", [x.dtype, None], _dtypes.bool, dev) if ne
         else not copy or _kernels.supports_cast(x.dtype, x.dtype, dev))
            and _kernels.supports_compact(x.size, x.ndim, it, dev)):
        m = x
        if ne:
            zero = {"i": 0, "u": 0, "f": 0.0, "c": 0j}[x.dtype.kind]
            m = _kernels.elementwise("not_equal", [x, zero], _dtypes.bool, x.shape)
        elif copy:
            m = _kernels.copy(x)
        out, count = _kernels.compact(m, x.shape, it)
        return tuple(Array._new(out._alloc, out._dtype, (count,), (1,), out._offset + d * count)
                     for d in range(x.ndim))
    return _fallback.call("nonzero", lambda a: tuple(np.nonzero(a)), x, dtype=_index_dtype(x))


# A repeated searchsorted of two arrays without sorter: their layouts and side -> the kernels
# layer's compiled plan (plan(x1, x2)), kept once the call ran natively
_search_plans = {}
MAX_SEARCH_PLANS = 256


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Indices where x2's elements would be inserted into the sorted one-dimensional x1."""
    key = None
    if x1.__class__ is Array and x2.__class__ is Array and sorter is None:
        key = (x1._dtype, x1._shape, x1._strides, x1._alloc.device, x2._dtype, x2._shape,
               x2._strides, x2._alloc.device, side)
        try:
            plan = _search_plans.get(key)
        except TypeError:
            plan = key = None
        if plan:
            out = plan(x1, x2)
            if out is not None:
                return out
    if not isinstance(x1, Array):
        raise TypeError("searchsorted(): x1 must be an array")
    if x1.ndim != 1:
        raise ValueError("searchsorted(): x1 must be one-dimensional")
    if side not in ("left", "right"):
        raise ValueError("searchsorted(): side must be 'left' or 'right'")
    x2 = _py(x2)
    if x1.dtype.kind == "c" or (isinstance(x2, Array) and x2.dtype.kind == "c"):
        raise TypeError("searchsorted() needs real-valued arrays")
    dt, _ = _promote_args((x1, x2), "searchsorted")
    if sorter is not None and (not isinstance(sorter, Array) or sorter.dtype.kind not in "iu"):
        raise TypeError("searchsorted(): sorter must be an integer array")
    if sorter is not None and sorter.shape != x1.shape:
        raise ValueError(f"searchsorted(): sorter has shape {sorter.shape}, x1 {x1.shape}: "
                         "they must match")
    out = _searchsorted_native(x1, x2, dt, side, sorter)
    if out is not None:
        if key is not None and x1.dtype == x2.dtype:
            _kernels.keep_on_second_call(
                _search_plans, key,
                lambda: _kernels.searchsorted_plan(x1, x2, side, _index_dtype(x1)), MAX_SEARCH_PLANS)
        return out
    return _fallback.call(
        "searchsorted",
        lambda a, v, s: np.asarray(np.searchsorted(a.astype(dt._np, copy=False),
                                                   np.asarray(v, dtype=dt._np), side=side,
                                                   sorter=s)),
        x1, x2, sorter, dtype=_index_dtype(x1))


def _searchsorted_native(x1, x2, dt, side, sorter):
    if x2.__class__ in (bool, int, float):
        ok = {bool: "b", int: "iuf", float: "f"}[x2.__class__]
        if dt.kind not in ok or (dt.kind in "iu" and not np.iinfo(dt._np).min <= x2 <= np.iinfo(dt._np).max):
            return None
        if not _kernels.supports_fill("full", dt, x1.device):
            return None
        x2 = _kernels.full((), _dtypes.scalar_value(x2, dt), dt, x1.device)
    elif isinstance(x2, Array) and x2.device != x1.device:
        return None
    if not isinstance(x2, Array) or (sorter is not None and sorter.device != x1.device):
        return None
    args = []
    for a in (x1, x2):
        if a.dtype != dt:
            if not _kernels.supports_cast(a.dtype, dt, a.device):
                return None
            a = _kernels.astype(a, dt)
        args.append(a)
    if not _kernels.supports_searchsorted(args[0], args[1], sorter, _index_dtype(x1)):
        return None
    return _kernels.searchsorted(args[0], args[1], side, sorter, _index_dtype(x1))


# per layout (condition's, then each operand's dtype, shape and strides, or a scalar's type):
# compiled plans and functions holding calls for fusion, as the elementwise functions keep
_where_plans = LayoutPlans()
_kernels._fuse.listeners.append(_where_plans._drop_plans)
_HOLD_SCALARS = (bool, int, float, complex)


def where(condition, x1, x2, /):
    """Elements of x1 where condition holds, else of x2 (Python scalars allowed for x1, x2)."""
    layout = tuple([(a._dtype, a._shape, a._strides) if a.__class__ is Array else a.__class__
                    for a in (condition, x1, x2)])
    out = _where_plans._replay(layout, (condition, x1, x2))
    if out is not None:
        return out
    if not isinstance(condition, Array):
        raise TypeError("where(): condition must be an array")
    if condition.dtype != _dtypes.bool:
        raise TypeError("where(): condition must have a boolean dtype")
    x1, x2 = _py(x1), _py(x2)
    dt, dev = _promote_args((x1, x2), "where")
    if condition.device != dev:
        raise ValueError("where(): arrays are on different devices")
    shape = _broadcast_shapes(condition.shape,
                              *(a.shape for a in (x1, x2) if isinstance(a, Array)))
    if (all(a.dtype == dt or _kernels.supports_cast(a.dtype, dt, dev)
            for a in (x1, x2) if isinstance(a, Array))
            and _kernels.supports_elementwise(
                "where", [condition.dtype] + [dt if isinstance(a, Array) else None for a in (x1, x2)],
                dt, dev)):
        kargs = [condition]
        for a in (x1, x2):
            if isinstance(a, Array):
                a = a if a.dtype == dt else _kernels.astype(a, dt)
            else:
                a = _dtypes.scalar_value(a, dt)
            kargs.append(a)
        mark = _kernels.mark()
        out = _kernels.elementwise("where", kargs, dt, shape)
        if layout[0].__class__ is tuple and all(k.__class__ is tuple or k in _HOLD_SCALARS for k in layout):
            _where_plans._compile(layout, mark, (condition, x1, x2), out)
        return out
    return _fallback.call(
        "where", lambda c, a, b: np.where(c, np.asarray(a, dtype=dt._np),
                                          np.asarray(b, dtype=dt._np)),
        condition, x1, x2, device=dev, dtype=dt)
