// Shared by every file of the runtime extension (_vkcore): includes and the GIL-safe lock.
//
// The extension is the only code that touches Kompute or Vulkan (docs/design.md). Files, one
// concern each: device (instance, features, the Vulkan device and its buffers), pipelines
// (pipelines keyed by code and specialisation constants, the on-disk pipeline cache), batch
// (recycled command buffers, fences, the submit thread), pool (arenas and allocations),
// recorder (lazy recording, hazards, barriers), plan (compiled multi-dispatch calls), dlpack,
// module (the Python bindings).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <kompute/Manager.hpp>
#include <kompute/Tensor.hpp>

namespace avk {

namespace py = pybind11;

// A mutex for state that several Python threads share, where some calls release the GIL
// (submits, waits, buffer and pipeline creation). Waiting for it releases the GIL, so that the
// thread holding it can take the GIL back and finish. Recursive: a pool's before_grow hook
// synchronizes the recorder from inside an allocation.
class GilSafeLock
{
  public:
    explicit GilSafeLock(std::recursive_mutex& m)
      : mM(m)
    {
        if (!mM.try_lock()) {
            if (PyGILState_Check()) {
                py::gil_scoped_release release;
                mM.lock();
            } else
                mM.lock();
        }
    }
    ~GilSafeLock() { mM.unlock(); }
    GilSafeLock(const GilSafeLock&) = delete;
    GilSafeLock& operator=(const GilSafeLock&) = delete;

  private:
    std::recursive_mutex& mM;
};

// Host time of the hot path's stages (a diagnostic: benchmarks/diag_split.py and
// diag_fft_host.py report it), kept only where ARRAY_API_VULKAN_PROFILE_HOST=1 at import.
// HostTick t; ... t.lap(HostProfile::k...) adds the time since the last lap to a stage.
struct HostProfile
{
    enum Stage
    {
        kPlanArgs,
        kPlanAlloc,
        kPlanMakeArray,
        kRecHook,
        kRecPipeline,
        kRecTouch,
        kRecDispatch,
        kRecAfterOp,
        kBatchStart,
        kSubmitEnd,
        kSubmitQueue,
        kSyncSubmit,
        kSyncWait,
        kRecExternal,
        kStages
    };
    static HostProfile& get()
    {
        static HostProfile p;
        return p;
    }
    bool on = false;
    uint64_t ns[kStages] = {};
    uint64_t count[kStages] = {};
    HostProfile()
    {
        const char* e = std::getenv("ARRAY_API_VULKAN_PROFILE_HOST");
        on = e && e[0] == '1';
    }
};

struct HostTick
{
    bool on = HostProfile::get().on;
    uint64_t t = on ? now() : 0;
    static uint64_t now()
    {
        timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    void lap(HostProfile::Stage s)
    {
        if (!on)
            return;
        uint64_t n = now();
        HostProfile::get().ns[s] += n - t;
        HostProfile::get().count[s]++;
        t = n;
    }
};

[[noreturn]] inline void
throw_memory_error(const std::string& msg)
{
    PyErr_SetString(PyExc_MemoryError, msg.c_str());
    throw py::error_already_set();
}

} // namespace avk
