"""Builds the runtime's extension against the Kompute library that scripts/build_kompute.sh
installed into this Python's environment (<sys.prefix>/opt/kompute, or $KOMPUTE_PREFIX)."""
import glob
import os
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
from setuptools import setup

prefix = os.environ.get("KOMPUTE_PREFIX", os.path.join(sys.prefix, "opt", "kompute"))
if not os.path.exists(os.path.join(prefix, "BUILD_STAMP")):
    sys.exit(f"Kompute not found in {prefix}: run scripts/build_kompute.sh {sys.executable} first")

vkcore = Pybind11Extension(
    "array_api_vulkan._runtime._vkcore",
    sorted(glob.glob("array_api_vulkan/_runtime/src/*.cpp")),
    include_dirs=["array_api_vulkan/_runtime/src", os.path.join(prefix, "include")],
    # kp_logger is linked although logging is compiled out: Kompute's headers still reference it.
    extra_objects=[os.path.join(prefix, "lib", "libkompute.a"), os.path.join(prefix, "lib", "libkp_logger.a")],
    libraries=["vulkan", "fmt"],
    define_macros=[("KOMPUTE_OPT_LOG_LEVEL_DISABLED", "1"), ("KOMPUTE_DISABLE_VK_DEBUG_LAYERS", "1")],
    cxx_std=17,
    extra_compile_args=["-O2"],
)

ParallelCompile("NPY_NUM_BUILD_JOBS", default=0).install()
setup(ext_modules=[vkcore])
