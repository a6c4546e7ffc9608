"""The storage type shared by the layers: a strided view of a runtime Allocation.

The spec layer's Array subclasses it; the kernels layer and the runtime's compiled plans make
results of whatever Storage subclass they are given, so neither imports the spec layer.
"""


def c_strides(shape):
    """C-contiguous strides, in elements, of `shape`."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


class Storage:
    """alloc: the Allocation; dtype: the array's dtype object (with .name and .itemsize);
    shape; strides and offset: in elements, offset from the allocation's first byte."""

    __slots__ = ("_alloc", "_dtype", "_shape", "_strides", "_offset")

    def __init__(self, *args, **kwargs):
        raise TypeError("storage objects are made with _new()")

    @classmethod
    def _new(cls, alloc, dtype, shape, strides=None, offset=0):
        self = object.__new__(cls)
        self._alloc = alloc
        self._dtype = dtype
        self._shape = tuple(shape)
        self._strides = c_strides(self._shape) if strides is None else tuple(strides)
        self._offset = offset
        return self
