"""The Train tab's live training curves in raw Bokeh (DESIGN §8: `ColumnDataSource.stream` costs ≈ 1 ms per update);
what they show, and how earlier runs stay overlaid and are labelled: README, "The dashboard". The ρ/kernel figure has
every column of the kernel's `summary()` (under ARD one line per lengthscale). The live run is a decimating buffer, so
an hour of training keeps a bounded number of points on screen; at most `MAX_EARLIER` earlier runs stay. The ELBO
figure has the full labels in a legend below it; the others name the runs compactly at their right, so no legend
covers a curve.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import ColumnDataSource, FixedTicker, Legend, LegendItem
from bokeh.palettes import Category10_10, Viridis256

from explorer.dashboard.controls import describe_change
from explorer.dashboard.ranges import fit_range, live_figure, log_ticks, moved
from explorer.training import COLUMNS
from explorer.views.race import robust_range

PARAMETER_COLUMNS = ("iteration", "rho", "lengthscale", "variance")
MAX_EARLIER = 5
EARLIER_POINTS = 600
_EARLIER_COLORS = Category10_10[1:6]
_X_LABEL = {"iteration": "iteration", "seconds": "training time (s, evaluation excluded)"}
_HEIGHT = 230
_WIDTH = 1400  # px: no figure is wider (a full-width figure on a wide screen): the x ranges' pixel is at most this fine
_LEGEND_ROW = 19  # px per entry of the ELBO figure's legend below the plot
_LEGEND = dict(
    click_policy="hide",
    label_text_font_size="9pt",
    glyph_height=12,
    glyph_width=18,
    spacing=0,
    padding=4,
    margin=4,
    border_line_alpha=0.3,
)


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


class Traces:
    """Bokeh figures fed from Model history rows with `add(rows)`; `new_run(config)` moves the live run into the
    overlay of earlier runs, `clear_earlier()` removes them.

    Every repaint of a figure costs the browser CPU, so the ρ/kernel figure, the least urgent, has its own source and
    is redrawn only by `flush_parameters()` (≈ 1 Hz)."""

    def __init__(self, capacity: int = 4000):
        self.live = ColumnDataSource(_empty(), name="live-trace")
        self.buffer = Decimator(capacity)
        self.parameters = ColumnDataSource(_empty(PARAMETER_COLUMNS))
        self.parameter_buffer = Decimator(capacity, PARAMETER_COLUMNS)
        self._kernel_lines: list = []  # (renderer, legend item) of the kernel's further parameters
        self._pending: list[dict] = []
        self.last_row: dict | None = None  # the live run's latest evaluation
        self.earlier: list[dict] = []
        self.number = 1  # of the live run
        self._config: dict | None = None  # the live run's settings
        self._reference: dict | None = None  # the settings of the run before it (None: it is the first)
        self.elbo = live_figure(title="ELBO", x_axis_label=_X_LABEL["iteration"], height=_HEIGHT)
        seconds, nll = _X_LABEL["seconds"], "test negative log-likelihood"
        self.nll = live_figure(title=nll, x_axis_label=seconds, height=_HEIGHT)
        self.error = live_figure(title="test error", x_axis_label=seconds, height=_HEIGHT)
        # Bokeh cannot swap a live figure's scale cleanly, so the log-time versions are separate figures, shown
        # instead of the linear ones (`time_figures`).
        log_time = dict(x=(1e-3, 1.0), x_axis_type="log", x_axis_label=seconds, height=_HEIGHT)
        self.nll_log = live_figure(title=nll, **log_time)
        self.error_log = live_figure(title="test error", **log_time)
        parameters = dict(title="step size ρ and kernel parameters", x_axis_label="iteration", y_axis_type="log")
        self.params = live_figure(y=(1e-2, 1.0), height=_HEIGHT, **parameters)
        self.params.yaxis[0].ticker = FixedTicker(ticks=log_ticks(1e-2, 1.0))  # ranges.py says why
        self.elbo_x = "iteration"
        self._log_time = False  # which pair of time figures is shown (`time_figures`): only theirs are fitted
        self.overlaid = {
            self.elbo: ("elbo", "iteration"),
            self.nll: ("test_nll", "seconds"),
            self.error: ("test_error", "seconds"),
            self.nll_log: ("test_nll", "seconds"),
            self.error_log: ("test_error", "seconds"),
        }
        self._live_items = []
        for fig, (y, x) in self.overlaid.items():
            fig.add_layout(
                Legend(items=[], orientation="vertical", **_LEGEND), "below" if fig is self.elbo else "right"
            )
            renderer = fig.line(x, y, source=self.live, line_width=2.5, color="black")
            item = LegendItem(label="", renderers=[renderer])
            fig.legend[0].items.append(item)
            self._live_items.append((fig, item))
        self.params.add_layout(Legend(**_LEGEND), "right")
        lines = (("rho", "ρ", "crimson"), ("lengthscale", "ℓ", "seagreen"), ("variance", "σ²", "darkorange"))
        for name, label, color in lines:
            self.params.line("iteration", name, source=self.parameters, line_width=2, color=color, legend_label=label)
        self.figures = [self.elbo, self.nll, self.nll_log, self.error, self.error_log, self.params]
        self._label()

    @property
    def labels(self) -> list[str]:
        """The runs as the ELBO legend names them, oldest first, the live run last."""
        return [item.label["value"] for item in self.elbo.legend[0].items]

    @property
    def points(self) -> int:
        """Rows currently plotted for the live run."""
        return len(self.live.data["iteration"])

    def add(self, rows: list[dict]) -> None:
        """Append new history rows to the live curves (a stream, or a whole send after the buffer thins)."""
        if not rows:
            return
        self._pending.extend(rows)
        self.last_row = rows[-1]
        _send(self.live, *self.buffer.add(rows))
        self._fit_ranges()

    def flush_parameters(self) -> None:
        """Draw the rows added since the last flush on the ρ/kernel-parameter figure."""
        if self._pending:
            extra = tuple(name for name in self._pending[-1] if name not in COLUMNS)
            if PARAMETER_COLUMNS + extra != self.parameter_buffer.columns:
                self._set_kernel_lines(extra)
            _send(self.parameters, *self.parameter_buffer.add(self._pending))
            self._pending = []
            kept = self.parameter_buffer.kept
            fit_range(self.params.x_range, [kept["iteration"]], pixels=_WIDTH)
            fit_range(
                self.params.y_range, [kept[name] for name in kept if name != "iteration"], log=True, pixels=_HEIGHT
            )
            self.params.yaxis[0].ticker.ticks = log_ticks(self.params.y_range.start, self.params.y_range.end)

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
            renderer = self.params.line(
                "iteration", name, source=self.parameters, line_width=1, color=color, alpha=0.8, line_dash="dashed"
            )
            item = LegendItem(label=name.replace("lengthscale_", "ℓ_"), renderers=[renderer])
            self.params.legend[0].items.append(item)
            self._kernel_lines.append((renderer, item))

    def new_run(self, config: dict) -> None:
        """The model started a new run with settings `config` (by name). The live run, if it drew a curve (two rows
        or more), becomes an earlier run under its number; then the live curves empty and take the next number."""
        if self._config is None:  # the first run
            self._config = dict(config)
            self._label()
            return
        if config.get("dataset") != self._config.get("dataset"):  # curves of other data mislead beside these
            self.clear_earlier()
        elif self.points > 1:
            self._keep()
        if self.points > 1:
            self._reference = self._config
            self.number += 1
        self._config = dict(config)
        self.buffer = Decimator(self.buffer.capacity)
        self.parameter_buffer = Decimator(self.buffer.capacity, self.parameter_buffer.columns)
        self._pending = []
        self.last_row = None
        self.live.data = _empty()
        self.parameters.data = _empty(self.parameter_buffer.columns)
        self._label()

    def _keep(self) -> None:
        source = ColumnDataSource(_thin(dict(self.buffer.kept), EARLIER_POINTS))
        color = _EARLIER_COLORS[(self.number - 1) % len(_EARLIER_COLORS)]
        run = {
            "number": self.number,
            "label": f"run {self.number}: {self._what_changed()}",
            "config": self._config,
            "source": source,
            "items": [],
        }
        for fig, (y, x) in self.overlaid.items():
            x = self.elbo_x if fig is self.elbo else x
            renderer = fig.line(x, y, source=source, line_width=1.5, color=color, alpha=0.75)
            item = LegendItem(label=run["label"] if fig is self.elbo else f"run {self.number}", renderers=[renderer])
            fig.legend[0].items.insert(len(fig.legend[0].items) - 1, item)  # the live run stays last
            run["items"].append((fig, renderer, item))
        self.earlier.append(run)
        while len(self.earlier) > MAX_EARLIER:
            self._remove(self.earlier.pop(0))

    def _what_changed(self) -> str:
        return "first run" if self._reference is None else describe_change(self._reference, self._config)

    def _label(self) -> None:
        """Label the live run and size the ELBO figure to its legend below it."""
        for fig, item in self._live_items:
            item.label = {
                "value": f"run {self.number} (now): {self._what_changed()}"
                if fig is self.elbo
                else f"run {self.number} (now)"
            }
        self.elbo.height = _HEIGHT + _LEGEND_ROW * (len(self.earlier) + 1)
        self._fit_ranges()

    def _fit_ranges(self) -> None:
        """Fit the overlaid figures' ranges to the live and the earlier runs (what the legend hides included): x to
        all of them, y to the bulk of the curves (`robust_range`, as on the Race tab): a brief spike of a
        natural-gradient run (ELBO down, NLL up) runs off the plot instead of flattening every other curve. A range
        is sent only when an end moves by a pixel or more (`ranges.moved`; at most `_WIDTH` by `_HEIGHT` px); the
        pair of time figures not shown is fitted when it is shown (`time_figures`)."""
        runs = [self.buffer.kept] + [run["source"].data for run in self.earlier]
        hidden = (self.nll, self.error) if self._log_time else (self.nll_log, self.error_log)
        for fig, (y, x) in self.overlaid.items():
            if fig in hidden:
                continue
            x = self.elbo_x if fig is self.elbo else x
            log = fig in (self.nll_log, self.error_log)
            fit_range(fig.x_range, [run[x] for run in runs], log=log, pixels=_WIDTH)
            fitted = robust_range([run[y] for run in runs], spikes="down" if y == "elbo" else "up")
            if fitted is not None and moved(fig.y_range, fitted, _HEIGHT):
                fig.y_range.update(start=fitted[0], end=fitted[1])

    def clear_earlier(self) -> None:
        for run in self.earlier:
            self._remove(run)
        self.earlier = []
        self._label()

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
        self._fit_ranges()

    def time_figures(self, log: bool) -> tuple:
        """The (NLL, error) figures to show, with a logarithmic or a linear time axis (their ranges fitted now)."""
        if log != self._log_time:
            self._log_time = log
            self._fit_ranges()
        return (self.nll_log, self.error_log) if log else (self.nll, self.error)
