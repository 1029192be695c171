"""Live training curves in raw Bokeh (DESIGN §8: `ColumnDataSource.stream` costs ≈ 1 ms per update).

ELBO against iteration or wall time; test NLL and test error against wall time (log-x toggle); ρ and the kernel
parameters (every column of the kernel's `summary()`: the lengthscale, under ARD also one line per feature, and the
variance). The live run is a decimating buffer, so an hour of training keeps a bounded number of points on screen;
earlier runs stay overlaid (at most `MAX_EARLIER`), each labelled by the settings in which it differed.
"""
from __future__ import annotations

import numpy as np
from bokeh.models import ColumnDataSource, Legend, LegendItem
from bokeh.palettes import Category10_10, Viridis256
from bokeh.plotting import figure

from explorer.training import COLUMNS

PARAMETER_COLUMNS = ("iteration", "rho", "lengthscale", "variance")
MAX_EARLIER = 5
EARLIER_POINTS = 600
_EARLIER_COLORS = Category10_10[1:6]
_X_LABEL = {"iteration": "iteration", "seconds": "training time (s, evaluation excluded)"}


def _empty(columns=COLUMNS) -> dict:
    return {name: np.zeros(0) for name in columns}


class Decimator:
    """Keeps at most `capacity` rows (the values of `columns`) of a growing run. When full it drops every other kept
    row and from then on keeps only every 2nd (later 4th, 8th, …) new row: the whole run stays visible at falling
    resolution in bounded memory."""

    def __init__(self, capacity: int = 4000, columns=COLUMNS):
        self.capacity = capacity
        self.columns = tuple(columns)
        self.stride = 1
        self.seen = 0
        self.kept = _empty(self.columns)

    def add(self, rows: list[dict]) -> tuple[dict, bool]:
        """Take new history rows. Returns (data, replace): the new kept rows to stream, or (replace=True) all kept
        rows after a thinning, which the caller sends whole."""
        picked = [row for offset, row in enumerate(rows) if (self.seen + offset) % self.stride == 0]
        self.seen += len(rows)
        new = {name: np.array([row[name] for row in picked], dtype=float) for name in self.columns}
        self.kept = {name: np.concatenate([self.kept[name], new[name]]) for name in self.columns}
        if len(self.kept["iteration"]) <= self.capacity:
            return new, False
        self.kept = {name: values[::2] for name, values in self.kept.items()}
        self.stride *= 2
        return self.kept, True


def _thin(data: dict, points: int) -> dict:
    """At most `points` evenly spaced rows of a column dict (always keeping the last one)."""
    n = len(data["iteration"])
    if n <= points:
        return data
    index = np.unique(np.r_[np.linspace(0, n - 1, points).astype(int), n - 1])
    return {name: np.asarray(values)[index] for name, values in data.items()}


def _send(source: ColumnDataSource, data: dict, replace: bool) -> None:
    """Replace the source's data, or stream a few new rows as plain lists (one small JSON message, no binary
    buffers per column)."""
    if replace:
        source.data = dict(data)
    elif len(data["iteration"]):
        source.stream({name: values.tolist() for name, values in data.items()})


def describe_difference(config: dict, current: dict) -> str:
    """'n_inducing=50, seed=3': the settings of `config` that differ from `current` ('same settings' if none)."""
    changed = [f"{name}={config[name]}" for name in config if current.get(name) != config[name]]
    return ", ".join(changed) if changed else "same settings"


class Traces:
    """Bokeh figures fed from Model history rows with `add(rows)`; `archive(config, current)` moves the live run
    into the overlay of earlier runs, `clear_earlier()` removes them, `relabel(current)` redoes their labels.

    Every repaint of a figure costs the browser ≈ 15 ms of CPU (measured in headless Chromium without GPU), so the
    ρ/kernel figure, the least urgent, has its own source and is redrawn only by `flush_parameters()` (≈ 1 Hz)."""

    def __init__(self, capacity: int = 4000):
        self.live = ColumnDataSource(_empty(), name="live-trace")
        self.buffer = Decimator(capacity)
        self.parameters = ColumnDataSource(_empty(PARAMETER_COLUMNS))
        self.parameter_buffer = Decimator(capacity, PARAMETER_COLUMNS)
        self._kernel_lines: list = []  # (renderer, legend item) of the kernel's further parameters
        self._pending: list[dict] = []
        self.earlier: list[dict] = []
        self._runs = 0
        tools = "pan,wheel_zoom,box_zoom,reset,save"
        common = dict(height=230, sizing_mode="stretch_width", tools=tools)
        self.elbo = figure(title="ELBO", x_axis_label=_X_LABEL["iteration"], **common)
        time_axis = dict(x_axis_label=_X_LABEL["seconds"], **common)
        self.nll = figure(title="test negative log-likelihood", **time_axis)
        self.error = figure(title="test error", **time_axis)
        # Bokeh cannot swap a live figure's scale cleanly, so the log-time versions are separate, hidden figures.
        self.nll_log = figure(title="test negative log-likelihood", x_axis_type="log", visible=False, **time_axis)
        self.error_log = figure(title="test error", x_axis_type="log", visible=False, **time_axis)
        self.params = figure(title="step size ρ and kernel parameters", x_axis_label="iteration", y_axis_type="log",
                             **common)
        self.elbo_x = "iteration"
        self.overlaid = {self.elbo: ("elbo", "iteration"), self.nll: ("test_nll", "seconds"),
                         self.error: ("test_error", "seconds"), self.nll_log: ("test_nll", "seconds"),
                         self.error_log: ("test_error", "seconds")}
        for fig, (y, x) in self.overlaid.items():
            fig.add_layout(Legend(items=[], location="top_right", click_policy="hide"))
            renderer = fig.line(x, y, source=self.live, line_width=2.5, color="black")
            fig.legend[0].items.append(LegendItem(label="current run", renderers=[renderer]))
        for name, color in (("rho", "crimson"), ("lengthscale", "seagreen"), ("variance", "darkorange")):
            label = {"rho": "ρ", "lengthscale": "lengthscale ℓ", "variance": "variance σ²"}[name]
            self.params.line("iteration", name, source=self.parameters, line_width=2, color=color, legend_label=label)
        self.params.legend.location = "bottom_left"
        self.params.legend.click_policy = "hide"
        self.figures = [self.elbo, self.nll, self.nll_log, self.error, self.error_log, self.params]

    @property
    def points(self) -> int:
        """Rows currently plotted for the live run."""
        return len(self.live.data["iteration"])

    def add(self, rows: list[dict]) -> None:
        """Append new history rows to the live curves (a stream, or a whole send after the buffer thins)."""
        if not rows:
            return
        self._pending.extend(rows)
        _send(self.live, *self.buffer.add(rows))

    def flush_parameters(self) -> None:
        """Draw the rows added since the last flush on the ρ/kernel-parameter figure."""
        if self._pending:
            extra = tuple(name for name in self._pending[-1] if name not in COLUMNS)
            if PARAMETER_COLUMNS + extra != self.parameter_buffer.columns:
                self._set_kernel_lines(extra)
            _send(self.parameters, *self.parameter_buffer.add(self._pending))
            self._pending = []

    def _set_kernel_lines(self, names: tuple[str, ...]) -> None:
        """One thin line per further kernel parameter (e.g. the ARD lengthscales "lengthscale_1" …), replacing
        those of an earlier run; the figure's data restart with these columns."""
        for renderer, item in self._kernel_lines:
            self.params.renderers = [r for r in self.params.renderers if r is not renderer]
            self.params.legend[0].items = [i for i in self.params.legend[0].items if i is not item]
        self.parameter_buffer = Decimator(self.parameter_buffer.capacity, PARAMETER_COLUMNS + names)
        self.parameters.data = _empty(self.parameter_buffer.columns)
        colors = Viridis256[:: max(1, 256 // max(len(names), 1))]
        self._kernel_lines = []
        for name, color in zip(names, colors):
            renderer = self.params.line("iteration", name, source=self.parameters, line_width=1, color=color,
                                        alpha=0.8, line_dash="dashed")
            item = LegendItem(label=name.replace("lengthscale_", "ℓ_"), renderers=[renderer])
            self.params.legend[0].items.append(item)
            self._kernel_lines.append((renderer, item))

    def archive(self, config: dict, current: dict) -> None:
        """Keep the live run (if it has rows) as an earlier run labelled against `current`; then empty the live run."""
        self._runs += 1
        if self.points > 1:
            source = ColumnDataSource(_thin(dict(self.buffer.kept), EARLIER_POINTS))
            color = _EARLIER_COLORS[(self._runs - 1) % len(_EARLIER_COLORS)]
            run = {"number": self._runs, "config": dict(config), "source": source, "items": []}
            for fig, (y, x) in self.overlaid.items():
                x = self.elbo_x if fig is self.elbo else x
                renderer = fig.line(x, y, source=source, line_width=1.5, color=color, alpha=0.75)
                item = LegendItem(label="", renderers=[renderer])
                fig.legend[0].items.append(item)
                run["items"].append((fig, renderer, item))
            self.earlier.append(run)
            while len(self.earlier) > MAX_EARLIER:
                self._remove(self.earlier.pop(0))
        self.buffer = Decimator(self.buffer.capacity)
        self.parameter_buffer = Decimator(self.buffer.capacity, self.parameter_buffer.columns)
        self._pending = []
        self.live.data = _empty()
        self.parameters.data = _empty(self.parameter_buffer.columns)
        self.relabel(current)

    def relabel(self, current: dict) -> None:
        """Label each earlier run by the settings in which it differed from `current`."""
        for run in self.earlier:
            text = f"run {run['number']}: {describe_difference(run['config'], current)}"
            for _, _, item in run["items"]:
                item.label = {"value": text}

    def clear_earlier(self) -> None:
        for run in self.earlier:
            self._remove(run)
        self.earlier = []

    def _remove(self, run: dict) -> None:
        for fig, renderer, item in run["items"]:
            fig.renderers = [r for r in fig.renderers if r is not renderer]
            fig.legend[0].items = [i for i in fig.legend[0].items if i is not item]

    def set_elbo_axis(self, x: str) -> None:
        """x = 'iteration' or 'seconds' for the ELBO figure (live and earlier runs)."""
        self.elbo_x = x
        for renderer in self.elbo.renderers:
            renderer.glyph.x = x
        self.elbo.xaxis[0].axis_label = _X_LABEL[x]

    def set_log_time(self, log: bool) -> None:
        """Logarithmic or linear time axis for the NLL and error figures."""
        for linear, logarithmic in ((self.nll, self.nll_log), (self.error, self.error_log)):
            linear.visible, logarithmic.visible = not log, log
