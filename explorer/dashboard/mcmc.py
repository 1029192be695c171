"""MCMC tab: the exact PG Gibbs sampler against X-GPC at the model's current kernel, live (paper Fig. 1).

A run (`McmcRun`) takes a subsample of the model's data (a Gibbs sweep costs O(n³)) and drives the comparison study
(`explorer.studies.comparison`, the one `run_comparison` runs; K ≥ 3: the model's multi-class family against that
family's exact sampler), then the two decision surfaces (`explorer.studies.plane`), a short step at a time, so Pause
and clicks stay quick. The log-likelihood trace streams while the chains run (raw Bokeh, DESIGN §8); the results are
drawn once, when the run is done, with the HoloViews views of `explorer.views.mcmc`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource
from bokeh.palettes import Category10_10

from explorer.dashboard.notices import markdown_text
from explorer.dashboard.panes import WRAPPING, canvas_pane
from explorer.dashboard.ranges import fit_range, live_figure
from explorer.dashboard.tabs import StudyTab, Tick
from explorer.diagnostics import mixing_problems
from explorer.gibbs import N_MAX, GibbsChains
from explorer.gibbs_stickbreaking import StickBreakingGibbsSampler
from explorer.run import streams
from explorer.studies.comparison import FITTING, SAMPLING, Progress, comparison, mean_offset, subsample
from explorer.studies.plane import PCA, Projection, compute_surface, grid_axes, through_link
from explorer.views.mcmc import mcmc_comparison, mcmc_surfaces

SURFACE_RESOLUTION = 40
SPARSE_INDUCING = 20  # the sparse fit's inducing points: fewer than the Train tab's 100, so it differs from full X-GPC
MCMC_SURFACE_BLOCK = 40  # grid points per prediction of the sampler's surface (it averages over every stored draw)
SURFACES = "computing the two decision surfaces"
DONE = "done"
RUN_WIDGETS = ("n_train", "n_test", "n_samples", "burn_in", "n_chains", "n_inducing")  # McmcRun's settings


class McmcRun:
    """One comparison on a subsample of the model's data at its current kernel. Built from the model under the
    worker gate (it copies what it needs); `chunks()` drives the study (`explorer.studies.comparison`) and then the
    two surfaces (`explorer.studies.plane`) in short steps; `stage`, `sampler`, `results` and `surfaces` show how
    far it got."""

    def __init__(
        self,
        model,
        *,
        n_train: int,
        n_test: int,
        n_samples: int,
        burn_in: int,
        n_chains: int,
        plane: str = PCA,
        features: tuple[int, int] = (0, 1),
        seed: int = 0,
        n_inducing: int | None = None,
    ):
        """`n_inducing`: the sparse fit's inducing points (None: the model's own, at most the subsample's size)."""
        rng = streams(seed).split
        train = subsample(len(model.y_train), n_train, rng)
        test = subsample(len(model.y_test), n_test, rng)
        self.seed = seed
        self.n_available = (len(model.y_train), len(model.y_test))
        self.X_train_raw, self.y_train = model.X_train[train], model.y_train[train]
        self.X_test_raw, self.y_test = model.X_test[test], model.y_test[test]
        self.scaler, self.kernel = model.scaler, model.engine.kernel
        # the family the model trains (its engine's; the setting for a method that has none): K ≥ 3 compares it
        self.family = getattr(model.engine, "family", model.config["multiclass_family"])
        self.class_names = [str(name) for name in model.classes]
        self.m = min(model.n_inducing if n_inducing is None else n_inducing, len(train))
        self.settings = dict(n_samples=n_samples, burn_in=burn_in, n_chains=n_chains)
        self.projection = Projection(self.X_train_raw, plane, features)
        self.feature_names = list(model.feature_names)
        self.latest = Progress(FITTING, 0.0)
        self.stage = FITTING
        self.sampler: GibbsChains | StickBreakingGibbsSampler | None = None  # the logit, K-class or stick sampler
        self.traces: np.ndarray | None = None  # its monitored scalars at every sweep so far (chains, sweeps_done, k)
        self.results: dict = {}
        self.surfaces: dict | None = None

    @property
    def subsampled(self) -> bool:
        return len(self.y_train) < self.n_available[0] or len(self.y_test) < self.n_available[1]

    def chunks(self):
        """The run as a generator: each `next` does ≲ 0.1 s of work."""
        study = comparison(
            self.scaler.transform(self.X_train_raw),
            self.y_train,
            self.scaler.transform(self.X_test_raw),
            self.y_test,
            self.kernel,
            seed=self.seed,
            n_inducing=self.m,
            max_stored_draws=100,
            subsampled_from=self.n_available[0] if self.subsampled else None,
            family=self.family,
            **self.settings,
        )
        run = yield from self._followed(study)
        self.results = {"sparse": run.sparse, "full": run.full}
        if run.factorised is not None:  # K ≥ 3, logistic-softmax: the paper's factorised family beside the joint one
            self.results["factorised"] = run.factorised
        self.stage = SURFACES
        axes = grid_axes(self.projection.to_plane(self.X_train_raw), SURFACE_RESOLUTION)
        standardised, sampler, sparse = self.scaler.transform, run.sampler, run.sparse_model
        mcmc = yield from compute_surface(
            lambda X: (sampler.predict_proba(standardised(X)), None), self.projection, axes, block=MCMC_SURFACE_BLOCK
        )
        vi = yield from compute_surface(
            through_link(lambda X: sparse.predict_latent(standardised(X)), sparse.link), self.projection, axes
        )
        shown = (lambda surface: surface.p) if mcmc.n_classes == 2 else (lambda surface: surface.probabilities)
        self.surfaces = {"grid": axes, "MCMC (PG Gibbs)": shown(mcmc), f"X-GPC sparse (m={sparse.m})": shown(vi)}
        self.stage = DONE

    def mirror(self) -> dict:
        """What the tab reads of the run (`explorer.dashboard.cluster`): progress (no sampler), traces, results."""
        traces = None if self.traces is None else self.traces.copy()
        latest = replace(self.latest, sampler=None)
        return dict(latest=latest, stage=self.stage, traces=traces, results=self.results, surfaces=self.surfaces)

    def _followed(self, study):
        """Run the comparison study a step per `next`, keeping its latest progress (and its sampler once it runs)."""
        while True:
            try:
                self.latest = next(study)
            except StopIteration as stop:
                return stop.value
            self.stage, self.sampler = self.latest.stage, self.latest.sampler
            self.traces = None if self.sampler is None else self.sampler.traces
            yield


class McmcTab(StudyTab, pn.viewable.Viewer):
    """Controls, live progress and results of the MCMC comparison (shows itself in a notebook): a study tab."""

    title = "MCMC"
    job_label = "The MCMC run"
    starting = "Starting the MCMC comparison"

    def __init__(self):
        super().__init__()
        self.n_train = pn.widgets.IntInput(label="training points (subsample)", value=300, start=20, end=N_MAX)
        self.n_test = pn.widgets.IntInput(label="test points (subsample)", value=300, start=10, end=5000)
        self.n_samples = pn.widgets.IntInput(label="sweeps kept per chain", value=500, start=20, end=20000)
        self.burn_in = pn.widgets.IntInput(label="burn-in sweeps", value=100, start=0, end=10000)
        self.n_chains = pn.widgets.IntInput(label="chains", value=4, start=1, end=8)
        self.n_inducing = pn.widgets.IntInput(
            label="inducing points of sparse X-GPC", value=SPARSE_INDUCING, start=1, end=2000
        )
        self.start = pn.widgets.Button(label="Run MCMC comparison", color="primary")
        self.stop = pn.widgets.Button(label="Stop", color="warning")
        self.progress_bar = pn.indicators.Progress(value=0, max=100, sizing_mode="stretch_width", bar_color="info")
        self.progress_text = pn.widgets.StaticText(value="Not run yet.", sizing_mode="stretch_width")
        self.note = pn.pane.Alert("", alert_type="warning", visible=False, sizing_mode="stretch_width")
        self.mixing = pn.pane.Alert("", alert_type="danger", visible=False, sizing_mode="stretch_width")
        self.more_sweeps = pn.widgets.Button(label="Run again with more sweeps", color="primary", visible=False)
        self.more_sweeps.on_click(lambda event: self._run_longer())
        self.summary = pn.pane.Markdown("", sizing_mode="stretch_width", disable_math=True)  # class names as text
        self.run: McmcRun | None = None
        self._shown_results = False
        self._shown_traces = 0
        self.trace = live_figure(title="log-likelihood per sweep, by chain", height=260, x_axis_label="sweep")
        self.trace_sources = []
        for chain in range(8):
            source = ColumnDataSource(dict(sweep=[], value=[]))
            self.trace.line("sweep", "value", source=source, color=Category10_10[chain], alpha=0.8)
            self.trace_sources.append(source)
        # The views' panels, one pane each, set when a run is done.
        self.comparison, self.surfaces = pn.Row(**WRAPPING), pn.Row(**WRAPPING)

    # ------------------------------------------------------------------------------------------------ running
    def new_run(self, model, projection) -> McmcRun:
        """A run configured from the widgets on the model's current data and kernel, drawn on the Train tab's plane
        (`studies.plane.Projection`) (call under the gate)."""
        chosen = {name: getattr(self, name).value for name in RUN_WIDGETS}  # the widgets are named as the settings
        self.run = McmcRun(model, plane=projection.kind, features=projection.features, **chosen)
        self._shown_results = False
        self._shown_traces = 0
        for source in self.trace_sources:
            source.data = dict(sweep=[], value=[])
        self.comparison.objects, self.surfaces.objects = [], []
        self.mixing.visible = self.more_sweeps.visible = False
        return self.run

    def collect(self, tick: Tick | None = None) -> dict | None:
        """What changed since the last render (call under the gate)."""
        run = self.run
        if run is None:
            return None
        update = {"stage": run.stage, "progress": run.latest, "results": None, "traces": None}
        if run.traces is not None and run.traces.shape[1] > self._shown_traces:
            update["traces"] = (self._shown_traces, run.traces[:, self._shown_traces :, 0].copy())
            self._shown_traces = run.traces.shape[1]
        if run.stage == DONE and not self._shown_results:
            update["results"] = (run.results, run.surfaces)
            self._shown_results = True
        return update

    def render(self, update: dict, running: bool) -> None:
        stage, p = update["stage"], update["progress"]  # the study's latest `Progress` (R̂ and ESS as last computed)
        self.progress_bar.value = int(100 * p.sweeps_done / max(p.total_sweeps, 1))
        text = stage
        if p.sweeps_done:
            text += f" · sweep {p.sweeps_done} of {p.total_sweeps} per chain · {p.sweeps_per_second:.0f} sweeps/s"
            if stage == SAMPLING and np.isfinite(p.seconds_left):
                text += f" · about {p.seconds_left:.0f} s left"
        if p.diagnostics:
            d = p.diagnostics
            text += (
                f" · R̂ max {d['rhat_max/f']:.3f}, bulk ESS min {d['ess_bulk_min/f']:.0f} "
                f"(log-lik. ESS {d['ess_bulk/log_likelihood']:.0f})"
            )
        if not running and stage != DONE:
            text += " · stopped"
        self.progress_text.value = text
        if update["traces"] is not None:
            start, values = update["traces"]
            sweeps = np.arange(start, start + values.shape[1])
            for chain, source in enumerate(self.trace_sources[: values.shape[0]]):
                source.stream(dict(sweep=sweeps, value=values[chain]), rollover=20_000)
            fit_range(self.trace.x_range, [source.data["sweep"] for source in self.trace_sources])
            fit_range(self.trace.y_range, [source.data["value"] for source in self.trace_sources])
        if update["results"] is not None:
            self._show_results(*update["results"])

    def _show_results(self, results: dict, surfaces: dict) -> None:
        run = self.run
        self.comparison.objects = [canvas_pane(panel) for panel in mcmc_comparison(results)]
        self.summary.object = "\n\n".join(
            stick_model(run)
            + [agreement(r) for r in results.values()]
            + family_gap(results)
            + [_summary_table(results, run)]
        )
        if run.subsampled:
            self.note.object = (
                f"MCMC used {len(run.y_train)} of {run.n_available[0]} training points and "
                f"{len(run.y_test)} of {run.n_available[1]} test points (random subsample, seed 0): a "
                "Gibbs sweep costs O(n³). Every X-GPC fit here uses the same subsample and kernel."
            )
        self.note.visible = run.subsampled
        self._warn_if_unmixed(next(iter(results.values())).summary())
        xlabel, ylabel = run.projection.axis_names(run.feature_names)
        view = mcmc_surfaces(
            surfaces,
            train=run.projection.to_plane(run.X_train_raw),
            train_labels=run.y_train,
            xlabel=xlabel,
            ylabel=ylabel,
        )
        self.surfaces.objects = [canvas_pane(panel) for panel in view]

    def _longer(self) -> tuple[int, int]:
        """Sweeps kept per chain and burn-in for a longer run: four times as many kept, twice the burn-in (within
        the widgets' bounds)."""
        return (
            min(4 * self.n_samples.value, self.n_samples.end),
            min(max(2 * self.burn_in.value, 100), self.burn_in.end),
        )

    def _warn_if_unmixed(self, summary: dict) -> None:
        """Say so, and offer a longer run, when the chains have not mixed (R̂ or bulk ESS past
        `diagnostics.mixing_problems`' limits): MCMC is then not yet the exact answer the comparison measures
        X-GPC against."""
        problems = mixing_problems(summary["mcmc/rhat_max/f"], summary["mcmc/ess_bulk_min/f"])
        kept, burn_in = self._longer()
        self.mixing.object = (
            f"The chains have not mixed: {' and '.join(problems)}. MCMC's answer here is not yet the exact posterior, "
            "so part of each difference shown below is the sampler's error, not X-GPC's. "
            f"Run again with more sweeps ({kept} kept per chain, {burn_in} burn-in)."
        )
        self.mixing.visible = self.more_sweeps.visible = bool(problems)
        self.more_sweeps.label = f"Run again with {kept} sweeps kept per chain"

    def _run_longer(self) -> None:
        """The offered longer run: more sweeps and burn-in, then Start as if pressed."""
        self.n_samples.value, self.burn_in.value = self._longer()
        self.mixing.visible = self.more_sweeps.visible = False
        self.start.clicks += 1

    def __panel__(self):
        settings = pn.Column(
            "### PG Gibbs sampler",
            *(getattr(self, name) for name in RUN_WIDGETS),
            pn.Row(self.start, self.stop),
            width=300,
        )
        return pn.Row(
            settings,
            pn.Column(
                pn.pane.Markdown(
                    "Exact posterior of the full GP by Pólya-Gamma Gibbs sampling, against X-GPC fitted "
                    "at the **same kernel** (the model's current ℓ, σ², γ) by coordinate ascent, on the same "
                    "data: the paper's Fig. 1. Dashed line: perfect agreement. With three or more classes the "
                    "sampler samples the model's own multi-class family: stick-breaking (the default) by K − 1 "
                    "binary samplers, one per logit of the stick; the logistic-softmax ('joint' or 'factorised') "
                    "by its own augmentation, and full X-GPC is then fitted twice, in the joint q(λ, n) and in the "
                    f"paper's factorised q(λ)q(n), to show the mean-field gap. Sparse X-GPC has {SPARSE_INDUCING} "
                    "inducing points by "
                    "default, not the Train tab's 100: on the 300-point subsample of banana-like 100 of them span "
                    "the full GP, and sparse and full then agree (largest difference in p(y=1) at the test points "
                    "0.0002 at the untrained kernel, 0.0014 after 300 iterations), so the paper's sparse-against-"
                    "full contrast does not show; with 20 it does (0.09 and 0.21, the sparse fit's variances "
                    "larger)."
                ),
                self.progress_bar,
                self.progress_text,
                pn.pane.Bokeh(self.trace, sizing_mode="stretch_width"),
                self.note,
                self.mixing,
                self.more_sweeps,
                self.comparison,
                self.summary,
                self.surfaces,
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )


def agreement(result) -> str:
    """How one X-GPC fit agrees with MCMC at the test points, in a sentence (a `compare.ComparisonResult`): the
    largest difference in p(y=1) (K ≥ 3: in any p(y=k)), how the means correlate, and whether the variances are under- or over-estimated
    (the share of test points where X-GPC's is the smaller one, the median ratio) and how they correlate."""

    def correlation(a, b) -> float:
        return float(np.corrcoef(np.ravel(a), np.ravel(b))[0, 1])

    ratio = result.vi_var / result.mcmc_var
    below = float(np.mean(ratio < 1.0))
    if below >= 0.75:
        variances = f"variances under-estimated at {below:.0%} of them"
    elif below <= 0.25:
        variances = f"variances over-estimated at {1 - below:.0%} of them"
    else:
        variances = f"variances smaller at {below:.0%} of them, larger at the rest"
    probability = "p(y=1)" if result.n_classes == 2 else "every p(y=k)"
    return (
        f"**{result.label}**: {probability} within {np.max(np.abs(result.vi_proba - result.mcmc_proba)):.3f} of MCMC "
        f"at all {len(ratio)} test points; means correlate {correlation(result.mcmc_mean, result.vi_mean):.3f}; "
        f"{variances} (median ratio X-GPC/MCMC {np.median(ratio):.2f}), correlation "
        f"{correlation(result.mcmc_var, result.vi_var):.2f}."
    )


def stick_model(run: McmcRun) -> list[str]:
    """For a stick-breaking comparison (K ≥ 3, the default family), what the sampler samples in a sentence: the
    classes on the stick in their order (the names as text) and the K − 1 binary posteriors; [] otherwise."""
    sampler = run.sampler
    if not isinstance(sampler, StickBreakingGibbsSampler):
        return []
    names = [markdown_text(run.class_names[k]) for k in sampler.likelihood.order]
    return [
        f"**Stick-breaking model**: the classes on the stick in the order {', '.join(names)}; logit j breaks off "
        "the j-th of them from the points not taken before it. At a fixed kernel its exact posterior is "
        f"{len(sampler.logits)} independent binary logit posteriors, logit j on the training points that reach it "
        f"({', '.join(str(len(rows)) for rows in sampler.subsets)} points), each sampled by the binary PG sampler; "
        "the latent panels show the logits, the probability panel every class."
    ]


def family_gap(results: dict) -> list[str]:
    """For the logistic-softmax at K ≥ 3 (results holding "full", the joint q(λ, n), and "factorised", the paper's
    q(λ)q(n)), the mean-field gap in a sentence: each family's average latent-mean offset from MCMC's at the test
    points (`studies.comparison.mean_offset`) and test NLLs; [] otherwise."""
    if "factorised" not in results or "full" not in results:
        return []

    def offset(result) -> str:
        value = mean_offset(result)
        return f"{abs(value):.2f} {'above' if value >= 0 else 'below'}"

    joint, factorised = results["full"].summary(), results["factorised"].summary()
    return [
        "**The mean-field gap**: the paper's factorised family's latent means sit "
        f"{offset(results['factorised'])} MCMC's on average; the joint family's (X-GPC full) "
        f"{offset(results['full'])} (MCMC's own Monte Carlo error at most {joint['mean/mcmc_se_max']:.2f}). "
        f"Test NLL: factorised {factorised['nll_vi']:.3f}, joint {joint['nll_vi']:.3f}, MCMC {joint['nll_mcmc']:.3f}. "
        "The factorised q(λ)q(n) counts too few Poisson n_k, so every latent floats up and the probabilities "
        "flatten; keeping q(λ, n) joint costs the same and closes the gap (the Learn tab's sixth picture, one point)."
    ]


def _summary_table(results: dict, run: McmcRun) -> str:
    rows = ["| | " + " | ".join(r.label for r in results.values()) + " |", "|---|" + "---|" * len(results)]
    summaries = {kind: r.summary() for kind, r in results.items()}

    def row(label, key, fmt="{:.4f}"):
        rows.append(f"| {label} | " + " | ".join(fmt.format(s[key]) for s in summaries.values()) + " |")

    for pair in next(iter(results.values())).pairs():  # mean, variance, p(y=1) (K ≥ 3: p(y=k), all classes)
        row(f"{pair}: correlation", f"{pair}/correlation")
        row(f"{pair}: max abs. difference", f"{pair}/max_abs_diff")
    row("mean KL(X-GPC ‖ MCMC) per test point", "mean_kl")
    row("test NLL: X-GPC", "nll_vi")
    row("test NLL: MCMC", "nll_mcmc")
    row("test error: X-GPC", "error_vi", "{:.3f}")
    row("test error: MCMC", "error_mcmc", "{:.3f}")
    row("ELBO (augmented)", "elbo_augmented", "{:.2f}")
    row("ELBO without augmentation, same q(u)", "elbo_nonaugmented", "{:.2f}")
    s, p = next(iter(summaries.values())), run.latest  # the study's last `Progress`: the sampler at its end
    return (
        "\n".join(rows) + f"\n\nSampler: {run.settings['n_chains']} chains × {p.total_sweeps} sweeps "
        f"({run.settings['burn_in']} burn-in), {p.sweeps_per_second:.0f} sweeps/s, R̂ max {s['mcmc/rhat_max/f']:.3f}, "
        f"bulk ESS min {s['mcmc/ess_bulk_min/f']:.0f}; kernel ℓ = {np.round(run.kernel.lengthscale, 3).tolist()}, "
        f"σ² = {run.kernel.variance:.3g}, γ = {run.kernel.nugget:.2g}."
    )
