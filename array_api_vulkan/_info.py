"""The inspection API: __array_namespace_info__()."""
from . import _dtypes, _runtime

__all__ = ["__array_namespace_info__"]


def _device_of(device):
    return _runtime.default_device() if device is None else _runtime.get_device(device)


class __array_namespace_info__:
    """What the library and its devices support; dtypes follow each device's capabilities."""

    __module__ = "array_api_vulkan"

    def capabilities(self):
        # fallbacks go through numpy, which limits arrays to 64 dimensions
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _runtime.default_device()

    def default_dtypes(self, *, device=None):
        return dict(_dtypes.defaults(_device_of(device)))

    def dtypes(self, *, device=None, kind=None):
        ok = _dtypes.supported(_device_of(device))
        if kind is None:
            sel = ok
        else:
            from ._data_type_functions import isdtype
            sel = tuple(d for d in ok if isdtype(d, kind))
        return {d.name: d for d in sel}

    def devices(self):
        return tuple(_runtime.devices())
