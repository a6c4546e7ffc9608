"""The fft extension (host fallbacks through numpy.fft, dtypes kept as the standard says)."""
import operator

import numpy as np

from . import _dtypes, _fallback
from ._array_object import Array
from ._creation_functions import _device, _dtype_for
from ._manipulation_functions import _axes

__all__ = ["fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
           "irfft", "irfftn", "rfft", "rfftfreq", "rfftn"]

_NORMS = ("backward", "ortho", "forward")


def _complex(dt):
    return _dtypes._complex_of.get(dt, dt)


def _real(dt):
    return _dtypes._real_of.get(dt, dt)


# name -> (numpy function, accepted input dtypes, output dtype rule, n-dimensional)
_FFTS = {
    "fft": (np.fft.fft, "complex floating", _complex, False),
    "ifft": (np.fft.ifft, "complex floating", _complex, False),
    "fftn": (np.fft.fftn, "complex floating", _complex, True),
    "ifftn": (np.fft.ifftn, "complex floating", _complex, True),
    "rfft": (np.fft.rfft, "real floating", _complex, False),
    "irfft": (np.fft.irfft, "complex floating", _real, False),
    "rfftn": (np.fft.rfftn, "real floating", _complex, True),
    "irfftn": (np.fft.irfftn, "complex floating", _real, True),
    "hfft": (np.fft.hfft, "complex floating", _real, False),
    "ihfft": (np.fft.ihfft, "real floating", _complex, False),
}


def _transform(name, x, size, axes, norm):
    npfn, category, rule, nd = _FFTS[name]
    if not isinstance(x, Array):
        raise TypeError(f"{name}() expects an array")
    if x.dtype not in _dtypes._categories[category]:
        raise TypeError(f"{name}() needs a {category} array, not {x.dtype.name}")
    if norm not in _NORMS:
        raise ValueError(f"{name}(): norm must be one of {_NORMS}")
    out_dt = rule(x.dtype)
    if nd:
        if axes is not None:
            axes = _axes(axes, x.ndim)
        if size is not None:
            size = tuple(operator.index(n) for n in size)
            if axes is None:
                axes = tuple(range(x.ndim - len(size), x.ndim))
        kw = {"s": size, "axes": axes}
    else:
        (axes,) = _axes(axes, x.ndim)
        if size is not None and operator.index(size) < 1:
            raise ValueError(f"{name}(): n must be positive")
        kw = {"n": size, "axis": axes}
    return _fallback.call(name, lambda a: npfn(a, norm=norm, **kw), x, dtype=out_dt)


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("fft", x, n, axis, norm)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("ifft", x, n, axis, norm)


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    return _transform("fftn", x, s, axes, norm)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    return _transform("ifftn", x, s, axes, norm)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("rfft", x, n, axis, norm)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("irfft", x, n, axis, norm)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _transform("rfftn", x, s, axes, norm)


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    return _transform("irfftn", x, s, axes, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("hfft", x, n, axis, norm)


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _transform("ihfft", x, n, axis, norm)


def _freq(name, npfn, n, d, dtype, device):
    dev = _device(device)
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)["real floating"]
    if dt.kind != "f":
        raise ValueError(f"{name}(): dtype must be real floating-point")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{name}(): n must be positive")
    return _fallback.call(name, lambda: npfn(n, d=d).astype(dt._np), device=dev, dtype=dt)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _freq("fftfreq", np.fft.fftfreq, n, d, dtype, device)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    return _freq("rfftfreq", np.fft.rfftfreq, n, d, dtype, device)


def _shift(name, npfn, x, axes):
    if not isinstance(x, Array):
        raise TypeError(f"{name}() expects an array")
    if axes is not None:
        axes = _axes(axes, x.ndim)
    return _fallback.call(name, lambda a: npfn(a, axes=axes), x, dtype=x.dtype)


def fftshift(x, /, *, axes=None):
    return _shift("fftshift", np.fft.fftshift, x, axes)


def ifftshift(x, /, *, axes=None):
    return _shift("ifftshift", np.fft.ifftshift, x, axes)
