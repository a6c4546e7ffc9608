// GLSL -> SPIR-V at run time through glslang's static libraries, linked in (no compiler process).
// Built only where glslang-dev is present (AVK_HAVE_GLSLANG); elsewhere compile_glsl raises and
// compiler_available() is false, so callers (fusion, VkFFT) run their uncompiled paths.
#pragma once
#include "common.hpp"

namespace avk {

// Initialises glslang's process state once; VkFFT shares it (isCompilerInitialized = 1).
bool compiler_available();
void ensure_compiler();

// SPIR-V words of a compute shader; includes must already be expanded. Raises ValueError with
// glslang's log when the source does not compile. Thread-safe; releases the GIL.
// Held around every glslang compile (compile_glsl, VkFFT's plan creation: fft.cpp).
std::mutex& compiler_mutex();

py::bytes compile_glsl(const std::string& source, const std::string& name);

}  // namespace avk
