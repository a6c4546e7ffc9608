"""The GLSL include libraries compile (glslangValidator) and validate (spirv-val) without a GPU."""
import os
import shutil
import subprocess

import pytest

# GLSL compiled offline: files, not the device.
pytestmark = pytest.mark.feature_independent

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INC = os.path.join(ROOT, 'glsl', 'include')

HEAD = """#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_GOOGLE_include_directive : require
"""
UN = ['exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'asin', 'acos',
      'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh']
BIN = ['atan2', 'pow', 'hypot', 'logaddexp']


def _body(pfx, T):
    calls = ' + '.join(['%s_%s(x)' % (pfx, f) for f in UN] + ['%s_%s(x, y)' % (pfx, f) for f in BIN])
    return '    { %s x = %s(d[i]), y = %s(d[i + 1u]); d[i] = double(%s); }\n' % (T, T, T, calls)


def _shader(libs):
    src = HEAD
    for lib in libs:
        src += '#include "%s"\n' % lib
    src += 'layout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { double d[]; };\n'
    src += 'void main() {\n    uint i = gl_GlobalInvocationID.x;\n'
    if 'math_f64.glsl' in libs:
        src += _body('f64', 'double')
    if 'math_f32.glsl' in libs:
        src += _body('f32', 'float')
    return src + '}\n'


def _tool(name):
    p = shutil.which(name)
    if p is None:
        pytest.skip('%s not installed' % name)
    return p


@pytest.mark.parametrize('libs', [['math_f64.glsl'], ['math_f32.glsl'], ['math_f64.glsl', 'math_f32.glsl'],
                                  ['math_f64.glsl', 'math_f64.glsl']],
                         ids=['f64', 'f32', 'both', 'f64-twice'])
def test_compiles_and_validates(libs, tmp_path):
    glslang, val = _tool('glslangValidator'), _tool('spirv-val')
    comp = tmp_path / 't.comp'
    spv = tmp_path / 't.spv'
    comp.write_text(_shader(libs))
    r = subprocess.run([glslang, '-V', '--target-env', 'vulkan1.1', '-I' + INC, str(comp), '-o', str(spv)],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert 'WARNING' not in out, out
    r = subprocess.run([val, '--target-env', 'vulkan1.1', str(spv)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_f32_library_needs_no_float64_no_int64(tmp_path):
    """math_f32.glsl and the complex64 part of complex_math.glsl compile without GL_ARB_gpu_shader_int64
    and the SPIR-V declares neither Float64 nor Int64 (devices without shaderFloat64 / shaderInt64)."""
    glslang, val = _tool('glslangValidator'), _tool('spirv-val')
    dis = _tool('spirv-dis')
    src = '#version 450\n#extension GL_GOOGLE_include_directive : require\n#include "complex_math.glsl"\n'
    src += 'layout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { float d[]; };\n'
    src += 'void main() {\n    uint i = gl_GlobalInvocationID.x;\n'
    src += _body('f32', 'float').replace('double(', 'float(')
    src += '    { vec2 z = vec2(d[i], d[i + 1u]); vec2 r = c64_exp(z) + c64_expm1(z) + c64_log(z) + c64_log1p(z) + c64_sqrt(z)'
    src += ' + c64_sin(z) + c64_cos(z) + c64_tan(z) + c64_sinh(z) + c64_cosh(z) + c64_tanh(z) + c64_asin(z) + c64_acos(z)'
    src += ' + c64_atan(z) + c64_asinh(z) + c64_acosh(z) + c64_atanh(z) + c64_mul(z, z) + c64_div(z, z) + c64_pow(z, z);'
    src += ' d[i] = r.x + r.y + c64_abs(z); }\n}\n'
    comp, spv = tmp_path / 'f.comp', tmp_path / 'f.spv'
    comp.write_text(src)
    r = subprocess.run([glslang, '-V', '--target-env', 'vulkan1.1', '-I' + INC, str(comp), '-o', str(spv)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([val, '--target-env', 'vulkan1.1', str(spv)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    caps = subprocess.run([dis, str(spv)], capture_output=True, text=True).stdout
    assert 'OpCapability Float64' not in caps and 'OpCapability Int64' not in caps
