// FFTPlan: one VkFFTApplication recorded into the runtime's batches (fft.hpp).
#include "fft.hpp"
#include "compiler.hpp"

#include <clocale>
#include <cstdlib>
#include <string>

#ifdef AVK_HAVE_VKFFT
#include <cstddef>
#include <glslang/Include/glslang_c_interface.h>

// VkFFT 1.2.26 initialises glslang's resource limits positionally with the layout of an older
// glslang; Debian 12's glslang inserted nine mesh-shader fields before the last one. vkFFT.h's
// declarations of the type are redirected to this struct of the old layout, whose `&` gives
// the same values in the current layout (compiles are serialised: compiler_mutex()).
namespace avk_vkfft_shim {
constexpr size_t kPrefix = offsetof(glslang_resource_t, max_mesh_output_vertices_ext) / sizeof(int);
struct OldResource
{
    int prefix[kPrefix];
    int max_dual_source_draw_buffers;
    glslang_limits_t limits;
    const glslang_resource_t* operator&() const
    {
        static thread_local glslang_resource_t r;
        std::memset(&r, 0, sizeof(r));
        std::memcpy(&r, prefix, sizeof(prefix));
        r.max_mesh_output_vertices_ext = 256;
        r.max_mesh_output_primitives_ext = 256;
        r.max_mesh_work_group_size_x_ext = 128;
        r.max_mesh_work_group_size_y_ext = 128;
        r.max_mesh_work_group_size_z_ext = 128;
        r.max_task_work_group_size_x_ext = 128;
        r.max_task_work_group_size_y_ext = 128;
        r.max_task_work_group_size_z_ext = 128;
        r.max_mesh_view_count_ext = 4;
        r.max_dual_source_draw_buffers_ext = max_dual_source_draw_buffers;
        r.limits = limits;
        return &r;
    }
};
} // namespace avk_vkfft_shim

#define glslang_resource_t avk_vkfft_shim::OldResource
#define VKFFT_BACKEND 0
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <vkFFT.h>
#pragma GCC diagnostic pop
#undef glslang_resource_t
#endif

namespace avk {

#ifdef AVK_HAVE_VKFFT

// Everything VkFFT keeps pointers to lives here, at stable addresses, as long as the app.
struct FFTApp
{
    VkFFTApplication app = {};
    bool initialized = false;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkBuffer in = VK_NULL_HANDLE, out = VK_NULL_HANDLE;
    uint64_t in_size = 0, out_size = 0;
    std::string binary;

    ~FFTApp()
    {
        if (initialized) {
            // glslang's process state is the runtime's (compiler.cpp): never finalized here.
            app.configuration.isCompilerInitialized = 0;
            deleteVkFFT(&app);
        }
        if (fence)
            vkDestroyFence(device, fence, nullptr);
        if (pool)
            vkDestroyCommandPool(device, pool, nullptr);
    }
};

namespace {

// Whether n has no prime factor past 13 (VkFFT's radix kernels; other lengths use Bluestein).
bool
smooth(uint64_t n)
{
    for (uint64_t p : { 2, 3, 5, 7, 11, 13 })
        while (n % p == 0)
            n /= p;
    return n == 1;
}

// VkFFT 1.2.26 writes its descriptor sets while planning, before it allocates the Bluestein
// buffers, and rewrites them only when handed other buffers: Bluestein kernels then read null
// descriptors (zeros). Marking every kernel for a rewrite makes the first append bind them all.
void
force_rebind(VkFFTApplication* app)
{
    VkFFTPlan* plans[2] = { app->configuration.makeInversePlanOnly ? nullptr : app->localFFTPlan,
                            app->configuration.makeForwardPlanOnly ? nullptr : app->localFFTPlan_inverse };
    for (VkFFTPlan* p : plans) {
        if (!p)
            continue;
        for (uint64_t i = 0; i < app->configuration.FFTdim; i++) {
            for (uint64_t j = 0; j < p->numAxisUploads[i]; j++)
                p->axes[i][j].specializationConstants.performBufferSetUpdate = 1;
            if (app->useBluesteinFFT[i] && p->numAxisUploads[i] > 1)
                for (uint64_t j = 1; j < p->numAxisUploads[i]; j++)
                    p->inverseBluesteinAxes[i][j].specializationConstants.performBufferSetUpdate = 1;
        }
        if (p->multiUploadR2C)
            p->R2Cdecomposition.specializationConstants.performBufferSetUpdate = 1;
    }
}

// VkFFT's configuration fields that settings strings may set by name (apply_knobs), and that
// FFTPlan::resolved_settings reports.
struct Knob
{
    const char* name;
    uint64_t VkFFTConfiguration::*field;
};
static const Knob knob_table[] = {
    { "coalescedMemory", &VkFFTConfiguration::coalescedMemory },
    { "aimThreads", &VkFFTConfiguration::aimThreads },
    { "numSharedBanks", &VkFFTConfiguration::numSharedBanks },
    { "registerBoost", &VkFFTConfiguration::registerBoost },
    { "registerBoostNonPow2", &VkFFTConfiguration::registerBoostNonPow2 },
    { "registerBoost4Step", &VkFFTConfiguration::registerBoost4Step },
    { "useLUT", &VkFFTConfiguration::useLUT },
    { "disableReorderFourStep", &VkFFTConfiguration::disableReorderFourStep },
    { "performBandwidthBoost", &VkFFTConfiguration::performBandwidthBoost },
    { "swapTo3Stage4Step", &VkFFTConfiguration::swapTo3Stage4Step },
    { "fixMaxRadixBluestein", &VkFFTConfiguration::fixMaxRadixBluestein },
    { "disableMergeSequencesR2C", &VkFFTConfiguration::disableMergeSequencesR2C },
    { "considerAllAxesStrided", &VkFFTConfiguration::considerAllAxesStrided },
    { "useUint64", &VkFFTConfiguration::useUint64 },
    { "devicePageSize", &VkFFTConfiguration::devicePageSize },
    { "localPageSize", &VkFFTConfiguration::localPageSize },
    { "halfThreads", &VkFFTConfiguration::halfThreads },
};

// VkFFT's performance settings by name, from "name=value,name=value" (the kernels layer's
// choice for the layout, or ARRAY_API_VULKAN_VKFFT_CONFIG); 0 leaves VkFFT's choice. Unknown
// names or malformed values throw.
void
apply_knobs(VkFFTConfiguration& c, const std::string& knobs)
{
    size_t pos = 0;
    while (pos < knobs.size()) {
        size_t end = knobs.find(',', pos);
        if (end == std::string::npos)
            end = knobs.size();
        std::string item = knobs.substr(pos, end - pos);
        pos = end + 1;
        size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
        item = a == std::string::npos ? "" : item.substr(a, b - a + 1);
        if (item.empty())
            continue;
        size_t eq = item.find('=');
        std::string name = item.substr(0, eq);
        const Knob* k = nullptr;
        for (const Knob& t : knob_table)
            if (name == t.name)
                k = &t;
        if (!k || eq == std::string::npos || eq + 1 == item.size())
            throw std::invalid_argument("FFTPlan: unknown VkFFT setting '" + item + "'");
        std::string v = item.substr(eq + 1);
        size_t used = 0;
        uint64_t value = 0;
        try {
            value = std::stoull(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != v.size())
            throw std::invalid_argument("FFTPlan: bad value in VkFFT setting '" + item + "'");
        c.*(k->field) = value;
    }
}

void
check(VkFFTResult r, const char* what)
{
    if (r != VKFFT_SUCCESS)
        throw std::runtime_error(std::string("VkFFT ") + what + " failed: error " + std::to_string((int)r));
}

} // namespace

FFTPlan::FFTPlan(std::shared_ptr<Recorder> rec, std::vector<uint64_t> dims, uint64_t batch, bool double_precision,
                 int kind, bool inverse, std::shared_ptr<Buffer> in, uint64_t in_range, std::shared_ptr<Buffer> out,
                 uint64_t out_range, py::object binary, std::string settings)
  : mRec(std::move(rec))
  , mApp(new FFTApp())
  , mKind((kind & ~FLAGS) == C2C_OUT ? C2C : kind & ~FLAGS)
  , mInPlace((kind & ~FLAGS) == C2C)
  , mInverse(mKind == C2C ? inverse : mKind == C2R)
  , mIn(std::move(in))
  , mOut(std::move(out))
  , mInRange(in_range)
  , mOutRange(out_range)
{
    if (dims.empty() || dims.size() > 3 || !batch)
        throw std::invalid_argument("FFTPlan: 1 to 3 dimensions and a positive batch");
    for (uint64_t d : dims)
        if (!d)
            throw std::invalid_argument("FFTPlan: empty dimension");
    bool normalize = kind & NORMALIZE;
    bool omit[2] = { bool(kind & OMIT0), bool(kind & OMIT1) };
    kind &= ~FLAGS;
    if (kind < C2C || kind > C2C_OUT)
        throw std::invalid_argument("FFTPlan: kind must be 0 (C2C), 1 (R2C), 2 (C2R) or 3 (C2C_OUT), "
                                    "plus 16 (NORMALIZE) for an inverse, 32/64 (OMIT0/OMIT1) for a C2C");
    if (normalize && !mInverse)
        throw std::invalid_argument("FFTPlan: NORMALIZE is for inverse transforms");
    if ((omit[0] || omit[1]) && mKind != C2C)
        throw std::invalid_argument("FFTPlan: OMIT0/OMIT1 are for C2C transforms");
    if ((omit[0] && dims.size() < 2) || (omit[1] && dims.size() < 3) || (omit[0] && omit[1]))
        throw std::invalid_argument("FFTPlan: an omitted dimension needs a transformed one outside it");
    if (!mIn || !mOut || !in_range || !out_range || in_range > mIn->nbytes || out_range > mOut->nbytes)
        throw std::invalid_argument("FFTPlan: bad buffers or ranges");
    if (kind == C2C && mIn != mOut)
        throw std::invalid_argument("FFTPlan: a C2C plan runs in place (in must be out)");
    kind = mKind;
    ensure_compiler();

    Device& core = mRec->core();
    FFTApp& a = *mApp;
    a.physical = (VkPhysicalDevice)core.physical();
    a.device = (VkDevice)*core.device();
    a.queue = (VkQueue)*core.submitter()->queue;
    VkCommandPoolCreateInfo pi = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO };
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = core.queue_family();
    if (vkCreateCommandPool(a.device, &pi, nullptr, &a.pool) != VK_SUCCESS)
        throw std::runtime_error("FFTPlan: vkCreateCommandPool failed");
    VkFenceCreateInfo fi = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    if (vkCreateFence(a.device, &fi, nullptr, &a.fence) != VK_SUCCESS)
        throw std::runtime_error("FFTPlan: vkCreateFence failed");
    a.in = (VkBuffer)mIn->buffer;
    a.out = (VkBuffer)mOut->buffer;
    a.in_size = in_range;
    a.out_size = out_range;

    uint64_t s[3] = { 1, 1, 1 };
    for (size_t i = 0; i < dims.size(); i++)
        s[i] = dims[i];
    uint64_t c0 = kind == C2C ? s[0] : s[0] / 2 + 1;
    uint64_t cstride[3] = { c0, c0 * s[1], c0 * s[1] * s[2] };
    uint64_t rstride[3] = { s[0], s[0] * s[1], s[0] * s[1] * s[2] };
    uint64_t csize = double_precision ? 16 : 8, rsize = csize / 2;
    uint64_t cbytes = cstride[2] * batch * csize, rbytes = rstride[2] * batch * rsize;
    mInBytes = kind == R2C ? rbytes : cbytes;
    mOutBytes = kind == C2R ? rbytes : cbytes;

    // One direction only halves the compile; but VkFFT 1.2.26's Bluestein set-up runs an inverse
    // transform into a buffer it allocates only for plans with both directions.
    bool one_direction = true;
    for (uint64_t d : dims)
        one_direction = one_direction && smooth(d);

    VkFFTConfiguration c = {};
    c.FFTdim = dims.size();
    for (int i = 0; i < 3; i++)
        c.size[i] = s[i];
    c.numberBatches = batch;
    c.physicalDevice = &a.physical;
    c.device = &a.device;
    c.queue = &a.queue;
    c.commandPool = &a.pool;
    c.fence = &a.fence;
    c.isCompilerInitialized = 1; // ensure_compiler() did it; VkFFT must never finalize it
    c.doublePrecision = double_precision;
    c.specifyOffsetsAtLaunch = 1;
    // The buffers: VkFFT's `buffer` (where it works; complex, padded for R2C/C2R) and, out of
    // place, a formatted input (R2C, C2C out of place) or output (C2R) buffer of its own.
    auto work = [&](VkBuffer* b, uint64_t* size, const uint64_t* stride) {
        c.bufferNum = 1;
        c.buffer = b;
        c.bufferSize = size;
        for (int i = 0; i < 3; i++)
            c.bufferStride[i] = stride[i];
    };
    auto formatted = [&](bool input, VkBuffer* b, uint64_t* size, const uint64_t* stride) {
        (input ? c.isInputFormatted : c.isOutputFormatted) = 1;
        (input ? c.inputBufferNum : c.outputBufferNum) = 1;
        (input ? c.inputBuffer : c.outputBuffer) = b;
        (input ? c.inputBufferSize : c.outputBufferSize) = size;
        for (int i = 0; i < 3; i++)
            (input ? c.inputBufferStride : c.outputBufferStride)[i] = stride[i];
    };
    if (kind == C2C) {
        // out of place: VkFFT reads the formatted input buffer in its first pass (in either
        // direction: inverseReturnToInputBuffer stays off) and never writes it
        work(&a.out, &a.out_size, cstride);
        if (!mInPlace)
            formatted(true, &a.in, &a.in_size, cstride);
        if (one_direction) {
            if (inverse)
                c.makeInversePlanOnly = 1;
            else
                c.makeForwardPlanOnly = 1;
        }
    } else if (kind == R2C) {
        c.performR2C = 1;
        work(&a.out, &a.out_size, cstride);
        formatted(true, &a.in, &a.in_size, rstride);
        c.makeForwardPlanOnly = one_direction;
    } else {
        c.performR2C = 1;
        work(&a.in, &a.in_size, cstride);
        formatted(false, &a.out, &a.out_size, rstride);
        c.makeInversePlanOnly = one_direction;
    }
    c.normalize = normalize;
    c.omitDimension[0] = omit[0];
    c.omitDimension[1] = omit[1];
    apply_knobs(c, settings);
    if (!binary.is_none()) {
        a.binary = std::string(py::bytes(binary));
        c.loadApplicationFromString = 1;
        c.loadApplicationString = (void*)a.binary.data();
    } else
        c.saveApplicationToString = 1;

    VkFFTResult r;
    {
        py::gil_scoped_release release;
        // VkFFT submits its set-up work (LUT uploads, Bluestein kernels) to the queue itself,
        // which only one thread may use at a time: the submit thread's lock covers it.
        std::unique_lock<std::mutex> compile;
        if (binary.is_none())
            compile = std::unique_lock<std::mutex>(compiler_mutex());
        std::lock_guard<std::mutex> queue(core.submitter()->submit_lock);
        // VkFFT's code generator sets the C locale (for its printf of numbers) and "restores"
        // the pointer setlocale returned, which the second call overwrote: the process would be
        // left in the C locale (Python's open() then writes ASCII). Restored here from a copy.
        const char* cur = setlocale(LC_ALL, nullptr);
        std::string locale = cur ? cur : "";
        r = initializeVkFFT(&a.app, c);
        if (!locale.empty())
            setlocale(LC_ALL, locale.c_str());
    }
    check(r, "plan creation");
    a.initialized = true;
    force_rebind(&a.app);
    if (binary.is_none() && a.app.saveApplicationString && a.app.applicationStringSize)
        a.binary.assign((const char*)a.app.saveApplicationString, a.app.applicationStringSize);
}

FFTPlan::~FFTPlan() = default;

void
FFTPlan::exec(Allocation& in, uint64_t in_offset, Allocation& out, uint64_t out_offset)
{
    if (!in.arena || !out.arena || in.arena->buffer != mIn || out.arena->buffer != mOut)
        throw std::invalid_argument("FFTPlan.exec: the arrays are not in this plan's buffers");
    uint64_t ib = in.offset + in_offset, ob = out.offset + out_offset;
    if (in_offset + mInBytes > in.nbytes || out_offset + mOutBytes > out.nbytes || ib + mInBytes > mInRange ||
        ob + mOutBytes > mOutRange)
        throw std::invalid_argument("FFTPlan.exec: data outside the allocations or the plan's ranges");
    if (mInPlace && (&in != &out || ib != ob))
        throw std::invalid_argument("FFTPlan.exec: an in-place C2C plan needs in to be out");
    if (!mInPlace && &in == &out && ib < ob + mOutBytes && ob < ib + mInBytes)
        throw std::invalid_argument("FFTPlan.exec: an out-of-place plan needs disjoint in and out");
    FFTApp& a = *mApp;
    Allocation* allocs[2] = { &out, &in };
    // C2C in place; C2R overwrites its complex input; R2C and C2C out of place only read it.
    bool writes[2] = { true, mKind == C2R };
    size_t n = mInPlace ? 1 : 2;
    VkFFTResult r = VKFFT_SUCCESS;
    mRec->record_external(
      allocs, writes, n,
      [&](vk::CommandBuffer cb) {
          VkCommandBuffer vcb = (VkCommandBuffer)cb;
          VkFFTLaunchParams lp = {};
          lp.commandBuffer = &vcb;
          if (mInPlace) {
              lp.buffer = &a.out;
              lp.bufferOffset = ob;
          } else if (mKind == C2C || mKind == R2C) {
              lp.inputBuffer = &a.in;
              lp.inputBufferOffset = ib;
              lp.buffer = &a.out;
              lp.bufferOffset = ob;
          } else {
              lp.buffer = &a.in;
              lp.bufferOffset = ib;
              lp.outputBuffer = &a.out;
              lp.outputBufferOffset = ob;
          }
          r = VkFFTAppend(&a.app, mInverse ? 1 : -1, &lp);
      },
      false);
    mSerial = mRec->serial;
    check(r, "append");
}

py::bytes
FFTPlan::binary() const
{
    return py::bytes(mApp->binary);
}

std::vector<std::vector<std::vector<uint64_t>>>
FFTPlan::uploads() const
{
    const VkFFTApplication& app = mApp->app;
    const VkFFTPlan* p = app.configuration.makeInversePlanOnly ? app.localFFTPlan_inverse : app.localFFTPlan;
    std::vector<std::vector<std::vector<uint64_t>>> out;
    for (uint64_t i = 0; p && i < app.configuration.FFTdim; i++) {
        out.emplace_back();
        for (uint64_t j = 0; j < p->numAxisUploads[i]; j++) {
            const auto& sc = p->axes[i][j].specializationConstants;
            out.back().push_back({ sc.fftDim, sc.registerBoost, sc.localSize[0], sc.localSize[1] });
        }
    }
    return out;
}

std::map<std::string, uint64_t>
FFTPlan::resolved_settings() const
{
    const VkFFTConfiguration& c = mApp->app.configuration;
    std::map<std::string, uint64_t> out;
    for (const Knob& k : knob_table)
        out[k.name] = c.*(k.field);
    out["sharedMemorySize"] = c.sharedMemorySize;
    out["sharedMemorySizePow2"] = c.sharedMemorySizePow2;
    out["reorderFourStep"] = c.reorderFourStep;
    out["maxThreadsNum"] = c.maxThreadsNum;
    return out;
}

#else // no glslang or no vkFFT.h: no VkFFT

struct FFTApp
{};

FFTPlan::FFTPlan(std::shared_ptr<Recorder>, std::vector<uint64_t>, uint64_t, bool, int, bool, std::shared_ptr<Buffer>,
                 uint64_t, std::shared_ptr<Buffer>, uint64_t, py::object, std::string)
  : mKind(0)
  , mInPlace(false)
  , mInverse(false)
  , mInRange(0)
  , mOutRange(0)
{
    throw std::runtime_error("built without glslang or vkFFT.h: no VkFFT");
}
FFTPlan::~FFTPlan() = default;
void
FFTPlan::exec(Allocation&, uint64_t, Allocation&, uint64_t)
{
}
py::bytes
FFTPlan::binary() const
{
    return py::bytes();
}
std::vector<std::vector<std::vector<uint64_t>>>
FFTPlan::uploads() const
{
    return {};
}
std::map<std::string, uint64_t>
FFTPlan::resolved_settings() const
{
    return {};
}

#endif

} // namespace avk
