// Compiled plans: a call layout seen before (each operand's dtype, shape and strides, each
// scalar's type) replays as one C++ call that allocates the results and temporaries, patches
// device addresses, element offsets and scalars into each step's push words, and records every
// step's dispatch through the recorder (barriers only where there is a hazard). An elementwise
// call is a one-step plan; a reduction is two steps, a sort many.
//
// Results are made as instances of the runtime's storage type (storage.py: slots _alloc,
// _dtype, _shape, _strides, _offset) or a subclass of it, the class the caller gives.
#pragma once

#include "recorder.hpp"

namespace avk {

class Plan
{
  public:
    // An operand of the call: an array (itemsize) or a Python scalar stored as type code `code`
    // (with an integer's range).
    struct Arg
    {
        bool scalar = false;
        uint32_t itemsize = 0;
        char code = 0;
        bool has_range = false;
        int64_t lo = 0;
        uint64_t hi = 0;
    };
    // What a push word (or pair) of a step is patched with: an address (2 words) of an
    // operand's allocation (ARG), a result (OUT) or a temporary (TMP); an array operand's view
    // offset in elements (OFFSET, 1 word); a scalar operand's words (SCALAR); or the address of
    // an array operand's first viewed element (VIEW_ADDRESS, 2 words).
    // OFFSET_PLUS: the operand's offset added to the template's word (a view of the operand at
    // a fixed distance from it). ALTERNATE: the recorder's alternating bit (Recorder::alternate)
    // set at bit `index` of the word (kind unused).
    enum What : uint8_t { ADDRESS = 0, OFFSET = 1, SCALAR = 2, VIEW_ADDRESS = 3, OFFSET_PLUS = 4, ALTERNATE = 5 };
    enum Kind : uint8_t { ARG = 0, OUT = 1, TMP = 2 };
    struct Patch
    {
        uint32_t word;
        What what;
        Kind kind;
        uint32_t index;
    };
    struct Step
    {
        std::string shader;
        std::vector<uint32_t> spec, words;
        uint32_t groups[3];
        std::vector<std::pair<Kind, uint32_t>> buffers; // touched memory, for hazards
        std::vector<bool> writes;
        std::vector<Patch> patches;
    };
    struct Out
    {
        uint64_t nbytes;
        py::object dtype;
        py::tuple shape, strides;
    };

    // args: per operand ("array", itemsize) or ("scalar", code, lo, hi) (lo/hi None but for
    // integers); outputs: (nbytes, dtype, shape, strides); temps: byte sizes; steps: (shader,
    // spec, words, (gx, gy, gz), [(kind, index, writes)], [(word, what, kind, index)]).
    Plan(std::shared_ptr<Recorder> rec, py::object device, std::shared_ptr<Pool> pool, py::object array_type,
         std::vector<py::tuple> args, std::vector<py::tuple> outputs, std::vector<uint64_t> temps,
         std::vector<py::tuple> steps);

    static constexpr size_t kMaxArgs = 8, kMaxOuts = 4, kMaxTemps = 8;

    // The result (a tuple for several), or None where this call must take the general path
    // (another device, an integer scalar out of range, a scalar of the wrong type).
    py::object call(py::args args);

  private:
    py::object make_array(const py::object& alloc, const Out& out);
    static bool scalar_words(py::handle v, const Arg& a, uint32_t* w);

    std::shared_ptr<Recorder> mRec;
    py::object mDevice;
    std::shared_ptr<Pool> mPool;
    py::object mArrayType;
    // Where the array type's slots (_alloc, _dtype, _shape, _strides, _offset) lie in its
    // instances, to fill them without attribute lookups; -1 where one is not a plain slot.
    Py_ssize_t mSlots[5] = { -1, -1, -1, -1, -1 };
    std::vector<Arg> mArgs;
    std::vector<Out> mOuts;
    std::vector<uint64_t> mTemps;
    std::vector<Step> mSteps;
};

} // namespace avk
