"""Train tab: Play / Pause / Step / Reset, the configuration, the decision surface and the live training curves."""
from __future__ import annotations

import io

import panel as pn

from explorer.dashboard.controls import DATA, TRAINING
from explorer.dashboard.traces import Traces

CONTROLS_WIDTH = 330  # px: the four run buttons (290 px plus margins) fit on one line


class TrainTab(pn.viewable.Viewer):
    """Widgets and layout of the Train tab (shows itself in a notebook); the `Dashboard` wires the buttons to its
    worker."""

    def __init__(self, settings, surface, history_csv):
        super().__init__()
        self.play = pn.widgets.Button(label="▶ Play", color="success", width=72)
        self.pause = pn.widgets.Button(label="❚❚ Pause", color="warning", width=82)
        self.step = pn.widgets.Button(label="Step", color="default", width=62,
                                      description="Advance to the next evaluation (eval_every iterations)")
        self.reset = pn.widgets.Button(label="↺ Reset", color="default", width=74,
                                       description="Start this run again from the prior")
        self.counter = pn.widgets.StaticText(value="iteration 0", width=300, height=28,
                                             styles={"font-size": "1.15em", "font-weight": "bold"})
        self.status = pn.widgets.StaticText(value="", width=300, height=64, styles={"font-size": "0.85em",
                                                                                   "overflow": "hidden"})
        self.traces = Traces()
        self.elbo_axis = pn.widgets.RadioButtonGroup(options={"ELBO vs iteration": "iteration",
                                                              "ELBO vs wall time": "seconds"}, value="iteration")
        self.log_time = pn.widgets.Checkbox(label="log time axis (NLL, error)", value=False)
        self.clear = pn.widgets.Button(label="Clear earlier runs", color="light")
        self.download = pn.widgets.FileDownload(callback=lambda: io.StringIO(history_csv()),
                                                filename="xgpc-history.csv", label="History as CSV",
                                                color="light", embed=False)
        self.elbo_axis.param.watch(lambda e: self.traces.set_elbo_axis(e.new), "value")
        self.log_time.param.watch(self._show_time_axis, "value")
        self._time_panes: list[tuple] = []  # (NLL pane, error pane) of every view built
        self._settings = settings
        self._surface = surface

    def _show_time_axis(self, event) -> None:
        for panes in self._time_panes:
            for pane, fig in zip(panes, self.traces.time_figures(event.new)):
                pane.object = fig

    def __panel__(self):
        t = self.traces
        panes = tuple(pn.pane.Bokeh(fig) for fig in t.time_figures(self.log_time.value))
        self._time_panes.append(panes)
        # The buttons wrap inside the column rather than spill under the surface beside it (a click on Reset once
        # landed on the surface's p(y=1) toggle at 1280–1920 px).
        controls = pn.Column(
            pn.FlexBox(self.play, self.pause, self.step, self.reset, flex_wrap="wrap", sizing_mode="stretch_width"),
            self.counter, self.status,
            pn.Card(self._settings.group(DATA), title="Data (more on the Data tab)", collapsed=False),
            pn.Card(self._settings.group(TRAINING), title="Method and training", collapsed=False),
            width=CONTROLS_WIDTH,
        )
        curves = pn.Column(
            pn.Row(self.elbo_axis, self.log_time),
            pn.Row(self.clear, self.download),
            pn.pane.Bokeh(t.elbo), *panes, pn.pane.Bokeh(t.params),
            sizing_mode="stretch_width", min_width=380,
        )
        return pn.Row(controls, pn.Column(self._surface, sizing_mode="stretch_width", min_width=480), curves,
                      sizing_mode="stretch_width")
