"""Counters behind runtime_stats(): plain dict increments on the hot path.

The counts of RECORDER_KEYS live in each device's recorder (_vkcore.Recorder) and are added up
in runtime_stats(); only the host-side counts are kept here. gpu_seconds: GPU time of finished
batches, from timestamps at each batch's start and end, while set_gpu_timing(True) has them on
(0 otherwise, or where the queue has no timestamps).
copies: buffer copies (uploads, downloads). pipelines_created: pipelines made in this process;
pipeline_cache_hits: those the driver found in the on-disk pipeline cache (where it reports it,
through VK_EXT_pipeline_creation_feedback); pipeline_seconds: time spent making pipelines. transfer_host_seconds / transfer_wait_seconds:
time large uploads and downloads spend copying on the host and waiting for the device's copies.
submit_seconds / wait_seconds: host time of finished batches in vkQueueSubmit and in fence waits. shaders_compiled: GLSL compiled at run time
(compiler.py: fused kernels, VkFFT's own are not counted here); shaders_cache_hits: those found in
the on-disk SPIR-V cache instead; shader_compile_seconds: time spent in glslang.
fused_kernels: fused elementwise dispatches recorded (the kernels layer's _fuse.py); fused_ops:
the elementwise ops they computed (written or kept in registers); fusion_cache_hits: fused
kernels whose chain signature was found in the cache (no generation, no compile);
fusion_unfused: held-back ops recorded one dispatch each instead (a chain of one op, or one the
generator could not compile for the device); fusion_eager_ops: large ops recorded at once rather
than held: the first after a host wait, or one finding the GPU idle (_fuse.EAGER)."""
import collections

RECORDER_KEYS = ("submits", "dispatches", "copies", "barriers", "pipelines_created", "pipeline_cache_hits",
                 "pipeline_seconds", "gpu_seconds", "transfer_host_seconds", "transfer_wait_seconds",
                 "submit_seconds", "wait_seconds")
HOST_KEYS = ("bytes_uploaded", "bytes_downloaded", "shaders_compiled", "shaders_cache_hits",
             "shader_compile_seconds", "fused_kernels", "fused_ops", "fusion_cache_hits",
             "fusion_unfused", "fusion_eager_ops")

counters = dict.fromkeys(HOST_KEYS, 0)
host_fallbacks = collections.Counter()


def reset():
    for k in HOST_KEYS:
        counters[k] = 0
    host_fallbacks.clear()
