"""Keeping an NVIDIA GPU's clocks up while we use it, by holding its CUDA primary context.

NVIDIA's driver clocks a GPU that a process uses only through Vulkan adaptively: about 1.5 s
after the GPU goes idle its SM clock falls (H100: 1980 to 345 MHz) and it takes about 0.7 s of
steady load to rise again, so work that comes in short synchronised bursts, as array code's
does, runs 2-5x slower (docs/benchmarks.md, run 13). A process holding a CUDA context, as every
torch or CuPy process does, keeps full clocks throughout. Holding the device's primary context
(the one torch and CuPy share, so theirs is not a second one) costs about 0.3 s once and about
520 MiB of device memory on an H100.

ARRAY_API_VULKAN_CUDA_CLOCKS: "auto" (the default) holds it for NVIDIA GPUs other than GeForce
ones (on which a CUDA context forces a lower memory clock, the P2 state); "1" for every NVIDIA
GPU; "0" never. The outcome is Device.clock_hold and runtime_stats()["cuda_clock_hold"].
"""
import ctypes
import os
import sys

ENV = "ARRAY_API_VULKAN_CUDA_CLOCKS"
NVIDIA_VENDOR_ID = 0x10DE

_held = []  # (libcuda, CUdevice) of each retained primary context, released at exit


def _libcuda():
    name = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def _uuid(cuda, dev):
    buf = ctypes.create_string_buffer(16)
    fn = getattr(cuda, "cuDeviceGetUuid_v2", None) or getattr(cuda, "cuDeviceGetUuid", None)
    if fn is None or fn(buf, dev) != 0:
        return None
    return buf.raw


def hold(info):
    """Retains the CUDA primary context of the GPU `info` describes (a Vulkan physical device's
    properties) where the policy asks for it; returns what happened, in words."""
    mode = os.environ.get(ENV, "auto").strip().lower()
    if mode in ("0", "off", "no", "false"):
        return f"off ({ENV}=0)"
    if info.get("vendor_id") != NVIDIA_VENDOR_ID:
        return "off (not an NVIDIA GPU)"
    if mode == "auto" and "geforce" in info.get("name", "").lower():
        return f"off (GeForce; {ENV}=1 holds it)"
    cuda = _libcuda()
    if cuda is None:
        return "off (no CUDA driver library)"
    if cuda.cuInit(0) != 0:
        return "off (cuInit failed)"
    count = ctypes.c_int()
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return "off (no CUDA devices)"
    want = info.get("uuid")
    for ordinal in range(count.value):
        dev = ctypes.c_int()
        if cuda.cuDeviceGet(ctypes.byref(dev), ordinal) != 0 or _uuid(cuda, dev) != want:
            continue
        ctx = ctypes.c_void_p()
        rc = cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev)
        if rc != 0:
            return f"off (cuDevicePrimaryCtxRetain returned {rc})"
        _held.append((cuda, dev))
        return f"held (CUDA device {ordinal})"
    return "off (no CUDA device has this GPU's UUID)"


def release_all():
    """Releases every context hold() retained (the driver also does at exit). A forked child
    holds none: CUDA state does not survive a fork."""
    while _held:
        cuda, dev = _held.pop()
        release = getattr(cuda, "cuDevicePrimaryCtxRelease_v2", None) or cuda.cuDevicePrimaryCtxRelease
        release(dev)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_held.clear)
