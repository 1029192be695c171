"""Race tab: every registered method on the same data, inducing points, minibatch size and seed, raced in fair slices
of training time by `explorer.studies.race` as `bench race` races them (`CLAIM`: the default race and what it
measured); the curves (axes fitted by `views.race`), the verdict in words and its table, from the study's one judge.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Legend
from bokeh.palettes import Category10_10

from explorer import methods as registry
from explorer.dashboard.controls import CONFIGURATION
from explorer.dashboard.ranges import fit_range, live_figure
from explorer.dashboard.tabs import StudyTab, Tick
from explorer.data import datasets
from explorer.model import Model
from explorer.studies.race import COLUMNS, NAMES, Race, Verdict, judge
from explorer.views.race import clipped_words, nll_axis, robust_range

CLAIM_DATASET = "a9a"  # where the paper's claim shows in a classroom-sized race (BENCHMARKS.md, "race: the live race")
SCALE_RACE = "banana-like, 100,000 points, noise 0.6"  # the default race (BENCHMARKS.md, "race: the default race")
SCALE_SETTINGS = {"dataset": "banana-like", "n_points": 100_000, "noise": 0.6}  # generated: found on every machine
SCALE_SECONDS = 10.0
TRAIN_DATA = "the Train tab's data"
CLAIM = (
    "**What a claim needs.** The paper's claim — X-GPC gets within the band sooner than the SVGP baselines and "
    "EPGPC — shows at scale: data no method classifies perfectly, many more rows than one minibatch. The default "
    "race is the banana-like set generated at 100,000 points with noise 0.6 (80,000 training rows), 10 s each. "
    "Measured here (ℓ = √d, m = 100, minibatches of 100, one BLAS thread, a loaded machine, seeds 0–3): X-GPC came "
    "into the band first in every seed, after 0.14–0.76 s; natural-gradient SVGP after 2.7–4.3 s, SVGP (Adam) "
    "3.6–8.1 s, EPGPC (full-batch EP over all 80,000 rows) 8.4 s once and never in the other three. X-GPC also "
    "settled first in three of the four; natural-gradient SVGP once (3.7 s against 5.4 s). On a9a with 20 s each "
    "X-GPC settled after 5–6 s, natural-gradient SVGP after 12–19 s. On the Train tab's few hundred points "
    "full-batch EPGPC is usually first: the paper's advantage is at scale. From ℓ = 1 every method spends a short "
    "race learning its kernel."
)
MISSING = (
    f"*{CLAIM_DATASET} is not in the data directory here, so it is not among the sets to race on: "
    f"`xgpc-explorer data fetch {CLAIM_DATASET}` gets it.*"
)


class RaceRun:
    """One race: a Model per method built like the dashboard's model (same configuration; the Train tab's data or a
    named data set), raced by `studies.race.Race` until each has trained `budget` seconds. `chunks()` builds the race
    and runs it, a step at a time (in the dashboard's worker, or a Dask worker: `explorer.dashboard.cluster`); the
    tab reads the run's `mirror()`. For the Train tab's uploaded data the run holds those data (they travel with it)."""

    def __init__(self, model, methods: list[str], budget: float, lengthscale_sqrt_d=False, classes=2, settings=None):
        """`lengthscale_sqrt_d`: every racer starts from ℓ = √d (d features), as `bench race` and the paper's
        harness do, instead of the Train tab's initial ℓ. `settings`: data settings to race with instead of the Train
        tab's data (None), e.g. a named data set ({"dataset": "a9a"}) or a generated set's dataset, n_points and noise
        (`SCALE_SETTINGS`). `classes`: K of the data, whose chance level log K the verdict's band is measured from."""
        self.methods, self.budget, self.classes = list(methods), float(budget), int(classes)
        config = {name: getattr(model, name) for name in CONFIGURATION if name != "method"}
        self.config, self.data_dir, self.custom = {**config, **(settings or {})}, model.data_dir, None
        if settings is None and model.dataset == "custom":
            self.custom = (
                np.vstack([model.X_train, model.X_test]),
                np.concatenate([model.y_train, model.y_test]),
                list(model.feature_names),
            )
        self.features = model.X_train.shape[1] if settings is None else None  # read in the worker otherwise
        self.lengthscale_sqrt_d = lengthscale_sqrt_d
        self.models: dict = {}
        # per racer, its history's `COLUMNS` so far (lists of floats, an entry per evaluation)
        self.traces = {method: {column: [] for column in COLUMNS} for method in self.methods}
        self.trained: dict[str, float] = {}  # training seconds so far per racer built
        self.finished = False  # every racer has trained its budget

    def _racer(self, method: str):
        """Build the racer for `method` (in the worker) and return its trainer."""
        config = dict(self.config, method=method)
        if self.lengthscale_sqrt_d:
            if self.features is None:
                self.features = datasets.load(config["dataset"], self.data_dir)[0].shape[1]
            config["lengthscale"] = float(np.sqrt(self.features))
        if self.custom is not None:
            config.pop("dataset")
        racer = Model(data_dir=self.data_dir, **config)
        if self.custom is not None:
            racer.set_data(*self.custom[:2], name="custom", feature_names=self.custom[2])
        self.models[method] = racer
        return racer.trainer

    def chunks(self):
        """The race's steps (`Race.run`), each adding the rows it evaluated to `traces`."""
        race = Race({method: partial(self._racer, method) for method in self.methods}, self.budget)
        for progress in race.run():
            trace = self.traces[progress.entrant]
            for row in progress.rows:
                for column in COLUMNS:
                    trace[column].append(float(row[column]))
            self.trained = progress.trained
            yield
        self.finished = True

    def mirror(self) -> dict:
        """What the tab reads of the run (`explorer.dashboard.cluster`): traces, seconds; no Model, data or matrix."""
        return {"traces": self.traces, "trained": self.trained, "finished": self.finished}


def supporting(chosen: list[str], K: int) -> tuple[list[str], dict[str, str]]:
    """The chosen methods that take data of K classes (`methods.CLASS_COUNTS`), and for each other one why it was
    left out, in words."""
    kept, left_out = [], {}
    for method in chosen:
        fewest, most = registry.CLASS_COUNTS[method]
        if fewest <= K and (most is None or K <= most):
            kept.append(method)
        else:
            takes = f"exactly {fewest}" if fewest == most else f"{fewest}…{most}" if most else f"{fewest} or more"
            left_out[method] = f"it takes {takes} classes"
    return kept, left_out


class RaceTab(StudyTab, pn.viewable.Viewer):
    """Controls, curves and table of the race (shows itself in a notebook); the dashboard runs `RaceRun.chunks()` in
    its worker, or on the Dask cluster when the server names one."""

    title = "Race"
    job_label = "The race"
    starting = "Starting the race"

    def __init__(self, methods: list[str]):
        super().__init__()
        self.methods = pn.widgets.CheckBoxGroup(
            label="methods", options={NAMES.get(m, m): m for m in methods}, value=list(methods), inline=False
        )
        claim_data = CLAIM_DATASET in datasets.available()
        self.claim = pn.pane.Markdown(CLAIM + ("" if claim_data else "\n\n" + MISSING), styles={"font-size": "0.85em"})
        self.dataset = pn.widgets.Select(
            label="race on",
            options=[SCALE_RACE, TRAIN_DATA] + ([CLAIM_DATASET] if claim_data else []),
            value=SCALE_RACE,
            sizing_mode="stretch_width",  # inside the sidebar, margins included (a fixed 300 px overflowed it)
        )
        self.budget = pn.widgets.FloatInput(
            label="training seconds per method",
            value=SCALE_SECONDS,
            start=0.5,
            end=600.0,
            step=1.0,
            sizing_mode="stretch_width",
        )
        self.sqrt_d = pn.widgets.Toggle(label="start from ℓ = √d, as bench race", value=True, color="light")
        self.start = pn.widgets.Button(label="Start race", color="primary")
        self.stop = pn.widgets.Button(label="Stop", color="warning")
        self.status = pn.widgets.StaticText(value="Not run yet.", sizing_mode="stretch_width")
        self.verdict = pn.pane.Markdown("", sizing_mode="stretch_width")
        self.left_out = pn.pane.Markdown("", visible=False, sizing_mode="stretch_width")
        self.table = pn.pane.Markdown("", sizing_mode="stretch_width")
        self.run: RaceRun | None = None
        self.histories: dict[str, dict] = {}  # per racer, its trace as last drawn (`COLUMNS`: arrays (k,))
        axis = dict(height=320, x_axis_type="log", x_axis_label="training time (s, log scale; evaluation excluded)")
        self.nll = live_figure(x=(0.01, 10.0), title="test negative log-likelihood", **axis)
        self.error = live_figure(title="test error", **axis)
        self.error.x_range = self.nll.x_range
        self.clipped = pn.pane.Markdown("", sizing_mode="stretch_width", styles={"font-size": "0.85em"})
        self.sources: dict[str, ColumnDataSource] = {}
        self.tails: dict[str, ColumnDataSource] = {}  # a diverged racer's curve from the evaluation before it diverged
        self.diverged: dict[str, float] = {}  # racer → when it diverged, as last drawn
        for fig in (self.nll, self.error):  # the legend above the plot, two entries a row: it covers no curve
            legend = dict(orientation="horizontal", ncols=min(2, len(methods)), margin=0, padding=2, spacing=8)
            fig.add_layout(Legend(click_policy="hide", **legend), "above")
        for i, method in enumerate(methods):
            source = ColumnDataSource({name: [] for name in COLUMNS})
            tail = ColumnDataSource({name: [] for name in COLUMNS})
            for fig, column in ((self.nll, "test_nll"), (self.error, "test_error")):
                line = dict(x="seconds", y=column, color=Category10_10[i], line_width=2)
                fig.line(**line, source=source, legend_label=NAMES.get(method, method), name=f"{column}-{method}")
                fig.line(**line, source=tail, line_dash="dashed", name=f"tail-{column}-{method}")
            self.sources[method], self.tails[method] = source, tail

    def problem(self) -> str | None:
        return None if self.methods.value else "Choose at least one method to race."

    def new_run(self, model, projection=None) -> RaceRun:
        """A race configured from the widgets and the model's configuration (call under the gate; a race draws no
        plane, so `projection` is not used)."""
        choice = self.dataset.value
        settings = SCALE_SETTINGS if choice == SCALE_RACE else None if choice == TRAIN_DATA else {"dataset": choice}
        # K: a built-in set's, or 2 (the paper's sets are binary)
        K = len(model.classes) if settings is None else datasets.BUILTIN_CLASSES.get(settings["dataset"], 2)
        chosen = [m for m in self.sources if m in self.methods.value]  # in the registry's order
        racing, left_out = supporting(chosen, K)
        why = "; ".join(f"{NAMES.get(m, m)}: {reason}" for m, reason in left_out.items())
        self.left_out.object = f"*Left out for these data's {K} classes:* {why} (`methods.CLASS_COUNTS`)."
        self.left_out.visible = bool(left_out)
        if not racing:
            raise datasets.DataError(
                f"None of the chosen methods takes data of {K} classes: {why}. Choose one that does."
            )
        self.run = RaceRun(model, racing, self.budget.value, self.sqrt_d.value, classes=K, settings=settings)
        self.histories = {m: {name: np.zeros(0) for name in COLUMNS} for m in self.run.methods}
        for source in (*self.sources.values(), *self.tails.values()):
            source.data = {name: [] for name in COLUMNS}
        self.diverged = {}
        self._label_diverged()
        self.clipped.object = ""
        return self.run

    def collect(self, tick: Tick | None = None) -> dict | None:
        """Each racer's trace so far (`COLUMNS`: arrays (k,)), the racers' training seconds and whether the race
        finished, from what the run mirrors (`RaceRun.mirror`; call under the gate)."""
        if self.run is None:
            return None
        traces = {m: {name: np.array(t[name], dtype=float) for name in COLUMNS} for m, t in self.run.traces.items()}
        return {"traces": traces, "finished": self.run.finished, "seconds": dict(self.run.trained)}

    def render(self, update: dict, running: bool) -> None:
        drawn = {m: len(h["seconds"]) for m, h in self.histories.items()}
        self.histories = update["traces"]
        new = {m: {k: h[k][drawn[m] :] for k in COLUMNS} for m, h in self.histories.items()}
        streamed = {m: rows for m, rows in new.items() if len(rows["seconds"])}
        done = ", ".join(f"{NAMES.get(m, m)} {s:.1f} s" for m, s in update["seconds"].items())
        finished = update["finished"]
        state = "finished" if finished else ("running" if running else "stopped")
        text = f"Race {state}: training time so far {done or '—'} (budget {self.run.budget:g} s each)"
        if not finished:
            left = sum(max(0.0, self.run.budget - update["seconds"].get(m, 0.0)) for m in self.run.methods)
            text += f"; about {left:.0f} s of training left (evaluations add a little)"
        self.status.value = text + "."
        verdict = judge(self.histories, budget=self.run.budget, finished=finished, classes=self.run.classes)
        self._draw(streamed, verdict)
        self.verdict.object = verdict.words()
        self.table.object = verdict.table()

    def _draw(self, streamed: dict, verdict: Verdict) -> None:
        """Stream each racer's new rows onto its curve; a racer that diverged (or no longer has) is redrawn whole:
        solid to the evaluation before it diverged, dashed from there (`Standing.diverged`). Then fit the axes."""
        diverged = {s.entrant: s.diverged for s in verdict.standings if np.isfinite(s.diverged)}
        for method in self.run.methods:
            history = self.histories[method]
            if method in diverged or method in self.diverged:
                since = diverged.get(method, np.inf)
                seconds = history["seconds"]
                start = max(int(np.searchsorted(seconds, since)) - 1, 0) if method in diverged else len(seconds)
                head = seconds < since
                self.sources[method].data = {k: history[k][head] for k in COLUMNS}
                self.tails[method].data = {k: history[k][start:] for k in COLUMNS}
            elif method in streamed:
                self.sources[method].stream(streamed[method])
        if diverged != self.diverged:
            self.diverged = diverged
            self._label_diverged()
        if streamed:
            self._fit_ranges(verdict)

    def _label_diverged(self) -> None:
        """Legend entries: a racer's name, and "diverged at … s" when it did."""
        for fig in (self.nll, self.error):
            for item in fig.legend[0].items:
                method = item.renderers[0].name.split("-", 1)[1]  # the line's name: f"{column}-{method}"
                name = NAMES.get(method, method)
                since = self.diverged.get(method)
                item.label = {"value": name if since is None else f"{name}: diverged at {since:.2g} s"}

    def _fit_ranges(self, verdict: Verdict) -> None:
        """Fit the shared log time axis to the curves, the error axis to the bulk of them (`robust_range`), and the
        NLL axis to what the racers that did not diverge do (`nll_axis`), saying what runs above it
        (`clipped_words`)."""
        fit_range(self.nll.x_range, [h["seconds"] for h in self.histories.values()], log=True)
        fitted = robust_range([h["test_error"] for h in self.histories.values()])
        if fitted is not None:
            self.error.y_range.update(start=fitted[0], end=fitted[1])
        fitted = nll_axis(self.histories, verdict)
        if fitted is not None:
            self.nll.y_range.update(start=fitted[0], end=fitted[1])
            shown = {m: {k: h[k][h["seconds"] > 0] for k in COLUMNS} for m, h in self.histories.items()}
            words = clipped_words(shown, fitted[1], verdict)
            self.clipped.object = f"*{words}*" if words else ""

    def __panel__(self):
        return pn.Row(
            pn.Column(
                "### Race",
                pn.pane.Markdown(
                    f"Same number of inducing points, minibatch size and seed as the Train tab, on {SCALE_RACE} "
                    f"(the default), the Train tab's data or {CLAIM_DATASET}; each method gets the same training time."
                ),
                self.dataset,
                self.methods,
                self.budget,
                self.sqrt_d,
                pn.Row(self.start, self.stop),
                self.claim,
                width=300,
            ),
            pn.Column(
                self.status,
                self.left_out,
                self.verdict,
                pn.Row(
                    pn.pane.Bokeh(self.nll, sizing_mode="stretch_width"),
                    pn.pane.Bokeh(self.error, sizing_mode="stretch_width"),
                    sizing_mode="stretch_width",
                ),
                self.clipped,
                self.table,
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )
