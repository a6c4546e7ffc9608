"""Runtime layer: devices, memory, command recording, pipelines and stats.

TEMPORARY host stand-in with the interface of docs/design.md, so that the spec layer can be
written before the Kompute runtime lands. It will be replaced; launch() is not available here.
"""
import collections

import numpy as np

_stats = collections.Counter()
_fallbacks = collections.Counter()


class Allocation:
    __slots__ = ("device", "nbytes", "offset", "_host")

    def __init__(self, device, nbytes):
        self.device = device
        self.nbytes = nbytes
        self.offset = 0
        self._host = np.zeros(max(nbytes, 1), np.uint8)


class Device:
    def __init__(self, index, name, kind):
        self.index, self.name, self.kind = index, name, kind
        self.supports_float64 = self.supports_int64 = True
        self.supports_int16 = self.supports_int8 = True
        self.limits = {"max_storage_buffer_range": 1 << 27, "max_push_constants_size": 128}

    def __repr__(self):
        return f"vulkan:{self.index}"

    def __eq__(self, other):
        return isinstance(other, Device) and other.index == self.index

    def __hash__(self):
        return hash(("vulkan", self.index))

    def alloc(self, nbytes):
        return Allocation(self, int(nbytes))

    def upload(self, host):
        host = np.ascontiguousarray(host)
        a = Allocation(self, host.nbytes)
        a._host[: host.nbytes] = host.reshape(-1).view(np.uint8)
        _stats["bytes_uploaded"] += host.nbytes
        return a

    def write(self, alloc, host):
        host = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
        alloc._host[: host.nbytes] = host
        _stats["bytes_uploaded"] += host.nbytes

    def download(self, alloc, dtype, shape, strides, offset):
        dtype = np.dtype(dtype)
        base = alloc._host[: alloc.nbytes].view(np.uint8)
        if alloc.nbytes == 0 or 0 in tuple(shape):
            return np.zeros(shape, dtype)
        flat = base[: (alloc.nbytes // dtype.itemsize) * dtype.itemsize].view(dtype)
        view = np.lib.stride_tricks.as_strided(
            flat[offset:], shape=shape, strides=[s * dtype.itemsize for s in strides]
        )
        out = np.array(view, copy=True)
        _stats["bytes_downloaded"] += out.nbytes
        return out

    def launch(self, shader, spec, buffers, writes, push, count):
        raise NotImplementedError("the host stand-in runs no shaders")

    def synchronize(self):
        pass


_DEVICES = (Device(0, "host stand-in", "cpu"),)


def devices():
    return _DEVICES


def default_device():
    return _DEVICES[0]


def get_device(spec):
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, int):
        return _DEVICES[spec]
    if isinstance(spec, str) and spec.startswith("vulkan:"):
        return _DEVICES[int(spec.split(":")[1])]
    raise ValueError(f"unknown device {spec!r}")


def synchronize():
    pass


def count_fallback(name):
    _fallbacks[name] += 1


def runtime_stats():
    d = {k: _stats.get(k, 0) for k in ("submits", "dispatches", "barriers", "pipelines_created",
                                         "bytes_uploaded", "bytes_downloaded",
                                         "pool_bytes_reserved", "pool_bytes_in_use")}
    d["host_fallbacks"] = dict(_fallbacks)
    return d


def reset_runtime_stats():
    _stats.clear()
    _fallbacks.clear()
