// The Python bindings of the runtime extension, _vkcore.
#include "compiler.hpp"
#include "dlpack.hpp"
#include "fft.hpp"
#include "plan.hpp"

using namespace avk;

PYBIND11_MODULE(_vkcore, m)
{
    m.doc() = "array_api_vulkan's runtime over Kompute: devices, memory, pipelines, recording, plans";

    static py::exception<std::runtime_error> vk_error(m, "VulkanError", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const vk::OutOfDeviceMemoryError& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const vk::OutOfHostMemoryError& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const vk::SystemError& e) {
            PyErr_SetString(vk_error.ptr(), e.what());
        }
    });

    m.def("enumerate_devices", &enumerate_devices, "Properties and features of every Vulkan device.");
    m.def("host_view", &host_view, "A numpy uint8 view of a host-visible buffer's mapped memory.");
    m.def("dlpack_export", &dlpack_export, "A DLPack capsule (kDLVulkan) of a device buffer region.",
          py::arg("buffer"), py::arg("byte_offset"), py::arg("shape"), py::arg("strides"), py::arg("code"),
          py::arg("bits"), py::arg("device_id"), py::arg("versioned"), py::arg("read_only") = false);
    m.def("compile_glsl", &compile_glsl, "SPIR-V of a GLSL compute shader (includes expanded), by glslang.",
          py::arg("source"), py::arg("name") = "shader");
    m.attr("has_compiler") = compiler_available();
    m.def("dlpack_info", &dlpack_info, "What an unconsumed DLPack capsule describes (for tests).");
    m.def(
      "host_profile",
      [](bool reset) {
          static const char* names[] = { "plan_args",     "plan_alloc",   "plan_make_array", "rec_hook",
                                         "rec_pipeline",  "rec_touch",    "rec_dispatch",    "rec_after_op",
                                         "batch_start",   "submit_end",   "submit_queue",    "sync_submit",
                                         "sync_wait",     "rec_external" };
          HostProfile& p = HostProfile::get();
          py::dict d;
          for (int i = 0; i < HostProfile::kStages; i++)
              d[names[i]] = py::make_tuple(p.ns[i] * 1e-9, p.count[i]);
          if (reset)
              for (int i = 0; i < HostProfile::kStages; i++)
                  p.ns[i] = p.count[i] = 0;
          return py::make_tuple(p.on, d);
      },
      "(enabled, {stage: (seconds, count)}) of the hot path's host time (ARRAY_API_VULKAN_PROFILE_HOST=1).",
      py::arg("reset") = false);

    py::class_<Buffer, std::shared_ptr<Buffer>>(m, "Buffer")
      .def_readonly("nbytes", &Buffer::nbytes)
      .def_readonly("host", &Buffer::host)
      .def_readonly("address", &Buffer::address);

    py::class_<Batch, std::shared_ptr<Batch>>(m, "Batch")
      .def("barrier", &Batch::barrier)
      .def("host_barrier", &Batch::host_barrier)
      .def("submit", &Batch::submit, py::arg("background") = false)
      .def("wait", &Batch::wait)
      .def("done", &Batch::done)
      .def_property_readonly("dispatches", &Batch::dispatches)
      .def_property_readonly("gpu_seconds", &Batch::gpu_seconds);

    py::class_<Recorder, std::shared_ptr<Recorder>>(m, "Recorder")
      .def(py::init([](Device& core, py::object load_spirv, bool per_buffer) {
               return std::make_shared<Recorder>(core, std::move(load_spirv), per_buffer);
           }),
           py::keep_alive<1, 2>())
      .def("launch", &Recorder::launch, py::arg("shader"), py::arg("spec"), py::arg("buffers"), py::arg("writes"),
           py::arg("push"), py::arg("count") = 0, py::arg("local_size") = 256,
           py::arg("groups") = std::vector<uint32_t>(), py::arg("host_read") = false)
      .def("launch_addressed", &Recorder::launch_addressed, py::arg("shader"), py::arg("buffers"),
           py::arg("byte_offsets"), py::arg("nreads"), py::arg("head"), py::arg("tail"), py::arg("count"))
      .def("copy", &Recorder::copy, py::arg("src"), py::arg("src_offset"), py::arg("dst"), py::arg("dst_offset"),
           py::arg("nbytes"), py::arg("host_read") = false)
      .def("upload", &Recorder::upload, py::arg("staging"), py::arg("src"), py::arg("dst"), py::arg("dst_offset"))
      .def("download", &Recorder::download, py::arg("staging"), py::arg("src"), py::arg("src_offset"),
           py::arg("dst"))
      .def("alternate", &Recorder::alternate, "The alternating bit, flipped: 1, 0, 1, ... call after call.")
      .def_property_readonly("alternate_state", &Recorder::alternate_state)
      .def_readwrite("transfer_chunk", &Recorder::transfer_chunk)
      .def_readwrite("transfer_ring", &Recorder::transfer_ring)
      .def_readwrite("transfer_threads", &Recorder::transfer_threads)
      .def(
        "pipeline",
        [](Recorder& r, const std::string& shader, const std::vector<uint32_t>& spec, py::object load_spirv) {
            r.pipelines().get(shader, spec.data(), spec.size(), load_spirv);
        },
        "Makes (or finds) the pipeline of shader with spec, recording nothing (warmup).")
      .def(
        "pipeline_statistics",
        [](Recorder& r, const std::string& shader, const std::vector<uint32_t>& spec, py::object load_spirv) {
            return r.pipelines().statistics(shader, spec, load_spirv);
        },
        "The driver's statistics of a fresh pipeline of shader with spec (a diagnostic: empty unless "
        "ARRAY_API_VULKAN_PIPELINE_STATS was set when the device was made and the driver has "
        "VK_KHR_pipeline_executable_properties).")
      .def(
        "remake_pipelines", [](Recorder& r, const std::string& source) { return r.pipelines().remake(source); },
        "A diagnostic: every pipeline made again from source (same, fresh, blob or null); call after a "
        "synchronize.")
      .def("submit", &Recorder::submit, py::arg("background") = false)
      // hook=False: no record hook (a pool waiting for memory to come back, not a user's wait)
      .def(
        "synchronize",
        [](Recorder& r, bool hook) {
            if (hook)
                r.run_hook(nullptr, nullptr, 0);
            r.synchronize();
        },
        py::arg("hook") = true)
      .def("gpu_idle", &Recorder::gpu_idle)
      .def("kick", &Recorder::kick)
      .def_property_readonly("idle", &Recorder::idle)
      .def_property_readonly("inflight", &Recorder::inflight)
      .def_property_readonly("pending", &Recorder::pending)
      .def_property_readonly("batch", &Recorder::batch)
      .def_property_readonly("pipelines", [](Recorder& r) { return r.pipelines().size(); })
      .def_readonly("serial", &Recorder::serial)
      .def_readonly("completed", &Recorder::completed)
      .def_readwrite("max_pending_dispatches", &Recorder::max_pending_dispatches)
      .def_readwrite("max_pending_bytes", &Recorder::max_pending_bytes)
      .def_readwrite("max_inflight", &Recorder::max_inflight)
      .def_readwrite("early_dispatches", &Recorder::early_dispatches)
      .def_readwrite("early_bytes", &Recorder::early_bytes)
      .def_readwrite("early_inline", &Recorder::early_inline)
      .def_readwrite("kick_after_wait", &Recorder::kick_after_wait)
      .def_readwrite("prestart", &Recorder::prestart)
      .def_property_readonly("after_wait", &Recorder::after_wait)
      .def("hold_kick", &Recorder::hold_kick)
      .def("release_kick", &Recorder::release_kick)
      .def_readwrite("omit_barriers", &Recorder::omit_barriers)
      .def_property(
        "hook", [](Recorder& r) { return r.hook ? r.hook : py::none(); },
        [](Recorder& r, py::object h) { r.hook = h.is_none() ? py::object() : h; })
      .def_property_readonly("counters",
                             [](Recorder& r) {
                                 py::dict d;
                                 d["submits"] = r.submits;
                                 d["dispatches"] = r.dispatches;
                                 d["copies"] = r.copies;
                                 d["barriers"] = r.barriers;
                                 d["pipelines_created"] = r.pipelines().created;
                                 d["pipeline_cache_hits"] = r.pipelines().cache_hits;
                                 d["pipeline_seconds"] = r.pipelines().seconds;
                                 d["gpu_seconds"] = r.gpu_seconds;
                                 d["submit_seconds"] = r.submit_seconds;
                                 d["wait_seconds"] = r.wait_seconds;
                                 d["transfer_host_seconds"] = r.transfer_host_seconds;
                                 d["transfer_wait_seconds"] = r.transfer_wait_seconds;
                                 return d;
                             })
      .def("reset_counters", [](Recorder& r) {
          r.submits = r.dispatches = r.barriers = r.copies = 0;
          r.pipelines().created = r.pipelines().cache_hits = 0;
          r.pipelines().seconds = 0;
          r.gpu_seconds = r.transfer_host_seconds = r.transfer_wait_seconds = 0;
          r.submit_seconds = r.wait_seconds = 0;
      });

    py::class_<Arena, std::shared_ptr<Arena>>(m, "Arena")
      .def_readonly("buffer", &Arena::buffer)
      .def_readonly("size", &Arena::size)
      .def_readonly("top", &Arena::top)
      .def_readonly("serial", &Arena::serial)
      .def("__eq__",
           [](const Arena& a, py::object o) {
               py::detail::type_caster<Arena> c;
               return c.load(o, false) && static_cast<Arena*>(c) == &a;
           })
      .def("__hash__", [](const Arena& a) { return (size_t)a.serial; })
      .def("__repr__", [](const Arena& a) {
          return "<Arena " + std::to_string(a.serial) + " " + std::to_string(a.size >> 10) + " KiB>";
      });

    py::class_<Allocation, std::shared_ptr<Allocation>>(m, "Allocation")
      .def_readonly("device", &Allocation::device)
      .def_readonly("pool", &Allocation::pool)
      .def_readonly("arena", &Allocation::arena)
      .def_property_readonly("buffer",
                             [](const Allocation& a) { return a.arena ? a.arena->buffer : std::shared_ptr<Buffer>(); })
      .def_property_readonly("address", &Allocation::address)
      // (diagnostics: the host's mapping of a host-visible allocation, 0 for device memory)
      .def_property_readonly("host_pointer",
                             [](const Allocation& a) -> uintptr_t {
                                 if (!a.arena || !a.arena->buffer->host)
                                     return 0;
                                 return (uintptr_t)a.arena->buffer->tensor->rawData() + a.offset;
                             })
      .def_readonly("offset", &Allocation::offset)
      .def_readonly("nbytes", &Allocation::nbytes)
      .def_readonly("block", &Allocation::block)
      .def_readwrite("last_batch", &Allocation::last_batch)
      .def_readwrite("host", &Allocation::host)
      .def_readonly("key", &Allocation::key)
      .def("__repr__", [](const Allocation& a) {
          std::string where = a.arena ? "<Arena " + std::to_string(a.arena->serial) + " " +
                                          std::to_string(a.arena->size >> 10) + " KiB>"
                                      : "None";
          return "<Allocation " + std::to_string(a.nbytes) + " B at " + where + "+" + std::to_string(a.offset) + ">";
      });

    py::class_<Pool, std::shared_ptr<Pool>>(m, "Pool")
      .def(py::init([](Device& core, py::object device, uint64_t max_arena, bool host, bool stream_ordered,
                       uint64_t first_arena, bool cached) {
               return std::make_shared<Pool>(core, std::move(device), max_arena, host, stream_ordered, first_arena,
                                             cached);
           }),
           py::arg("core"), py::arg("device"), py::arg("max_arena"), py::arg("host"), py::arg("stream_ordered"),
           py::arg("first_arena"), py::arg("cached") = true, py::keep_alive<1, 2>())
      .def("alloc", &Pool::alloc)
      .def("reclaim", &Pool::reclaim)
      .def(
        "set_recorder", [](Pool& p, std::shared_ptr<Recorder> rec) { p.completed = &rec->completed; },
        py::keep_alive<1, 2>())
      .def_readwrite("before_grow", &Pool::before_grow)
      .def_readonly("device", &Pool::device)
      .def_readonly("max_arena", &Pool::max_arena)
      .def_readonly("host", &Pool::host)
      .def_readonly("cached", &Pool::cached)
      .def_readonly("stream_ordered", &Pool::stream_ordered)
      .def_readonly("next_arena", &Pool::next_arena)
      .def_readonly("bytes_reserved", &Pool::bytes_reserved)
      .def_readonly("bytes_in_use", &Pool::bytes_in_use)
      .def_readonly("deferred_bytes", &Pool::deferred_bytes)
      .def_readonly("arenas", &Pool::arenas)
      .def_property_readonly("deferred", [](const Pool& p) {
          py::list out;
          for (const auto& d : p.deferred)
              out.append(py::make_tuple(d.serial, d.arena, d.offset, d.block));
          return out;
      });

    py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
      .def(py::init<std::shared_ptr<Recorder>, py::object, std::shared_ptr<Pool>, py::object, std::vector<py::tuple>,
                    std::vector<py::tuple>, std::vector<uint64_t>, std::vector<py::tuple>>(),
           py::arg("recorder"), py::arg("device"), py::arg("pool"), py::arg("array_type"), py::arg("args"),
           py::arg("outputs"), py::arg("temps"), py::arg("steps"))
      .def("__call__", &Plan::call);

#ifdef AVK_HAVE_VKFFT
    m.attr("has_vkfft") = true;
#else
    m.attr("has_vkfft") = false;
#endif
    py::class_<FFTPlan, std::shared_ptr<FFTPlan>>(m, "FFTPlan")
      .def(py::init<std::shared_ptr<Recorder>, std::vector<uint64_t>, uint64_t, bool, int, bool, std::shared_ptr<Buffer>,
                    uint64_t, std::shared_ptr<Buffer>, uint64_t, py::object, std::string>(),
           py::arg("recorder"), py::arg("dims"), py::arg("batch"), py::arg("double_precision"), py::arg("kind"),
           py::arg("inverse"), py::arg("in_buffer"), py::arg("in_range"), py::arg("out_buffer"), py::arg("out_range"),
           py::arg("binary") = py::none(), py::arg("settings") = std::string())
      .def("exec", &FFTPlan::exec, py::arg("src"), py::arg("src_offset"), py::arg("dst"), py::arg("dst_offset"))
      .def_property_readonly("binary", &FFTPlan::binary)
      .def_property_readonly("uploads", &FFTPlan::uploads)
      .def_property_readonly("resolved_settings", &FFTPlan::resolved_settings)
      .def_property_readonly("in_bytes", &FFTPlan::in_bytes)
      .def_property_readonly("out_bytes", &FFTPlan::out_bytes)
      .def_property_readonly("serial", &FFTPlan::serial);

    py::class_<Device>(m, "Device")
      .def(py::init<uint32_t>())
      .def("create_buffer", &Device::create_buffer, py::arg("nbytes"), py::arg("host") = false,
           py::arg("cached") = true)
      .def_property_readonly("timestamps", &Device::timestamps)
      .def("set_timestamps", &Device::set_timestamps, py::arg("on"))
      .def_property_readonly("timeline", &Device::timeline)
      .def_property_readonly("max_buffer_bytes", &Device::max_buffer_bytes)
      .def("features", &Device::features)
      .def("pipeline_cache_data", [](Device& d) { return d.pipelines().data(); })
      .def("load_pipeline_cache", [](Device& d, py::bytes blob) { d.pipelines().load(std::string(blob)); });
}
