"""The spec layer's entries of the ask-first families (elementwise, astype, creation, assign,
indexing and compaction): each is called only after its `supports_*` answered yes, always
returns the result, and raises `NotNative` where it cannot serve (a bug in the answer, never a
silent fallback).

The kernels layer's own callers (linalg, fft, matmul, sort, reduce) call the functions of the
same names in `array_api_vulkan._kernels`, which still answer None / False for "not native";
these wrap them. Once every internal caller asks first, the two sets can become one.
(Imported at the end of the package's __init__, once those exist.)
"""
from . import _index, _launch, _manip
from . import arange as _arange, assign as _assign, astype as _astype, elementwise as _ew
from . import eye as _eye, full as _full
from ._reduce import NotNative


def _native(value, what, detail=""):
    if value is None or value is False:
        raise NotNative(f"{what}{detail}: not native here, though supports_* said it was")
    return value


def elementwise(name, args, dtype, shape):
    """After supports_elementwise(name, operand dtypes, dtype, device)."""
    return _native(_ew(name, args, dtype, shape), "elementwise ", name)


def astype(x, dtype):
    """After supports_cast(x.dtype, dtype, device): a new C-contiguous array."""
    return _native(_astype(x, dtype), "astype to ", dtype.name)


def copy(x):
    """After supports_cast(x.dtype, x.dtype, device): a new C-contiguous copy of the view."""
    return _native(_astype(x, x._dtype), "copy")


def full(shape, fill_value, dtype, device):
    """After supports_fill("full", dtype, device)."""
    return _native(_full(shape, fill_value, dtype, device), "full ", dtype.name)


def arange(start, stop, step, n, dtype, device):
    """After supports_fill("arange", dtype, device)."""
    return _native(_arange(start, stop, step, n, dtype, device), "arange ", dtype.name)


def eye(n_rows, n_cols, k, dtype, device):
    """After supports_fill("eye", dtype, device)."""
    return _native(_eye(n_rows, n_cols, k, dtype, device), "eye ", dtype.name)


def linspace(start, stop, num, endpoint, dtype, cdt, device):
    """After supports_linspace(dtype, cdt, device)."""
    return _native(_manip.linspace(start, stop, num, endpoint, dtype, cdt, device), "linspace")


def tri(x, k, upper):
    """After supports_cast(x.dtype, x.dtype, device)."""
    return _native(_manip.tri(x, k, upper), "tril/triu")


def assign(dst, src):
    """After supports_cast(src's dtype (dst's for a Python scalar), dst.dtype, device)."""
    _native(_assign(dst, src), "assign")


def contiguous(a, shape=None):
    """After supports_cast(a.dtype, a.dtype, device): a (broadcast to shape) C-contiguous."""
    return _native(_launch.contiguous(a, shape), "contiguous copy")


def gather(x, out_shape, xs, xoff, idx):
    """After supports_gather(x, out_shape, xs, idx)."""
    return _native(_index.gather(x, out_shape, xs, xoff, idx), "gather")


def scatter(x, src, out_shape, xs, xoff, idx):
    """After supports_gather(x, out_shape, xs, idx), src and the index arrays not x's memory."""
    _native(_index.scatter(x, src, out_shape, xs, xoff, idx), "scatter")


def compact(mask, shape, index_dtype):
    """After supports_compact(size, len(shape), index_dtype, device): (coordinates, count)."""
    return _native(_index.compact(mask, shape, index_dtype), "compact")


def compact_values(x, n, xoff, xs, mask, row=(), d=1, rs=0):
    """After supports_compact_values(x, n, xoff, xs, d, rs)."""
    return _native(_index.compact_values(x, n, xoff, xs, mask, row, d, rs), "compact values")


def mask_count(x, mask, n):
    """After supports_compact_values (n > 0)."""
    return _native(_index.mask_count(x, mask, n), "mask count")


def mask_scatter(x, n, xoff, xs, mask, src, counted, d=1, rs=0):
    """After supports_compact_values, src and mask not x's memory."""
    _native(_index.mask_scatter(x, n, xoff, xs, mask, src, counted, d, rs), "mask scatter")


def mask_fill(x, n, xoff, xs, mask, value_words, d=1, rs=0):
    """After supports_compact_values, mask not x's memory."""
    _native(_index.mask_fill(x, n, xoff, xs, mask, value_words, d, rs), "mask fill")
