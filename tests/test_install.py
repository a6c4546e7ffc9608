"""The package installs and runs outside the repository.

Each test builds the package from a copy of this checkout, installs it into a clean virtual
environment (no system site-packages; numpy from the package index) and runs an elementwise op
there with cwd=/tmp: it must run on the device (no host fallback), with the SPIR-V modules read
from the installed package's own spv/, which must hold every module of the checkout's spv/.

- test_sdist_then_wheel_builds_kompute: `python -m build` (an sdist, then a wheel from the sdist
  through the same PEP 517 build that `pip wheel .` and `pip install .` run) with no Kompute
  anywhere, so that setup.py builds Kompute from the kp 0.9.0 sdist ($KP_SDIST, or downloaded)
  in the sdist's build tree; the wheel installed. Marked slow; about 3 minutes on 2 cores.
  (A second test built a wheel from the checkout with the development Kompute: 2 minutes of
  `make test` on 2 cores for the same checks on a wheel built from more files than the sdist's.)

Skipped only when the package index cannot be reached and $KP_SDIST is not set. With $KP_SDIST and
no index, numpy and the build requirements are wheels repacked from this interpreter's own installs.
"""
import base64
import glob
import hashlib
import importlib.metadata
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import urllib.parse
import zipfile

import pytest

# Packaging, which masks do not change (and minutes of builds).
pytestmark = pytest.mark.feature_independent

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_REQUIRES = ["setuptools", "wheel", "pybind11"]
# Not copied from the checkout: environments, build outputs, caches.
_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "*.so", "__pycache__",
                                 ".gpu", ".gl", ".hypothesis", ".pytest_cache", "_suite")

CHECK = r"""
import json, os
import array_api_vulkan as xp
from array_api_vulkan._runtime import device

x = xp.ones(1000)
y = xp.exp(x) + 1
first = float(y[0])
pkg_spv = os.path.join(os.path.dirname(xp.__file__), "spv")
print(json.dumps({
    "file": xp.__file__, "dtype": str(x.dtype), "first": first,
    "fallbacks": xp.runtime_stats()["host_fallbacks"],
    "package_spv": sorted(os.listdir(pkg_spv)) if os.path.isdir(pkg_spv) else None,
    "spv_dirs_used": [d for d in device.SPV_DIRS if os.path.exists(os.path.join(d, "copy_words.spv"))],
}))
"""


def _index_problem():
    """None if pip's package index answers, else why not."""
    if os.environ.get("PIP_NO_INDEX", "").lower() in ("1", "true", "yes", "on"):
        return "PIP_NO_INDEX is set"
    url = urllib.parse.urlsplit(os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple")
    if url.scheme == "file":
        return None if os.path.isdir(url.path) else f"index {url.path} does not exist"
    try:
        socket.create_connection((url.hostname, url.port or (443 if url.scheme == "https" else 80)),
                                 timeout=5).close()
        return None
    except OSError as e:
        return f"index {url.hostname} unreachable ({e})"


def _repack(dist_name, dest):
    """A wheel of an installed distribution, rebuilt from its RECORD (scripts left out)."""
    dist = importlib.metadata.distribution(dist_name)
    info_dir = next(f.parts[0] for f in dist.files if f.parts[0].endswith(".dist-info"))
    wheel_meta = dist.read_text("WHEEL") or ""
    tag = next(line.split(":", 1)[1].strip() for line in wheel_meta.splitlines() if line.startswith("Tag:"))
    name = dist.metadata["Name"].replace("-", "_").lower()
    path = os.path.join(dest, f"{name}-{dist.version}-{tag}.whl")
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in dist.files:
            if (str(f).startswith("..") or "__pycache__" in f.parts
                    or (f.parts[0] == info_dir and f.name in ("RECORD", "INSTALLER", "REQUESTED",
                                                              "direct_url.json"))):
                continue
            data = f.locate().read_bytes()
            z.writestr(str(f), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{f},sha256={digest},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        z.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return path


@pytest.fixture(scope="module")
def pip_env(tmp_path_factory, pytestconfig):
    """The environment for every command here: the index, or a wheelhouse when there is none."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "KOMPUTE_PREFIX", "ARRAY_API_VULKAN_SPV_DIR")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["ARRAY_API_VULKAN_BUILD_OPT"] = BUILD_OPT
    problem = _index_problem()
    if problem is None:
        return env
    if not os.environ.get("KP_SDIST"):
        msg = f"test_install skipped: {problem}, and KP_SDIST (a kp-0.9.0.tar.gz) is not set"
        capture = pytestconfig.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():
            print("\n" + msg)
        pytest.skip(msg)
    house = str(tmp_path_factory.mktemp("wheelhouse"))
    for name in ["numpy"] + BUILD_REQUIRES + ["build", "pyproject_hooks", "packaging"]:
        try:
            _repack(name, house)
        except importlib.metadata.PackageNotFoundError:
            pass  # `build` and its requirements are optional (see _sdist_then_wheel)
    env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=house)
    return env


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A copy of the checkout without its environments and build outputs (a fresh clone, plus
    files not committed yet)."""
    dest = tmp_path_factory.mktemp("checkout") / "array_api_vulkan"
    shutil.copytree(ROOT, dest, ignore=_IGNORE)
    return str(dest)


# The extension unoptimised and without debug information: the checks here are about files,
# imports and one op, and each optimised build took minutes of `make test` on 2 cores
BUILD_OPT = "-O0 -g0"


def _run(cmd, env, cwd=None, timeout=900):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    return r


def _venv(path, env):
    """A clean virtual environment with numpy, from the index (or the wheelhouse)."""
    _run([sys.executable, "-m", "venv", str(path)], env)
    py = os.path.join(str(path), "bin", "python")
    _run([py, "-m", "pip", "install", "-q", "numpy>=2"], env)
    return py


def _check(py, env, source):
    """Runs CHECK with py from /tmp and checks what it saw."""
    r = _run([py, "-c", CHECK], env, cwd="/tmp", timeout=300)
    out = json.loads(r.stdout.strip().splitlines()[-1])
    venv = os.path.dirname(os.path.dirname(py))
    assert os.path.realpath(out["file"]).startswith(os.path.realpath(venv) + os.sep), out["file"]
    assert out["fallbacks"] == {}, out["fallbacks"]
    assert math.isclose(out["first"], math.e + 1, rel_tol=1e-6), out
    want = sorted(os.path.basename(p) for p in glob.glob(os.path.join(source, "spv", "*.spv")))
    assert want and "copy_words.spv" in want
    want = sorted(want + ["MANIFEST.json"])
    assert out["package_spv"] == want, (
        f"installed spv/ differs from the checkout's: missing {sorted(set(want) - set(out['package_spv'] or []))[:5]}")
    pkg_spv = os.path.join(os.path.dirname(out["file"]), "spv")
    assert out["spv_dirs_used"] == [pkg_spv], out["spv_dirs_used"]


@pytest.mark.slow
def test_sdist_then_wheel_builds_kompute(tmp_path, pip_env, source):
    """The path of a user with no Kompute: sdist, wheel from the sdist, Kompute built by setup.py."""
    env = dict(pip_env)  # no KOMPUTE_PREFIX; KP_SDIST passes through if set
    py = _venv(tmp_path / "venv", env)
    dist = tmp_path / "dist"
    build_log = _sdist_then_wheel(py, env, source, dist)
    (sdist,) = glob.glob(str(dist / "array_api_vulkan-*.tar.gz"))
    with tarfile.open(sdist) as t:
        members = {m.split("/", 1)[1] for m in t.getnames() if "/" in m}
    for needed in ("setup.py", "pyproject.toml", "MANIFEST.in", "scripts/build_kompute.sh", "spv/MANIFEST.json",
                   "spv/copy_words.spv"):
        assert needed in members, f"{needed} not in the sdist"
    assert any(m.startswith("glsl/") for m in members)
    assert "kompute: built into" in build_log, build_log[-3000:]  # Kompute was built, not found
    (whl,) = glob.glob(str(dist / "array_api_vulkan-*.whl"))
    names = zipfile.ZipFile(whl).namelist()
    assert any(n.startswith("array_api_vulkan/_runtime/_vkcore") and n.endswith(".so") for n in names)
    assert not [n for n in names if n.endswith((".cpp", ".hpp"))]
    _run([py, "-m", "pip", "install", "-q", whl], env)
    _check(py, env, source)


def _sdist_then_wheel(py, env, source, dist):
    """`python -m build` where the `build` package can be installed; else the same through
    setuptools' sdist hook and `pip wheel` of the sdist. Returns the build's output."""
    if subprocess.run([py, "-m", "pip", "install", "-q", "build"], env=env, capture_output=True).returncode == 0:
        r = _run([py, "-m", "build", "--outdir", str(dist), source], env)
        return r.stdout + r.stderr
    print("no `build` package to be had: sdist through setuptools.build_meta, wheel through pip wheel")
    _run([py, "-m", "pip", "install", "-q"] + BUILD_REQUIRES, env)
    _run([py, "-c", f"import setuptools.build_meta as b; b.build_sdist({str(dist)!r})"], env, cwd=source)
    (sdist,) = glob.glob(str(dist / "array_api_vulkan-*.tar.gz"))
    r = _run([py, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(dist), sdist], env)
    return r.stdout + r.stderr
