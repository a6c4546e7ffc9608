"""array_api_vulkan: the Python array API standard (2025.12, with linalg and fft) on Vulkan.

Spec layer: dtypes, promotion, the array object and every function; each function asks the
kernels layer first and falls back to numpy on the host (counted in runtime_stats()).
"""
__array_api_version__ = "2025.12"
__version__ = "0.1.0"

from ._runtime import (HostFallbackError, reset_runtime_stats, runtime_stats,  # noqa: E402
                       set_gpu_timing, set_strict, synchronize)

from ._array_object import Array  # noqa: E402
from ._constants import *  # noqa: E402,F401,F403
from ._creation_functions import *  # noqa: E402,F401,F403
from ._data_type_functions import *  # noqa: E402,F401,F403
from ._dtypes import (bool, complex64, complex128, float32, float64, int8, int16,  # noqa: E402
                      int32, int64, uint8, uint16, uint32, uint64)
from ._elementwise_functions import *  # noqa: E402,F401,F403
from ._indexing_functions import *  # noqa: E402,F401,F403
from ._info import __array_namespace_info__  # noqa: E402
from ._linear_algebra_functions import *  # noqa: E402,F401,F403
from ._manipulation_functions import *  # noqa: E402,F401,F403
from ._searching_functions import *  # noqa: E402,F401,F403
from ._set_functions import *  # noqa: E402,F401,F403
from ._sorting_functions import *  # noqa: E402,F401,F403
from ._statistical_functions import *  # noqa: E402,F401,F403
from ._utility_functions import *  # noqa: E402,F401,F403
from ._warmup import warmup  # noqa: E402
from . import fft, linalg  # noqa: E402

from . import (_constants, _creation_functions, _data_type_functions,  # noqa: E402
               _elementwise_functions, _indexing_functions, _linear_algebra_functions,
               _manipulation_functions, _searching_functions, _set_functions,
               _sorting_functions, _statistical_functions, _utility_functions)

__all__ = (["__array_api_version__", "__array_namespace_info__", "Array", "fft", "linalg",
            "runtime_stats", "reset_runtime_stats", "set_gpu_timing", "set_strict",
            "HostFallbackError", "synchronize", "warmup",
            "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "complex64", "complex128"]
           + _constants.__all__ + _creation_functions.__all__ + _data_type_functions.__all__
           + _elementwise_functions.__all__ + _indexing_functions.__all__
           + _linear_algebra_functions.__all__ + _manipulation_functions.__all__
           + _searching_functions.__all__ + _set_functions.__all__
           + _sorting_functions.__all__ + _statistical_functions.__all__
           + _utility_functions.__all__)
