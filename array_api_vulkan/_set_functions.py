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


# isin compares every pair of elements (one broadcast equal and an any) up to this many pairs;
# beyond, it sorts x2 and searches it (complex, which has no order: through numpy).
ISIN_PAIRS = 1 << 20


def _isin_native(x1, x2, dt, dev, invert):
    """isin on the device (elementwise ops, reductions, sort and searchsorted), or None."""
    from ._creation_functions import asarray, full
    from ._data_type_functions import astype
    from ._elementwise_functions import equal, logical_not, minimum
    from ._indexing_functions import take
    from ._manipulation_functions import expand_dims, reshape
    from ._searching_functions import searchsorted, where
    from ._sorting_functions import sort
    from ._utility_functions import any as _any

    if not _kernels.supports_elementwise("equal", [dt, dt], _dtypes.bool, dev):
        return None  # (bool results not computed on here: one round trip, not one an op)
    a1, a2 = (astype(a, dt, copy=False) if isinstance(a, Array) else asarray(a, dtype=dt, device=dev)
              for a in (x1, x2))
    v = reshape(a2, (-1,))
    if v.shape[0] == 0:
        return full(a1.shape, bool(invert), dtype=_dtypes.bool, device=dev)
    if dt == _dtypes.bool:
        # x1's True found where x2 has a True, its False where x2 has a False
        found = where(a1, _any(v), _any(logical_not(v)))
    elif a1.size * v.shape[0] <= ISIN_PAIRS:
        found = _any(equal(expand_dims(a1, axis=-1), v), axis=-1)
    elif dt.kind == "c":
        return None
    else:
        # each x1 element against the first sorted x2 element not below it (NaNs sort last and
        # equal nothing; -0.0 and 0.0 search alike and compare equal)
        s = sort(v)
        at = minimum(reshape(searchsorted(s, a1), (-1,)), v.shape[0] - 1)
        found = equal(reshape(take(s, at), a1.shape), a1)
    return logical_not(found) if invert else found


def isin(x1, x2, /, *, invert=False):
    """Whether each element of x1 occurs in x2."""
    dt, dev = _promote_args((x1, x2), "isin")
    found = _isin_native(x1, x2, dt, dev, invert)
    if found is not None:
        return found
    return _fallback.call(
        "isin", lambda a, b: np.asarray(np.isin(np.asarray(a, dt._np), np.asarray(b, dt._np),
                                                invert=invert)),
        x1, x2, device=dev, dtype=_dtypes.bool)
