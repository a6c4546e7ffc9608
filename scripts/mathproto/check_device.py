"""Run the GLSL math libraries on a Vulkan device and compare with the numpy prototypes.

    python3 scripts/mathproto/check_device.py [--device lavapipe|llvmpipe|NVIDIA...] [--n 2000]

Builds scripts/mathproto/vkrun.c (needs cc and the Vulkan headers), compiles one
shader per precision that dispatches on a function id stored in the buffer, runs
every function on the prototype test samples plus the special values, and prints
per function: how many results differ bitwise from the prototype, and the max ulp
distance to the prototype and to the exact value (mpmath on a subsample).
Exit status 1 if any result is more than --tol ulp from the prototype.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
from mathproto import F64, F32, real, cplx  # noqa: E402
from test_math_prototypes import UNARY, BINARY, _samples, SPECIAL  # noqa: E402
from mathproto.ulp import ulp_err  # noqa: E402

CUN = ['exp', 'expm1', 'log', 'log1p', 'sqrt', 'sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh',
       'asin', 'acos', 'atan', 'asinh', 'acosh', 'atanh']
CBIN = ['mul', 'div', 'pow']
FUNCS = UNARY + BINARY + ['c_' + f for f in CUN + CBIN + ['abs']]


def shader_src(P):
    T = 'double' if P.p == 53 else 'float'
    V = 'dvec2' if P.p == 53 else 'vec2'
    C = 'c128' if P.p == 53 else 'c64'
    lines = ['#version 450'] + (['#extension GL_ARB_gpu_shader_int64 : require'] if P.p == 53 else []) + [
             '#extension GL_GOOGLE_include_directive : require',
             '#include "math_%s.glsl"' % P.name,
             '#include "complex_math.glsl"',
             'layout(local_size_x = 64) in;',
             'layout(std430, binding = 0) buffer B { %s d[]; };' % T,
             'void main() {',
             '    uint i = gl_GlobalInvocationID.x;',
             '    int fid = int(d[0]);',
             '    uint n = uint(d[1]);',
             '    if (i >= n) return;',
             '    %s x = d[2u + i], y = d[2u + n + i], u = d[2u + 2u * n + i], v = d[2u + 3u * n + i];' % T,
             '    %s z = %s(x, y), w = %s(u, v);' % (V, V, V),
             '    %s r = %s(0);' % (V, V),
             '    switch (fid) {']
    for k, f in enumerate(FUNCS):
        if f.startswith('c_'):
            g = f[2:]
            call = '%s_%s(z, w)' % (C, g) if g in CBIN else ('%s(%s_abs(z), 0)' % (V, C) if g == 'abs' else '%s_%s(z)' % (C, g))
        else:
            call = '%s(%s, 0)' % (V, '%s_%s(x, y)' % (P.name, f) if f in BINARY else '%s_%s(x)' % (P.name, f))
        lines.append('    case %d: r = %s; break;' % (k, call))
    lines += ['    }', '    d[2u + 4u * n + i] = r.x;', '    d[2u + 5u * n + i] = r.y;', '}']
    return '\n'.join(lines) + '\n'


def build(tmp):
    os.makedirs(tmp, exist_ok=True)
    exe = os.path.join(tmp, 'vkrun')
    subprocess.check_call(['cc', '-O1', '-o', exe, os.path.join(HERE, 'vkrun.c'), '-lvulkan'])
    spv = {}
    for P in (F64, F32):
        src = os.path.join(tmp, 'm%s.comp' % P.name)
        open(src, 'w').write(shader_src(P))
        out = os.path.join(tmp, 'm%s.spv' % P.name)
        subprocess.check_call(['glslangValidator', '-V', '--target-env', 'vulkan1.1', '-I' + os.path.join(ROOT, 'glsl', 'include'),
                               src, '-o', out], stdout=subprocess.DEVNULL)
        spv[P.name] = out
    return exe, spv


def run_device(exe, spv, P, fid, args, tmp, device):
    n = args[0].size
    ins = [np.asarray(a, P.dt) for a in args] + [np.zeros(n, P.dt)] * (4 - len(args))
    buf = np.concatenate([np.array([fid, n], P.dt)] + ins + [np.zeros(2 * n, P.dt)])
    path = os.path.join(tmp, 'buf.bin')
    buf.tofile(path)
    groups = (n + 63) // 64
    subprocess.check_call([exe, spv, path, str(groups), device], stderr=subprocess.DEVNULL)
    out = np.fromfile(path, P.dt)
    return out[2 + 4 * n: 2 + 5 * n], out[2 + 5 * n: 2 + 6 * n]


def complex_inputs(P, g, n, rng):
    big = 300 if P.p == 53 else 37
    lu = lambda k: np.exp(rng.uniform(np.log(1e-30), np.log(10.0 ** big), k)) * rng.choice([-1.0, 1.0], k)
    sp = np.array([0.0, -0.0, 0.5, -0.75, 1.0, -1.0, 2.0, -3.5, 1e-30, 1e30, np.inf, -np.inf, np.nan])
    sa, sb = [v.ravel() for v in np.meshgrid(sp, sp)]
    a = np.concatenate([rng.uniform(-3, 3, n), lu(n), rng.uniform(-1.2, 1.2, n), rng.uniform(-30, 30, n), sa])
    b = np.concatenate([rng.uniform(-3, 3, n), lu(n), rng.uniform(-0.1, 0.1, n), rng.uniform(-30, 30, n), sb])
    with np.errstate(all='ignore'):
        args = [a.astype(P.dt), b.astype(P.dt)]
        if g in ('mul', 'div', 'pow'):
            perm = rng.permutation(a.size)
            args += [a[perm].astype(P.dt), b[perm].astype(P.dt)]
            if g == 'pow':
                args[2] = (args[2] / P.dt(1e3)).astype(P.dt)
    return args


def ulps(P, a, b):
    """distance in units in the last place between two arrays of P.dt (NaN==NaN, inf==inf)."""
    ia = a.view(P.it).astype(np.int64)
    ib = b.view(P.it).astype(np.int64)
    mask = np.int64(0x7FFFFFFFFFFFFFFF if P.nbits == 64 else 0x7FFFFFFF)
    ia = np.where(ia < 0, -(ia & mask), ia)   # map to a monotonic integer line
    ib = np.where(ib < 0, -(ib & mask), ib)
    d = np.abs(ia - ib).astype(np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0.0, np.where(np.isnan(a) | np.isnan(b), np.inf, d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='')
    ap.add_argument('--n', type=int, default=2000)
    ap.add_argument('--tol', type=float, default=1.0)
    ap.add_argument('--prec', default='f64,f32')
    ap.add_argument('--allow-ftz', action='store_true',
                    help='do not count differences where an input or result is subnormal (flush-to-zero devices)')
    ap.add_argument('--only', default='', help='comma-separated function names (c_NAME for complex)')
    ap.add_argument('--build-only', metavar='DIR', help='only build vkrun and the shaders into DIR')
    ap.add_argument('--prebuilt', metavar='DIR', help='use vkrun and shaders from --build-only DIR')
    a = ap.parse_args()
    if a.build_only:
        build(a.build_only)
        return
    bad = False
    with tempfile.TemporaryDirectory() as tmp:
        if a.prebuilt:
            exe = os.path.join(a.prebuilt, 'vkrun')
            spv = {P.name: os.path.join(a.prebuilt, 'm%s.spv' % P.name) for P in (F64, F32)}
        else:
            exe, spv = build(tmp)
        for P in (F64, F32):
            if P.name not in a.prec.split(','):
                continue
            for fid, f in enumerate(FUNCS):
                if a.only and f not in a.only.split(','):
                    continue
                rng = np.random.default_rng(5)
                if f.startswith('c_'):
                    g = f[2:]
                    args = complex_inputs(P, g, a.n // 4, rng)
                    with np.errstate(all='ignore'):
                        ref = getattr(cplx, 'abs_' if g == 'abs' else g)(P, *args)
                    if g == 'abs':
                        ref = (ref, np.zeros_like(ref))
                    gr, gi = run_device(exe, spv[P.name], P, fid, args, tmp, a.device)
                    x = np.concatenate([args[0], args[0]])
                    y = np.concatenate([args[1], args[1]])
                    got = np.concatenate([gr, gi])
                    ref = np.concatenate([ref[0], ref[1]]).astype(P.dt)
                    subargs = None
                else:
                    args = _samples(P, f, a.n, rng)
                    s = np.array(SPECIAL, np.float64)
                    with np.errstate(all='ignore'):
                        if f in BINARY:
                            sx, sy = [v.ravel().astype(P.dt) for v in np.meshgrid(s, s)]
                            x, y = np.concatenate([args[0], sx]), np.concatenate([args[1], sy])
                        else:
                            x = np.concatenate([args[0], s.astype(P.dt)])
                            y = np.zeros_like(x)
                    ref = getattr(real, f)(P, x, y) if f in BINARY else getattr(real, f)(P, x)
                    got = run_device(exe, spv[P.name], P, fid, [x, y], tmp, a.device)[0]
                    subargs = True
                u = ulps(P, got, ref.astype(P.dt))
                nd = int(np.count_nonzero(u != 0))
                # differences explained by flush-to-zero of subnormal inputs or results
                tiny = P.K['MIN_NORMAL']
                sub = lambda v: (v != 0) & (np.abs(v) < tiny)
                ftz = sub(x) | sub(y) | sub(ref) | sub(got)
                nftz = int(np.count_nonzero((u != 0) & ftz))
                if a.allow_ftz:
                    u = np.where(ftz, 0.0, u)
                mx = float(np.max(u))
                k = int(np.argmax(u))
                # where device and prototype differ, how far is the device from the exact value?
                dif = np.nonzero(u != 0)[0][:200]
                if subargs and dif.size:
                    ex = ulp_err(P, f, got[dif], *([x[dif], y[dif]] if f in BINARY else [x[dif]]))[0]
                else:
                    ex = float('nan') if dif.size else 0.0
                flag = '' if mx <= a.tol else '   <-- FAIL'
                bad |= mx > a.tol
                print('%s %-10s n=%6d bitwise-diff=%5d (ftz %4d) max-ulp-vs-proto=%g max-ulp-vs-exact-where-different=%.3f'
                      '  worst: x=%r y=%r got=%r proto=%r%s'
                      % (P.name, f, x.size, nd, nftz, mx, ex, float(x[k]), float(y[k]), float(got[k]), float(ref[k]), flag))
                sys.stdout.flush()
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
