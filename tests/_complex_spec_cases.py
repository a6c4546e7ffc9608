"""Complex special cases, transcribed from the Array API standard (C99 Annex G).

Each row: (a_class, b_class, expected_re, expected_im).  Classes of inputs are
expanded by CLASSES; expected values are floats (exact, signed zeros included)
or one of the strings 'nan', '±0', '±inf', 'pi', 'pi/2', '±pi/2', 'pi/4', '3pi/4',
or ('cis', s, shift): s*cis(b) + shift.
"""
import numpy as np

INF, NAN = np.inf, np.nan
CLASSES = {
    '+0': [0.0], '-0': [-0.0], '0': [0.0, -0.0], '1': [1.0],
    'fin': [0.0, -0.0, 1.5, -2.5, 3.0], 'pfin': [1.5, 3.0, 1e-30], 'nzfin': [1.5, -2.5, 3.0],
    'pfin0': [0.0, 1.5, 3.0],
    '+inf': [INF], '-inf': [-INF], 'inf': [INF, -INF], 'nan': [NAN],
    'nz': [1.5, -2.5, INF, -INF], 'any': [0.0, -0.0, 1.5, -2.5, INF, -INF, NAN],
}

_EXPLIKE_TAIL = [
    ('fin', '+inf', 'nan', 'nan'), ('fin', 'nan', 'nan', 'nan'),
    ('+inf', '+0', INF, 0.0), ('+inf', '+inf', '±inf', 'nan'), ('+inf', 'nan', '±inf', 'nan'),
    ('nan', '+0', 'nan', 0.0), ('nan', 'nz', 'nan', 'nan'), ('nan', 'nan', 'nan', 'nan'),
]
SPEC = {
    'exp': [('0', '+0', 1.0, 0.0), ('-inf', 'fin', ('cis', 0.0, 0.0), None), ('+inf', 'nzfin', ('cis', INF, 0.0), None),
            ('-inf', '+inf', '±0', '±0'), ('-inf', 'nan', '±0', '±0')] + _EXPLIKE_TAIL,
    'expm1': [('0', '+0', 0.0, 0.0), ('-inf', 'fin', ('cis', 0.0, -1.0), None), ('+inf', 'nzfin', ('cis', INF, -1.0), None),
              ('-inf', '+inf', -1.0, '±0'), ('-inf', 'nan', -1.0, '±0')] + _EXPLIKE_TAIL,
    'log': [('-0', '+0', -INF, 'pi'), ('+0', '+0', -INF, 0.0), ('fin', '+inf', INF, 'pi/2'), ('fin', 'nan', 'nan', 'nan'),
            ('-inf', 'pfin', INF, 'pi'), ('+inf', 'pfin', INF, 0.0), ('-inf', '+inf', INF, '3pi/4'),
            ('+inf', '+inf', INF, 'pi/4'), ('inf', 'nan', INF, 'nan'), ('nan', 'fin', 'nan', 'nan'),
            ('nan', '+inf', INF, 'nan'), ('nan', 'nan', 'nan', 'nan')],
    'log1p': [('fin', '+inf', INF, 'pi/2'), ('fin', 'nan', 'nan', 'nan'), ('-inf', 'pfin', INF, 'pi'),
              ('+inf', 'pfin', INF, 0.0), ('-inf', '+inf', INF, '3pi/4'), ('+inf', '+inf', INF, 'pi/4'),
              ('inf', 'nan', INF, 'nan'), ('nan', 'fin', 'nan', 'nan'), ('nan', '+inf', INF, 'nan'),
              ('nan', 'nan', 'nan', 'nan')],
    'sqrt': [('0', '+0', 0.0, 0.0), ('any', '+inf', INF, INF), ('fin', 'nan', 'nan', 'nan'),
             ('-inf', 'pfin', 0.0, INF), ('+inf', 'pfin', INF, 0.0), ('-inf', 'nan', 'nan', '±inf'),
             ('+inf', 'nan', INF, 'nan'), ('nan', 'fin', 'nan', 'nan'), ('nan', 'nan', 'nan', 'nan')],
    'sinh': [('+0', '+0', 0.0, 0.0), ('+0', '+inf', '±0', 'nan'), ('+0', 'nan', '±0', 'nan'),
             ('pfin', '+inf', 'nan', 'nan'), ('pfin', 'nan', 'nan', 'nan'), ('+inf', '+0', INF, 0.0),
             ('+inf', 'pfin', ('cis', INF, 0.0), None), ('+inf', '+inf', '±inf', 'nan'),
             ('+inf', 'nan', '±inf', 'nan'), ('nan', '+0', 'nan', 0.0), ('nan', 'nzfin', 'nan', 'nan'),
             ('nan', 'nan', 'nan', 'nan')],
    'cosh': [('+0', '+0', 1.0, 0.0), ('+0', '+inf', 'nan', '±0'), ('+0', 'nan', 'nan', '±0'),
             ('nzfin', '+inf', 'nan', 'nan'), ('nzfin', 'nan', 'nan', 'nan'), ('+inf', '+0', INF, 0.0),
             ('+inf', 'nzfin', ('cis', INF, 0.0), None), ('+inf', '+inf', '±inf', 'nan'),
             ('+inf', 'nan', INF, 'nan'), ('nan', '0', 'nan', '±0'), ('nan', 'nzfin', 'nan', 'nan'),
             ('nan', 'nan', 'nan', 'nan')],
    'tanh': [('+0', '+0', 0.0, 0.0), ('nzfin', '+inf', 'nan', 'nan'), ('+0', '+inf', 0.0, 'nan'),
             ('nzfin', 'nan', 'nan', 'nan'), ('+0', 'nan', 0.0, 'nan'), ('+inf', 'pfin', 1.0, 0.0),
             ('+inf', '+inf', 1.0, '±0'), ('+inf', 'nan', 1.0, '±0'), ('nan', '+0', 'nan', 0.0),
             ('nan', 'nz', 'nan', 'nan'), ('nan', 'nan', 'nan', 'nan')],
    'acosh': [('0', '+0', 0.0, 'pi/2'), ('fin', '+inf', INF, 'pi/2'), ('nzfin', 'nan', 'nan', 'nan'),
              ('+0', 'nan', 'nan', '±pi/2'), ('-inf', 'pfin', INF, 'pi'), ('+inf', 'pfin', INF, 0.0),
              ('-inf', '+inf', INF, '3pi/4'), ('+inf', '+inf', INF, 'pi/4'), ('inf', 'nan', INF, 'nan'),
              ('nan', 'fin', 'nan', 'nan'), ('nan', '+inf', INF, 'nan'), ('nan', 'nan', 'nan', 'nan')],
    'asinh': [('+0', '+0', 0.0, 0.0), ('pfin', '+inf', INF, 'pi/2'), ('fin', 'nan', 'nan', 'nan'),
              ('+inf', 'pfin', INF, 0.0), ('+inf', '+inf', INF, 'pi/4'), ('nan', '+0', 'nan', 0.0),
              ('nan', 'nzfin', 'nan', 'nan'), ('nan', '+inf', '±inf', 'nan'), ('nan', 'nan', 'nan', 'nan')],
    'atanh': [('+0', '+0', 0.0, 0.0), ('+0', 'nan', 0.0, 'nan'), ('1', '+0', INF, 0.0),
              ('pfin', '+inf', 0.0, 'pi/2'), ('nzfin', 'nan', 'nan', 'nan'), ('+inf', 'pfin', 0.0, 'pi/2'),
              ('+inf', '+inf', 0.0, 'pi/2'), ('+inf', 'nan', 0.0, 'nan'), ('nan', 'fin', 'nan', 'nan'),
              ('nan', '+inf', '±0', 'pi/2'), ('nan', 'nan', 'nan', 'nan')],
}
# log1p: -1 + 0j -> -inf + 0j
SPEC['log1p'].insert(0, ('-1', '+0', -INF, 0.0))
CLASSES['-1'] = [-1.0]

CONJ = ['exp', 'expm1', 'log', 'log1p', 'sqrt', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh',
        'sin', 'cos', 'tan', 'asin', 'acos', 'atan']
ODD = ['sinh', 'tanh', 'asinh', 'atanh', 'sin', 'tan', 'asin', 'atan']
EVEN = ['cosh', 'cos']
