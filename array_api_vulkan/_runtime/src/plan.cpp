#include "plan.hpp"

#include <structmember.h>

#include <algorithm>
#include <optional>

#include <limits>

namespace avk {

namespace {

// Interned attribute names of the runtime's storage type (storage.py).
struct Names
{
    py::str alloc_, offset_, dtype_, shape_, strides_;
    Names()
      : alloc_("_alloc"), offset_("_offset"), dtype_("_dtype"), shape_("_shape"), strides_("_strides")
    {
        for (py::str* n : { &alloc_, &offset_, &dtype_, &shape_, &strides_ }) {
            PyObject* o = n->release().ptr();
            PyUnicode_InternInPlace(&o);
            *n = py::reinterpret_steal<py::str>(o);
        }
    }
};

Names&
names()
{
    static Names* n = new Names(); // never freed: outlives interpreter teardown order
    return *n;
}

uint64_t
attr_u64(py::handle o, const py::str& name)
{
    PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
    if (!v)
        throw py::error_already_set();
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred())
        throw py::error_already_set();
    return x;
}

// float64 -> float32 as IEEE round-to-nearest, overflowing to infinity (a plain cast of an
// out-of-range double is undefined behaviour in C++).
float
to_f32(double d)
{
    // Halfway between FLT_MAX and 2^128: from there on, round-to-nearest gives infinity.
    const double limit = 340282356779733661637539395458142568448.0;
    if (d >= limit)
        return std::numeric_limits<float>::infinity();
    if (d <= -limit)
        return -std::numeric_limits<float>::infinity();
    return (float)d;
}

// The offset of a plain __slots__ attribute `name` in instances of t (its member descriptor's),
// or -1 where it is something else.
Py_ssize_t
slot_offset(PyTypeObject* t, PyObject* name)
{
    PyObject* d = _PyType_Lookup(t, name); // (borrowed)
    if (!d || Py_TYPE(d) != &PyMemberDescr_Type)
        return -1;
    const PyMemberDef* m = ((PyMemberDescrObject*)d)->d_member;
    return m->type == T_OBJECT_EX && !(m->flags & READONLY) ? m->offset : -1;
}

} // namespace

Plan::Plan(std::shared_ptr<Recorder> rec, py::object device, std::shared_ptr<Pool> pool, py::object array_type,
           std::vector<py::tuple> args, std::vector<py::tuple> outputs, std::vector<uint64_t> temps,
           std::vector<py::tuple> steps)
  : mRec(std::move(rec))
  , mDevice(std::move(device))
  , mPool(std::move(pool))
  , mArrayType(std::move(array_type))
  , mTemps(std::move(temps))
{
    {
        Names& nm = names();
        PyTypeObject* t = (PyTypeObject*)mArrayType.ptr();
        const py::str* slots[5] = { &nm.alloc_, &nm.dtype_, &nm.shape_, &nm.strides_, &nm.offset_ };
        for (int i = 0; i < 5; i++)
            mSlots[i] = slot_offset(t, slots[i]->ptr());
        if (std::find(mSlots, mSlots + 5, -1) != mSlots + 5)
            std::fill(mSlots, mSlots + 5, -1);
    }
    for (const auto& t : args) {
        Arg a;
        std::string kind = t[0].cast<std::string>();
        a.scalar = kind == "scalar";
        if (a.scalar) {
            a.code = t[1].cast<std::string>()[0];
            a.has_range = !t[2].is_none();
            if (a.has_range) {
                a.lo = t[2].cast<int64_t>();
                a.hi = t[3].cast<uint64_t>();
            }
        } else if (kind == "array")
            a.itemsize = t[1].cast<uint32_t>();
        else
            throw std::invalid_argument("plan: operand kind must be 'array' or 'scalar'");
        mArgs.push_back(a);
    }
    for (const auto& t : outputs)
        mOuts.push_back(Out{ t[0].cast<uint64_t>(), t[1], t[2].cast<py::tuple>(), t[3].cast<py::tuple>() });
    if (mOuts.empty() || mOuts.size() > kMaxOuts || mTemps.size() > kMaxTemps || mArgs.size() > kMaxArgs)
        throw std::invalid_argument("plan: no result, or too many operands, results or temporaries");
    uint32_t max_words = mRec->pipelines().push_bytes() / 4;
    auto check_ref = [&](uint32_t kind, uint32_t index) {
        size_t n = kind == ARG ? mArgs.size() : kind == OUT ? mOuts.size() : kind == TMP ? mTemps.size() : 0;
        if (index >= n)
            throw std::invalid_argument("plan: reference out of range");
        if (kind == ARG && mArgs[index].scalar)
            throw std::invalid_argument("plan: a scalar operand touches no memory");
    };
    for (const auto& t : steps) {
        Step s;
        s.shader = t[0].cast<std::string>();
        s.spec = t[1].cast<std::vector<uint32_t>>();
        s.words = t[2].cast<std::vector<uint32_t>>();
        if (s.words.size() > max_words)
            throw std::invalid_argument("plan: too many push words");
        auto g = t[3].cast<std::vector<uint32_t>>();
        if (g.size() != 3)
            throw std::invalid_argument("plan: groups must be (gx, gy, gz)");
        std::copy(g.begin(), g.end(), s.groups);
        for (auto b : t[4].cast<std::vector<py::tuple>>()) {
            uint32_t kind = b[0].cast<uint32_t>(), index = b[1].cast<uint32_t>();
            check_ref(kind, index);
            s.buffers.emplace_back((Kind)kind, index);
            s.writes.push_back(b[2].cast<bool>());
        }
        if (s.buffers.size() > Recorder::kMaxBuffers)
            throw std::invalid_argument("plan: too many buffers in a step");
        for (auto p : t[5].cast<std::vector<py::tuple>>()) {
            Patch q{ p[0].cast<uint32_t>(), (What)p[1].cast<uint32_t>(), (Kind)p[2].cast<uint32_t>(),
                     p[3].cast<uint32_t>() };
            if (q.what > ALTERNATE)
                throw std::invalid_argument("plan: unknown patch kind");
            uint32_t width = q.what == OFFSET || q.what == OFFSET_PLUS || q.what == ALTERNATE ? 1
                             : q.what == SCALAR                                             ? 4
                                                                                            : 2;
            if (q.what == ALTERNATE) {
                if (q.index > 31)
                    throw std::invalid_argument("plan: an alternating bit is 0..31");
            } else if (q.what == SCALAR) {
                if (q.kind != ARG || q.index >= mArgs.size() || !mArgs[q.index].scalar)
                    throw std::invalid_argument("plan: a scalar patch must name a scalar operand");
                char c = mArgs[q.index].code;
                width = c == 'D' ? 4 : (c == 'd' || c == 'F' || c == 'l' || c == 'L') ? 2 : 1;
            } else
                check_ref(q.kind, q.index);
            if ((q.what == OFFSET || q.what == OFFSET_PLUS || q.what == VIEW_ADDRESS) && q.kind != ARG)
                throw std::invalid_argument("plan: offsets are of array operands");
            if (q.word + width > s.words.size())
                throw std::invalid_argument("plan: patch beyond the push words");
            s.patches.push_back(q);
        }
        mSteps.push_back(std::move(s));
    }
}

py::object
Plan::call(py::args args)
{
    if (args.size() != mArgs.size())
        return py::none();
    HostTick tick;
    Names& nm = names();
    // The operands' Allocations, kept alive while recording.
    // Fixed-size arrays, not vectors: this is the hot path of every repeated op.
    py::object keep[kMaxArgs];
    Allocation* arg_allocs[kMaxArgs] = {};
    uint64_t view_offsets[kMaxArgs] = {};
    for (size_t j = 0; j < mArgs.size(); j++) {
        if (mArgs[j].scalar)
            continue;
        py::handle v = args[j];
        py::object al = py::reinterpret_steal<py::object>(PyObject_GetAttr(v.ptr(), nm.alloc_.ptr()));
        if (!al) {
            PyErr_Clear();
            return py::none();
        }
        Allocation* p = as_allocation(al);
        if (!p || !p->arena || p->device.ptr() != mDevice.ptr())
            return py::none();
        view_offsets[j] = attr_u64(v, nm.offset_);
        arg_allocs[j] = p;
        keep[j] = std::move(al);
    }
    // Scalars are checked before anything is allocated or recorded.
    uint32_t scalar_w[kMaxArgs][4];
    for (size_t j = 0; j < mArgs.size(); j++)
        if (mArgs[j].scalar && !scalar_words(args[j], mArgs[j], scalar_w[j]))
            return py::none();
    tick.lap(HostProfile::kPlanArgs);
    std::shared_ptr<Allocation> outs[kMaxOuts], temps[kMaxTemps];
    for (size_t k = 0; k < mOuts.size(); k++)
        outs[k] = mPool->alloc(mOuts[k].nbytes);
    for (size_t k = 0; k < mTemps.size(); k++)
        temps[k] = mPool->alloc(mTemps[k]);
    tick.lap(HostProfile::kPlanAlloc);
    auto alloc_of = [&](Kind kind, uint32_t index) -> Allocation* {
        return kind == ARG ? arg_allocs[index] : kind == OUT ? outs[index].get() : temps[index].get();
    };
    uint32_t w[64];
    std::optional<KickHold> hold; // (a kick after a wait comes after the plan's last step)
    if (mSteps.size() > 1)
        hold.emplace(*mRec);
    for (const Step& s : mSteps) {
        std::memcpy(w, s.words.data(), s.words.size() * sizeof(uint32_t));
        for (const Patch& q : s.patches) {
            switch (q.what) {
                case ADDRESS: {
                    uint64_t a = alloc_of(q.kind, q.index)->address();
                    w[q.word] = (uint32_t)a;
                    w[q.word + 1] = (uint32_t)(a >> 32);
                    break;
                }
                case OFFSET:
                    w[q.word] = (uint32_t)view_offsets[q.index];
                    break;
                case OFFSET_PLUS:
                    w[q.word] += (uint32_t)view_offsets[q.index];
                    break;
                case ALTERNATE:
                    w[q.word] |= mRec->alternate() << q.index;
                    break;
                case VIEW_ADDRESS: {
                    uint64_t a = arg_allocs[q.index]->address() + view_offsets[q.index] * mArgs[q.index].itemsize;
                    w[q.word] = (uint32_t)a;
                    w[q.word + 1] = (uint32_t)(a >> 32);
                    break;
                }
                case SCALAR: {
                    char c = mArgs[q.index].code;
                    uint32_t width = c == 'D' ? 4 : (c == 'd' || c == 'F' || c == 'l' || c == 'L') ? 2 : 1;
                    std::memcpy(w + q.word, scalar_w[q.index], width * sizeof(uint32_t));
                    break;
                }
            }
        }
        Allocation* bufs[Recorder::kMaxBuffers];
        bool writes[Recorder::kMaxBuffers];
        for (size_t i = 0; i < s.buffers.size(); i++) {
            bufs[i] = alloc_of(s.buffers[i].first, s.buffers[i].second);
            writes[i] = s.writes[i];
        }
        mRec->record(s.shader, s.spec.data(), s.spec.size(), bufs, writes, s.buffers.size(), w,
                     (uint32_t)s.words.size(), s.groups[0], s.groups[1], s.groups[2], false);
    }
    hold.reset(); // (the kick after a wait, if due, is made here)
    tick.t = tick.on ? HostTick::now() : 0;
    if (mOuts.size() == 1) {
        py::object r = make_array(py::cast(outs[0]), mOuts[0]);
        tick.lap(HostProfile::kPlanMakeArray);
        return r;
    }
    py::tuple result(mOuts.size());
    for (size_t k = 0; k < mOuts.size(); k++)
        result[k] = make_array(py::cast(outs[k]), mOuts[k]);
    return result;
}

py::object
Plan::make_array(const py::object& alloc, const Out& out)
{
    // As Storage._new does: fill the slots of a bare instance.
    PyTypeObject* t = (PyTypeObject*)mArrayType.ptr();
    py::object a = py::reinterpret_steal<py::object>(t->tp_alloc(t, 0));
    if (!a)
        throw py::error_already_set();
    if (mSlots[0] >= 0) {
        // the slots of a fresh instance are empty: each takes a new reference
        PyObject* zero = PyLong_FromLong(0);
        if (!zero)
            throw py::error_already_set();
        PyObject* vals[5] = { Py_NewRef(alloc.ptr()), Py_NewRef(out.dtype.ptr()), Py_NewRef(out.shape.ptr()),
                              Py_NewRef(out.strides.ptr()), zero };
        for (int i = 0; i < 5; i++)
            Py_XSETREF(*(PyObject**)((char*)a.ptr() + mSlots[i]), vals[i]);
        return a;
    }
    Names& nm = names();
    py::int_ zero(0); // (not static: no Python object may outlive the interpreter)
    if (PyObject_SetAttr(a.ptr(), nm.alloc_.ptr(), alloc.ptr()) < 0 ||
        PyObject_SetAttr(a.ptr(), nm.dtype_.ptr(), out.dtype.ptr()) < 0 ||
        PyObject_SetAttr(a.ptr(), nm.shape_.ptr(), out.shape.ptr()) < 0 ||
        PyObject_SetAttr(a.ptr(), nm.strides_.ptr(), out.strides.ptr()) < 0 ||
        PyObject_SetAttr(a.ptr(), nm.offset_.ptr(), zero.ptr()) < 0)
        throw py::error_already_set();
    return a;
}

    // The push words of a Python scalar as the computation dtype stores it (see
    // _launch.scalar_words); false where the general path must handle it.
bool
Plan::scalar_words(py::handle v, const Arg& a, uint32_t* w)
    {
        PyObject* o = v.ptr();
        bool is_bool = PyBool_Check(o), is_int = PyLong_CheckExact(o) || is_bool;
        bool is_float = PyFloat_CheckExact(o), is_complex = PyComplex_CheckExact(o);
        switch (a.code) {
            case '?':
                if (!is_bool)
                    return false;
                w[0] = o == Py_True;
                return true;
            case 'b': case 'B': case 'h': case 'H': case 'i': case 'I': case 'l': case 'L': {
                if (!is_int)
                    return false;
                int overflow = 0;
                long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
                uint64_t bits;
                if (overflow > 0) {
                    unsigned long long u = PyLong_AsUnsignedLongLong(o);
                    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                    if (a.has_range && u > a.hi)
                        return false;
                    bits = u;
                } else if (overflow < 0)
                    return false;
                else {
                    if (x == -1 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                    if (a.has_range && (x < a.lo || (x >= 0 && (uint64_t)x > a.hi)))
                        return false;
                    bits = (uint64_t)x;
                }
                w[0] = (uint32_t)bits;
                if (a.code == 'l' || a.code == 'L')
                    w[1] = (uint32_t)(bits >> 32);
                return true;
            }
            case 'f': case 'd': {
                if (!(is_int || is_float))
                    return false;
                double d = PyFloat_AsDouble(o);
                if (d == -1.0 && PyErr_Occurred()) {
                    PyErr_Clear(); // an int too large for a double
                    return false;
                }
                if (a.code == 'f') {
                    float f = to_f32(d);
                    std::memcpy(w, &f, 4);
                } else
                    std::memcpy(w, &d, 8);
                return true;
            }
            case 'F': case 'D': {
                if (!(is_int || is_float || is_complex))
                    return false;
                double re, im = 0;
                if (is_complex) {
                    re = PyComplex_RealAsDouble(o);
                    im = PyComplex_ImagAsDouble(o);
                } else {
                    re = PyFloat_AsDouble(o);
                    if (re == -1.0 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                }
                if (a.code == 'F') {
                    float f[2] = { to_f32(re), to_f32(im) };
                    std::memcpy(w, f, 8);
                } else {
                    double d[2] = { re, im };
                    std::memcpy(w, d, 16);
                }
                return true;
            }
        }
        return false;
    }


} // namespace avk
