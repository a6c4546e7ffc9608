"""The cross-library benchmark suite (benchmarks/suite.py) as a smoke test on this device, and
its end-to-end workloads (benchmarks/workloads.py): right on numpy (against independent
computations), and array_api_vulkan agreeing with numpy on small data."""
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import array_api_vulkan as xp

from conftest import has

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import suite  # noqa: E402
import workloads as wl  # noqa: E402


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("suite")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "suite.py"), "--quick",
                        "--libs", "ours,numpy", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    with open(out / "suite.json") as f:
        return out, json.load(f)


def test_quick_run_writes_report_json_and_plot(quick_run):
    out, res = quick_run
    md = (out / "suite.md").read_text()
    assert res["libs"] == ["ours", "numpy"]  # in --libs order
    names = [n for n, _ in suite.all_names(suite.QUICK)]
    assert [w["name"] for w in res["workloads"]] == names
    assert set(suite.GROUPS) == {w["group"] for w in res["workloads"]}
    for name in names:
        assert f"| {name} |" in md
        assert set(res["rows"][name]) == {"ours", "numpy"}
    assert res["meta"]["libraries"]["ours"]["device"].startswith(
        xp.__array_namespace_info__().default_device().info["name"])
    assert "numpy" in md and "array_api_vulkan" in md and "Quick sizes" in md
    if importlib.util.find_spec("matplotlib"):
        assert res["plot"] == "suite.png" and (out / "suite.png").stat().st_size > 10_000
    else:
        assert "Plot skipped" in md


def test_quick_run_rows(quick_run):
    _, res = quick_run
    for name, by_lib in res["rows"].items():
        np_row, ours = by_lib["numpy"], by_lib["ours"]
        assert "error" not in np_row and "skipped" not in np_row, (name, np_row)
        assert np_row["sync"] == np_row["batched"] > 0
        assert "error" not in ours, (name, ours)
        if "skipped" in ours:  # only for a dtype the (masked) device lacks
            w = {w.name: w for w in suite.workload_table(suite.QUICK)}[name]
            assert not has(*w.needs), (name, ours)
            continue
        assert ours["sync"] > 0 and ours["batched"] > 0
        if "host" in ours:
            assert all(v > 0 for v in ours["host"].values())
    assert res["rows"]["matmul_f32_1024"]["ours"]["TFLOPs"] > 0
    assert res["rows"]["upload_256MB"]["numpy"]["GBps"] > 0
    assert res["rows"]["chain1000_small"]["ours"]["ops"] == suite.QUICK["chain"]


def test_host_rows_are_marked(quick_run):
    out, res = quick_run
    md = (out / "suite.md").read_text()
    hosts = [n for n, by in res["rows"].items() if by["ours"].get("host")]
    for n in hosts:
        assert f"{n} / ours: host fallbacks" in md
    table = md.split("## Batched")[0]
    seen = 0
    for line in table.splitlines():
        cells = line.split(" | ")
        if len(cells) > 3 and cells[1] in res["rows"]:
            seen += 1
            assert cells[2].endswith(" host") == (cells[1] in hosts), line  # the ours column
    assert seen == len(res["rows"])


def test_report_ratios_and_errors_without_a_device():
    res = {"meta": suite.meta(suite.QUICK), "libs": ["a", "b"],
           "workloads": [{"name": "w1", "group": "dataops"}, {"name": "w2", "group": "linalg"}],
           "rows": {"w1": {"a": {"sync": 2e-3, "batched": 1e-3, "host": {"sort": 1}}, "b": {"sync": 1e-3, "batched": 1e-3}},
                    "w2": {"a": {"error": "RuntimeError: boom"}, "b": {"sync": 1.5, "batched": 1.5, "TFLOPs": 2.0}}}}
    res["meta"]["libraries"] = {"a": {"versions": {"a": "1"}, "device": "dev"}, "b": "unavailable: nope"}
    assert suite.ratios(res, "sync") == {"w1": {"a": 2.0, "b": 1.0}, "w2": {"b": 1.0}}
    md = suite.markdown(res)
    assert "| dataops | w1 | 2 ms host | 1 ms | 2 | 1 |" in md
    assert "| linalg | w2 | error: RuntimeError | 1.50 s (2 TFLOP/s) |  | 1 |" in md
    assert "w2 / a: error: RuntimeError: boom" in md and "unavailable: nope" in md


def test_only_and_unknown_names(tmp_path):
    res = suite.main(["--quick", "--libs", "numpy,nosuchlib", "--only", "elementwise,kmeans",
                      "--out", str(tmp_path)])
    assert [w["name"] for w in res["workloads"]] == [
        "add_f32_16M", "add_f64_16M", "exp_f32_16M", "exp_f64_16M", "chain5_f32_16M", "kmeans"]
    assert res["meta"]["libraries"]["nosuchlib"].startswith("unavailable: ValueError")
    assert res["libs"] == ["numpy"]
    with pytest.raises(SystemExit):
        suite.main(["--only", "nosuchworkload"])


# ----------------------------------------------------------------------- workloads on numpy

def _data(kind, sizes=wl.QUICK, seed=0):
    return wl.make_data(kind, sizes, np.random.default_rng(seed))


def _logloss(X, y, w, b):
    z = X @ w + b
    return np.mean(np.logaddexp(0, z) - y * z)


def test_logistic_regression_on_numpy():
    d = _data("logistic_regression")
    w, b = wl.logistic_regression(np, d, steps=20)
    X, y = d["X"].astype(np.float64), d["y"].astype(np.float64)
    assert _logloss(X, y, w, b) < 0.7 * _logloss(X, y, 0 * w, 0.0)
    assert np.mean(((X @ w + b) > 0) == (y > 0.5)) > 0.85
    # One step from zero is -lr times the gradient of the mean log-loss (central differences).
    small = {"X": X[:50, :3], "y": y[:50]}
    w1, b1 = wl.logistic_regression(np, small, steps=1, lr=0.5)
    eps = 1e-6
    for j in range(3):
        e = np.zeros(3)
        e[j] = eps
        g = (_logloss(small["X"], small["y"], e, 0.0) - _logloss(small["X"], small["y"], -e, 0.0)) / (2 * eps)
        assert w1[j] == pytest.approx(-0.5 * g, rel=1e-5, abs=1e-9)
    gb = (_logloss(small["X"], small["y"], np.zeros(3), eps) - _logloss(small["X"], small["y"], np.zeros(3), -eps))
    assert float(b1) == pytest.approx(-0.5 * gb / (2 * eps), rel=1e-5)


def test_kmeans_on_numpy_is_a_fixed_point():
    d = _data("kmeans")
    C, labels = wl.kmeans(np, d, iters=10)
    X = d["X"]
    d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)
    assert np.array_equal(np.argmin(d2, axis=1), labels)
    for j in range(C.shape[0]):
        assert np.allclose(C[j], X[labels == j].mean(axis=0), rtol=1e-4, atol=1e-4)
    assert len(np.unique(labels)) == C.shape[0]


def test_pca_on_numpy():
    d = _data("pca")
    evals, comps = wl.pca(np, d, components=4)
    cov = np.cov(d["X"].astype(np.float64), rowvar=False)
    ref = np.linalg.eigvalsh(cov)[::-1]
    assert np.allclose(evals, ref, rtol=1e-3, atol=1e-4)
    for j in range(4):
        v = comps[:, j].astype(np.float64)
        assert np.allclose(cov @ v, ref[j] * v, rtol=1e-3, atol=1e-3 * ref[0])


def test_mlp_step_gradients_on_numpy():
    sizes = dict(wl.QUICK, mlp_batch=5, mlp_in=4, mlp_hidden=6, mlp_out=3)
    d = {k: v.astype(np.float64) for k, v in _data("mlp_step", sizes).items()}
    d["b1"] = np.random.default_rng(1).standard_normal(6)
    lr = 0.1
    loss, new = wl.mlp_step(np, d, lr=lr)
    eps = 1e-6
    for i, key in enumerate(("W1", "b1", "W2", "b2")):
        grad = (d[key] - new[i]) / lr
        flat = d[key].reshape(-1)
        for j in range(0, flat.size, max(1, flat.size // 5)):
            def at(delta):
                p = dict(d)
                q = flat.copy()
                q[j] += delta
                p[key] = q.reshape(d[key].shape)
                return wl.mlp_step(np, p, lr=lr)[0]
            fd = (at(eps) - at(-eps)) / (2 * eps)
            assert grad.reshape(-1)[j] == pytest.approx(fd, rel=1e-4, abs=1e-8), (key, j)
    assert 0 < loss < 10


# ---------------------------------------------------------- array_api_vulkan agrees with numpy

def _on_ours(data):
    return {k: xp.asarray(v) for k, v in data.items()}


def _np(a):
    return np.asarray(a)


def test_logistic_regression_ours_matches_numpy():
    d = _data("logistic_regression")
    w_ref, b_ref = wl.logistic_regression(np, d)
    w, b = wl.logistic_regression(xp, _on_ours(d))
    assert np.allclose(_np(w), w_ref, rtol=1e-3, atol=1e-4)
    assert float(b) == pytest.approx(float(b_ref), rel=1e-3, abs=1e-4)


def test_kmeans_ours_matches_numpy():
    d = _data("kmeans")
    C_ref, l_ref = wl.kmeans(np, d)
    C, labels = wl.kmeans(xp, _on_ours(d))
    assert np.array_equal(_np(labels), l_ref)
    assert np.allclose(_np(C), C_ref, rtol=1e-4, atol=1e-4)


def test_pca_ours_matches_numpy():
    d = _data("pca")
    ev_ref, comp_ref = wl.pca(np, d, components=4)
    ev, comp = wl.pca(xp, _on_ours(d), components=4)
    assert np.allclose(_np(ev), ev_ref, rtol=1e-3, atol=1e-4)
    dots = np.abs(np.sum(_np(comp) * comp_ref, axis=0))  # unit vectors, up to sign
    assert np.allclose(dots, 1.0, atol=1e-3)


def test_mlp_step_ours_matches_numpy():
    d = _data("mlp_step")
    loss_ref, new_ref = wl.mlp_step(np, d)
    loss, new = wl.mlp_step(xp, _on_ours(d))
    assert float(loss) == pytest.approx(float(loss_ref), rel=1e-4)
    for a, b in zip(new, new_ref):
        assert np.allclose(_np(a), b, rtol=1e-4, atol=1e-5)


def test_combine_runs(tmp_path):
    runs = []
    for i, lib in enumerate(("a", "b")):
        res = {"meta": suite.meta(suite.QUICK), "libs": [lib], "workloads": [{"name": f"w{i}", "group": "e2e"}],
               "rows": {f"w{i}": {lib: {"sync": 1.0 + i, "batched": 1.0}}}}
        res["meta"]["libraries"] = {lib: {"versions": {lib: "1"}, "device": "dev"}}
        (tmp_path / lib).mkdir()
        (tmp_path / lib / "suite.json").write_text(json.dumps(res))
        runs.append(str(tmp_path / lib))
    res = suite.main(["--combine", ",".join(runs), "--out", str(tmp_path / "both")])
    assert res["libs"] == ["a", "b"] and [w["name"] for w in res["workloads"]] == ["w0", "w1"]
    assert res["rows"] == {"w0": {"a": {"sync": 1.0, "batched": 1.0}}, "w1": {"b": {"sync": 2.0, "batched": 1.0}}}
    assert (tmp_path / "both" / "suite.md").exists()
