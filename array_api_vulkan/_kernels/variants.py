"""Shader variants, generated from the op table (table.py) for scripts/build_spv.py.

VARIANTS = {variant name: (family, {define: value})}. Importable standalone: build_spv.py loads
this file by path, and it loads table.py, its sibling, by path too.
"""
import importlib.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "glsl", "include")


def _load_table():
    spec = importlib.util.spec_from_file_location("_avk_table", os.path.join(_HERE, "table.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


table = _load_table()


def type_defines(slot, code):
    """The preprocessor defines describing dtype `code` in slot T (input) or R (result)."""
    st, ct, kind, bits = table.DTYPES[table.CODE[code]][1:]
    return {f"{slot}_S": st, f"{slot}_C": ct, f"{slot}_K": table.KIND_NUM[kind],
            f"{slot}_BITS": bits}


def math_includes(code):
    """The math includes a math-family variant with input dtype `code` needs."""
    return {"f": ("math_f32.glsl",), "d": ("math_f64.glsl",),
            "F": ("math_f32.glsl", "complex_math.glsl"),
            "D": ("math_f64.glsl", "complex_math.glsl")}[code]


def math_available(code):
    """Whether glsl/ has the math includes for `code` (build_spv.py compiles only those variants).
    An installed package carries spv/ but no glsl/: there the math variants are those spv/ holds
    (the runtime launches a variant only where its .spv exists)."""
    if not os.path.isdir(_INCLUDE):
        return True
    return all(os.path.exists(os.path.join(_INCLUDE, f)) for f in math_includes(code))


def per_op(family, tin):
    """Variants built one per op (MATH_OP define) rather than one per dtype pair: complex math,
    whose full module costs lavapipe about a second per pipeline (it inlines every function
    before folding the op code)."""
    return family == "math" and tin in "FD"


def has_nof64(family, tin):
    """float32/complex64 variants that divide or take square roots through float64 (exact where
    float32 ones are not, e.g. on NVIDIA) also come without float64, for devices lacking it.
    reduce: float32/complex64 means and variances divide (and take square roots) in float64."""
    return family in ("unary", "binary", "reduce") and tin in "fF"


def has_dp(tin, tout):
    """Variants touching float32 also come with SPIR-V DenormPreserve for 32-bit floats, for
    devices that support it (NVIDIA flushes float32 subnormals to zero without it)."""
    return (tin is not None and tin in "fF") or tout in "fF"


def flavours(family, tin, tout):
    """[(f64, dp, extra defines)]: every flavour a (family, tin, tout) variant is built in."""
    out = [(True, False, {})]
    if has_nof64(family, tin):
        out.append((False, False, {"AVK_NO_F64": 1}))
    if has_dp(tin, tout):
        out += [(f64, True, dict(d, AVK_DENORM_PRESERVE=1)) for f64, _, d in out]
    return out


def variant_name(family, tin, tout, op=None, f64=True, dp=False):
    """spv name of a variant: e.g. binary_float32_bool, math_complex64_complex64_exp,
    binary_float32_float32_nof64_dp; tin None for one-type families."""
    if tin is None:
        name = f"{family}_{table.CODE[tout]}"
    else:
        name = f"{family}_{table.CODE[tin]}_{table.CODE[tout]}"
        if per_op(family, tin):
            name = f"{name}_{op}"
        if not f64 and has_nof64(family, tin):
            name += "_nof64"
    if dp and has_dp(tin, tout):
        name += "_dp"
    return name


def _build():
    out = {}
    for family, codes in table.FAMILY_CODES.items():
        op_defines = {f"OP_{n.upper()}": c for n, c in codes.items()}
        for name in codes:
            for op in table.OPS[name]:
                if op.family != family:
                    continue
                for tin, tout in op.sigs.items():
                    if family == "math" and not math_available(tin):
                        continue
                    d = dict(op_defines)
                    d.update(type_defines("T", tin))
                    d.update(type_defines("R", tout))
                    if per_op(family, tin):
                        d["MATH_OP"] = op.code
                    for f64, dp, extra in flavours(family, tin, tout):
                        vn = variant_name(family, tin, tout, name, f64, dp)
                        out[vn] = (family, dict(d, **extra))
                        for cfg in frozen_tiles(family, tin):
                            out[frozen_name(vn, cfg)] = (family, dict(
                                d, AVK_FREEZE=" ".join(f"{i + 1}:{v}" for i, v in enumerate(cfg))
                                + " 6:0 7:0", **extra))
                        if has_sg(family, tout, tin):
                            out[vn + "_sg"] = (family, dict(d, AVK_SUBGROUP=1, **extra))
                            if family == "sort":
                                # digits matched by subgroupPartitionNV (one instruction)
                                out[vn + "_sgp"] = (family, dict(d, AVK_SUBGROUP=1,
                                                                 AVK_PARTITIONED=1, **extra))
    for tin in table.CODE:
        for tout in table.CODE:
            d = type_defines("T", tin)
            d.update(type_defines("R", tout))
            for f64, dp, extra in flavours("cast", tin, tout):
                out[variant_name("cast", tin, tout, None, f64, dp)] = ("cast", dict(d, **extra))
        d = {f"OP_{n.upper()}": c for n, c in table.FILL_CODES.items()}
        d.update(type_defines("R", tin))
        for f64, dp, extra in flavours("fill", None, tin):
            out[variant_name("fill", None, tin, None, f64, dp)] = ("fill", dict(d, **extra))
    for icode in table._INT:
        st, _, kind, bits = table.DTYPES[table.CODE[icode]][1:]
        idx = {"I_S": st, "I_BITS": bits, "I_ALIGN": bits // 8, "I_SIGNED": int(kind == "i")}
        for width, (es, align) in table.GATHER_WIDTHS.items():
            out[gather_name(icode, width)] = ("gather", dict(idx, E_S=es, E_ALIGN=align))
        if icode in table.COMPACT_CODES:
            out[f"compact_{table.CODE[icode]}"] = ("compact", idx)
            out[f"compact_{table.CODE[icode]}_sg"] = ("compact", dict(idx, AVK_SUBGROUP=1))
    for width, (es, align) in table.GATHER_WIDTHS.items():
        e = {"E_S": es, "E_ALIGN": align}
        out[compact_value_name(width)] = ("compact", e)
        out[compact_value_name(width) + "_sg"] = ("compact", dict(e, AVK_SUBGROUP=1))
    for width, (es, align) in table.GATHER_WIDTHS.items():
        out[f"transpose_w{width}"] = ("transpose", {"E_S": es, "E_ALIGN": align})
    return out


def frozen_tiles(family, tin):
    """The generic tiled matmul configurations (WX, WY, RM, RN, TK: _matmul.tiles) built with
    those specialisation constants fixed and the loops unrolled in SPIR-V (AVK_FREEZE;
    scripts/build_spv.py), for the 64-bit dtypes and complex128, whose accumulators NVIDIA's
    compiler otherwise kept in local memory (complex128 1024^2: 1.9 against 14.5 TFLOP/s)."""
    if family != "matmul" or tin is None:
        return []
    kind, bits = table.DTYPES[table.CODE[tin]][3], table.DTYPES[table.CODE[tin]][4]
    if (kind in "fiu" and bits == 64):
        tk = 16
    elif kind == "c" and bits == 128:
        tk = 8
    else:
        return []
    return [(16, 16, 4, 4, tk), (16, 16, 2, 2, tk)]


def frozen_name(vn, cfg):
    """spv name of variant vn frozen at tiled configuration cfg (WX, WY, RM, RN, TK)."""
    return f"{vn}_t{cfg[0]}x{cfg[1]}x{cfg[2]}x{cfg[3]}x{cfg[4]}"


# result dtypes whose compute type is 32-bit (subgroup arithmetic on them needs no extended types)
SG_CODES = "?bhiBHIfF"


def has_sg(family, tout, tin=None):
    """scan variants also come with subgroup arithmetic (`_sg`, AVK_SUBGROUP) for 32-bit compute
    types, chosen on devices reporting subgroup arithmetic in compute shaders; the radix sort's
    passes (sort I->I) with subgroup ballots (ranking digits a subgroup at a time); reduce
    variants whose input's compute type is 32-bit with subgroup shuffles (their tree); linalg
    variants with subgroup shuffles (the register-held LU panel's pivot search, the TRSM's
    column-a-subgroup form)."""
    if family == "sort":
        return tin == "I" and tout == "I"
    if family == "linalg":
        return True
    if family == "reduce":
        return tin is not None and tin in SG_CODES
    return family == "scan" and tout in SG_CODES


def compact_value_name(width):
    """spv name of the compact variant moving elements of `width` bits (VALUE/SCATTER/FILL)."""
    return f"compact_w{width}"


def gather_name(icode, width):
    """spv name of the gather/scatter variant for index dtype `icode` and element width (bits)."""
    return f"gather_{table.CODE[icode]}_w{width}"


VARIANTS = _build()
