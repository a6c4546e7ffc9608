"""Runtime layer: devices, memory, command recording, pipelines and stats (docs/design.md).

Everything that touches Kompute is here; the spec layer calls only this module's API.
"""
import os
import threading

from . import stats
from .device import Device

__all__ = ["Allocation", "Device", "devices", "default_device", "get_device", "synchronize",
           "runtime_stats", "reset_runtime_stats", "count_fallback", "set_strict",
           "HostFallbackError"]

_devices = None
_default = None
_init_lock = threading.Lock()


def __getattr__(name):
    if name == "Allocation":  # the pool's C++ class (pool.py): loaded with the extension
        from . import pool

        return pool.Allocation
    raise AttributeError(name)


class NoVulkanDeviceError(RuntimeError):
    pass


class HostFallbackError(RuntimeError):
    """A function would have run through numpy on the host while strict mode is on."""


# Strict mode: a host round trip raises HostFallbackError instead of running (set_strict).
_strict = os.environ.get("ARRAY_API_VULKAN_STRICT", "0") not in ("", "0")


def devices():
    """Every Vulkan device with a compute queue, best first: discrete, integrated, virtual, CPU."""
    if _devices is None:
        with _init_lock:  # one Device object per device, whichever thread comes first
            if _devices is None:
                _find_devices()
    return _devices


def _find_devices():
    global _devices
    try:
        from . import _vkcore

        infos = _vkcore.enumerate_devices()
    except ImportError as e:
        raise NoVulkanDeviceError(
            f"array_api_vulkan's runtime extension is not built ({e}); run `make` or "
            "`pip install --no-build-isolation -e .` after scripts/build_kompute.sh") from e
    except RuntimeError as e:
        raise NoVulkanDeviceError(
            f"no Vulkan driver could be loaded ({e}). Install a Vulkan driver, e.g. Mesa's "
            "lavapipe on Debian: apt-get install mesa-vulkan-drivers libvulkan1") from e
    found = [Device(i) for i in infos if i["compute"]]
    if not found:
        raise NoVulkanDeviceError("no Vulkan device with a compute queue was found")
    # sorted() is stable: among equals, Vulkan's own order.
    _devices = tuple(sorted(found, key=lambda d: d.rank))


def get_device(spec):
    """A Device from a Device, an index, 'vulkan:N', 'N', or a case-insensitive name fragment."""
    if isinstance(spec, Device):
        return spec
    devs = devices()
    if isinstance(spec, str):
        text = spec.strip()
        if text.startswith("vulkan:"):
            text = text[len("vulkan:"):]
        if text.isdigit():
            spec = int(text)
        else:
            for d in devs:
                if text.lower() in d.name.lower():
                    return d
            raise ValueError(f"no Vulkan device matches {spec!r}; devices: "
                             + ", ".join(str(d) for d in devs))
    if isinstance(spec, int) and not isinstance(spec, bool):
        for d in devs:
            if d.index == spec:
                return d
        raise ValueError(f"no Vulkan device with index {spec}; devices: "
                         + ", ".join(str(d) for d in devs))
    raise TypeError(f"expected a device, got {spec!r}")


def default_device():
    """ARRAY_API_VULKAN_DEVICE if set, else the best device present."""
    global _default
    if _default is None:
        choice = os.environ.get("ARRAY_API_VULKAN_DEVICE")
        _default = get_device(choice) if choice else devices()[0]
    return _default


def synchronize():
    """Submits all recorded work on every device and waits for it."""
    if _devices is not None:
        for d in _devices:
            d.synchronize()


def set_gpu_timing(on):
    """Turns GPU timestamps at each batch's start and end on or off, on every device, for the
    batches started from now on: runtime_stats()["gpu_seconds"] counts only while they are on.
    Off by default (ARRAY_API_VULKAN_GPU_TIMING=1: on), since they add to the time of every
    synchronised call. Returns the previous setting."""
    from . import device as _device

    prev, _device.GPU_TIMING = _device.GPU_TIMING, bool(on)
    for d in _devices or ():
        d.set_gpu_timing(_device.GPU_TIMING)
    return prev


def set_strict(on):
    """Strict mode on or off: while on, a function that would go through numpy on the host
    (a counted host fallback) raises HostFallbackError instead, before moving any data.
    Off by default (ARRAY_API_VULKAN_STRICT=1: on). Returns the previous setting."""
    global _strict
    prev, _strict = _strict, bool(on)
    return prev


def strict():
    """Whether strict mode is on (set_strict)."""
    return _strict


def count_fallback(name):
    """Records one host round trip of the spec layer's function `name` (in strict mode:
    raises HostFallbackError instead)."""
    if _strict:
        raise HostFallbackError(
            f"{name}() would run through numpy on the host here, and strict mode is on "
            "(array_api_vulkan.set_strict(False) or ARRAY_API_VULKAN_STRICT=0 allows it)")
    stats.host_fallbacks[name] += 1


def runtime_stats():
    for dev in _devices or ():
        dev.run_record_hook()  # ops held back for fusion are recorded (and counted) first
    d = dict.fromkeys(stats.RECORDER_KEYS, 0)
    d.update(stats.counters)
    reserved = in_use = 0
    for dev in _devices or ():
        if dev._core is not None:
            for k, v in dev._rec.counters.items():
                d[k] += v
            reserved += dev.pool.bytes_reserved
            in_use += dev.pool.bytes_in_use
    d["pool_bytes_reserved"] = reserved
    d["pool_bytes_in_use"] = in_use
    d["host_fallbacks"] = dict(stats.host_fallbacks)
    d["cuda_clock_hold"] = {repr(dev): dev.clock_hold for dev in _devices or () if dev._core is not None}
    return d


def reset_runtime_stats():
    """Clears the counters (the pool figures are current state, not counters)."""
    stats.reset()
    for dev in _devices or ():
        if dev._core is not None:
            dev._rec.reset_counters()
