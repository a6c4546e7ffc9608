"""Launch mechanics shared by the kernel families: variants, input modes, dimension collapsing,
push-constant packing (see glsl/include/kernels.glsl for the layout)."""
import array
import functools
import math
import os
import struct
import threading
import warnings

import numpy as np

from . import variants as _variants

table = _variants.table

MODE_CONTIG, MODE_STRIDED, MODE_SCALAR, MODE_ONE, MODE_DYNAMIC = 0, 1, 2, 3, 4
# Families whose input modes go in the push block rather than in specialisation constants:
# their pipelines are costly to create on lavapipe (up to seconds for complex128 math).
DYNAMIC_MODES = {"math"}
# Elements per invocation (specialisation constant 4): 4 consecutive ones by vector loads where
# every operand is contiguous at a 4-element-aligned offset (64-bit types: 2 pairs a grid of
# pairs apart), else ELEMS apart in the grid (see glsl/include/elementwise.glsl). On an H200 a
# 16M float32 add takes 52 us a dispatch (CuPy: 83). 8 or 16 were slower on the H100 (run 22).
ELEMS = 4
PUSH_WORDS = 32
# The push block (glsl/include/kernels.glsl): layout words w[0 .. LAYOUT_WORDS), then the device
# addresses of the result and of inputs 0..2, two words each.
LAYOUT_WORDS = 24
ADDR_WORD = 24
_SCALARS = (bool, int, float, complex)
# Storage kind and patch codes of _vkcore.Plan (runtime/src/plan.hpp).
ARG, OUT, TMP = 0, 1, 2
ADDRESS, OFFSET, SCALAR, VIEW_ADDRESS, OFFSET_PLUS, ALTERNATE = 0, 1, 2, 3, 4, 5
# The workgroups' order of the elementwise families (w[2] bit 31, glsl/include/elementwise.glsl):
# the device's alternating bit there, so that a dispatch walks its arrays the other way from
# the one before and starts on what the L2 still holds of them (H200, a + b of 2^24 float32
# repeated: 49.3 -> 44.2 us of GPU a call; benchmarks/diag_l2_order.py).
ORDER_WORD, ORDER_SHIFT = 2, 31
# A call layout seen once: the caches of compiled plans keep this first and make the plan on the
# layout's second call (making one costs about as much as the call's general path: one-off
# layouts, as hypothesis makes, should not pay it).
ONCE = 0


def keep_on_second_call(plans, key, make, limit=256):
    """After a call of `key` ran its general path: the first time marks the key ONCE, the second
    keeps make() (a compiled plan, or None: False is kept, none serves). Returns what `plans`
    holds for key now (a plan, ONCE or False; a plan or False kept before is left as it is).
    At `limit` keys the dict is emptied first."""
    kept = plans.get(key)
    if kept is not None and kept is not ONCE:
        return kept
    if len(plans) >= limit:
        plans.clear()
    kept = plans[key] = ONCE if kept is None else (make() or False)
    return kept
from .._runtime.device import Device as _Device  # noqa: E402
# The class results are made of: the runtime's Storage until the spec layer sets its Array
# (set_result_type), so that this layer never imports the spec layer.
from .._runtime.storage import Storage as result_type  # noqa: E402


class NotNative(RuntimeError):
    """A kernels-layer entry was called for a case its supports_* function answers False for
    (a bug in the answer: the entries never answer None / False for "not native")."""


def set_result_type(cls):
    global result_type
    result_type = cls


def put_address(words, k, alloc):
    a = alloc.address
    words[k] = a & 0xFFFFFFFF
    words[k + 1] = a >> 32


def grid_1d(count, local_size=256):
    """The (gx, gy, 1) grid the runtime launches for count invocations (Recorder::grid_1d)."""
    groups = -(-count // local_size)
    if groups <= 65535:
        return (groups, 1, 1)
    rows = -(-groups // 65535)
    return (-(-groups // rows), rows, 1)


_built = {}


def variant(family, tin, tout, op=None, dev=None):
    """The spv name of a family's variant for (input code, result code), or None if the table
    has none, it is not compiled (a math include that landed after spv/ was built) or it needs
    a device feature that dev lacks (see shader_needs)."""
    if dev.__class__ is _Device:  # (asked on every call of many ops: the answer is kept)
        key = (family, tin, tout, op, dev, features(dev))
        name = _variant_of.get(key, False)
        if name is False:
            if len(_variant_of) >= 4096:
                _variant_of.clear()
            name = _variant_of[key] = _variant(family, tin, tout, op, dev)
        return name
    return _variant(family, tin, tout, op, dev)


_variant_of = {}


def _variant(family, tin, tout, op, dev):
    f64 = dev is None or dev.supports_float64
    dp = dev is not None and denorm_preserve(dev)
    return named(_variants.variant_name(family, tin, tout, op, f64, dp), dev)


def named(name, dev=None):
    """spv name `name` if it is a built variant that dev can run (see variant), else None."""
    ok = _built.get(name)
    if ok is None:
        from .._runtime.device import SPV_DIRS

        ok = _built[name] = name in _variants.VARIANTS and any(
            os.path.exists(os.path.join(d, name + ".spv")) for d in SPV_DIRS)
    if not ok:
        return None
    if dev is not None:
        needs = _needs.get(name)
        if needs is None:
            needs = shader_needs(name)
        if needs:
            info = getattr(dev, "info", None) or {}
            if not all(info.get(f, True) for f in needs):
                return None
    return name


# SPIR-V capabilities (OpCapability operands) -> the runtime's device feature (info key) each
# needs. The compiled module is the authority: e.g. float64 variants do bit tricks in 64-bit
# integers, and float32 -> unsigned casts convert through int64.
_CAPABILITY_FEATURES = {10: "float64", 11: "int64", 12: "int64", 22: "int16", 39: "int8",
                        4433: "storage16", 4434: "storage16", 4435: "storage16",
                        4448: "storage8", 4449: "storage8", 4450: "storage8"}
_needs = {}


def shader_needs(name):
    """The device features (runtime info keys: float64, int64, int16, int8, storage8, storage16)
    that spv/<name>.spv declares capabilities for."""
    needs = _needs.get(name)
    if needs is None:
        from .._runtime.device import load_spirv

        code = load_spirv(name)
        words = array.array("I", code[:len(code) // 4 * 4])
        if words[0] != 0x07230203:
            raise ValueError(f"{name}.spv is not a SPIR-V module")
        # The OpCapability instructions (opcode 17, two words) come first, after the 5-word header.
        found, i = set(), 5
        while i + 1 < len(words) and words[i] == (2 << 16) | 17:
            if words[i + 1] in _CAPABILITY_FEATURES:
                found.add(_CAPABILITY_FEATURES[words[i + 1]])
            i += 2
        needs = _needs[name] = frozenset(found)
    return needs


# Whether to take `_sg` variants (subgroup arithmetic) where the device has them (tests turn it
# off to run the shared-memory paths on such devices too).
USE_SUBGROUPS = True


def subgroup_size(dev):
    """The subgroup size dev reports (info["subgroup_size"]), 0 where unknown."""
    return int((getattr(dev, "info", None) or {}).get("subgroup_size") or 0)


def subgroup_variant(name, dev, op="arithmetic"):
    """The `_sg` flavour of variant `name` where dev reports subgroup operation `op` (its
    `_sg` code's need: "arithmetic", "shuffle") in compute shaders (info["subgroup_operations"])
    and it is built, else `name` (None stays None)."""
    if name is None or not USE_SUBGROUPS:
        return name
    info = getattr(dev, "info", None) or {}
    if op not in info.get("subgroup_operations", ()):
        return name
    return named(name + "_sg", dev) or name


NVIDIA_VENDOR_ID = 0x10DE


def denorm_preserve(dev):
    """Whether to use the DenormPreserve (float32) variants on dev: where the device reports
    shaderDenormPreserveFloat32 (runtime info["float_controls"]), and on NVIDIA. The H200's
    driver (580.159) reports neither DenormPreserve nor FlushToZero for float32, flushes float32
    subnormals by default and keeps them under DenormPreserve (measured); without the mode its
    results are off wherever a float32 result or input is subnormal."""
    info = getattr(dev, "info", None) or {}
    fc = info.get("float_controls") or {}
    if bool(fc.get("denorm_preserve_f32")):
        return True
    # The NVIDIA use is outside the Vulkan spec (the validation layer reports it):
    # ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE=0 turns it off, e.g. for validation runs.
    return (info.get("vendor_id") == NVIDIA_VENDOR_ID
            and os.environ.get("ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE", "1") != "0")


def shared_bytes(dev):
    """The device's shared memory a workgroup may use (16 KiB, Vulkan's minimum, if unknown)."""
    limits = getattr(dev, "limits", None) or {}
    return int(limits.get("max_compute_shared_memory_size", 16384) or 16384)


def max_invocations(dev, default=256):
    """The device's largest workgroup (maxComputeWorkGroupInvocations), or `default` if unknown."""
    info = getattr(dev, "info", None) or {}
    return int(info.get("max_workgroup_invocations", default) or default)


def device_supports(dev, code):
    if code in "?bB":
        return dev.supports_int8
    if code in "hH":
        return dev.supports_int16
    if code in "lL":
        return dev.supports_int64
    if code in "dD":
        return dev.supports_float64
    return True


# lavapipe (Mesa's llvmpipe) ends every loop of an invocation for good once that invocation has
# run 65535 loop iterations in all, nested loops and later loops included (gallivm's loop
# limiter), without an error: measured here, a 1000 x 100 nested loop ran 64251 inner
# iterations, and a loop after it one. Kernels whose one workgroup would loop longer take
# another path on CPU devices (cpu_loops_fit).
CPU_LOOP_LIMIT = 65535


def cpu_loops_fit(dev, iterations):
    """Whether a kernel whose invocations run about `iterations` loop iterations each runs
    whole on dev: always on GPUs; on CPU devices within half of CPU_LOOP_LIMIT (the estimates
    count the main loops only)."""
    return not on_cpu(dev) or iterations <= CPU_LOOP_LIMIT // 2


def strict():
    """Whether the runtime's strict mode is on: the host is never used, so a native path is
    taken even where numpy would be faster."""
    from .. import _runtime

    return _runtime.strict()


def on_cpu(dev):
    """Whether dev is a CPU implementation (lavapipe), where kernels choose CPU settings; a
    device without a kind (a test's stand-in) counts as one."""
    return getattr(dev, "kind", "cpu") == "cpu"


def features(dev):
    """The device's dtype flags, part of every cached answer's key (a test may switch one off
    on a live device, as test_namespace's device without float64 does)."""
    return (dev.supports_float64, dev.supports_int64, dev.supports_int16, dev.supports_int8)


_casts = {}


def cast_variant(tc, rc, dev):
    """The cast family's variant converting dtype code tc to rc on dev, or None where the device
    lacks either dtype or a feature the variant declares: the one answer to "is this cast (or
    copy, fill of a view, assignment) native here" (astype, assign, copies, the supports_*)."""
    key = (tc, rc, dev, features(dev))
    name = _casts.get(key, False)
    if name is False:
        name = variant("cast", tc, rc, None, dev)
        if name is not None and not (device_supports(dev, tc) and device_supports(dev, rc)):
            name = None
        _casts[key] = name
    return name


def clamp_int(v, code):
    bits = table.DTYPES[table.CODE[code]][4]
    if code in table._SINT:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    else:
        lo, hi = 0, (1 << bits) - 1
    return min(max(v, lo), hi)


def scalar_words(value, code):
    """The uint32 words of a Python scalar as dtype `code` stores it in the push block."""
    if code == "?":
        return [int(bool(value))]
    if code in table._INT:
        bits = table.DTYPES[table.CODE[code]][4]
        v = int(value) & ((1 << 64) - 1)
        return [v & 0xFFFFFFFF, v >> 32] if bits == 64 else [v & 0xFFFFFFFF]
    try:
        if code == "f":
            return list(_U32.unpack(_F32.pack(value)))
        if code == "d":
            return list(_U32x2.unpack(_F64.pack(value)))
        if code == "F":
            return list(_U32x2.unpack(_F32x2.pack(value.real, value.imag)))
        if code == "D":
            return list(_U32x4.unpack(_F64x2.pack(value.real, value.imag)))
    except (OverflowError, struct.error):
        pass  # float32 overflow: numpy rounds to infinity
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            if code == "f":
                return [int(w) for w in np.array([value], np.float32).view(np.uint32)]
            if code == "d":
                return [int(w) for w in np.array([value], np.float64).view(np.uint32)]
            c = complex(value)
            ft = np.float32 if code == "F" else np.float64
            return [int(w) for w in np.array([c.real, c.imag], ft).view(np.uint32)]


_F32, _F64 = struct.Struct("<f"), struct.Struct("<d")
_F32x2, _F64x2 = struct.Struct("<2f"), struct.Struct("<2d")
_U32, _U32x2, _U32x4 = struct.Struct("<I"), struct.Struct("<2I"), struct.Struct("<4I")


@functools.lru_cache(maxsize=1024)
def _c_strides(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return tuple(reversed(strides))


def _broadcast_strides(a, shape):
    """a's strides (elements) seen through broadcasting to `shape`; 0 on broadcast axes."""
    nd = len(shape)
    st = [0] * (nd - a.ndim) + [s if n != 1 else 0 for n, s in zip(a._shape, a._strides)]
    return st


def _collapse(shape, strides_list):
    """Drop unit dimensions and merge neighbours that every input walks contiguously."""
    dims = [k for k, n in enumerate(shape) if n != 1]
    sh = [shape[k] for k in dims]
    sts = [[st[k] for k in dims] for st in strides_list]
    k = len(sh) - 1
    while k > 0:
        if all(st[k - 1] == st[k] * sh[k] for st in sts):
            sh[k - 1] *= sh[k]
            for st in sts:
                st[k - 1] = st[k]
                del st[k]
            del sh[k]
        k -= 1
    return sh, sts


def contiguous(a, shape=None):
    """a (broadcast to `shape`) as a new C-contiguous array, through the cast family: one
    dispatch, or several (assign_split) where the view's rank is beyond the push block. After
    cast_variant(code, code, device); raises NotNative without it."""
    shape = a._shape if shape is None else tuple(shape)
    code = table.DTYPES[a._dtype.name][0]
    dev = a._alloc.device
    name = cast_variant(code, code, dev)
    if name is None:
        raise NotNative(f"contiguous copy of {a._dtype.name}: no cast variant on this device")
    out = result_type._new(dev.alloc(math.prod(shape) * a._dtype.itemsize), a._dtype, shape)
    if _map_fits(a, shape):
        map_op(name, 0, out, [a], 1, _allow_copy=False)
    else:
        assign_split(name, out, a)
    return out


def _map_fits(a, shape):
    """Whether map_op's push block describes a one-input copy of a (broadcast to shape)."""
    sh, _ = _collapse(shape, [_broadcast_strides(a, shape)])
    return 3 + 1 + 2 * len(sh) <= LAYOUT_WORDS


# (shader, op, out layout, each arg's layout or scalar type) -> what map_op worked out for it:
# the push words with every offset and scalar slot to patch, the spec constants and the count.
# Repeated calls (a loop over arrays of one layout) then only patch offsets and scalars.
_plans = {}
MAX_PLANS = 4096
_SCALAR_SET = frozenset(_SCALARS)


class _LaunchState(threading.local):
    """Per thread: the last dispatch map_op recorded (shader, plan) and how many it has recorded.
    The spec layer turns a call that was exactly one map_op dispatch into a compiled plan
    (_kernels.compile_since); per thread, so that another thread's op cannot pass for it."""

    last_plan = None
    launches = 0
    # The launch count after an op fusion would have held but left to its caller, being the
    # first after a host wait (_fuse.EAGER "wait"): its compiled plan serves only such calls.
    eager_at = -1
    eager_key = None
    # (launch count, the op's variant, family, op code, tin, tout, nin, dynamic, tcode, operands)
    # of the last op fusion held (_fuse.hold_plan)
    last_hold = None


state = _LaunchState()


def map_op(shader, op_code, out, args, nin, _allow_copy=True, dynamic=False, tcode=None,
           tail=()):
    """Records out[i] = op(args...[i]) over out's (contiguous) shape. args: Arrays broadcastable
    to out's shape, or Python scalars (already of the input dtype's kind). tcode: the dtype
    code scalars are stored in
    (default: the first Array argument's). tail: words for the op itself, put last in the
    layout words (w[LAYOUT_WORDS - len(tail) ..]), e.g. tril's columns, rows and k.
    Strided inputs of more dimensions than the push block describes are first copied
    contiguous (not with _allow_copy False: contiguous's own call, which asks _map_fits
    first); returns True (_fuse tests it)."""
    key = (shader, op_code, out._shape, out._dtype, dynamic, tail,
           tuple([a.__class__ if a.__class__ in _SCALAR_SET else (a._dtype, a._shape, a._strides)
                  for a in args]))
    plan = _plans.get(key)
    if plan is not None:
        template, spec, count, slots, first, tcode = plan
        words = array.array("I", template)
        oa = out._alloc
        words[1] = out._offset
        put_address(words, ADDR_WORD, oa)
        buffers = [oa]
        writes = [True]
        for j, a in enumerate(args):
            slot = slots[j]
            if slot:
                sw = scalar_words(a, tcode)
                words[slot:slot + len(sw)] = array.array("I", sw)
            else:
                al = a._alloc
                words[3 + j] = a._offset
                put_address(words, ADDR_WORD + 2 + 2 * j, al)
                buffers.append(al)
                writes.append(False)
        dev = oa.device
        words[ORDER_WORD] |= dev.alternate() << ORDER_SHIFT
        dev.launch(shader, spec, buffers, writes, words, count)
        st = state
        st.last_plan = (shader, plan)
        st.launches += 1
        return True
    shape = out._shape
    n = math.prod(shape)
    if n == 0:
        # nothing recorded: compile_since must not take an earlier dispatch (a cast of an
        # operand, say) for this call's
        state.last_plan = None
        return True
    first = None
    for a in args:
        if not isinstance(a, _SCALARS):
            first = a
            break
    if tcode is None:
        tcode = table.DTYPES[first._dtype.name][0]
    cstr = _c_strides(shape)
    modes, strides = [], []
    for a in args:
        if isinstance(a, _SCALARS):
            modes.append(MODE_SCALAR)
            strides.append(None)
        elif n == 1:
            modes.append(MODE_ONE)
            strides.append(None)
        elif a._shape == shape and a._strides == cstr:
            modes.append(MODE_CONTIG)
            strides.append(None)
        else:
            st = _broadcast_strides(a, shape)
            if all(s == 0 for s, m in zip(st, shape) if m != 1):
                modes.append(MODE_ONE)
            elif all(s == c for s, c, m in zip(st, cstr, shape) if m != 1):
                modes.append(MODE_CONTIG)
            else:
                modes.append(MODE_STRIDED)
            strides.append(st)
    strided = [j for j, m in enumerate(modes) if m == MODE_STRIDED]
    sh, sts = [], []
    if strided:
        sh, sts = _collapse(shape, [strides[j] for j in strided])
    scalar_w = [scalar_words(a, tcode) if isinstance(a, _SCALARS) else None for a in args]
    need = 3 + nin + len(sh) * (1 + nin) + sum(len(w) for w in scalar_w if w)
    if need > LAYOUT_WORDS - len(tail):
        if not _allow_copy:
            raise NotNative("map_op: more dimensions than the push block describes")  # (never)
        # too many dimensions for the push block: make the strided inputs contiguous first
        args = list(args)
        for j in strided:
            args[j] = contiguous(args[j], shape)
        return map_op(shader, op_code, out, args, nin, _allow_copy=False, dynamic=dynamic,
                      tcode=tcode, tail=tail)
    nd = len(sh)
    words = [n, out._offset, nd] + [0] * nin + sh + [0] * (nd * nin)
    for idx, j in enumerate(strided):
        o = 3 + nin + nd * (1 + j)
        words[o:o + nd] = [s & 0xFFFFFFFF for s in sts[idx]]
    buffers = [out._alloc]
    writes = [True]
    for j, a in enumerate(args):
        w = scalar_w[j]
        if w is not None:
            words[3 + j] = len(words)
            words += w
        else:
            words[3 + j] = a._offset
            buffers.append(a._alloc)
            writes.append(False)
    if dynamic:
        words[2] |= sum(m << (8 + 2 * j) for j, m in enumerate(modes))
        modes = [MODE_DYNAMIC] * len(modes)
    push = np.zeros(PUSH_WORDS, np.uint32)
    push[:len(words)] = words
    if tail:
        push[LAYOUT_WORDS - len(tail):LAYOUT_WORDS] = tail
    template = [int(w) for w in push]
    put_address(push, ADDR_WORD, out._alloc)
    for j, a in enumerate(args):
        if scalar_w[j] is None:
            put_address(push, ADDR_WORD + 2 + 2 * j, a._alloc)
    spec = (op_code,) + tuple(modes) + (0,) * (3 - len(modes)) + (ELEMS,)
    count = (n + ELEMS - 1) // ELEMS
    push[ORDER_WORD] |= out._alloc.device.alternate() << ORDER_SHIFT  # (not in the template)
    st = state
    st.last_plan = None
    if _allow_copy:  # (a plan for the copied inputs' layout would not match the caller's)
        slots = tuple(words[3 + j] if scalar_w[j] is not None else 0 for j in range(len(args)))
        first_index = next(j for j, a in enumerate(args) if scalar_w[j] is None)
        if len(_plans) >= MAX_PLANS:
            _plans.clear()  # bounded: a loop over ever-new shapes must not grow memory
        plan = _plans[key] = (template, spec, count, slots, first_index, tcode)
        st.last_plan = (shader, plan)
    out._alloc.device.launch(shader, spec, buffers, writes, push, count)
    st.launches += 1
    return True


def map_plan_step(shader, plan, args):
    """The one step of a compiled plan (_vkcore.Plan) replaying map_op's dispatch `plan` for
    operands like `args` (Arrays and Python scalars): a result at OUT 0."""
    template, spec, count, slots, first, tcode = plan
    buffers = [(OUT, 0, True)]
    patches = [(ADDR_WORD, ADDRESS, OUT, 0), (ORDER_WORD, ALTERNATE, OUT, ORDER_SHIFT)]
    for j, a in enumerate(args):
        if slots[j]:
            patches.append((slots[j], SCALAR, ARG, j))
        else:
            buffers.append((ARG, j, False))
            patches += [(3 + j, OFFSET, ARG, j), (ADDR_WORD + 2 + 2 * j, ADDRESS, ARG, j)]
    return (shader, list(spec), list(template), grid_1d(count), buffers, patches)


def fill(dev, shader, op_code, out, words):
    n = math.prod(out._shape)
    if n == 0:
        return
    push = np.zeros(PUSH_WORDS, np.uint32)
    push[0] = n
    push[1] = out._offset
    push[2:2 + len(words)] = words
    put_address(push, ADDR_WORD, out._alloc)
    dev.launch(shader, (op_code, 0, 0, 0, ELEMS), [out._alloc], [True], push, (n + ELEMS - 1) // ELEMS)


def fill_plan_step(shader, op_code, out, words):
    """The one step of a compiled plan repeating fill(...) for a fresh C-contiguous result of
    out's layout at OUT 0 (None for an empty one: nothing to record)."""
    n = math.prod(out._shape)
    if n == 0:
        return None
    template = [0] * PUSH_WORDS
    template[0] = n
    template[2:2 + len(words)] = [int(w) for w in words]
    return (shader, [op_code, 0, 0, 0, ELEMS], template, grid_1d((n + ELEMS - 1) // ELEMS),
            [(OUT, 0, True)], [(ADDR_WORD, ADDRESS, OUT, 0)])


def assign_split(shader, dst, src):
    """Records dst[...] = src in place (as assign): one dispatch, or one per index of the
    leading axes where the view's rank (after collapsing) is beyond the push block."""
    if not isinstance(src, _SCALARS) and src._alloc is dst._alloc:
        src = contiguous(src)  # the source may overlap the destination: copied once, first
    if assign(shader, dst, src):
        return
    # too many dimensions for the push block: one assignment per index of the first axis
    scalar = isinstance(src, _SCALARS)
    if not scalar:
        sst = _broadcast_strides(src, dst._shape)
        if src.ndim < dst.ndim:
            src = result_type._new(src._alloc, src._dtype, tuple(dst._shape), tuple(sst), src._offset)
    for i in range(dst._shape[0]):
        d = result_type._new(dst._alloc, dst._dtype, tuple(dst._shape[1:]), tuple(dst._strides[1:]),
                             dst._offset + i * dst._strides[0])
        s = src if scalar else result_type._new(src._alloc, src._dtype, tuple(dst._shape[1:]),
                                                tuple(sst[1:]), src._offset + i * sst[0])
        assign_split(shader, d, s)


def assign(shader, dst, src):
    """Records dst[...] = src in place: dst any strided view, src an Array broadcastable to it
    (converted as the cast variant `shader` does) or a Python scalar of dst's kind. False if the
    view's rank does not fit the push block (nothing is recorded then: assign_split splits it;
    a 0-d view always fits)."""
    n = math.prod(dst._shape)
    if n == 0:
        return True
    scalar = isinstance(src, _SCALARS)
    if not scalar and src._alloc is dst._alloc:
        src = contiguous(src)  # the source may overlap the destination
    lay = assign_layout(dst._shape, dst._strides, dst._offset, dst._dtype, src)
    if lay is None:
        return False
    words, spec, count = lay
    push = np.zeros(PUSH_WORDS, np.uint32)
    push[:len(words)] = words
    put_address(push, ADDR_WORD, dst._alloc)
    if scalar:
        buffers, writes = [dst._alloc], [True]
    else:
        put_address(push, ADDR_WORD + 2, src._alloc)
        buffers, writes = [dst._alloc, src._alloc], [True, False]
    dev = dst._alloc.device
    push[ORDER_WORD] |= dev.alternate() << ORDER_SHIFT
    dev.launch(shader, spec, buffers, writes, push, count)
    return True


def assign_layout(shape, strides, offset, dtype, src):
    """(layout words, specialisation constants, invocations) of the cast kernel assigning src
    (an Array broadcastable to shape, or a Python scalar of dtype's kind) to the view (shape,
    strides, offset) of dtype, without the addresses; None where the view's rank does not fit
    the push block. The source's offset is word 3."""
    n = math.prod(shape)
    cstr = _c_strides(shape)
    out_contig = all(s == c for s, c, m in zip(strides, cstr, shape) if m != 1)
    lists = []
    scalar = isinstance(src, _SCALARS)
    if scalar:
        mode = MODE_SCALAR
    else:
        st = _broadcast_strides(src, shape)
        if n == 1 or all(s == 0 for s, m in zip(st, shape) if m != 1):
            mode = MODE_ONE
        elif all(s == c for s, c, m in zip(st, cstr, shape) if m != 1):
            mode = MODE_CONTIG
        else:
            mode = MODE_STRIDED
            lists.append(st)
    if not out_contig:
        lists.append([s if m != 1 else 0 for s, m in zip(strides, shape)])
    sh, sts = _collapse(shape, lists) if lists else ([], [])
    nd = len(sh)
    words = [n, offset, nd, 0] + sh + [0] * (2 * nd)
    k = 0
    if mode == MODE_STRIDED:
        words[4 + nd:4 + 2 * nd] = [s & 0xFFFFFFFF for s in sts[0]]
        k = 1
    if not out_contig:
        words[4 + 2 * nd:4 + 3 * nd] = [s & 0xFFFFFFFF for s in sts[k]]
    if scalar:
        words[3] = len(words)
        words += scalar_words(src, table.DTYPES[dtype.name][0])
    else:
        words[3] = src._offset
    if len(words) > LAYOUT_WORDS:
        return None
    spec = (0, mode, MODE_CONTIG if out_contig else MODE_STRIDED, 0, ELEMS)
    return words, spec, (n + ELEMS - 1) // ELEMS
