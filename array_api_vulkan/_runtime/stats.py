"""Counters behind runtime_stats(): plain dict increments on the hot path.

Submits, dispatches, barriers, pipelines and GPU time are counted by each device's recorder
(_vkcore.Recorder) and added in runtime_stats(). gpu_seconds: GPU time of finished batches, from timestamps at each batch's start and end
(0 where the queue has no timestamps)."""
import collections

COUNTER_KEYS = ("submits", "dispatches", "barriers", "pipelines_created",
                "bytes_uploaded", "bytes_downloaded", "gpu_seconds")

counters = dict.fromkeys(COUNTER_KEYS, 0)
host_fallbacks = collections.Counter()


def reset():
    for k in COUNTER_KEYS:
        counters[k] = 0
    host_fallbacks.clear()
