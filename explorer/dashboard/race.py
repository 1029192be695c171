"""Race tab: every registered method (X-GPC, the SVGP baselines, EPGPC) on the same data, inducing points, minibatch
size and seed, advanced in fair slices of training time (the racer with the least training time goes next; evaluation time is not counted).
Test NLL and error against training time, overlaid (the y-axes fit the bulk of the curves, so one spike of a
natural-gradient run does not flatten the rest); who leads and by how much, in words; the time each needs to come
within 1% of the best final NLL (the median of a method's last five evaluations, as `bench race`) ("first") and to
stay there ("settled"), and the ratio to X-GPC's.
"""

from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Range1d
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from explorer.bench.protocol import final_value, log_spaced_evaluation
from explorer.dashboard.controls import CONFIGURATION
from explorer.dashboard.race_report import NAMES, robust_range, verdict
from explorer.dashboard.ranges import fit_range
from explorer.metrics import first_time_within, settled_time_within
from explorer.model import Model

SLICE_SECONDS = 0.05
BAND = 0.01  # "within 1% of the best final NLL"
_COLUMNS = ("seconds", "test_nll", "test_error", "iteration")
CLAIM = (
    "**What a claim needs.** The band is set by the best *final* NLL, so the budget must run well past the slowest "
    "settling time, and every method should start from a sensible kernel (ℓ = √d). Measured here, 8 s each from "
    "ℓ = √d: on a9a (39,074 rows) X-GPC settled within 1% after 0.8 s, natural-gradient SVGP 2.4 s (2.9×), EPGPC "
    "5.1 s, SVGP-Adam 5.4 s; on banana X-GPC 2.3 s, the others 6–8 s. From ℓ = 1 every method spends the race "
    "learning its kernel and the order is noise. `bench race` (60 s, three folds of a9a): X-GPC settles 3–4× sooner "
    "than natural-gradient SVGP. Where every method reaches test error 0 (banana-like), NLLs near 0 differ by noise "
    "and kernel growth: compare the error curves, not NLL per cent."
)


class RaceRun:
    """One race: a Model per method built like the dashboard's model (same configuration and data), stepped by
    `chunks()` in slices of `SLICE_SECONDS` of training time until each has trained `budget` seconds."""

    def __init__(self, model, methods: list[str], budget: float, lengthscale_sqrt_d: bool = False):
        """`lengthscale_sqrt_d`: every racer starts from ℓ = √d (d features), as `bench race` and the paper's
        harness do, instead of the Train tab's initial ℓ."""
        self.methods, self.budget = list(methods), float(budget)
        self.config = {name: getattr(model, name) for name in CONFIGURATION if name != "method"}
        if lengthscale_sqrt_d:
            self.config["lengthscale"] = float(np.sqrt(model.X_train.shape[1]))
        self.data_dir = model.data_dir
        self.custom = None
        if model.dataset == "custom":
            self.custom = (
                np.vstack([model.X_train, model.X_test]),
                np.concatenate([model.y_train, model.y_test]),
                list(model.feature_names),
            )
        self.models: dict = {}
        self.finished = False

    def chunks(self):
        for method in self.methods:
            config = dict(self.config, method=method)
            if self.custom is not None:
                config.pop("dataset")
            racer = Model(data_dir=self.data_dir, **config)
            if self.custom is not None:
                racer.set_data(*self.custom[:2], name="custom", feature_names=self.custom[2])
            self.models[method] = racer
            yield
        while True:
            behind = [m for m in self.methods if self.models[m].trainer.seconds < self.budget]
            if not behind:
                break
            racer = self.models[min(behind, key=lambda m: self.models[m].trainer.seconds)]
            racer.run(seconds=SLICE_SECONDS, stop_at_convergence=False)
            log_spaced_evaluation(racer.trainer)  # as `bench race`: evaluations cost little of the race's wall time
            yield
        self.finished = True


def standings(histories: dict[str, dict]) -> tuple[float, list[dict]]:
    """From per-method columns (seconds, test_nll, test_error, iteration arrays): the reference NLL, and per method
    its final numbers and the first / settled training time within 1% of the reference. The reference is the best
    final NLL (a method's final NLL: the median of its last five evaluations), as in `bench race`: the single lowest
    evaluation of a noisy run is a lucky dip that no method stays near (a band of 1% around it left every method
    out of it, though all had test error 0, on the built-in banana-like set)."""
    finite = [h["test_nll"][np.isfinite(h["test_nll"])] for h in histories.values()]
    best = min((final_value(values) for values in finite if len(values)), default=float("nan"))
    target = best + BAND * abs(best)
    rows = []
    for method, h in histories.items():
        if not len(h["seconds"]):
            continue
        rows.append(
            {
                "method": method,
                "iterations": int(h["iteration"][-1]),
                "seconds": float(h["seconds"][-1]),
                "best_nll": float(np.nanmin(h["test_nll"])),
                "final_nll": final_value(h["test_nll"]),
                "final_error": float(h["test_error"][-1]),
                "first": first_time_within(h["seconds"], h["test_nll"], target),
                "settled": settled_time_within(h["seconds"], h["test_nll"], target),
            }
        )
    return best, rows


def perfect_note(rows: list[dict]) -> str:
    """A sentence when every racer ends with test error 0 (a separable set such as banana-like): their NLLs then
    differ in confidence, not in accuracy, and the 1% band on an NLL near 0 is a hair's breadth."""
    if not rows or any(r["final_error"] > 0 for r in rows):
        return ""
    return (
        " Every method ends with test error 0: the NLLs differ in confidence, not in accuracy, and a 1% band on an "
        "NLL near 0 is no measure of speed (see *What a claim needs*)."
    )


def seconds_left(budget: float, trained: dict[str, float]) -> float:
    """Training time still to run, summed over the racers (each trains `budget` seconds; evaluation comes on top)."""
    return float(sum(max(0.0, budget - seconds) for seconds in trained.values()))


class RaceTab(pn.viewable.Viewer):
    """Controls, curves and table of the race (shows itself in a notebook); the dashboard runs `RaceRun.chunks()` in
    its worker."""

    def __init__(self, methods: list[str]):
        super().__init__()
        self.methods = pn.widgets.CheckBoxGroup(
            label="methods", options={NAMES.get(m, m): m for m in methods}, value=list(methods), inline=False
        )
        self.budget = pn.widgets.FloatInput(
            label="training seconds per method", value=8.0, start=0.5, end=600.0, step=1.0
        )
        self.sqrt_d = pn.widgets.Toggle(label="start from ℓ = √d, as bench race", value=True, color="light")
        self.start = pn.widgets.Button(label="Start race", color="primary")
        self.stop = pn.widgets.Button(label="Stop", color="warning")
        self.status = pn.widgets.StaticText(value="Not run yet.", sizing_mode="stretch_width")
        self.verdict = pn.pane.Markdown("", sizing_mode="stretch_width")
        self.table = pn.pane.Markdown("", sizing_mode="stretch_width")
        self.run: RaceRun | None = None
        self._consumed: dict[str, int] = {}
        self.histories: dict[str, dict] = {}
        common = dict(
            height=320,
            sizing_mode="stretch_width",
            x_axis_type="log",
            x_axis_label="training time (s, log scale; evaluation excluded)",
            tools="pan,wheel_zoom,box_zoom,reset,save",
        )
        self.nll = figure(
            title="test negative log-likelihood", x_range=Range1d(0.01, 10.0), y_range=Range1d(0.0, 1.0), **common
        )
        self.error = figure(title="test error", x_range=self.nll.x_range, y_range=Range1d(0.0, 1.0), **common)
        self.sources: dict[str, ColumnDataSource] = {}
        for i, method in enumerate(methods):
            source = ColumnDataSource({name: [] for name in _COLUMNS})
            for fig, column in ((self.nll, "test_nll"), (self.error, "test_error")):
                fig.line(
                    "seconds",
                    column,
                    source=source,
                    color=Category10_10[i],
                    line_width=2,
                    legend_label=NAMES.get(method, method),
                )
            self.sources[method] = source
        for fig in (self.nll, self.error):  # the legend above the plot, two entries a row: it covers no curve
            legend = fig.legend[0]
            fig.center = [item for item in fig.center if item is not legend]
            legend.update(
                orientation="horizontal",
                ncols=min(2, len(methods)),
                click_policy="hide",
                margin=0,
                padding=2,
                spacing=8,
            )
            fig.add_layout(legend, "above")

    def new_run(self, model) -> RaceRun:
        """A race configured from the widgets and the model's configuration (call under the gate)."""
        self.run = RaceRun(model, self.methods.value, self.budget.value, lengthscale_sqrt_d=self.sqrt_d.value)
        self._consumed = {m: 0 for m in self.run.methods}
        self.histories = {m: {name: np.zeros(0) for name in _COLUMNS} for m in self.run.methods}
        for source in self.sources.values():
            source.data = {name: [] for name in _COLUMNS}
        return self.run

    def collect(self) -> dict | None:
        """New history rows per racer (call under the gate)."""
        if self.run is None:
            return None
        new = {}
        for method, racer in self.run.models.items():
            rows = racer.history.since(self._consumed[method])
            self._consumed[method] = racer.history.total
            new[method] = {name: np.array([row[name] for row in rows], dtype=float) for name in _COLUMNS}
        return {
            "new": new,
            "finished": self.run.finished,
            "seconds": {m: r.trainer.seconds for m, r in self.run.models.items()},
        }

    def render(self, update: dict | None, running: bool) -> None:
        if update is None:
            return
        new = False
        for method, data in update["new"].items():
            if len(data["seconds"]):
                self.sources[method].stream(data)
                self.histories[method] = {k: np.concatenate([self.histories[method][k], data[k]]) for k in _COLUMNS}
                new = True
        if new:
            self._fit_ranges()
        done = ", ".join(f"{NAMES.get(m, m)} {s:.1f} s" for m, s in update["seconds"].items())
        finished = update["finished"]
        state = "finished" if finished else ("running" if running else "stopped")
        text = f"Race {state}: training time so far {done or '—'} (budget {self.run.budget:g} s each)"
        if not finished:
            left = seconds_left(self.run.budget, {m: update["seconds"].get(m, 0.0) for m in self.run.methods})
            text += f"; about {left:.0f} s of training left (evaluations add a little)"
        self.status.value = text + "."
        best, rows = standings(self.histories)
        self.verdict.object = verdict(best, rows, finished) + perfect_note(rows)
        self.table.object = _table(best, rows, finished)

    def _fit_ranges(self) -> None:
        """Fit the shared log time axis to the curves, and each figure's y-range to the bulk of them
        (`robust_range`)."""
        fit_range(self.nll.x_range, [h["seconds"] for h in self.histories.values()], log=True)
        for fig, column in ((self.nll, "test_nll"), (self.error, "test_error")):
            fitted = robust_range([h[column] for h in self.histories.values()])
            if fitted is not None:
                fig.y_range.update(start=fitted[0], end=fitted[1])

    def __panel__(self):
        return pn.Row(
            pn.Column(
                "### Race",
                pn.pane.Markdown(
                    "Same data, inducing points, minibatch size and seed as the Train "
                    "tab; each method gets the same training time."
                ),
                self.methods,
                self.budget,
                self.sqrt_d,
                pn.Row(self.start, self.stop),
                pn.pane.Markdown(CLAIM, styles={"font-size": "0.85em"}),
                width=300,
            ),
            pn.Column(
                self.status,
                self.verdict,
                pn.Row(
                    pn.pane.Bokeh(self.nll, sizing_mode="stretch_width"),
                    pn.pane.Bokeh(self.error, sizing_mode="stretch_width"),
                    sizing_mode="stretch_width",
                ),
                self.table,
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )


def _table(best: float, rows: list[dict], finished: bool) -> str:
    if not rows:
        return ""
    reference = next((r["first"] for r in rows if r["method"] == "xgpc"), float("nan"))
    target = best + BAND * abs(best)

    def reached(r):
        if np.isfinite(r["first"]):
            return f"{r['first']:.3g} s"
        return "never" if finished else "not yet"

    def stays(r):
        if np.isfinite(r["settled"]):
            return f"{r['settled']:.3g} s"
        if np.isfinite(r["first"]):
            return "left it again" if finished else "not in it now"
        return "never" if finished else "not yet"

    def ratio(value):
        if not (np.isfinite(value) and np.isfinite(reference) and reference > 0):
            return "—"
        return f"{value / reference:.2g}×"

    lines = [
        (
            f"The band: within 1% of the best final test NLL ({best:.4f}; a method's final NLL is the median of its "
            f"last five evaluations, as in `bench race`), i.e. NLL ≤ {target:.4f}. "
            "*Reached the band*: training time of the first evaluation inside it. *In the band from*: the time "
            "after which every evaluation stayed inside (a method can reach the band, leave it as its kernel "
            "parameters move, and end above it: then its final NLL is larger than the band's edge)."
        ),
        "",
        (
            "| method | iterations | training time | best NLL | final NLL | final error | reached the band | "
            "in the band from | reached ÷ X-GPC's |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {NAMES.get(r['method'], r['method'])} | {r['iterations']} | {r['seconds']:.2f} s | "
            f"{r['best_nll']:.4f} | {r['final_nll']:.4f} | {r['final_error']:.3f} | {reached(r)} | "
            f"{stays(r)} | {ratio(r['first'])} |"
        )
    return "\n".join(lines)
