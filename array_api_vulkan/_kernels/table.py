"""The op table: every native op with its shader family, op code and dtype signatures.

This one table drives both sides: scripts/build_spv.py (through variants.py) compiles one shader
variant per (family, input dtype, result dtype) that some op needs, and the Python bindings
(_kernels/ops.py) look an op's signature up here to pick the variant and the result dtype.

It is plain data with no imports, so that build_spv.py can load it by file path.

Signatures are written as in CuPy: input dtype codes, '->', result dtype code (all inputs of an
elementwise op share one dtype: the spec layer promotes before calling the kernels).
"""

# dtype name: (code, GLSL storage type, GLSL compute type, kind, bits)
# kind: 'b' bool, 'i' signed, 'u' unsigned, 'f' real floating, 'c' complex floating.
# 8/16-bit integers and bool are stored in 8/16-bit storage buffers and computed on in 32 bits.
DTYPES = {
    "bool": ("?", "uint8_t", "uint", "b", 8),
    "int8": ("b", "int8_t", "int", "i", 8),
    "int16": ("h", "int16_t", "int", "i", 16),
    "int32": ("i", "int", "int", "i", 32),
    "int64": ("l", "int64_t", "int64_t", "i", 64),
    "uint8": ("B", "uint8_t", "uint", "u", 8),
    "uint16": ("H", "uint16_t", "uint", "u", 16),
    "uint32": ("I", "uint", "uint", "u", 32),
    "uint64": ("L", "uint64_t", "uint64_t", "u", 64),
    "float32": ("f", "float", "float", "f", 32),
    "float64": ("d", "double", "double", "f", 64),
    "complex64": ("F", "vec2", "vec2", "c", 64),
    "complex128": ("D", "dvec2", "dvec2", "c", 128),
}
CODE = {v[0]: k for k, v in DTYPES.items()}  # code -> name
KIND_NUM = {"b": 0, "i": 1, "u": 2, "f": 3, "c": 4}

_BOOL = "?"
_SINT = "bhil"
_UINT = "BHIL"
_INT = _SINT + _UINT
_REALF = "fd"
_CPLX = "FD"
_FLOAT = _REALF + _CPLX
_REAL_NUMERIC = _INT + _REALF
_NUMERIC = _REAL_NUMERIC + _CPLX
_ALL = _BOOL + _NUMERIC
_REAL_OF = {"F": "f", "D": "d"}


def _same(codes, nargs):
    return tuple(c * nargs + "->" + c for c in codes)


def _to(codes, nargs, result):
    return tuple(c * nargs + "->" + (result(c) if callable(result) else result) for c in codes)


def _real(c):
    return _REAL_OF.get(c, c)


# (name, family, signatures, needs)
# family: the shader (glsl/<family>.comp); the op code is the row's index within its family.
# needs: which math library the op needs for which input kinds ({kind: include}); a variant
#   whose include has not landed yet is not built and the op answers None there (host fallback).
_ROWS = [
    # -- binary: exact arithmetic, comparisons, logical and bitwise ops ----------------------
    ("add", "binary", _same(_NUMERIC, 2)),
    ("subtract", "binary", _same(_NUMERIC, 2)),
    ("multiply", "binary", _same(_NUMERIC, 2)),
    ("divide", "binary", _same(_FLOAT, 2)),
    ("floor_divide", "binary", _same(_REAL_NUMERIC, 2)),
    ("remainder", "binary", _same(_REAL_NUMERIC, 2)),
    ("pow", "binary", _same(_INT, 2)),
    ("maximum", "binary", _same(_REAL_NUMERIC, 2)),
    ("minimum", "binary", _same(_REAL_NUMERIC, 2)),
    ("copysign", "binary", _same(_REALF, 2)),
    ("nextafter", "binary", _same(_REALF, 2)),
    ("bitwise_and", "binary", _same(_BOOL + _INT, 2)),
    ("bitwise_or", "binary", _same(_BOOL + _INT, 2)),
    ("bitwise_xor", "binary", _same(_BOOL + _INT, 2)),
    ("bitwise_left_shift", "binary", _same(_INT, 2)),
    ("bitwise_right_shift", "binary", _same(_INT, 2)),
    ("logical_and", "binary", _same(_BOOL, 2)),
    ("logical_or", "binary", _same(_BOOL, 2)),
    ("logical_xor", "binary", _same(_BOOL, 2)),
    ("equal", "binary", _to(_ALL, 2, "?")),
    ("not_equal", "binary", _to(_ALL, 2, "?")),
    ("less", "binary", _to(_REAL_NUMERIC, 2, "?")),
    ("less_equal", "binary", _to(_REAL_NUMERIC, 2, "?")),
    ("greater", "binary", _to(_REAL_NUMERIC, 2, "?")),
    ("greater_equal", "binary", _to(_REAL_NUMERIC, 2, "?")),
    # -- unary: exact ops ---------------------------------------------------------------------
    ("abs", "unary", _to(_NUMERIC, 1, _real)),
    ("negative", "unary", _same(_NUMERIC, 1)),
    ("positive", "unary", _same(_NUMERIC, 1)),
    ("bitwise_invert", "unary", _same(_BOOL + _INT, 1)),
    ("logical_not", "unary", _same(_BOOL, 1)),
    ("ceil", "unary", _same(_REAL_NUMERIC, 1)),
    ("floor", "unary", _same(_REAL_NUMERIC, 1)),
    ("trunc", "unary", _same(_REAL_NUMERIC, 1)),
    ("round", "unary", _same(_NUMERIC, 1)),
    ("sign", "unary", _same(_NUMERIC, 1)),
    ("signbit", "unary", _to(_REALF, 1, "?")),
    ("isfinite", "unary", _to(_NUMERIC, 1, "?")),
    ("isinf", "unary", _to(_NUMERIC, 1, "?")),
    ("isnan", "unary", _to(_NUMERIC, 1, "?")),
    ("square", "unary", _same(_NUMERIC, 1)),
    ("sqrt", "unary", _same(_REALF, 1)),
    ("reciprocal", "unary", _same(_FLOAT, 1)),
    ("conj", "unary", _same(_NUMERIC, 1)),
    ("real", "unary", _to(_NUMERIC, 1, _real)),
    ("imag", "unary", _to(_CPLX, 1, _real)),
    # -- clip: x, lo, hi ----------------------------------------------------------------------
    ("clip", "clip", _same(_REAL_NUMERIC, 3)),
    # -- select: where(cond, x1, x2), a bool condition and two values of the result dtype ----
    # (keyed by input 1: see KEY_INPUT)
    ("where", "select", tuple("?" + c + c + "->" + c for c in _ALL)),
]

# -- reduce: rows of elements -> one value per row (glsl/reduce.comp) -----------------------
# Whole signatures: input -> accumulator = result. sum/prod accumulate integers in the default
# integer dtype of the same signedness (64-bit, or 32-bit on devices without int64) and every
# dtype in itself (dtype=, and the second pass over partials); count_nonzero and argmin/argmax
# give the default index dtype; sqdev is var/std's pass over deviations from the row mean.
_WIDEN64 = ("?->l", "b->l", "h->l", "i->l", "B->L", "H->L", "I->L")
_WIDEN32 = ("?->i", "b->i", "h->i", "B->I", "H->I")
for _n in ("sum", "prod"):
    _ROWS.append((_n, "reduce", _WIDEN64))
    _ROWS.append((_n, "reduce", _WIDEN32))
    _ROWS.append((_n, "reduce", _same(_NUMERIC, 1)))
_ROWS.append(("min", "reduce", _same(_BOOL + _REAL_NUMERIC, 1)))
_ROWS.append(("max", "reduce", _same(_BOOL + _REAL_NUMERIC, 1)))
_ROWS.append(("all", "reduce", _to(_ALL, 1, "?")))
_ROWS.append(("any", "reduce", _to(_ALL, 1, "?")))
for _r in "li":
    _ROWS.append(("count_nonzero", "reduce", _to(_ALL, 1, _r)))
    _ROWS.append(("argmax", "reduce", _to(_BOOL + _REAL_NUMERIC, 1, _r)))
    _ROWS.append(("argmin", "reduce", _to(_BOOL + _REAL_NUMERIC, 1, _r)))
_ROWS.append(("sqdev", "reduce", _same(_REALF, 1)))
del _r
# -- scan: cumulative sums and products along rows (glsl/scan.comp), sum/prod's signatures --
for _n in ("cumulative_sum", "cumulative_prod"):
    _ROWS.append((_n, "scan", _WIDEN64))
    _ROWS.append((_n, "scan", _WIDEN32))
    _ROWS.append((_n, "scan", _same(_NUMERIC, 1)))

# -- sort: radix sort, unique and searchsorted kernels (glsl/sort.comp) ----------------------
# Keys are uint32 words ('I'); index results the default index dtype ('l', or 'i' without
# int64). sort_keys/unique_flags T -> I, sort_gather/unique_compact T -> T, the radix passes
# I -> I, index outputs I -> l/i, sort_search (searchsorted) T -> l/i.
_SORTABLE = _BOOL + _REAL_NUMERIC
_ROWS.append(("sort_keys", "sort", _to(_SORTABLE, 1, "I")))
for _n in ("sort_zero", "sort_ghist", "sort_info", "sort_hist", "sort_scan", "sort_scatter",
           "sort_rows"):
    _ROWS.append((_n, "sort", ("I->I",)))
_ROWS.append(("sort_gather", "sort", _same(_SORTABLE, 1)))
_ROWS.append(("unique_flags", "sort", _to(_SORTABLE, 1, "I")))
_ROWS.append(("unique_compact", "sort", _same(_SORTABLE, 1)))
for _r in "li":
    _ROWS.append(("unique_first", "sort", ("I->" + _r,)))
_ROWS.append(("unique_start", "sort", ("I->I",)))
for _r in "li":
    _ROWS.append(("unique_count", "sort", ("I->" + _r,)))
    _ROWS.append(("unique_inverse", "sort", ("I->" + _r,)))
    _ROWS.append(("sort_search", "sort", _to(_SORTABLE, 1, _r)))
# unique of bool and integers of at most 32 bits over a dense key range (no sort): the range
# (min and max keys) T -> I, per-key counts T -> I, zeroing and present flags I -> I, the
# values from the keys T -> T, the counts and the inverse to the index dtype
_DENSE = "?bhiBHI"
_ROWS.append(("unique_range", "sort", _to(_DENSE, 1, "I")))
_ROWS.append(("unique_bins", "sort", _to(_DENSE, 1, "I")))
_ROWS.append(("unique_zero", "sort", ("I->I",)))
_ROWS.append(("unique_present", "sort", ("I->I",)))
_ROWS.append(("unique_dense", "sort", _same(_DENSE, 1)))
for _r in "li":
    _ROWS.append(("unique_dense_count", "sort", ("I->" + _r,)))
    _ROWS.append(("unique_dense_inv", "sort", _to(_DENSE, 1, _r)))
del _r

# -- matmul: matrix products (glsl/matmul.comp), accumulating in the dtype itself ------------
_ROWS.append(("matmul", "matmul", _same(_NUMERIC, 2)))

# -- linalg: factorizations (glsl/linalg.comp), one workgroup per matrix of a batch ----------
for _n in ("linalg_cholesky", "linalg_det", "linalg_slogdet", "linalg_solve", "linalg_qr",
           "linalg_lu", "linalg_gemm", "linalg_trsm", "linalg_aux", "linalg_eigh", "linalg_svd"):
    _ROWS.append((_n, "linalg", _same(_FLOAT, 1)))

# -- fft: transforms through VkFFT (the runtime's FFTPlan, _fft.py; no shader of ours) -------
# kind -> {input code: result code}: c2c complex -> same, r2c real -> complex of its precision,
# c2r complex -> real of its precision.
FFT = {
    "c2c": {c: c for c in _CPLX},
    "r2c": {"f": "F", "d": "D"},
    "c2r": {c: _real(c) for c in _CPLX},
}

# Ops of the "math" family need the double/single/complex math libraries
# (glsl/include/math_f64.glsl, math_f32.glsl, complex_math.glsl).
_MATH_UNARY = ("exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin",
               "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh")
for _n in _MATH_UNARY:
    _ROWS.append((_n, "math", _same(_FLOAT, 1)))
_ROWS.append(("sqrt", "math", _same(_CPLX, 1)))
_ROWS.append(("pow", "math", _same(_FLOAT, 2)))
_ROWS.append(("atan2", "math", _same(_REALF, 2)))
_ROWS.append(("logaddexp", "math", _same(_REALF, 2)))
_ROWS.append(("hypot", "math", _same(_REALF, 2)))
del _n

# Which include a math variant needs, by the kind of its input.
MATH_INCLUDES = {"f": {"f": "math_f32.glsl", "d": "math_f64.glsl"},
                 "c": {"F": "complex_math.glsl", "D": "complex_math.glsl"}}


# Ops whose signatures are keyed by another input than the first: op name -> input position.
# where's condition (input 0) is always bool; its values (inputs 1, 2) and result share the
# dtype the row is looked up by, and the variant's T is that dtype.
KEY_INPUT = {"where": 1}

# Index families, outside the per-signature scheme (variants.py builds them directly):
# gather/scatter (glsl/gather.comp) per (index dtype, element width); compact (glsl/compact.comp)
# per index dtype of the default index kinds.
GATHER_WIDTHS = {8: ("uint8_t", 1), 16: ("uint16_t", 2), 32: ("uint", 4), 64: ("uvec2", 8),
                 128: ("uvec4", 16)}
COMPACT_CODES = "il"


class Op:
    """One row: an op in one family. `sigs` maps input dtype code -> result dtype code."""

    def __init__(self, name, family, code, sigs):
        self.name = name
        self.family = family
        self.code = code
        self.nargs = len(sigs[0].split("->")[0])
        key = KEY_INPUT.get(name, 0)
        self.sigs = {s.split("->")[0][key]: s.split("->")[1] for s in sigs}

    def __repr__(self):
        return f"Op({self.name!r}, {self.family!r}, {self.code}, {sorted(self.sigs)})"


def _build():
    ops, codes = {}, {}
    for name, family, sigs in _ROWS:
        code = codes.setdefault(family, {}).setdefault(name, len(codes[family]) + 1)
        ops.setdefault(name, []).append(Op(name, family, code, sigs))
    return ops, codes


# name -> [Op, ...] (an op may be split over families by dtype, e.g. sqrt); family -> {name: code}
OPS, FAMILY_CODES = _build()

# Fill family op codes and cast (no op code: one op per variant).
FILL_CODES = {"full": 1, "arange": 2, "eye": 3, "linspace": 4}


def lookup(name, code):
    """The Op row covering op `name` for input dtype code `code`, or None."""
    for op in OPS.get(name, ()):
        if code in op.sigs:
            return op
    return None
