"""Counters behind runtime_stats(): plain dict increments on the hot path."""
import collections

COUNTER_KEYS = ("submits", "dispatches", "barriers", "pipelines_created",
                "bytes_uploaded", "bytes_downloaded")

counters = dict.fromkeys(COUNTER_KEYS, 0)
host_fallbacks = collections.Counter()


def reset():
    for k in COUNTER_KEYS:
        counters[k] = 0
    host_fallbacks.clear()
