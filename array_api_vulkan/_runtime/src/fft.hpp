// FFTs through VkFFT (Debian's libvkfft-dev, the single header vkFFT.h, Vulkan backend).
//
// An FFTPlan wraps one VkFFTApplication: one transform layout (up to 3 dimensions, innermost
// first, batched) in one direction, on fixed buffers. VkFFT binds its buffers through
// descriptor sets of its own, which it rewrites whenever it is given another buffer; a
// recorded batch may hold several appends of one plan, so a plan is made for one (input,
// output) pair of arena buffers and never sees another (the kernels layer keys its cache by
// them). Where the data lies in a buffer is a launch-time offset (push constants), so every
// allocation in the same arenas shares the plan. The descriptors cover [0, range) of each
// buffer, range at most maxStorageBufferRange: data past it cannot be reached (the kernels
// layer falls back). Execution is recorded into the runtime's current batch through
// Recorder::record_external, with the recorder's hazard tracking; VkFFT's kernels are compiled
// by glslang (linked in, initialised once by ensure_compiler()) when the plan is made, or taken
// from another plan's binaries (same layout, other buffers), which skips the compile.
#pragma once

#include "recorder.hpp"

#include <map>
#include <string>

namespace avk {

struct FFTApp; // the VkFFTApplication and what it points to (fft.cpp)

class FFTPlan
{
  public:
    enum Kind : int { C2C = 0, R2C = 1, C2R = 2, C2C_OUT = 3 };
    static constexpr int NORMALIZE = 16; // or'd into an inverse kind: the result times 1/prod(dims)
    // or'd into a C2C/C2C_OUT kind: dims[0] (OMIT0) or dims[1] (OMIT1) is not transformed, only
    // laid out (VkFFT's omitDimension): a transform of strided axes without a transposing copy
    static constexpr int OMIT0 = 32, OMIT1 = 64;
    static constexpr int FLAGS = NORMALIZE | OMIT0 | OMIT1;
    // dims: transform lengths, innermost first (1 to 3; for R2C/C2R dims[0] is the real length);
    // batch: how many such blocks lie one after another; inverse: the direction (C2C; R2C is
    // forward, C2R inverse). C2C runs in place on `out` (in must be out); C2C_OUT reads complex
    // `in` (never writing it) and writes complex `out` (which may be the same buffer: disjoint
    // ranges); R2C reads real `in` and writes complex `out` (dims[0]/2 + 1 innermost); C2R reads
    // complex `in`, which it may overwrite, and writes real `out`. in_range/out_range: bytes from
    // each buffer's start the descriptors cover. binary: SPIR-V of a plan of the same layout
    // (FFTPlan.binary), or None. settings: VkFFT's performance settings, "name=value,..."
    // ("coalescedMemory=64,aimThreads=256": fft.cpp's apply_knobs lists the names; "" for
    // VkFFT's own choice), which the kernels layer picks per layout and keys its plans and their
    // saved kernels by.
    FFTPlan(std::shared_ptr<Recorder> rec, std::vector<uint64_t> dims, uint64_t batch, bool double_precision,
            int kind, bool inverse, std::shared_ptr<Buffer> in, uint64_t in_range, std::shared_ptr<Buffer> out,
            uint64_t out_range, py::object binary, std::string settings);
    ~FFTPlan();
    FFTPlan(const FFTPlan&) = delete;
    FFTPlan& operator=(const FFTPlan&) = delete;

    // Records the transform of the data at in (byte offset in_offset from the allocation's
    // start) into out (out_offset); both must lie in this plan's buffers within their ranges.
    void exec(Allocation& in, uint64_t in_offset, Allocation& out, uint64_t out_offset);
    // The compiled kernels, for plans of the same layout on other buffers.
    py::bytes binary() const;
    // How VkFFT split the transform (a diagnostic): per transformed axis, one (fftDim,
    // registerBoost, localSize x, localSize y) per upload (pass over memory), of the direction made.
    std::vector<std::vector<std::vector<uint64_t>>> uploads() const;
    // VkFFT's settings as it resolved them for this plan (apply_knobs' names, and the shared
    // memory sizes it planned with): a diagnostic.
    std::map<std::string, uint64_t> resolved_settings() const;
    uint64_t in_bytes() const { return mInBytes; }
    uint64_t out_bytes() const { return mOutBytes; }
    uint64_t serial() const { return mSerial; } // the batch that last recorded it

  private:
    std::shared_ptr<Recorder> mRec;
    std::unique_ptr<FFTApp> mApp;
    int mKind; // C2C, R2C or C2R
    bool mInPlace; // C2C in place on `out`
    bool mInverse;
    uint64_t mInBytes = 0, mOutBytes = 0, mSerial = 0;
    std::shared_ptr<Buffer> mIn, mOut;
    uint64_t mInRange, mOutRange;
};

} // namespace avk
