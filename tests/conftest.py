"""Shared by the tests: what the device under test offers.

The suite also runs with ARRAY_API_VULKAN_DISABLE_FEATURES set (`make test`: float64,int64 and
storage8,storage16 masked), so a test asks here for the dtypes it may use instead of naming
float64 or int64, and skips (saying why) only where its subject needs a feature the device lacks.
"""
import numpy as np
import pytest
from hypothesis import settings

import array_api_vulkan as xp

# Property tests draw the same examples on every run and keep no database between runs: `make
# test` must be deterministic (a test's own settings() inherit this profile).
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")

INFO = xp.__array_namespace_info__()
DEVICE = INFO.default_device()
#: The dtypes the default device advertises, in the standard's order.
DTYPES = tuple(INFO.dtypes(device=DEVICE).values())
DEFAULTS = INFO.default_dtypes(device=DEVICE)
#: The advertised floating dtypes (real and complex: linalg's), and the real ones among them.
FLOATING = tuple(d for d in (xp.float32, xp.float64, xp.complex64, xp.complex128) if d in DTYPES)
REAL_FLOATING = tuple(d for d in FLOATING if d in (xp.float32, xp.float64))
#: The default real floating, complex floating and integral dtypes (float64, complex128 and int64
#: on a device with float64 and int64; float32, complex64 and int32 otherwise).
FLOAT, COMPLEX, INT = DEFAULTS["real floating"], DEFAULTS["complex floating"], DEFAULTS["integral"]
#: The unsigned dtype of the default integer's width (sum() of unsigned integers gives it).
UINT = xp.uint64 if INT == xp.int64 else xp.uint32
#: The device features it has (enumerate_devices() names), after the mask.
FEATURES = frozenset(f for f, v in DEVICE.info["hardware_features"].items() if DEVICE.info[f])
DISABLED = tuple(DEVICE.info["disabled_features"])

# The storage each dtype is held in, beyond 32-bit words.
_STORAGE = {"bool": "storage8", "int8": "storage8", "uint8": "storage8", "int16": "storage16",
            "uint16": "storage16"}


def dtype(d):
    return getattr(xp, d) if isinstance(d, str) else d


def has(*dtypes):
    """Whether the device advertises every one of dtypes (dtypes or names)."""
    return all(dtype(d) in DTYPES for d in dtypes)


def first(*dtypes):
    """The first of dtypes that the device advertises (e.g. first("uint8", "uint16", "uint32"))."""
    return next(dtype(d) for d in dtypes if has(d))


def why_not(*dtypes):
    """Why the device does not advertise dtypes: for a skip reason."""
    missing = [dtype(d).name for d in dtypes if not has(d)]
    how = (f"ARRAY_API_VULKAN_DISABLE_FEATURES={','.join(DISABLED)}" if DISABLED
           else "the device lacks the features")
    return f"needs {', '.join(missing)}, not on this device ({how})"


def needs(*dtypes):
    """A skipif mark for a test whose subject needs dtypes."""
    return pytest.mark.skipif(not has(*dtypes), reason=why_not(*dtypes))


def param(*values, dtypes, **kw):
    """pytest.param(*values), skipped (saying why) where the device lacks one of dtypes."""
    marks = list(kw.pop("marks", []))
    if not has(*dtypes):
        marks.append(pytest.mark.skip(reason=why_not(*dtypes)))
    return pytest.param(*values, marks=marks, **kw)


def computes_natively(*dtypes):
    """Whether the kernels compute on every one of dtypes on the device. bool is stored as
    bytes: without 8-bit storage buffers it is stored and moved natively but computed on
    through the (counted) host fallback. Every other advertised dtype is computed on natively."""
    return all(has(d) and _STORAGE.get(dtype(d).name) in FEATURES | {None} for d in dtypes)


def cast_is_native(src, dst):
    """Whether the device has the features that the cast kernel src -> dst declares (its SPIR-V
    capabilities): float -> unsigned casts convert through int64, as numpy does on x86."""
    from array_api_vulkan._kernels import _launch

    code = _launch.table.DTYPES
    name = _launch._variants.variant_name("cast", code[dtype(src).name][0], code[dtype(dst).name][0])
    return computes_natively(src, dst) and _launch.shader_needs(name) <= FEATURES


# --- every shader the tests run must need only features the device has ---------------------
# The recorder loads a shader's SPIR-V (through the loader it is given) when it first makes a
# pipeline for it: a guard around that loader notes any module declaring a capability of a
# feature the device lacks (or ARRAY_API_VULKAN_DISABLE_FEATURES masks), and the test that ran
# it fails. The module is parsed here on its own, not through _kernels._launch.shader_needs,
# which this thereby checks.
_CAPABILITY_FEATURES = {10: "float64", 11: "int64", 12: "int64", 22: "int16", 39: "int8",
                        4433: "storage16", 4434: "storage16", 4435: "storage16",
                        4448: "storage8", 4449: "storage8", 4450: "storage8"}


def no_kick_after_wait(monkeypatch, dev):
    """For tests counting submits of lazily recorded work: the device's first op after a wait
    is no longer submitted at once (Recorder.kick_after_wait; the flag is read at a wait)."""
    dev._ensure()
    monkeypatch.setattr(dev._rec, "kick_after_wait", False)
    dev.synchronize()


def plan_specs(monkeypatch, prefix):
    """A list that collects, from then on, the specialisation constants (a list each) of the
    compiled plans' steps whose shader name starts with `prefix`."""
    from array_api_vulkan._runtime import device as rt_device

    specs = []
    real = rt_device.Device.compile_plan

    def spy(self, array_type, args, outputs, temps, steps):
        specs.extend(list(st[1]) for st in steps if st[0].startswith(prefix))
        return real(self, array_type, args, outputs, temps, steps)

    monkeypatch.setattr(rt_device.Device, "compile_plan", spy)
    return specs


def run_python(code, timeout=120, **env):
    """stdout of `python -c code` in a fresh process whose environment adds `env` (a process of
    its own: settings read when a device is made); fails the test where it exits non-zero."""
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                         env=dict(os.environ, **env))
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def normal(rng, shape, dt):
    """Standard normal values from rng in dtype dt (an array_api_vulkan or numpy dtype, or a
    name); complex: the real parts drawn first, then the imaginary ones."""
    npdt = np.dtype(getattr(dt, "name", dt))
    a = rng.standard_normal(shape)
    if npdt.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(npdt)


def spirv_features(code):
    """The device features a SPIR-V module's OpCapability instructions need (whole module)."""
    words = np.frombuffer(code, "<u4")
    assert words[0] == 0x07230203, "not SPIR-V"
    found, i = set(), 5
    while i < len(words):
        op, n = int(words[i]) & 0xFFFF, int(words[i]) >> 16
        if op == 17 and int(words[i + 1]) in _CAPABILITY_FEATURES:
            found.add(_CAPABILITY_FEATURES[int(words[i + 1])])
        i += max(n, 1)
    return frozenset(found)


_unrunnable = []


def _install_shader_guard():
    from array_api_vulkan._runtime import _vkcore

    make = _vkcore.Recorder
    if getattr(make, "_guarded", False):
        return

    def guard(load):
        def guarded(shader):
            code = load(shader)
            lacking = spirv_features(code) - FEATURES
            if lacking:
                _unrunnable.append(f"{shader} needs {', '.join(sorted(lacking))}")
            return code
        return guarded

    def recorder(*args, **kw):  # the shader loader is the recorder's one callable argument
        return make(*[guard(a) if callable(a) else a for a in args], **kw)

    recorder._guarded = True
    _vkcore.Recorder = recorder  # (taken when a device is first used)


_install_shader_guard()


@pytest.fixture(autouse=True)
def _only_shaders_the_device_can_run():
    seen = len(_unrunnable)
    yield
    if len(_unrunnable) > seen:
        pytest.fail("ran shaders needing features the device lacks: " + "; ".join(_unrunnable[seen:]))
