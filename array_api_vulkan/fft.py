"""The fft extension: transforms through VkFFT (the kernels layer's fft, _kernels/_fft.py), the
frequency helpers and shifts natively; host fallbacks through numpy.fft (counted) where the
kernels layer says a transform is not native (_kernels.supports_fft, asked first) or answers None
(freq, shift). Dtypes as the standard says."""
import math
import operator

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._creation_functions import _device, _dtype_for
from ._elementwise_functions import conj as _conj
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


# name -> (kernels-layer kind, inverse, conjugate before/after (hfft/ihfft))
_NATIVE = {
    "fft": ("c2c", False), "ifft": ("c2c", True), "fftn": ("c2c", False), "ifftn": ("c2c", True),
    "rfft": ("r2c", False), "rfftn": ("r2c", False), "irfft": ("c2r", True), "irfftn": ("c2r", True),
    "hfft": ("c2r", True), "ihfft": ("r2c", False),
}
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _sizes(name, x, size, axes, nd):
    """The transform's axes and lengths (real lengths for the r/h transforms), as numpy takes
    n=/s= and axes=; ValueError for a length below 1."""
    halved = name in ("irfft", "irfftn", "hfft")
    if nd:
        if axes is None:
            axes = tuple(range(x.ndim - len(size), x.ndim)) if size is not None else tuple(range(x.ndim))
        if size is None:
            size = [x.shape[a] for a in axes]
            if halved and axes:
                size[-1] = 2 * (x.shape[axes[-1]] - 1)
        else:
            if len(size) != len(axes):
                raise ValueError(f"{name}(): s and axes must have the same length")
            last = size[-1] if size else None
            size = [x.shape[a] if n == -1 else n for a, n in zip(axes, size)]
            if halved and axes and last == -1:
                size[-1] = 2 * (x.shape[axes[-1]] - 1)
    else:
        axes = tuple(axes)
        if size is None:
            size = [2 * (x.shape[axes[0]] - 1) if halved else x.shape[axes[0]]]
        else:
            size = [size]
    for n in size:
        if n < 1:
            raise ValueError(f"{name}(): invalid number of data points ({n}) along an axis")
    return tuple(axes), tuple(size)


def _native(name, x, axes, sizes, norm, key=None):
    """The transform through the kernels layer, or None where it is not native (asked first:
    _kernels.supports_fft; a plan VkFFT refuses at plan time raises NotNative, remembered).
    key: the call's _resolved key, under which a transform the kernels layer can repeat as it
    is (_kernels.fft_repeat) is kept."""
    kind, inverse = _NATIVE[name]
    if name in ("hfft", "ihfft"):
        norm = _SWAP[norm]
    if name == "hfft":
        x = _conj(x)
    # an inverse's "backward" scaling is VkFFT's own normalisation, in its last pass
    normalize = inverse and norm == "backward"
    n = math.prod(sizes)
    scale = {"backward": 1.0, "ortho": 1.0 / math.sqrt(n), "forward": 1.0 if inverse else 1.0 / n}[norm]
    y = None
    if _kernels.supports_fft(kind, x, axes, sizes):
        try:
            y = _kernels.fft(kind, x, axes, sizes, inverse, normalize, owned=name == "hfft")  # (conj(x): ours)
        except _kernels.NotNative:
            pass
        else:
            if key is not None and name not in ("hfft", "ihfft"):
                repeat = _kernels.fft_repeat(kind, x, axes, sizes, inverse, normalize)
                if repeat is not None:
                    if len(_resolved) >= 1024:
                        _resolved.clear()
                    _resolved[key] = (repeat, scale)
    if y is None and kind != "c2c":
        try:
            y = _real_via_c2c(kind, x, axes, sizes, normalize)
        except _kernels.NotNative:  # (VkFFT refused a complex plan too)
            pass
    if y is None:
        return None
    if scale != 1.0:
        y = y * scale
    if name == "ihfft":
        y = _conj(y)
    return y


def _real_via_c2c(kind, x, axes, sizes, normalize):
    """A real transform (r2c, c2r) that VkFFT does not plan (1.2.26 refuses its Bluestein
    lengths above a device-dependent size) through complex transforms, or None where those are
    not native either. r2c: the input cast to complex, transformed, the halved axis cut to
    n // 2 + 1. c2r, as numpy's irfft(n): the other axes' inverse first, then the halved axis
    cut or zero-padded to n // 2 + 1 bins and extended to n by its conjugate mirror, the
    inverse, the real part (which drops what the DC and Nyquist bins' imaginary parts gave).
    About twice the work of a real transform; normalize as transform()'s (each inverse pass
    scales by its own lengths, 1 / prod(sizes) in all)."""
    from ._creation_functions import zeros
    from ._data_type_functions import astype
    from ._elementwise_functions import real
    from ._manipulation_functions import concat, flip

    a, n = axes[-1], sizes[-1]
    half = n // 2 + 1
    cut = [slice(None)] * x.ndim

    def part(arr, lo, hi):
        cut[a] = slice(lo, hi)
        return arr[tuple(cut)]

    if kind == "r2c":
        xc = astype(x, _complex(x.dtype))
        if not _kernels.supports_fft("c2c", xc, axes, sizes):
            return None
        return part(_kernels.fft("c2c", xc, axes, sizes, False, False, owned=True), 0, half)
    ours = False  # (whether x is an intermediate of ours, which the last c2c may overwrite)
    if len(axes) > 1:
        if not _kernels.supports_fft("c2c", x, axes[:-1], sizes[:-1]):
            return None
        x, ours = _kernels.fft("c2c", x, axes[:-1], sizes[:-1], True, normalize), True
    have = x.shape[a]
    if have >= half:
        x = part(x, 0, half)
    else:
        pad = list(x.shape)
        pad[a] = half - have
        x, ours = concat([x, zeros(tuple(pad), dtype=x.dtype, device=x.device)], axis=a), True
    if n - half:
        x, ours = concat([x, _conj(flip(part(x, 1, n - half + 1), axis=a))], axis=a), True
    if not _kernels.supports_fft("c2c", x, (a,), (n,)):
        return None
    return real(_kernels.fft("c2c", x, (a,), (n,), True, normalize, owned=ours))


# A call seen before whose transform the kernels layer repeats as it is (an input read where it
# lies), keyed by everything its checks and layout depend on: (name, array type, dtype, shape,
# strides, device, n or s, axis or axes, norm) -> (the kernels layer's Repeat, norm's scale). A
# repeated call then skips the checks, the plan's layout and the kernels layer's own look-ups.
_resolved = {}


def _transform(name, x, size, axes, norm):
    try:
        key = (name, type(x), x._dtype, x._shape, x._strides, x._alloc.device, size, axes, norm)
        hit = _resolved.get(key)
    except (AttributeError, TypeError):  # not an array of ours, or lists for s or axes
        key = hit = None
    if hit is not None:
        y = hit[0](x)
        if y is not None:
            return y if hit[1] == 1.0 else y * hit[1]
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
        size = None if size is None else operator.index(size)
        axes = (axes,)
    t_axes, t_sizes = _sizes(name, x, size, axes, nd)
    y = _native(name, x, t_axes, t_sizes, norm, key)
    if y is not None:
        return y
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
    if _kernels.supports_fft_freq(dt, dev):
        return _kernels.fft_freq(n, float(d), dt, dev, name == "rfftfreq")
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
    norm_axes = tuple(range(x.ndim)) if axes is None else axes
    sign = 1 if name == "fftshift" else -1
    if _kernels.supports_fft_shift(x):
        return _kernels.fft_shift(x, norm_axes, [sign * (x.shape[a] // 2) for a in norm_axes])
    return _fallback.call(name, lambda a: npfn(a, axes=axes), x, dtype=x.dtype)


def fftshift(x, /, *, axes=None):
    return _shift("fftshift", np.fft.fftshift, x, axes)


def ifftshift(x, /, *, axes=None):
    return _shift("ifftshift", np.fft.ifftshift, x, axes)
