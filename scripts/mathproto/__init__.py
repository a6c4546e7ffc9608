"""numpy prototypes of the GLSL math libraries (glsl/include/math_f64.glsl, math_f32.glsl)."""
from .fp import F64, F32  # noqa: F401
from . import real  # noqa: F401
