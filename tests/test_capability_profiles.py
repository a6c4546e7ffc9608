"""Capability profiles: ARRAY_API_VULKAN_DISABLE_FEATURES makes a device behave as if it lacked
features (float64 or int64, as on Apple through MoltenVK, Intel and most mobile GPUs; 8/16-bit
storage), so that their code paths are tested on lavapipe, which has them all.

Each profile runs in a subprocess with the variable set (it is read at first device use): the
namespace info follows the mask, the remaining dtypes give numpy's values (creation, asarray,
astype, every elementwise function), masked dtypes raise, no elementwise op falls back to the
host except bool where 8-bit storage is masked (counted), and no shader runs that declares a
capability of a masked feature (tests/conftest.py's guard).
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._kernels import _launch
from array_api_vulkan._runtime import device as device_mod

# It sets its own masks, in subprocesses.
pytestmark = pytest.mark.feature_independent
from conftest import DEVICE, spirv_features

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = "ARRAY_API_VULKAN_DISABLE_FEATURES"
# The device's own features: each profile's subprocess sets its mask alone (whatever this
# process was started with).
DEVICE_FEATURES = frozenset(f for f, v in DEVICE.info["hardware_features"].items() if v)
ALL = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float32", "float64", "complex64", "complex128")


def expected_dtypes(off, features=DEVICE_FEATURES):
    """What dtypes() must list with the features `off` masked on a device with `features`."""
    has = set(features) - set(off)
    gone = set()
    if "int64" not in has:
        gone |= {"int64", "uint64", "float64", "complex128"}  # (float64 kernels use int64 too)
    if "float64" not in has:
        gone |= {"float64", "complex128"}
    if "storage8" not in has:
        gone |= {"int8", "uint8"}  # bool stays: the standard needs it
    if "storage16" not in has:
        gone |= {"int16", "uint16"}
    return [n for n in ALL if n not in gone]


def expected_defaults(off, features=DEVICE_FEATURES):
    has = set(features) - set(off)
    f64 = {"float64", "int64"} <= has
    i = "int64" if "int64" in has else "int32"
    return {"real floating": "float64" if f64 else "float32",
            "complex floating": "complex128" if f64 else "complex64", "integral": i, "indexing": i}


# The subprocess: everything it finds goes into one JSON report on stdout.
SCRIPT = r'''
import json, os, sys, warnings
import numpy as np
sys.path.insert(0, sys.argv[1])
import conftest  # (installs the shader guard before the device is first used)
import array_api_vulkan as xp
from array_api_vulkan import _dtypes, _elementwise_functions as ew

info = xp.__array_namespace_info__()
dev = info.default_device()
rep = {"dtypes": list(info.dtypes()), "defaults": {k: v.name for k, v in info.default_dtypes().items()},
       "supports": [dev.supports_float64, dev.supports_int64, dev.supports_int8, dev.supports_int16],
       "info": {k: dev.info[k] for k in ("float64", "int64", "int16", "int8", "storage8", "storage16")},
       "hardware_features": dev.info["hardware_features"],
       "disabled_features": list(dev.info["disabled_features"]),
       "kind_dtypes": {k: list(info.dtypes(kind=k)) for k in ("real floating", "integral", "bool")},
       "wrong": [], "fallbacks": {}, "errors": {}}
DTYPES = list(info.dtypes().values())
wrong = rep["wrong"]

def fb():
    return dict(xp.runtime_stats()["host_fallbacks"])

def same(what, got, want, rtol=0.0):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        wrong.append(f"{what}: got {got.dtype}{got.shape}, want {want.dtype}{want.shape}")
        return
    try:
        if rtol and want.dtype.kind in "fc":
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, want)
    except AssertionError as e:
        wrong.append(f"{what}: {str(e)[:300]}")

def sample(dt, n=7):
    k = dt._np.kind
    if k == "b":
        return (np.arange(n) % 3 == 0)
    if k in "iu":
        return (np.arange(n) % 5 + 1).astype(dt._np)
    v = np.linspace(0.15, 0.85, n)
    if k == "c":
        v = v + 1j * v[::-1] / 2
    return v.astype(dt._np)

# -- creation and asarray ------------------------------------------------------------------
for dt in DTYPES:
    npd = dt._np
    xp.reset_runtime_stats()
    same(f"zeros {dt.name}", xp.zeros((2, 3), dtype=dt), np.zeros((2, 3), npd))
    same(f"ones {dt.name}", xp.ones(5, dtype=dt), np.ones(5, npd))
    v = {"b": True, "i": -3, "u": 7, "f": 2.5, "c": 1.5 - 2j}[npd.kind]
    same(f"full {dt.name}", xp.full((3,), v, dtype=dt), np.full(3, v, npd))
    same(f"eye {dt.name}", xp.eye(3, 4, k=1, dtype=dt), np.eye(3, 4, k=1, dtype=npd))
    if npd.kind in "iuf":
        same(f"arange {dt.name}", xp.arange(1, 9, 2, dtype=dt), np.arange(1, 9, 2, dtype=npd))
    if npd.kind in "fc":
        same(f"linspace {dt.name}", xp.linspace(0, 1, 5, dtype=dt), np.linspace(0, 1, 5).astype(npd))
    h = sample(dt)
    same(f"asarray {dt.name}", xp.asarray(h), h)
    same(f"asarray list {dt.name}", xp.asarray(h.tolist(), dtype=dt), h)
    rep["fallbacks"][f"creation {dt.name}"] = fb()

# the default dtypes of Python data
d = info.default_dtypes()
for obj, kind in ((1, "integral"), ([1.5, 2], "real floating"), (1j, "complex floating")):
    if xp.asarray(obj).dtype != d[kind]:
        wrong.append(f"asarray({obj!r}) is {xp.asarray(obj).dtype}, want {d[kind]}")
same("int64 host data narrowed", xp.asarray(np.arange(4)), np.arange(4).astype(d["integral"]._np))

# -- astype between every pair of the remaining dtypes (values valid for every pair) -------
for src in DTYPES:
    h = sample(src)
    x = xp.asarray(h)
    for dst in DTYPES:
        if src.kind == "c" and dst.kind not in "cb":  # (not permitted by the standard)
            try:
                xp.astype(x, dst)
                wrong.append(f"astype {src.name}->{dst.name} did not raise")
            except TypeError:
                pass
            continue
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = (h != 0) if dst.kind == "b" else h.astype(dst._np)
        same(f"astype {src.name}->{dst.name}", xp.astype(x, dst), want)

# -- every elementwise function on every remaining dtype of its category ------------------
for name, nargs, category, result, host in ew._TABLE:
    for dt in DTYPES:
        if dt not in ew._categories[category]:
            continue
        hs = [sample(dt), sample(dt)[::-1].copy()][:nargs]
        xs = [xp.asarray(h) for h in hs]
        rdt = getattr(ew, name)._result_dtype(dt, dev)
        xp.reset_runtime_stats()
        try:
            got = getattr(xp, name)(*xs)
        except Exception as e:
            wrong.append(f"{name}({dt.name}): {type(e).__name__}: {e}")
            continue
        rep["fallbacks"][f"{name} {dt.name}"] = fb()
        cd = rdt._np if result == "float" else dt._np
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            hc = [h.astype(np.complex128) if dt.kind == "c" else h.astype(cd) for h in hs]
            want = np.asarray(host(*hc)).astype(rdt._np)
        same(f"{name}({dt.name})", got, want, rtol=1e-5 if rdt in (xp.float32, xp.complex64) else 1e-12)
for dt in DTYPES:
    if dt.kind in "iuf":
        h = sample(dt)
        xp.reset_runtime_stats()
        got = xp.clip(xp.asarray(h), 2, 4)
        rep["fallbacks"][f"clip {dt.name}"] = fb()
        same(f"clip({dt.name})", got, np.clip(h, 2, 4).astype(dt._np))

# -- masked dtypes raise ValueError naming the dtype and the variable ---------------------
x = xp.asarray([1.5, 2.5], dtype=xp.float32)
for name in filter(None, sys.argv[2].split(",")):
    dt = getattr(xp, name)
    errs = {}
    for what, f in (("asarray", lambda: xp.asarray(1, dtype=dt)),
                    ("zeros", lambda: xp.zeros(2, dtype=dt)),
                    ("full", lambda: xp.full(2, 1, dtype=dt)),
                    ("arange", lambda: xp.arange(3, dtype=dt)),
                    ("astype", lambda: xp.astype(x, dt)),
                    ("asarray of an array", lambda: xp.asarray(x, dtype=dt)),
                    ("empty_like", lambda: xp.empty_like(x, dtype=dt)),
                    ("sum", lambda: xp.sum(x, dtype=dt))):
        try:
            r = f()
            errs[what] = f"no error: returned {r.dtype}"
        except Exception as e:
            errs[what] = f"{type(e).__name__}: {e}"
    errs["can_cast"] = repr(xp.can_cast(x, dt))
    rep["errors"][name] = errs

xp.synchronize()
rep["unrunnable"] = conftest._unrunnable
print(json.dumps(rep))
'''


def run_profile(mask, masked_dtypes=(), check=True):
    env = dict(os.environ, **{ENV: mask})
    r = subprocess.run([sys.executable, "-c", SCRIPT, HERE, ",".join(masked_dtypes)], env=env,
                       capture_output=True, text=True, timeout=600)
    if check:
        assert r.returncode == 0, r.stderr[-4000:]
        return json.loads(r.stdout.strip().splitlines()[-1])
    return r


def features_of(mask):
    return [n.strip().lower() for n in mask.split(",") if n.strip()]


PROFILES = ["float64,int64", "storage8,storage16", "int8,int16", "float64", "int64",
            " Storage8 ,\tstorage16,float64 , int64 "]


@pytest.mark.parametrize("mask", PROFILES)
def test_profile(mask):
    off = features_of(mask)
    lacking = [n for n in ALL if n not in expected_dtypes(off)]
    rep = run_profile(mask, lacking)

    # the namespace info and the device follow the mask; the hardware's flags stay visible
    assert rep["dtypes"] == expected_dtypes(off)
    assert rep["defaults"] == expected_defaults(off)
    assert rep["kind_dtypes"]["bool"] == ["bool"]
    assert rep["kind_dtypes"]["real floating"] == [n for n in expected_dtypes(off) if n.startswith("float")]
    assert rep["kind_dtypes"]["integral"] == [n for n in expected_dtypes(off) if "int" in n]
    assert rep["disabled_features"] == [f for f in device_mod.FEATURES if f in off]
    for f in device_mod.FEATURES:
        assert rep["info"][f] == (f in DEVICE_FEATURES and f not in off), f
        assert rep["hardware_features"][f] == (f in DEVICE_FEATURES), f
    has = DEVICE_FEATURES - set(off)
    assert rep["supports"] == ["float64" in has, "int64" in has, "storage8" in has, "storage16" in has]

    # the remaining dtypes give numpy's values
    assert rep["wrong"] == []

    # no elementwise op or creation function falls back, but for bool without 8-bit storage,
    # where each is one counted host round trip
    for what, fb in rep["fallbacks"].items():
        name, dt = what.split()
        if what.startswith("creation"):
            allowed = ({"zeros", "ones", "full", "eye"} if dt == "bool" and
                       "storage8" not in has else set())
            assert set(fb) <= allowed, (what, fb)
            continue
        bool_involved = dt == "bool" or (name != "clip" and getattr(xp, name).result == "bool")
        if bool_involved and "storage8" not in has:
            assert fb == {name: 1}, (what, fb)
        else:
            assert fb == {}, (what, fb)

    # every masked dtype raises ValueError, naming it and the variable
    for name, errs in rep["errors"].items():
        assert errs.pop("can_cast") == "False", name
        for what, err in errs.items():
            assert err.startswith("ValueError: ") and name in err and ENV in err, (name, what, err)

    # no shader ran that needs a masked feature
    assert rep["unrunnable"] == []


def test_unknown_feature_name_raises_at_first_device_use():
    script = ("import array_api_vulkan as xp\n"
              "print('imported')\n"
              "xp.__array_namespace_info__().dtypes()\n")
    r = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, **{ENV: "float64, fp16"}),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and r.stdout.strip() == "imported"
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: ") and "'fp16'" in last and ENV in last, last
    for f in device_mod.FEATURES:
        assert f in last, last


def test_mask_parsing(monkeypatch):
    monkeypatch.setenv(ENV, " float64 ,, INT64,\tstorage8 ")
    assert device_mod.disabled_features() == {"float64", "int64", "storage8"}
    monkeypatch.setenv(ENV, "")
    assert device_mod.disabled_features() == frozenset()
    monkeypatch.delenv(ENV)
    assert device_mod.disabled_features() == frozenset()
    info = {"float64": True, "int64": True, "int16": True, "int8": False, "storage8": True,
            "storage16": True, "name": "x"}
    monkeypatch.setenv(ENV, "int64,int8")
    masked = device_mod.mask_features(info)
    assert info["int64"] is True  # (a copy)
    assert masked["int64"] is False and masked["int8"] is False and masked["float64"] is True
    assert masked["hardware_features"] == {"float64": True, "int64": True, "int16": True,
                                           "int8": False, "storage8": True, "storage16": True}
    assert masked["disabled_features"] == ("int64", "int8") and masked["name"] == "x"
    monkeypatch.setenv(ENV, "float64,doubles")
    with pytest.raises(ValueError, match="doubles.*valid ones: float64, int64, int16, int8, "
                                         "storage8, storage16"):
        device_mod.mask_features(info)


def test_shader_needs_matches_the_modules():
    """_launch.shader_needs (which reads only the capability section) against a parse of the
    whole module, for every compiled variant; and the flavours: float32 divide/sqrt need
    float64 except _nof64, float64 kernels need int64, bool needs 8-bit storage."""
    names = sorted(f[:-4] for f in os.listdir(os.path.join(os.path.dirname(HERE), "spv"))
                   if f.endswith(".spv"))
    assert len(names) > 100
    for n in names:
        assert _launch.shader_needs(n) == spirv_features(device_mod.load_spirv(n)), n
    assert _launch.shader_needs("binary_float32_float32") == {"float64"}
    assert _launch.shader_needs("binary_float32_float32_nof64") == set()
    assert _launch.shader_needs("unary_float32_float32_nof64") == set()
    assert "int64" in _launch.shader_needs("binary_float64_float64")
    assert "int64" in _launch.shader_needs("math_float64_float64")
    assert _launch.shader_needs("binary_bool_bool") == {"storage8"}
    assert _launch.shader_needs("copy_words") == set()


def test_variant_follows_the_device_features():
    class Dev:
        def __init__(self, **off):
            self.info = {f: not off.get(f) for f in device_mod.FEATURES}
            self.supports_float64 = self.info["float64"]

    full, no_f64, no_i64, no_s8 = Dev(), Dev(float64=True), Dev(int64=True), Dev(storage8=True)
    assert _launch.variant("binary", "f", "f", "divide", full) == "binary_float32_float32"
    assert _launch.variant("binary", "f", "f", "divide", no_f64) == "binary_float32_float32_nof64"
    assert _launch.variant("unary", "f", "f", "sqrt", no_f64) == "unary_float32_float32_nof64"
    assert _launch.variant("math", "f", "f", "exp", no_f64) == "math_float32_float32"
    assert _launch.variant("binary", "d", "d", "add", no_i64) is None
    assert _launch.variant("cast", "f", "I", None, no_i64) is None  # (through int64, as numpy)
    assert _launch.variant("cast", "f", "i", None, no_i64) == "cast_float32_int32"
    assert _launch.variant("binary", "f", "?", "less", no_s8) is None
    assert _launch.variant("binary", "i", "i", "add", no_s8) == "binary_int32_int32"
