"""Write glsl/include/math_f64.glsl and math_f32.glsl from math_template.glsl.

    python3 scripts/mathproto/gen_glsl.py          # (re)generate
    python3 scripts/mathproto/gen_glsl.py --check  # exit 1 if the files are stale

Substitutions: T -> double/float, I -> int64_t/int (bit patterns), PFX_ -> f64_/f32_,
BITS/FROMBITS -> the bit casts, K_NAME -> constant literal from fp.Prec.K,
P_NAME(x) -> Horner expansion of fp.Prec.POLY[NAME], TAB_NAME -> table contents,
lines starting with //@64 or //@32 are kept (prefix removed) only in that file.
"""
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from mathproto.fp import F64, F32  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
INT_K = {'BIAS', 'P', 'PM1', 'EMIN', 'EMAX', 'PH_NW', 'PH_ML'}


def flit(P, v):
    v = P.dt(v)
    if P.p == 53:
        if np.isinf(v):
            return 'uint64BitsToDouble(%s)' % ('0x7FF0000000000000UL' if v > 0 else '0xFFF0000000000000UL')
        r = repr(float(v))
        if 'e' not in r and '.' not in r:
            r += '.0'
        return r + 'LF'
    if np.isinf(v):
        return 'uintBitsToFloat(%s)' % ('0x7F800000u' if v > 0 else '0xFF800000u')
    # repr of the exact value as a double: the compiler's decimal->double
    # conversion is then exact and double->float is exact too (no double rounding)
    r = repr(float(v))
    if 'e' not in r and '.' not in r:
        r += '.0'
    return r


def consts(P):
    K = dict(P.K)
    d = {}
    for k, v in K.items():
        if k in INT_K:
            d[k] = str(int(v))
        else:
            d[k] = flit(P, v)
    i64 = P.p == 53
    isfx = 'L' if i64 else ''
    d.update({
        'BIAS': str(P.bias), 'P': str(P.p), 'PM1': str(P.p - 1),
        'EMIN': str(P.emin), 'EMAX': str(P.emax),
        'MANT_MASK': '0x%XL' % ((1 << 52) - 1) if i64 else '0x%X' % ((1 << 23) - 1),
        'ONE_BITS': '0x%X%s' % (P.bias << (P.p - 1), isfx),
        'HIDDEN': '0x%X%s' % (1 << (P.p - 1), isfx),
        'ABS_MASK': '0x7FFFFFFFFFFFFFFFL' if i64 else '0x7FFFFFFF',
        'EXP_FIELD': '0x7FFL' if i64 else '0xFFL',
        'INF': 'uint64BitsToDouble(0x7FF0000000000000UL)' if i64 else 'uintBitsToFloat(0x7F800000u)',
        'NAN': 'uint64BitsToDouble(0x7FF8000000000000UL)' if i64 else 'uintBitsToFloat(0x7FC00000u)',
    })
    return d


def generate(P):
    src = open(os.path.join(HERE, 'math_template.glsl')).read()
    tag = '//@64' if P.p == 53 else '//@32'
    lines = []
    for ln in src.split('\n'):
        if ln.startswith('//@64') or ln.startswith('//@32'):
            if ln.startswith(tag):
                lines.append(ln[len(tag):])
            continue
        lines.append(ln)
    src = '\n'.join(lines)
    d = consts(P)

    def poly(m):
        cs = [flit(P, c) for c in P.POLY[m.group(1)]]
        x = m.group(2)
        e = cs[-1]
        for c in cs[-2::-1]:
            e = '(%s + %s * %s)' % (c, x, e)
        return e
    src = re.sub(r'\bP_([A-Z0-9]+)\(([A-Za-z0-9_]+)\)', poly, src)

    def tab(m):
        name = m.group(2)
        vals = P.TAB[name]
        if m.group(1):
            return str(len(vals) if name != 'ATAN_C' else 9)
        if name == 'TWO_OVER_PI':
            return ', '.join('0x%08Xu' % w for w in vals)
        if name == 'ATAN_C':
            vals = list(vals) + [P.dt(0)]
        return ', '.join(flit(P, v) for v in vals)
    src = re.sub(r'\bTAB_(LEN_)?([A-Z0-9_]+?)\b', tab, src)
    src = re.sub(r'\bK_([A-Z0-9_]+)\b', lambda m: d[m.group(1)], src)
    T = 'double' if P.p == 53 else 'float'
    src = re.sub(r'\bT\b', T, src)
    src = re.sub(r'\bI\b', 'int64_t' if P.p == 53 else 'int', src)
    src = re.sub(r'\bFROMBITS\(', 'int64BitsToDouble(' if P.p == 53 else 'intBitsToFloat(', src)
    src = re.sub(r'\bBITS\(', 'doubleBitsToInt64(' if P.p == 53 else 'floatBitsToInt(', src)
    src = re.sub(r'\bPFXi_', P.name + 'i_', src)
    src = re.sub(r'\bPFX_', P.name + '_', src)
    guard = 'MATH_%s_GLSL' % P.name.upper()
    head = ('#ifndef %s\n#define %s\n// %s elementary functions: %s_exp, _exp2, _expm1, _log, _log2, _log10,\n'
            '// _log1p, _sin, _cos, _tan, _asin, _acos, _atan, _atan2(y, x), _sinh, _cosh,\n'
            '// _tanh, _asinh, _acosh, _atanh, _pow(x, y), _hypot(x, y), _logaddexp(x, y),\n'
            '// void _sincos(x, out s, out c).  Internal helpers are named %si_*.\n'
            % (guard, guard, T, P.name, P.name))
    return head + src.rstrip() + '\n\n#endif // %s\n' % guard


def generate_complex():
    src = open(os.path.join(HERE, 'complex_template.glsl')).read()
    parts = []
    for P, C, V in ((F32, 'c64', 'vec2'), (F64, 'c128', 'dvec2')):
        d = consts(P)
        t = re.sub(r'\bK_([A-Z0-9_]+)\b', lambda m: d[m.group(1)], src)
        t = re.sub(r'\bT\b', 'double' if P.p == 53 else 'float', t)
        t = re.sub(r'\bV\b', V, t)
        t = re.sub(r'\bCPFXi_', C + 'i_', t)
        t = re.sub(r'\bCPFX_', C + '_', t)
        t = re.sub(r'\bRPFXi_', P.name + 'i_', t)
        t = re.sub(r'\bRPFX_', P.name + '_', t)
        t = t.replace('(complex of T)', '(complex of %s)' % ('double' if P.p == 53 else 'float'))
        parts.append(t.rstrip() + '\n')
    head = '''#ifndef COMPLEX_MATH_GLSL
#define COMPLEX_MATH_GLSL
// Complex elementary functions, generated from scripts/mathproto/complex_template.glsl by
// scripts/mathproto/gen_glsl.py (prototypes: scripts/mathproto/cplx.py) -- edit those, not this file.
//
// complex64  = vec2  (x = real, y = imag): c64_*   -- always available
// complex128 = dvec2 (x = real, y = imag): c128_*  -- only if math_f64.glsl was included BEFORE this file
//   exp expm1 log log1p sqrt sin cos tan sinh cosh tanh asin acos atan asinh acosh atanh  (V f(V z))
//   mul div pow  (V f(V z, V w)),  abs  (T f(V z))
// Special cases follow C99 Annex G as the Array API standard lists them (incl. expm1, tanh).
// Needs: #version 450, GL_GOOGLE_include_directive (it includes math_f32.glsl); c64_* need neither
// shaderFloat64 nor shaderInt64, c128_* need what math_f64.glsl needs (GL_ARB_gpu_shader_int64).
#include "math_f32.glsl"

'''
    return head + parts[0] + '\n#ifdef MATH_F64_GLSL\n' + parts[1] + '#endif // MATH_F64_GLSL\n\n#endif // COMPLEX_MATH_GLSL\n'


def main():
    check = '--check' in sys.argv
    stale = False
    for P in (F64, F32):
        path = os.path.join(ROOT, 'glsl', 'include', 'math_%s.glsl' % P.name)
        txt = generate(P)
        old = open(path).read() if os.path.exists(path) else None
        if old != txt:
            stale = True
            if not check:
                with open(path, 'w') as f:
                    f.write(txt)
                print('wrote', path)
    path = os.path.join(ROOT, 'glsl', 'include', 'complex_math.glsl')
    txt = generate_complex()
    old = open(path).read() if os.path.exists(path) else None
    if old != txt:
        stale = True
        if not check:
            with open(path, 'w') as f:
                f.write(txt)
            print('wrote', path)
    if check and stale:
        print('generated GLSL is stale')
        sys.exit(1)


if __name__ == '__main__':
    main()
