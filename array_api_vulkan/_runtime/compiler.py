"""Run-time GLSL compilation: glslang linked into the extension, no compiler process.

shader(source) compiles a compute shader once and returns a name that Device.launch and
Device.prepare_pipeline take like any spv/ module's. The SPIR-V is kept on disk by the hash of
its expanded source (and the compiler's identity), beside the pipeline cache (cache_dir()/spirv),
so a later process compiles nothing it compiled before. Includes (`#include "x.glsl"`)
resolve as scripts/build_spv.py resolves them: glsl/include, then glsl/ (shipped in the package as
array_api_vulkan/glsl/include).
"""
import hashlib
import os
import re
import threading
import time

from . import stats
from .device import _PKG, _spirv_cache, cache_dir

# As scripts/build_spv.py's -I: glsl/include first, then glsl/ (the repository's, else the package's).
GLSL_DIRS = tuple(os.path.join(root, sub) for root in (os.path.join(os.path.dirname(_PKG), "glsl"),
                                                       os.path.join(_PKG, "glsl"))
                  for sub in ("include", "") if os.path.isdir(os.path.join(root, sub)))
# Part of every cache key: a change of compiler or of its settings must not reuse old binaries.
COMPILER_ID = "glslang-c-vk1.2-spv1.5-v1"
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.M)
_lock = threading.Lock()
_names = {}  # expanded-source hash -> shader name


def available():
    """Whether this build of the extension has the run-time compiler (glslang-dev at build time)."""
    try:
        from . import _vkcore
    except ImportError:
        return False
    return bool(getattr(_vkcore, "has_compiler", False))


def _read_include(rel, seen):
    for d in GLSL_DIRS:
        path = os.path.join(d, rel)
        if os.path.exists(path):
            with open(path) as f:
                return expand_includes(f.read(), seen)
    raise FileNotFoundError(f"GLSL include {rel!r} not found in {GLSL_DIRS}")


def expand_includes(source, seen=None):
    """source with each `#include "path"` replaced by that file (each file once), and the
    GL_GOOGLE_include_directive extension line dropped."""
    seen = set() if seen is None else seen

    def sub(m):
        rel = m.group(1)
        if rel in seen:
            return ""
        seen.add(rel)
        return _read_include(rel, seen)

    source = re.sub(r"^\s*#\s*extension\s+GL_GOOGLE_include_directive\s*:\s*\w+\s*$", "", source, flags=re.M)
    return _INCLUDE.sub(sub, source)


def shader(source, tag="jit"):
    """The name of the compiled shader of GLSL `source`, compiling it on first use (or reading
    it from the disk cache). Raises RuntimeError where no compiler is built in, ValueError with
    glslang's log where the source does not compile."""
    text = expand_includes(source)
    key = hashlib.sha256((COMPILER_ID + "\n" + text).encode()).hexdigest()[:24]
    name = _names.get(key)
    if name is not None:
        return name
    with _lock:
        name = _names.get(key)
        if name is not None:
            return name
        name = f"{tag}-{key}"
        root = cache_dir()
        path = os.path.join(root, "spirv", name + ".spv") if root else None
        code = None
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                code = f.read()
            if len(code) < 20 or code[:4] != b"\x03\x02\x23\x07":
                code = None  # a torn or foreign file: compile again
            else:
                stats.counters["shaders_cache_hits"] += 1
        if code is None:
            if not available():
                raise RuntimeError("array_api_vulkan was built without glslang: no run-time shader compiler")
            from . import _vkcore

            t0 = time.perf_counter()
            code = _vkcore.compile_glsl(text, name)
            stats.counters["shaders_compiled"] += 1
            stats.counters["shader_compile_seconds"] += time.perf_counter() - t0
            if path:
                _write_atomic(path, code)
        _spirv_cache[name] = code
        _names[key] = name
        return name


def _write_atomic(path, data):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache directory only costs a compile in the next process
