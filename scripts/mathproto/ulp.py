"""ulp-error measurement against mpmath (exact to ~2^-200)."""
import numpy as np
import mpmath as mp

MPF = {
    'exp': mp.exp, 'exp2': lambda x: mp.power(2, x), 'expm1': mp.expm1,
    'log': mp.log, 'log2': lambda x: mp.log(x, 2), 'log10': mp.log10, 'log1p': mp.log1p,
    'sin': mp.sin, 'cos': mp.cos, 'tan': mp.tan, 'asin': mp.asin, 'acos': mp.acos,
    'atan': mp.atan, 'sinh': mp.sinh, 'cosh': mp.cosh, 'tanh': mp.tanh,
    'asinh': mp.asinh, 'acosh': mp.acosh, 'atanh': mp.atanh,
    'atan2': mp.atan2, 'pow': mp.power, 'hypot': lambda a, b: mp.sqrt(a * a + b * b),
    'logaddexp': lambda a, b: max(a, b) + mp.log1p(mp.exp(-abs(a - b))),
}


def ulp_err(P, name, got, *args):
    """max ulp error of `got` (array) vs the exact value; skips non-finite refs."""
    f = MPF[name]
    worst, where = 0.0, None
    minexp = P.emin - P.p + 1
    with mp.workprec(P.p * 4 + 64):
        for idx in range(got.size):
            a = [mp.mpf(float(np.ravel(v)[idx])) for v in args]
            try:
                ref = f(*a)
            except (ValueError, ZeroDivisionError):
                continue
            if isinstance(ref, mp.mpc) or not mp.isfinite(ref):
                continue
            g = float(np.ravel(got)[idx])
            if ref == 0:
                e = 0.0 if g == 0 else float('inf')
            else:
                ex = max(int(mp.floor(mp.log(abs(ref), 2))) - P.p + 1, minexp)
                if abs(ref) > np.finfo(P.dt).max:
                    e = 0.0 if np.isinf(g) else float('inf')
                else:
                    e = float(abs(mp.mpf(g) - ref) / mp.mpf(2) ** ex) if np.isfinite(g) else float('inf')
            if e > worst:
                worst, where = e, tuple(float(np.ravel(v)[idx]) for v in args)
    return worst, where
