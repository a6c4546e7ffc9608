"""Set functions. Unique values come back sorted (scikit-learn relies on it); every NaN is a
distinct value, as the standard says."""
from typing import NamedTuple

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._elementwise_functions import _promote_args

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _check(x, fname):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")


def _unique(fname, x, **kw):
    _check(x, fname)
    idx = _dtypes.defaults(x.device)["indexing"]
    if x.dtype.kind != "c" and _kernels.supports_unique(x, idx):
        return _kernels.unique(x, True, bool(kw.get("return_index")),
                               bool(kw.get("return_inverse")), bool(kw.get("return_counts")), idx)

    def host(a):
        out = np.unique(a.reshape(-1), equal_nan=False, **kw)
        out = out if isinstance(out, tuple) else (out,)
        out = [out[0]] + [np.asarray(o, dtype=idx._np) for o in out[1:]]
        if kw.get("return_inverse"):
            pos = 2 if kw.get("return_index") else 1
            out[pos] = out[pos].reshape(a.shape)
        return tuple(out)

    res = _fallback.call(fname, host, x)
    return res


def unique_values(x, /):
    return _unique("unique_values", x)[0]


def unique_counts(x, /):
    return UniqueCountsResult(*_unique("unique_counts", x, return_counts=True))


def unique_inverse(x, /):
    return UniqueInverseResult(*_unique("unique_inverse", x, return_inverse=True))


def unique_all(x, /):
    return UniqueAllResult(*_unique("unique_all", x, return_index=True, return_inverse=True,
                                    return_counts=True))


def isin(x1, x2, /, *, invert=False):
    """Whether each element of x1 occurs in x2."""
    dt, dev = _promote_args((x1, x2), "isin")
    return _fallback.call(
        "isin", lambda a, b: np.asarray(np.isin(np.asarray(a, dt._np), np.asarray(b, dt._np),
                                                invert=invert)),
        x1, x2, device=dev, dtype=_dtypes.bool)
