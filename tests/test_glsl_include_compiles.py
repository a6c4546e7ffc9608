"""The GLSL include libraries compile (glslangValidator) and validate (spirv-val) without a GPU."""
import os
import shutil
import subprocess

import pytest

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


def test_f32_library_needs_no_float64(tmp_path):
    """math_f32.glsl must not use doubles (devices without shaderFloat64)."""
    src = open(os.path.join(INC, 'math_f32.glsl')).read()
    code = '\n'.join(l.split('//')[0] for l in src.split('\n'))
    assert 'double' not in code and 'LF' not in code
