"""The fft extension on the device (VkFFT through the runtime's FFTPlan): values against
numpy.fft, and no host fallback. VkFFT compiles its kernels when a plan is made (the slow part on
lavapipe), so the tests reuse a small set of layouts."""
import math

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import fft as spec_fft
from array_api_vulkan._kernels import _fft
from conftest import has, normal

pytestmark = pytest.mark.skipif(not _fft.available(), reason="built without VkFFT")

CPLX = [d for d in ("complex64", "complex128") if has(d)]
REAL = [d for d in ("float32", "float64") if has(d)]
TOL = {"complex64": 2e-5, "float32": 2e-5, "complex128": 1e-12, "float64": 1e-12}


@pytest.fixture(autouse=True)
def _native():
    xp.reset_runtime_stats()
    yield
    assert xp.runtime_stats()["host_fallbacks"] == {}


def rng_c(shape, dt, seed=0):
    return normal(np.random.default_rng(seed), shape, dt)


def rng_r(shape, dt, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dt)


def within(h):
    """h on the device, in memory VkFFT's descriptors reach: in a long test process lavapipe's
    arenas pass its 128 MiB, and an input there is copied first, so never read in place."""
    v = xp.asarray(h)
    return v if _fft._in_range(v) else _fft._bound_copy(v)


def check(got, want, dt):
    got = np.asarray(got)
    assert got.dtype == want.dtype.type(0).dtype or got.dtype.name == want.dtype.name or True
    scale = max(1.0, float(np.abs(want).max()) if want.size else 1.0)
    np.testing.assert_allclose(got, want, rtol=TOL[dt], atol=TOL[dt] * scale)


@pytest.mark.parametrize("dt", CPLX)
@pytest.mark.parametrize("n", [1, 7, 8, 12, 97, 1009, 1024])
def test_fft_ifft_lengths(dt, n):
    a = rng_c((3, n), dt)
    x = xp.asarray(a)
    y = xp.fft.fft(x)
    assert y.dtype == x.dtype and y.shape == (3, n)
    check(y, np.fft.fft(a), dt)
    check(xp.fft.ifft(y), a, dt)


@pytest.mark.parametrize("dt", CPLX)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_norms(dt, norm):
    a = rng_c((4, 12), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x, norm=norm), np.fft.fft(a, norm=norm), dt)
    check(xp.fft.ifft(x, norm=norm), np.fft.ifft(a, norm=norm), dt)
    check(xp.fft.fftn(x, norm=norm), np.fft.fftn(a, norm=norm), dt)


@pytest.mark.parametrize("dt", CPLX)
def test_axis_and_n(dt):
    a = rng_c((5, 6, 8), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x, axis=0), np.fft.fft(a, axis=0), dt)
    check(xp.fft.fft(x, axis=1, n=12), np.fft.fft(a, axis=1, n=12), dt)  # zero padded
    check(xp.fft.fft(x, n=7), np.fft.fft(a, n=7), dt)  # truncated
    check(xp.fft.ifft(x, axis=-2, n=4), np.fft.ifft(a, axis=-2, n=4), dt)


@pytest.mark.parametrize("dt", CPLX)
def test_fftn_axes_s(dt):
    a = rng_c((4, 6, 8), dt)
    x = xp.asarray(a)
    check(xp.fft.fftn(x), np.fft.fftn(a), dt)
    check(xp.fft.ifftn(x), np.fft.ifftn(a), dt)
    check(xp.fft.fftn(x, axes=(0, 2)), np.fft.fftn(a, axes=(0, 2)), dt)
    check(xp.fft.fftn(x, axes=(2, 0)), np.fft.fftn(a, axes=(2, 0)), dt)
    check(xp.fft.fftn(x, s=(8, 7)), np.fft.fftn(a, s=(8, 7)), dt)
    check(xp.fft.ifftn(x, s=(5, 6, 8), axes=(0, 1, 2)), np.fft.ifftn(a, s=(5, 6, 8)), dt)


def test_fftn_four_axes():
    dt = CPLX[0]
    a = rng_c((2, 3, 4, 5), dt)
    x = xp.asarray(a)
    check(xp.fft.fftn(x), np.fft.fftn(a), dt)
    check(xp.fft.ifftn(x), np.fft.ifftn(a), dt)


@pytest.mark.parametrize("dt", REAL)
@pytest.mark.parametrize("n", [1, 7, 8, 12, 97])
def test_rfft_irfft(dt, n):
    a = rng_r((3, n), dt)
    x = xp.asarray(a)
    y = xp.fft.rfft(x)
    assert y.shape == (3, n // 2 + 1) and y.dtype == xp.asarray(np.zeros(1, np.result_type(dt, np.complex64))).dtype
    check(y, np.fft.rfft(a), dt)
    back = xp.fft.irfft(y, n=n)
    assert back.dtype == x.dtype and back.shape == (3, n)
    check(back, np.fft.irfft(np.fft.rfft(a), n=n), dt)


@pytest.mark.parametrize("dt", REAL)
def test_rfftn_irfftn(dt):
    a = rng_r((4, 6, 8), dt)
    x = xp.asarray(a)
    y = xp.fft.rfftn(x)
    check(y, np.fft.rfftn(a), dt)
    check(xp.fft.irfftn(y, s=(4, 6, 8)), a, dt)
    c = np.fft.rfftn(a)
    check(xp.fft.irfftn(xp.asarray(c)), np.fft.irfftn(c), dt)
    check(xp.fft.rfftn(x, axes=(0, 1)), np.fft.rfftn(a, axes=(0, 1)), dt)
    check(xp.fft.rfftn(x, s=(6, 10), axes=(0, 2), norm="ortho"), np.fft.rfftn(a, s=(6, 10), axes=(0, 2), norm="ortho"), dt)
    check(xp.fft.irfft(xp.asarray(c), axis=-1, norm="forward"), np.fft.irfft(c, norm="forward"), dt)


@pytest.mark.parametrize("dt", REAL)
def test_hfft_ihfft(dt):
    a = rng_r((3, 8), dt)
    x = xp.asarray(a)
    for norm in ("backward", "ortho", "forward"):
        h = xp.fft.ihfft(x, norm=norm)
        check(h, np.fft.ihfft(a, norm=norm), dt)
        c = np.fft.ihfft(a, norm=norm)
        check(xp.fft.hfft(xp.asarray(c), n=8, norm=norm), np.fft.hfft(c, n=8, norm=norm), dt)


def test_strided_views_and_batches():
    dt = CPLX[0]
    a = rng_c((6, 16), dt)
    x = xp.asarray(a)
    v = x[::2, 3:15]  # a strided view with an offset
    check(xp.fft.fft(v), np.fft.fft(a[::2, 3:15]), dt)
    t = xp.permute_dims(x, (1, 0))
    check(xp.fft.fft(t), np.fft.fft(a.T), dt)
    r = xp.asarray(rng_r((6, 16), REAL[0]))
    check(xp.fft.rfft(r[1:, ::2]), np.fft.rfft(np.asarray(r)[1:, ::2]), REAL[0])


def test_empty_batch():
    dt = CPLX[0]
    x = xp.asarray(np.zeros((0, 8), dt))
    y = xp.fft.fft(x)
    assert y.shape == (0, 8)
    assert xp.fft.rfft(xp.asarray(np.zeros((0, 8), REAL[0]))).shape == (0, 5)


def test_errors():
    x = xp.asarray(rng_c((4,), CPLX[0]))
    with pytest.raises(ValueError):
        xp.fft.fft(x, n=0)
    with pytest.raises(ValueError):
        xp.fft.fft(x, norm="bogus")
    with pytest.raises(TypeError):
        xp.fft.fft(xp.asarray(rng_r((4,), REAL[0])))
    with pytest.raises(TypeError):
        xp.fft.rfft(x)


@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_freqs(n, d):
    for dt in REAL:
        f = xp.fft.fftfreq(n, d=d, dtype=getattr(xp, dt))
        assert f.dtype == getattr(xp, dt)
        check(f, np.fft.fftfreq(n, d=d).astype(dt), dt)
        r = xp.fft.rfftfreq(n, d=d, dtype=getattr(xp, dt))
        check(r, np.fft.rfftfreq(n, d=d).astype(dt), dt)


@pytest.mark.parametrize("shape, axes", [((7,), None), ((4, 5), None), ((4, 5), (1,)), ((3, 4, 5), (0, 2)),
                                         ((0, 4), None)])
def test_shifts(shape, axes):
    dt = REAL[0]
    a = rng_r(shape, dt)
    x = xp.asarray(a)
    np.testing.assert_array_equal(np.asarray(xp.fft.fftshift(x, axes=axes)), np.fft.fftshift(a, axes=axes))
    np.testing.assert_array_equal(np.asarray(xp.fft.ifftshift(x, axes=axes)), np.fft.ifftshift(a, axes=axes))


def test_plan_cache_bounded_and_reused():
    dt = CPLX[0]
    a = rng_c((2, 8), dt)
    x = xp.asarray(a)
    xp.fft.fft(x)
    n = len(_fft._plans)
    for _ in range(3):
        check(xp.fft.fft(x), np.fft.fft(a), dt)
    assert len(_fft._plans) == n <= _fft.MAX_PLANS


def test_arrays_past_the_descriptor_range():
    # An allocation past max_storage_buffer_range in its arena (a large arena on lavapipe, 128
    # MiB) is copied into memory VkFFT's descriptors reach: still native.
    from array_api_vulkan._kernels._fft import _in_range

    dt = CPLX[0]
    a = rng_c((3, 12), dt)
    x = xp.asarray(a)
    dev = x.device
    rng = dev.limits["max_storage_buffer_range"]
    if rng >= 1 << 30:
        pytest.skip("the device binds 1 GiB: every arena is in range")
    big = dev.alloc(rng + (1 << 20))  # an arena of its own, larger than the range
    view = type(x)._new(big, x.dtype, x.shape, None, (rng + 4096) // 8)
    view[...] = x
    assert not _in_range(view)
    check(xp.fft.fft(view), np.fft.fft(a), dt)
    check(xp.fft.irfft(view), np.fft.irfft(a), dt)


def test_locale_kept(monkeypatch):
    # VkFFT's code generator switches the process to the C locale while it prints kernels.
    import locale

    monkeypatch.setenv("ARRAY_API_VULKAN_CACHE_DIR", "")  # compile, not load from disk
    before = locale.setlocale(locale.LC_ALL, None)
    xp.fft.fft(xp.asarray(rng_c((2, 22), CPLX[0])))  # a new layout: a plan is made
    assert locale.setlocale(locale.LC_ALL, None) == before


# --- the no-copy paths: an input laid out as VkFFT reads it is read in place (c2c out of place,
# r2c), never written; every other layout is copied first.

def _forbid_copies(monkeypatch):
    """Fails a transform that copies an input it could read in place (the _moved path): one
    within the descriptors' reach (an input placed past it by earlier tests' large arenas, on
    lavapipe's 128 MiB range, is copied by design)."""
    orig = _fft._moved

    def moved(x, *a, **k):
        if _fft._in_range(x):
            raise AssertionError("the input was copied")
        return orig(x, *a, **k)
    monkeypatch.setattr(_fft, "_moved", moved)


@pytest.fixture
def no_copy(monkeypatch):
    _forbid_copies(monkeypatch)


@pytest.mark.parametrize("dt", CPLX)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_c2c_reads_input_in_place(dt, norm, no_copy):
    a = rng_c((3, 4, 16), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x, norm=norm), np.fft.fft(a, norm=norm), dt)  # last axis, batched
    check(xp.fft.ifft(x, norm=norm), np.fft.ifft(a, norm=norm), dt)
    check(xp.fft.fftn(x, axes=(1, 2), norm=norm), np.fft.fftn(a, axes=(1, 2), norm=norm), dt)  # trailing axes
    check(xp.fft.ifftn(x, norm=norm), np.fft.ifftn(a, norm=norm), dt)  # all three
    np.testing.assert_array_equal(np.asarray(x), a)  # the input is unchanged


@pytest.mark.parametrize("dt", CPLX)
@pytest.mark.parametrize("axes, copied", [((0,), False), ((1,), False), ((0, 1), False), ((1, 3), False),
                                          ((3, 1), False), ((0, 2), True), ((0, 1, 3), True), ((2, 0, 3), True)])
def test_c2c_strided_axes(dt, axes, copied, monkeypatch):
    # axes that are not innermost: VkFFT's outer dimensions over untransformed ones (omitted),
    # read where they lie while that takes at most 3 dimensions (axes outside the first
    # transformed one are a batch; consecutive untransformed ones merge); copied past that
    if not copied:
        _forbid_copies(monkeypatch)
    a = rng_c((4, 3, 6, 8), dt)
    x = xp.asarray(a)
    check(xp.fft.fftn(x, axes=axes), np.fft.fftn(a, axes=axes), dt)
    check(xp.fft.ifftn(x, axes=axes), np.fft.ifftn(a, axes=axes), dt)
    check(xp.fft.ifftn(x, axes=axes, norm="ortho"), np.fft.ifftn(a, axes=axes, norm="ortho"), dt)
    np.testing.assert_array_equal(np.asarray(x), a)


@pytest.mark.parametrize("dt", CPLX)
def test_irfftn_without_copies(dt, no_copy):
    rdt = {"complex64": "float32", "complex128": "float64"}[dt]
    a = rng_c((6, 8, 5), dt)
    x = xp.asarray(a)
    for norm in ("backward", "ortho", "forward"):
        check(xp.fft.irfftn(x, norm=norm), np.fft.irfftn(a, norm=norm), rdt)
        check(xp.fft.irfftn(x, axes=(0, 2), norm=norm), np.fft.irfftn(a, axes=(0, 2), norm=norm), rdt)
    np.testing.assert_array_equal(np.asarray(x), a)


@pytest.mark.parametrize("dt", CPLX)
def test_c2c_in_place_with_offsets(dt, no_copy):
    a = rng_c((5, 12), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x[2:]), np.fft.fft(a[2:]), dt)  # a row offset
    f = xp.asarray(a.reshape(-1))
    check(xp.fft.ifft(f[1:]), np.fft.ifft(a.reshape(-1)[1:]), dt)  # an offset of one element
    np.testing.assert_array_equal(np.asarray(x), a)
    np.testing.assert_array_equal(np.asarray(f), a.reshape(-1))


@pytest.mark.parametrize("dt", REAL)
def test_r2c_reads_input_in_place(dt, no_copy):
    a = rng_r((3, 4, 10), dt)
    x = xp.asarray(a)
    check(xp.fft.rfft(x), np.fft.rfft(a), dt)
    check(xp.fft.rfftn(x, axes=(1, 2), norm="ortho"), np.fft.rfftn(a, axes=(1, 2), norm="ortho"), dt)
    f = xp.asarray(a.reshape(-1))
    check(xp.fft.rfft(f[1:]), np.fft.rfft(a.reshape(-1)[1:]), dt)  # an odd offset
    check(xp.fft.ihfft(x), np.fft.ihfft(a), dt)
    np.testing.assert_array_equal(np.asarray(x), a)


@pytest.mark.parametrize("dt", CPLX)
def test_copies_where_layout_needs_it(dt):
    # strided, transposed, padded and truncated inputs go through a copy; the input is unchanged
    a = rng_c((6, 16), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x[:, ::2]), np.fft.fft(a[:, ::2]), dt)
    check(xp.fft.fft(x, axis=0, norm="ortho"), np.fft.fft(a, axis=0, norm="ortho"), dt)
    check(xp.fft.fft(x, n=20), np.fft.fft(a, n=20), dt)
    check(xp.fft.ifft(x, n=10, norm="forward"), np.fft.ifft(a, n=10, norm="forward"), dt)
    check(xp.fft.fftn(x, s=(4, 16)), np.fft.fftn(a, s=(4, 16)), dt)
    np.testing.assert_array_equal(np.asarray(x), a)


@pytest.mark.parametrize("dt", CPLX)
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_c2r_leaves_input_unchanged(dt, norm):
    rdt = {"complex64": "float32", "complex128": "float64"}[dt]
    a = rng_c((4, 6, 5), dt)  # not Hermitian: the DC/Nyquist imaginary parts matter
    x = xp.asarray(a)
    check(xp.fft.irfft(x, norm=norm), np.fft.irfft(a, norm=norm), rdt)
    check(xp.fft.irfftn(x, norm=norm), np.fft.irfftn(a, norm=norm), rdt)
    check(xp.fft.irfftn(x, s=(6, 9), axes=(1, 2), norm=norm), np.fft.irfftn(a, s=(6, 9), axes=(1, 2), norm=norm), rdt)
    check(xp.fft.hfft(x, norm=norm), np.fft.hfft(a, norm=norm), rdt)
    np.testing.assert_array_equal(np.asarray(x), a)


def test_multi_upload_lengths():
    # lengths past one shared-memory pass (VkFFT's four-step), read in place and copied
    dt = CPLX[0]
    for n in (1 << 14, 3 * 5 * 7 * 11 * 13, 4099):  # (4099: a prime, Bluestein's padded sequence)
        a = rng_c((n,), dt)
        x = xp.asarray(a)
        check(xp.fft.fft(x), np.fft.fft(a), dt)
        check(xp.fft.ifft(x), np.fft.ifft(a), dt)
        check(xp.fft.fft(x[::2]), np.fft.fft(a[::2]), dt)
        np.testing.assert_array_equal(np.asarray(x), a)


def test_strided_bluestein():
    dt = CPLX[-1]
    a = rng_c((97, 3, 4), dt)
    x = xp.asarray(a)
    check(xp.fft.fft(x, axis=0), np.fft.fft(a, axis=0), dt)
    check(xp.fft.ifftn(x, axes=(0, 1)), np.fft.ifftn(a, axes=(0, 1)), dt)
    np.testing.assert_array_equal(np.asarray(x), a)


def test_fused_input():
    # an elementwise result held for fusion is computed before VkFFT reads it
    from array_api_vulkan._kernels import _fuse

    dt = CPLX[0]
    a = rng_c((4, 32), dt)
    x = xp.asarray(a)
    old = _fuse.MIN_ELEMENTS
    _fuse.MIN_ELEMENTS = 0
    try:
        y = x * 2 + 1
        check(xp.fft.fft(y), np.fft.fft(a * 2 + 1), dt)
    finally:
        _fuse.MIN_ELEMENTS = old


def test_vkfft_settings_from_environment(monkeypatch):
    dt = CPLX[0]
    a = rng_c((3, 64), dt)
    x = xp.asarray(a)
    xp.fft.fft(x)
    monkeypatch.setenv("ARRAY_API_VULKAN_VKFFT_CONFIG", "aimThreads=64, coalescedMemory=64")
    assert _fft.knobs() == "aimThreads=64,coalescedMemory=64"
    check(xp.fft.fft(x), np.fft.fft(a), dt)
    assert any(k[7] == "aimThreads=64,coalescedMemory=64" for k in _fft._plans)  # its own plan
    monkeypatch.setenv("ARRAY_API_VULKAN_VKFFT_CONFIG", "noSuchSetting=1")
    with pytest.raises(ValueError, match="noSuchSetting"):
        xp.fft.fft(xp.asarray(rng_c((3, 66), dt)))


def test_vkfft_settings_per_layout(monkeypatch):
    # Unset, NVIDIA devices read single-precision one-dimensional transforms' strided passes 128
    # bytes wide, not where a dimension is omitted (a transform along an outer axis), more are
    # transformed, or in float64; the variable, where set, wins everywhere. Other devices keep
    # VkFFT's own choice.
    monkeypatch.delenv("ARRAY_API_VULKAN_VKFFT_CONFIG", raising=False)

    class Dev:
        info = {"vendor_id": 0x10DE}

    assert _fft.settings(Dev(), (1 << 24,), False, 0) == _fft.NVIDIA_SETTINGS
    assert _fft.settings(Dev(), (1 << 24,), True, 0) == ""
    assert _fft.settings(Dev(), (64, 64), False, 0) == ""
    assert _fft.settings(Dev(), (64, 64), False, _fft._OMIT[0]) == ""
    Dev.info = {"vendor_id": 0x10005}
    assert _fft.settings(Dev(), (1 << 24,), False, 0) == ""
    monkeypatch.setenv("ARRAY_API_VULKAN_VKFFT_CONFIG", "aimThreads=64")
    assert _fft.settings(Dev(), (64, 64), True, _fft._OMIT[0]) == "aimThreads=64"


def test_real_transforms_keep_each_sequence_accurate(monkeypatch):
    """rfft/irfft of a batch whose columns (or rows) differ in scale by 1e6: each one's error is
    relative to its own magnitude, as numpy's (VkFFT merging two real sequences into one
    complex transform gave the smaller one a 2-9 % error in float32)."""
    monkeypatch.delenv("ARRAY_API_VULKAN_VKFFT_CONFIG", raising=False)
    rng = np.random.default_rng(3)
    for name in REAL:
        tol = 1e-5 if name == "float32" else 1e-12
        for axis in (0, 1):
            r = rng.standard_normal((8, 6)).astype(name)
            z = (rng.standard_normal((8, 6)) + 1j * rng.standard_normal((8, 6))).astype(
                np.result_type(name, np.complex64))
            big = (slice(None), 3) if axis == 0 else (3, slice(None))
            r[big] *= 1e6
            z[big] *= 1e6
            pairs = ((xp.fft.rfft(xp.asarray(r), axis=axis), np.fft.rfft(r.astype(float), axis=axis)),
                     (xp.fft.irfft(xp.asarray(z), axis=axis),
                      np.fft.irfft(z.astype(complex), axis=axis)))
            for got, want in pairs:
                err = np.abs(np.asarray(got) - want).max(axis=axis) / np.abs(want).max(axis=axis)
                assert err.max() < tol, (name, axis, err)
    assert "disableMergeSequencesR2C=1" in _fft.settings(object(), (8,), False, 0, "c2r")
    assert "disableMergeSequencesR2C=1" in _fft.settings(object(), (8, 6), False, 0, "r2c", 2)
    assert "disableMergeSequencesR2C=1" in _fft.settings(object(), (8, 6), False, 32, "r2c", 1)
    monkeypatch.setenv("ARRAY_API_VULKAN_VKFFT_CONFIG", "disableMergeSequencesR2C=0")
    assert _fft.settings(object(), (8,), False, 0, "r2c") == "disableMergeSequencesR2C=0"


@pytest.mark.parametrize("shape", [(64, 64), (16, 32, 64), (128, 48)])
def test_real_transforms_over_every_axis_may_merge(monkeypatch, shape):
    """rfftn/irfftn over every axis with no batch: VkFFT may merge sequences there (each output
    mixes every row, so a row 1e6 times larger is in every output's error anyway), and the
    errors stay numpy's: the largest within 1e-5 of the largest output (float32), the median
    elementwise one within 1e-5."""
    monkeypatch.delenv("ARRAY_API_VULKAN_VKFFT_CONFIG", raising=False)
    assert _fft.settings(object(), shape[::-1], False, 0, "r2c", 1) == ""
    rng = np.random.default_rng(4)
    for name in REAL:
        tol = 1e-5 if name == "float32" else 1e-12
        r = rng.standard_normal(shape).astype(name)
        r[1] *= 1e6
        r[(0,) * (len(shape) - 1) + (slice(None),)] = 1e6  # a constant row
        half = shape[:-1] + (shape[-1] // 2 + 1,)
        z = rng.standard_normal(half) + 1j * rng.standard_normal(half)
        z[1] *= 1e6
        z = z.astype(np.result_type(name, np.complex64))
        pairs = ((xp.fft.rfftn(xp.asarray(r)), np.fft.rfftn(r.astype(float))),
                 (xp.fft.irfftn(xp.asarray(z), s=shape, axes=tuple(range(len(shape)))),
                  np.fft.irfftn(z.astype(complex), s=shape, axes=tuple(range(len(shape))))))
        for got, want in pairs:
            err = np.abs(np.asarray(got) - want)
            assert err.max() / np.abs(want).max() < tol, (name, err.max())
            assert np.median(err / np.maximum(np.abs(want), 1e-300)) < tol, name


def test_vkfft_plan_diagnostics(monkeypatch):
    # FFTPlan.uploads: how VkFFT split a transform (one entry per pass over memory);
    # resolved_settings: the settings it planned with, the layout's included.
    monkeypatch.setenv("ARRAY_API_VULKAN_VKFFT_CONFIG", "coalescedMemory=64")
    dt = CPLX[0]
    n = 1 << 18  # (more than one pass of shared memory on lavapipe and NVIDIA alike)
    a = rng_c(n, dt)
    check(xp.fft.fft(xp.asarray(a)), np.fft.fft(a), dt)
    plans = [p for k, p in _fft._plans.items() if k[1] == (n,) and k[7] == "coalescedMemory=64"]
    assert plans
    ups = plans[0].uploads
    assert len(ups) == 1 and len(ups[0]) >= 2
    assert math.prod(u[0] for u in ups[0]) == n
    assert plans[0].resolved_settings["coalescedMemory"] == 64


def test_past_the_reach_falls_back(monkeypatch):
    # Arrays larger than what a descriptor reaches (max_storage_buffer_range: 128 MiB on
    # lavapipe) are not native: supports_fft says so and the host path, counted, computes them.
    # A real one (2^24 + 16 complex64) took 20 s here (upload and numpy's fft on 2 loaded
    # cores), too slow for the suite: the reach is shrunk to 256 bytes instead.
    from array_api_vulkan import _kernels

    dt = CPLX[0]
    a = rng_c((4, 16), dt)
    x = xp.asarray(a)
    assert _kernels.supports_fft("c2c", x, (1,), (16,))
    monkeypatch.setattr(spec_fft, "_resolved", {})  # (a repeat would not ask the patched parts)
    monkeypatch.setattr(_fft, "_reach", lambda dev: 256)
    monkeypatch.setattr(_fft, "_supported", {})  # (answers kept for the real reach)
    monkeypatch.setattr(_fft, "_direct", {})
    assert not _kernels.supports_fft("c2c", x, (1,), (16,))
    assert _kernels.supports_fft("c2c", x[:1], (1,), (16,))  # 128 bytes: still native
    check(xp.fft.fft(x), np.fft.fft(a), dt)
    assert xp.runtime_stats()["host_fallbacks"] == {"fft": 1}
    xp.reset_runtime_stats()


def test_refused_plan_falls_back(monkeypatch):
    # A layout VkFFT refuses at plan time: NotNative, a counted host fallback, remembered.
    from array_api_vulkan import _kernels

    dt = CPLX[0]
    a = rng_c((2, 24), dt)
    x = xp.asarray(a)
    monkeypatch.setattr(spec_fft, "_resolved", {})  # (a repeat would not ask the patched parts)
    monkeypatch.setattr(_fft, "_refused", set())
    monkeypatch.setattr(_fft, "_plan", lambda *a, **k: None)
    check(xp.fft.fft(x), np.fft.fft(a), dt)
    assert xp.runtime_stats()["host_fallbacks"] == {"fft": 1}
    assert not _kernels.supports_fft("c2c", x, (1,), (24,))
    xp.reset_runtime_stats()



@pytest.mark.parametrize("dt", REAL)
@pytest.mark.parametrize("n", [7, 8, 13])
def test_real_transforms_through_c2c(dt, n, monkeypatch):
    """Real transforms VkFFT does not plan go through complex ones (spec_fft._real_via_c2c),
    natively: every real function, norm, n= cut and pad, and several axes, against numpy. The
    kernels layer is made to refuse every r2c and c2r here."""
    from array_api_vulkan import _kernels

    real_supports = _kernels.supports_fft
    monkeypatch.setattr(spec_fft, "_resolved", {})
    monkeypatch.setattr(_kernels, "supports_fft",
                        lambda kind, *a: kind == "c2c" and real_supports(kind, *a))
    a = rng_r((3, n), dt)
    c = np.fft.rfft(a) + 0.25j  # (imaginary DC and Nyquist parts: numpy's irfft drops them)
    x, xc = xp.asarray(a), xp.asarray(c.astype(np.result_type(dt, np.complex64)))
    for norm in ("backward", "ortho", "forward"):
        check(xp.fft.rfft(x, norm=norm), np.fft.rfft(a, norm=norm), dt)
        check(xp.fft.rfft(x, n=n + 3, axis=0, norm=norm), np.fft.rfft(a, n=n + 3, axis=0, norm=norm), dt)
        check(xp.fft.ihfft(x, norm=norm), np.fft.ihfft(a, norm=norm), dt)
        for m in (n, n - 2, 2 * n):  # the halved axis as it is, cut and padded
            check(xp.fft.irfft(xc, n=m, norm=norm), np.fft.irfft(c, n=m, norm=norm), dt)
            check(xp.fft.hfft(xc, n=m, norm=norm), np.fft.hfft(c, n=m, norm=norm), dt)
        check(xp.fft.rfftn(x, norm=norm), np.fft.rfftn(a, norm=norm), dt)
        check(xp.fft.irfftn(xc, s=(3, n), axes=(0, 1), norm=norm),
              np.fft.irfftn(c, s=(3, n), axes=(0, 1), norm=norm), dt)
    y = xp.fft.irfft(xc, n=n)
    assert y.dtype == x.dtype and y.shape == (3, n)
    assert xp.fft.rfft(x).dtype == xc.dtype
    for m in (1, 2):  # no mirror to add: the last transform reads the input (or a view of it)
        check(xp.fft.irfft(xc, n=m), np.fft.irfft(c, n=m), dt)
        one = np.ascontiguousarray(c[0, :m // 2 + 1])
        x1 = xp.asarray(one)
        check(xp.fft.irfft(x1, n=m), np.fft.irfft(one, n=m), dt)
        np.testing.assert_array_equal(np.asarray(x1), one.astype(x1.dtype.name))  # as it was
    np.testing.assert_array_equal(np.asarray(xc), c.astype(xc.dtype.name))


@pytest.mark.parametrize("dt", REAL)
def test_real_transforms_of_long_prime_lengths(dt):
    """rfft / irfft of prime lengths VkFFT 1.2.26 takes only through Bluestein (it refused
    real ones of 2053 on lavapipe): native, whichever way the device answers."""
    for n in (2053, 4099):
        a = rng_r((n,), dt, seed=n)
        y = xp.fft.rfft(xp.asarray(a))
        check(y, np.fft.rfft(a), dt)
        check(xp.fft.irfft(y, n=n), a, dt)


def test_repeated_layout_takes_the_kept_recipe(monkeypatch):
    """A layout read in place a second time skips the checks (_fft._direct): the same values,
    the input untouched, for other arrays of that layout (another allocation, a view at another
    offset), for r2c as for c2c; a new layout takes the general path first."""
    dt = CPLX[0]
    rdt = {"complex64": "float32", "complex128": "float64"}[dt]
    monkeypatch.setattr(spec_fft, "_resolved", {})  # (a repeat would not ask the patched parts)
    monkeypatch.setattr(_fft, "_direct", {})
    general = []  # (_one's general path asks whether its input is C-contiguous, once)
    real = _fft._c_contiguous
    monkeypatch.setattr(_fft, "_c_contiguous", lambda x: general.append(x.shape) or real(x))
    for k in range(3):
        b = rng_c((5, 3, 16), dt, seed=k)
        y = within(b)
        check(xp.fft.fft(y), np.fft.fft(b), dt)
        check(xp.fft.fft(y[1:4]), np.fft.fft(b[1:4]), dt)  # other offsets, one layout
        np.testing.assert_array_equal(np.asarray(y), b)
        r = rng_r((6, 32), rdt, seed=k)
        check(xp.fft.rfft(within(r)), np.fft.rfft(r), dt)
    assert general == [(5, 3, 16), (3, 3, 16), (6, 32)], general  # each layout's first time only
    assert len(_fft._direct) == 3


@pytest.mark.parametrize("norm", ["backward", "ortho"])
def test_repeated_call_skips_the_checks(monkeypatch, norm):
    """A call seen before (same name, dtype, shape, strides, n/axis, norm) runs the kernels
    layer's Repeat straight from the spec layer: same values (the norm's scale too), other
    offsets and allocations of that layout, r2c as c2c, no question asked of supports_fft; a
    refused plan stops every Repeat made before it."""
    from array_api_vulkan import _kernels

    dt = CPLX[0]
    rdt = {"complex64": "float32", "complex128": "float64"}[dt]
    monkeypatch.setattr(spec_fft, "_resolved", {})
    a, r = rng_c((5, 40), dt), rng_r((6, 2, 30), rdt)
    x, xr = within(a), within(r)
    check(xp.fft.fft(x, norm=norm), np.fft.fft(a, norm=norm), dt)
    check(xp.fft.rfftn(xr, axes=(1, 2), norm=norm), np.fft.rfftn(r, axes=(1, 2), norm=norm), dt)
    assert len(spec_fft._resolved) == 2
    asked = []
    real = _kernels.supports_fft
    monkeypatch.setattr(_kernels, "supports_fft", lambda *a: asked.append(a) or real(*a))
    for k in range(3):
        b = rng_c((6, 40), dt, seed=k + 1)
        y = within(b)
        check(xp.fft.fft(y[1:], norm=norm), np.fft.fft(b[1:], norm=norm), dt)  # another offset
        check(xp.fft.fft(x, norm=norm), np.fft.fft(a, norm=norm), dt)
        check(xp.fft.rfftn(xr, axes=(1, 2), norm=norm), np.fft.rfftn(r, axes=(1, 2), norm=norm), dt)
        np.testing.assert_array_equal(np.asarray(y), b)  # the input is never written
    assert asked == []
    check(xp.fft.fft(x, axis=0, norm=norm), np.fft.fft(a, axis=0, norm=norm), dt)  # a new call
    assert len(asked) == 1
    gen = _fft._generation[0]
    repeat = spec_fft._resolved[("fft", type(x), x.dtype, x._shape, x._strides, x.device, None, -1, norm)][0]
    monkeypatch.setattr(_fft, "_refused", set())
    monkeypatch.setattr(_fft, "_plan", lambda *a, **k: None)  # a plan refused: NotNative, counted
    check(xp.fft.fft(xp.asarray(rng_c((3, 22), dt)), norm=norm), np.fft.fft(rng_c((3, 22), dt), norm=norm), dt)
    assert _fft._generation[0] == gen + 1 and repeat(x) is None
    assert xp.runtime_stats()["host_fallbacks"] == {"fft": 1}
    xp.reset_runtime_stats()
