"""Every kernel family end to end: X-GPC fits banana-like data with a Matérn kernel, the hyperparameter ELBO gradients
of X-GPC and both SVGP baselines match finite differences for every family, the Gibbs sampler with a Matérn kernel
matches a brute-force posterior, the estimator and the Model take a family name or a kernel object (copied, never
changed), and the history carries the kernel's parameters (ARD included) through CSV and save/load."""

import copy
import math

import numpy as np
import pytest
from scipy.special import expit

from explorer.data import datasets
from explorer.estimator import XGPClassifier
from explorer.gibbs import GibbsSampler
from explorer.hyperparameters import Adam
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import KERNELS, RBF, Matern12, Matern32, Matern52, make_kernel
from explorer.metrics import error_rate
from explorer.model import Model
from explorer.schedules import Constant
from explorer.svgp import SVGPAdam, SVGPNatGrad
from explorer.xgpc import XGPC

FAMILIES = sorted(KERNELS)
G = {  # g(r), written out independently of explorer.kernels
    "rbf": lambda r: np.exp(-0.5 * r * r),
    "matern12": lambda r: np.exp(-r),
    "matern32": lambda r: (1 + math.sqrt(3) * r) * np.exp(-math.sqrt(3) * r),
    "matern52": lambda r: (1 + math.sqrt(5) * r + 5 * r * r / 3) * np.exp(-math.sqrt(5) * r),
}


def covariance(name, X1, X2, lengthscale, variance):
    D = (X1[:, None, :] - X2[None, :, :]) / lengthscale
    return variance * G[name](np.sqrt(np.sum(D * D, axis=-1)))


def reference_xgpc_elbo(name, X, y, Z, log_params, nugget, mu, Sigma, scale):
    """scale·Σ_i(−log 2 + ½y_iκ_iμ − log cosh(c_i/2)) − KL, c_i at its optimum (the augmented bound of X-GPC); y given
    as class indices 0, 1 (y_i = ±1 in the formula)."""
    lengthscale, variance = np.exp(log_params[:-1]), np.exp(log_params[-1])
    K = covariance(name, Z, Z, lengthscale, variance) + nugget * np.eye(len(Z))
    K_nm = covariance(name, X, Z, lengthscale, variance)
    kappa = np.linalg.solve(K, K_nm.T).T
    a = kappa @ mu
    c = np.sqrt(variance + nugget - np.sum(kappa * K_nm, 1) + np.einsum("ij,jk,ik->i", kappa, Sigma, kappa) + a * a)
    bound = -np.log(2.0) + 0.5 * (2.0 * y - 1.0) * a - (np.logaddexp(c / 2, -c / 2) - np.log(2.0))
    kl = 0.5 * (
        np.trace(np.linalg.solve(K, Sigma))
        + mu @ np.linalg.solve(K, mu)
        - len(mu)
        + np.linalg.slogdet(K)[1]
        - np.linalg.slogdet(Sigma)[1]
    )
    return scale * bound.sum() - kl


def central_difference(f, x, h=1e-5):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def banana(n, seed=0):
    X, y = datasets.load("banana-like", n=n, seed=seed)[:2]
    return X, y  # class indices


# ----- X-GPC ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("lengthscale", [np.array([0.8]), np.array([0.6, 1.5])])
def test_xgpc_kernel_gradient_matches_finite_differences(name, lengthscale):
    X, y = banana(60, seed=2)
    kernel = make_kernel(name, lengthscale, 1.4, 1e-3)
    engine = XGPC(X, y, X[:8], kernel, batch_size=12, rng=np.random.default_rng(0), kernel_bound="augmented")
    engine.step(15)
    index = np.arange(3, 15)
    analytic = engine.kernel_gradient(index)
    numeric = central_difference(
        lambda t: reference_xgpc_elbo(
            name, X[index], y[index], engine.Z, t, kernel.nugget, engine.mu, engine.Sigma, 60 / 12
        ),
        kernel.log_params,
    )
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-6 * np.abs(numeric).max())


@pytest.mark.parametrize(
    "kernel",
    [Matern12(1.0), Matern32(np.array([1.0, 1.0])), Matern52(1.0)],
    ids=["matern12", "matern32-ard", "matern52"],
)
def test_xgpc_with_a_matern_kernel_fits_banana_like_data(kernel):
    X, y = banana(600, seed=1)
    train, test = np.arange(450), np.arange(450, 600)
    rng = np.random.default_rng(0)
    engine = XGPC(
        X[train],
        y[train],
        kmeans_plus_plus(X[train], 30, rng),
        kernel,
        batch_size=100,
        rng=rng,
        hyper_optimizer=Adam(0.05),
    )
    elbo_before = engine.elbo()
    engine.step(300)
    assert type(engine.kernel) is type(kernel) and not np.array_equal(engine.kernel.log_params, kernel.log_params)
    assert engine.elbo() > elbo_before + 50
    error = error_rate(engine.predict_proba(X[test]), y[test])
    assert error < 0.15  # the classes overlap; a linear rule gets ≈ 0.3 here


# ----- both SVGP baselines ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["matern12", "matern32", "matern52"])
@pytest.mark.parametrize("cls", [SVGPAdam, SVGPNatGrad])
def test_svgp_kernel_gradient_matches_finite_differences(name, cls):
    X, y = banana(50, seed=3)
    Z = X[::6].copy()
    kernel = make_kernel(name, np.array([0.7, 1.2]), 1.3, 1e-4)
    if cls is SVGPAdam:
        engine = SVGPAdam(X, y, Z, kernel, batch_size=len(y), learning_rate=0.05, rng=np.random.default_rng(0))
    else:
        engine = SVGPNatGrad(X, y, Z, kernel, batch_size=len(y), schedule=Constant(0.3), rng=np.random.default_rng(0))
    engine.step(5)  # a q(u) away from the prior
    analytic = engine.kernel_gradient(X, 2.0 * y - 1.0, engine.kernel.cross(X, Z))  # the equations' labels ±1
    start = engine.kernel

    def bound(log_params):
        engine._set_kernel(start.with_log_params(log_params))
        return engine.elbo()

    numeric = central_difference(bound, start.log_params)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-6 * np.abs(numeric).max())


# ----- the Gibbs sampler -----------------------------------------------------------------------------------------
def test_gibbs_with_a_matern_kernel_matches_the_brute_force_posterior():
    X, labels, kernel = np.array([[0.0], [0.9]]), np.array([1, 0]), Matern32(1.0, 2.5, 1e-6)
    y = 2.0 * labels - 1.0  # ±1, as σ(yf) writes them
    K = covariance("matern32", X, X, 1.0, 2.5) + 1e-6 * np.eye(2)
    L = np.linalg.cholesky(K)
    u = np.linspace(-9.0, 9.0, 401)
    U = np.stack(np.meshgrid(u, u, indexing="ij"))
    F = np.einsum("ij,jab->iab", L, U)
    w = expit(y[0] * F[0]) * expit(y[1] * F[1]) * np.exp(-0.5 * (U**2).sum(0))
    w /= w.sum()
    mean = np.array([(w * F[i]).sum() for i in range(2)])
    var = np.array([(w * (F[i] - mean[i]) ** 2).sum() for i in range(2)])
    sampler = GibbsSampler(
        X, labels, kernel, rng=np.random.default_rng(7), n_chains=4, burn_in=50, n_samples=2500, max_stored_draws=2500
    ).run(chunk=500)
    np.testing.assert_allclose(sampler.K, K, rtol=1e-12)
    standard_error = np.sqrt(var / (4 * 2500 * 0.8))  # PG Gibbs on two points mixes almost iid (ESS ≈ 0.97 N)
    assert np.all(np.abs(sampler.posterior_mean() - mean) < 5 * standard_error)
    assert np.all(np.abs(sampler.posterior_variance() / var - 1) < 0.1)


# ----- estimator and Model ----------------------------------------------------------------------------------------
def test_estimator_copies_a_kernel_object_and_never_changes_it():
    X, y = banana(300, seed=4)
    kernel = Matern52(np.array([1.0, 1.0]), 1.0, 1e-4)
    before = copy.deepcopy(kernel.state_dict())
    clf = XGPClassifier(kernel=kernel, n_inducing=20, max_iter=200, random_state=0).fit(X, y)
    after = kernel.state_dict()
    assert before["name"] == after["name"] and np.array_equal(before["lengthscale"], after["lengthscale"])
    assert (before["variance"], before["nugget"]) == (after["variance"], after["nugget"])
    assert clf.kernel is kernel  # get_params gives back what was passed (scikit-learn's clone relies on it)
    assert isinstance(clf.kernel_, Matern52) and clf.kernel_ is not kernel
    assert not np.array_equal(clf.kernel_.log_params, kernel.log_params)  # it learned on its own copy
    assert {"lengthscale_1", "lengthscale_2"} <= set(clf.history_[-1])
    assert clf.score(X, y) > 0.8


def test_estimator_takes_a_family_name_with_its_parameters():
    X, y = banana(200, seed=5)
    clf = XGPClassifier(
        kernel="matern12",
        options={"ard": True, "lengthscale": 0.7, "variance": 2.0},
        n_inducing=15,
        max_iter=1,
        learn_hyperparameters=False,
        random_state=0,
    ).fit(X, y)
    assert isinstance(clf.kernel_, Matern12)
    np.testing.assert_array_equal(clf.kernel_.lengthscale, [0.7, 0.7])
    assert clf.kernel_.variance == 2.0
    with pytest.raises(ValueError, match="'kernel' parameter.*'cosine'"):
        XGPClassifier(kernel="cosine", max_iter=1).fit(X, y)


def test_model_kernel_by_name_with_ard_gives_history_columns_through_csv_and_save_load(tmp_path):
    model = Model(dataset="banana-like", n_points=200, n_inducing=10, kernel="matern32", ard=True, eval_every=5)
    model.step(20)
    assert isinstance(model.engine.kernel, Matern32) and model.engine.kernel.lengthscale.shape == (2,)
    header = model.history.to_csv().splitlines()[0].split(",")
    assert header[-2:] == ["lengthscale_1", "lengthscale_2"] and "lengthscale" in header and "variance" in header
    last = model.history.rows[-1]
    assert last["lengthscale"] == pytest.approx(math.sqrt(last["lengthscale_1"] * last["lengthscale_2"]))
    model.save(tmp_path / "run.npz")
    again = Model.load(tmp_path / "run.npz")
    assert again.kernel == "matern32" and again.ard
    assert again.engine.kernel == model.engine.kernel
    np.testing.assert_array_equal(again.history.column("lengthscale_2"), model.history.column("lengthscale_2"))
    model.step(5)
    again.step(5)
    assert again.engine.kernel == model.engine.kernel
    np.testing.assert_array_equal(again.engine.mu, model.engine.mu)


def test_model_takes_a_kernel_object_keeps_it_unchanged_and_saves_it(tmp_path):
    kernel = Matern12(np.array([0.5, 0.9]), 1.5, 1e-4)
    model = Model(dataset="banana-like", n_points=150, n_inducing=8, kernel=kernel, eval_every=5)
    model.step(10)
    assert model.engine.kernel != kernel and model.kernel is kernel
    np.testing.assert_array_equal(kernel.lengthscale, [0.5, 0.9])
    model.save(tmp_path / "run.npz")
    assert Model.load(tmp_path / "run.npz").kernel == kernel
    with pytest.raises(ValueError, match="unknown kernel"):
        model.kernel = "periodic"
    assert model.kernel is kernel and model.engine.kernel.name == "matern12"  # the rejected change is rolled back


def test_an_rbf_state_written_before_kernels_had_names_still_loads():
    X, y = banana(80, seed=6)
    engine = XGPC(X, y, X[:6], RBF(np.array([0.9, 1.1]), 1.2, 1e-4), rng=np.random.default_rng(0), batch_size=20)
    engine.step(3)
    state = engine.state_dict()
    kernel_state = state.pop("kernel")
    state.update(
        lengthscale=kernel_state["lengthscale"], variance=kernel_state["variance"], nugget=kernel_state["nugget"]
    )
    twin = XGPC(X, y, X[:6], Matern52(1.0), rng=np.random.default_rng(1), batch_size=20)
    twin.load_state_dict(state)
    assert twin.kernel == engine.kernel
    engine.step(2)
    twin.step(2)
    np.testing.assert_array_equal(twin.mu, engine.mu)


# ----- the dashboard ------------------------------------------------------------------------------------------------
def test_dashboard_kernel_choice_and_ard_traces():
    from explorer.dashboard import Dashboard

    dash = Dashboard(Model(dataset="moons", n_points=150, n_inducing=10, batch_size=50, eval_every=5))
    try:
        (kernel_widget, *_), (ard_widget, *_) = dash.settings.widgets("kernel"), dash.settings.widgets("ard")
        assert set(kernel_widget.options) == set(KERNELS) and kernel_widget.value == "rbf"
        dash.step()
        kernel_widget.value = "matern52"  # the widget applies the change through the dashboard
        ard_widget.value = True
        assert dash.model.kernel == "matern52" and dash.model.ard
        assert isinstance(dash.model.engine.kernel, Matern52) and dash.model.engine.kernel.lengthscale.shape == (2,)
        dash.step()
        dash.step()
        traces = dash.train.traces
        traces.flush_parameters()
        data = traces.parameters.data
        assert len(data["lengthscale_1"]) == len(data["iteration"]) >= 2
        labels = [item.label["value"] for item in traces.params.legend[0].items]
        assert "ℓ_1" in labels and "ℓ_2" in labels
        ard_widget.value = False  # back to one lengthscale: the per-feature lines go away
        dash.step()
        traces.flush_parameters()
        assert "lengthscale_1" not in traces.parameters.data
        assert "ℓ_1" not in [item.label["value"] for item in traces.params.legend[0].items]
    finally:
        dash.close()
