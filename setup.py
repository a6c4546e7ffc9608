"""Builds the package: the runtime's extension array_api_vulkan._runtime._vkcore over Kompute's C++
library, and the SPIR-V modules of spv/, copied into the package as array_api_vulkan/spv/.

Kompute is taken from, in this order:
  1. $KOMPUTE_PREFIX, an already-built Kompute (what scripts/build_kompute.sh installs), used as is;
  2. <sys.prefix>/opt/kompute, where `make setup` builds it for the development environment;
  3. build/kompute in the source tree, which scripts/build_kompute.sh fills (and returns at once
     when that build is current) from the kp 0.9.0 sdist at $KP_SDIST, or else from one that
     pip downloads into build/ (kept there for the next build).
The extension is compiled from array_api_vulkan/_runtime/_vkcore.cpp, if present, and
array_api_vulkan/_runtime/src/*.cpp, with src/ on the include path.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
KP_VERSION = "0.9.0"
RUNTIME = "array_api_vulkan/_runtime"


def _kompute_prefix():
    given = os.environ.get("KOMPUTE_PREFIX")
    if given:
        if not os.path.exists(os.path.join(given, "BUILD_STAMP")):
            sys.exit(f"KOMPUTE_PREFIX={given} holds no Kompute build (no BUILD_STAMP): build one there "
                     "with scripts/build_kompute.sh PYTHON '' PREFIX, or unset it to build one here")
        return given
    env_prefix = os.path.join(sys.prefix, "opt", "kompute")
    if os.path.exists(os.path.join(env_prefix, "BUILD_STAMP")):
        return env_prefix
    build = os.path.join(HERE, "build")
    prefix = os.path.join(build, "kompute")
    sdist = os.environ.get("KP_SDIST") or _download_kp_sdist(build)
    print(f"building Kompute from {sdist} into {prefix}", flush=True)
    subprocess.run(["bash", os.path.join(HERE, "scripts", "build_kompute.sh"), sys.executable,
                    os.path.abspath(sdist), prefix], check=True)
    return prefix


def _download_kp_sdist(build):
    path = os.path.join(build, f"kp-{KP_VERSION}.tar.gz")
    if os.path.exists(path):
        return path
    os.makedirs(build, exist_ok=True)
    # Under build isolation this interpreter may not see pip (pip's build environment hides the
    # environment's site-packages through PYTHONPATH; `python -m build` makes one without pip):
    # try it without that, then the interpreter the environment was made from.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    errors = []
    for python in dict.fromkeys(p for p in (sys.executable, getattr(sys, "_base_executable", None)) if p):
        with tempfile.TemporaryDirectory(dir=build) as tmp:
            r = subprocess.run([python, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                                "-d", tmp, f"kp=={KP_VERSION}"], env=env, capture_output=True, text=True)
            got = glob.glob(os.path.join(tmp, f"kp-{KP_VERSION}.tar.gz"))
            if r.returncode == 0 and got:
                shutil.move(got[0], path)
                return path
            errors.append(f"{python} -m pip download: {(r.stderr or r.stdout).strip()[-600:]}")
    sys.exit("Kompute is not built and the kp==0.9.0 sdist could not be downloaded; set KP_SDIST to "
             "its path (or KOMPUTE_PREFIX to a built Kompute).\n" + "\n".join(errors))


class BuildExt(build_ext):
    """Finds or builds Kompute only when the extension is built (not for metadata or an sdist)."""

    def run(self):
        prefix = _kompute_prefix()
        libs = [os.path.join(prefix, "lib", "libkompute.a"), os.path.join(prefix, "lib", "libkp_logger.a")]
        for ext in self.extensions:
            ext.include_dirs.append(os.path.join(prefix, "include"))
            ext.extra_objects.extend(libs)
            ext.depends.extend(libs)
        super().run()


class BuildPy(build_py):
    """Copies every SPIR-V module of spv/ (and its MANIFEST.json) into the package as
    array_api_vulkan/spv/, where the runtime looks when the repository's spv/ is not beside it.
    An editable install needs no copy: the repository's spv/ is found first."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        dest = os.path.join(self.build_lib, "array_api_vulkan", "spv")
        if os.path.isdir(dest):
            shutil.rmtree(dest)  # no stale module from an earlier build
        self.mkpath(dest)
        for f in _spv_files():
            self.copy_file(f, dest)
        # the GLSL library that run-time compiled kernels include (_runtime/compiler.py)
        inc = os.path.join(self.build_lib, "array_api_vulkan", "glsl", "include")
        if os.path.isdir(inc):
            shutil.rmtree(inc)
        self.mkpath(inc)
        for f in _glsl_includes():
            self.copy_file(f, inc)
        # and the elementwise families' shaders, which fused kernels are generated from
        # (_kernels/_fuse.py)
        for f in _glsl_families():
            self.copy_file(f, os.path.dirname(inc))

    def get_outputs(self, include_bytecode=1):
        dest = os.path.join(self.build_lib, "array_api_vulkan", "spv")
        inc = os.path.join(self.build_lib, "array_api_vulkan", "glsl", "include")
        return (super().get_outputs(include_bytecode) + [os.path.join(dest, os.path.basename(f)) for f in _spv_files()]
                + [os.path.join(inc, os.path.basename(f)) for f in _glsl_includes()]
                + [os.path.join(os.path.dirname(inc), os.path.basename(f)) for f in _glsl_families()])


def _glsl_includes():
    return sorted(glob.glob(os.path.join("glsl", "include", "*.glsl")))


def _glsl_families():
    return [os.path.join("glsl", f + ".comp") for f in ("unary", "binary", "math", "cast", "clip")]


def _spv_files():
    spv = sorted(glob.glob(os.path.join("spv", "*.spv")))
    if not spv:
        sys.exit("spv/ holds no compiled shader: run `make spv` (scripts/build_spv.py)")
    return spv + sorted(glob.glob(os.path.join("spv", "*.json")))


# glslang's static libraries (Debian's glslang-dev) give the run-time GLSL compiler that fusion and
# VkFFT use; without them the extension builds without it (compiler.cpp's fallback).
GLSLANG_LIBS = ["glslang-default-resource-limits", "SPIRV", "glslang", "MachineIndependent", "OSDependent",
                "GenericCodeGen", "OGLCompiler", "SPIRV-Tools-opt", "SPIRV-Tools"]


def _have_glslang():
    if os.environ.get("ARRAY_API_VULKAN_NO_GLSLANG"):
        return False
    libdirs = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/usr/local/lib"]
    header = any(os.path.exists(f"{d}/glslang/Include/glslang_c_interface.h") for d in ("/usr/include", "/usr/local/include"))
    return header and all(any(os.path.exists(f"{d}/lib{n}.a") for d in libdirs) for n in GLSLANG_LIBS)


HAVE_GLSLANG = _have_glslang()
# VkFFT (Debian's libvkfft-dev: one header) compiles its kernels through glslang: fft.cpp.
HAVE_VKFFT = HAVE_GLSLANG and any(os.path.exists(f"{d}/vkFFT.h") for d in ("/usr/include", "/usr/local/include"))
sources = sorted(glob.glob(f"{RUNTIME}/_vkcore.cpp")) + sorted(glob.glob(f"{RUNTIME}/src/*.cpp"))
vkcore = Pybind11Extension(
    "array_api_vulkan._runtime._vkcore",
    sources,
    include_dirs=[f"{RUNTIME}/src"],  # and Kompute's, added by BuildExt
    depends=sorted(glob.glob(f"{RUNTIME}/src/*.h*")),
    # kp_logger is linked although logging is compiled out: Kompute's headers still reference it.
    libraries=(GLSLANG_LIBS if HAVE_GLSLANG else []) + ["vulkan", "fmt"],
    define_macros=[("KOMPUTE_OPT_LOG_LEVEL_DISABLED", "1"), ("KOMPUTE_DISABLE_VK_DEBUG_LAYERS", "1")]
    + ([("AVK_HAVE_GLSLANG", "1")] if HAVE_GLSLANG else [])
    + ([("AVK_HAVE_VKFFT", "1")] if HAVE_VKFFT else []),
    cxx_std=17,
    # ARRAY_API_VULKAN_BUILD_OPT replaces -O2 (tests/test_install.py builds with "-O0 -g0": what
    # it checks does not depend on the code's speed, and the optimised builds took minutes)
    extra_compile_args=os.environ.get("ARRAY_API_VULKAN_BUILD_OPT", "-O2").split(),
    # The static libraries' symbols (glslang, Kompute) stay private to the extension and bind
    # inside it: a process may hold another glslang (a Vulkan driver's shader compiler), whose
    # same-named symbols would otherwise interpose on ours.
    extra_link_args=["-Wl,--exclude-libs,ALL", "-Wl,-Bsymbolic"],
)

ParallelCompile("NPY_NUM_BUILD_JOBS", default=0).install()
setup(ext_modules=[vkcore], cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
