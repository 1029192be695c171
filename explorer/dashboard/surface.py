"""The Train tab's decision surface (what it shows: README, "The dashboard", and the legend under the plot), in raw
Bokeh rather than HoloViews `Pipe`/`DynamicMap` (DESIGN §8). For K ≥ 3 classes the class colours are mixed by
probability (an RGBA image, `views.style.class_mixture`). For d > 2 the plane is two chosen features (the other
features at their training mean) or the first two principal components of the standardised training inputs.
"""

from __future__ import annotations

import copy
import time
from dataclasses import replace

import numpy as np
import panel as pn
from bokeh.core.properties import value
from bokeh.events import Tap
from bokeh.models import (
    ColorBar,
    ColumnDataSource,
    HoverTool,
    Legend,
    LegendItem,
    LinearColorMapper,
    PlainText,
)
from bokeh.palettes import Magma256, Viridis256

from explorer.dashboard.ranges import live_figure
from explorer.likelihoods import LogisticSoftmax
from explorer.studies import finish
from explorer.studies.plane import FEATURES, MAX_SHOWN, PCA, Projection, compute_surface, grid_axes, through_link
from explorer.views.style import CLASS_COLORS, P_PALETTE, class_colors, class_mixture

LIVE_SAMPLES = 64
"""Quasi-Monte Carlo points of the K-class predictive in the live picture (`LogisticSoftmax.samples`; the model's
own predictions use 1,024): at most 4e-3 from those probabilities, one step of an 8-bit colour channel."""

BINARY_MODES = ["p(y=1)", "predictive sd"]
MULTICLASS_MODES = ["class probabilities", "uncertainty", "predictive sd"]
MODE_QUANTITY = {"p(y=1)": "probability", "class probabilities": "probability", "uncertainty": "uncertainty"}
"""What each mode draws (`studies.plane.Surface`); "predictive sd" draws the sd."""


def shown_quantity(mode: str, K: int) -> str:
    """The quantity drawn in `mode` for K classes, as the mode will be once the modes of K classes are shown
    (`BINARY_MODES`, `MULTICLASS_MODES`): uncertainty, which two classes do not offer, becomes p(y=1)."""
    quantity = MODE_QUANTITY.get(mode, "sd")
    return "probability" if quantity == "uncertainty" and K == 2 else quantity


def rgba(colours: np.ndarray) -> np.ndarray:
    """RGB colours (ny, nx, 3) in [0, 1] as the packed RGBA (ny, nx) uint32 of a Bokeh `image_rgba`, opaque."""
    opaque = np.dstack([np.round(255.0 * colours), np.full(colours.shape[:2], 255.0)]).astype(np.uint8)
    return opaque.view(np.uint32)[..., 0]  # the four bytes of each pixel as one number


class FrozenPrediction:
    """The model's predictive q(f*) as it is now, for use outside the worker gate while training goes on: a shallow
    copy of the engine (an iteration replaces its arrays, never writes into them — the engine's rollback contract)
    and the model's input scaler. Take it under the gate."""

    def __init__(self, model):
        self.scaler, self.engine = model.scaler, copy.copy(model.engine)

    def predict_latent(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) mean and variance at raw-unit inputs X (n*, d) → (n*,), (n*,), as `Model.predict_latent`."""
        return self.engine.predict_latent(self.scaler.transform(X))

    def predict(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The class probabilities (n*, K) through the method's link (logit, EPGPC's probit, the logistic-softmax) and
        the variance of f* ((n*,), or (n*, K) for K ≥ 3) at raw-unit inputs X (n*, d): the plane's prediction
        function (`studies.plane.Predict`). The logistic-softmax's predictive averages over `LIVE_SAMPLES` points."""
        link = self.engine.link
        if isinstance(link, LogisticSoftmax):
            link = replace(link, samples=LIVE_SAMPLES)
        return through_link(self.predict_latent, link)(X)


def _xy(points: np.ndarray, **columns) -> dict:
    return dict(x=points[:, 0], y=points[:, 1], **columns)


class SurfaceView(pn.viewable.Viewer):
    """The surface figure and its controls (shows itself in a notebook). `reset(model)` and `frame(model)` read the
    model (call them under the worker gate); `build(static)` and `show(frame)` render what they returned."""

    def __init__(self, add_point, replot, redraw, resolution: int = 80):
        """add_point(x (d,), label): a click; replot(): the plane changed; redraw(): the shown quantity changed."""
        super().__init__()
        self._add_point = add_point
        self.resolution = resolution
        self.mode = pn.widgets.RadioButtonGroup(options=list(BINARY_MODES), value="p(y=1)", color="default")
        self.click_class = pn.widgets.RadioButtonGroup(
            options=self._click_options(["-1", "1"]),
            value=1,
            color="default",  # class indices
        )
        self.class_names: list[str] = []  # the drawn data's, as text (set by `build`)
        self.axes = pn.widgets.Select(label="plane", options=[PCA, FEATURES], value=PCA, width=220)
        self.feature_x = pn.widgets.Select(label="horizontal", options=[], width=140)
        self.feature_y = pn.widgets.Select(label="vertical", options=[], width=140)
        self.projection: Projection | None = None
        self.feature_names: list[str] = []
        self.frames = 0
        self._last: dict | None = None  # the frame shown last
        self._configuring = False
        self._run = None  # the model's run (`Trainer`) the drawn points belong to
        self._n_train = 0  # its training rows from the data set; rows after these were added by clicks
        self._n_added = 0  # points added by clicks, as `points` last counted them
        self.dropped_note = pn.pane.Alert("", alert_type="warning", visible=False, sizing_mode="stretch_width")
        self._build_figure()
        self.mode.param.watch(lambda e: None if self._configuring else redraw(), "value")
        for widget in (self.axes, self.feature_x, self.feature_y):
            widget.param.watch(lambda e: None if self._configuring else replot(), "value")

    def _build_figure(self) -> None:
        self.figure = live_figure(height=520, toolbar_location="above")  # the ranges: `build` fits them
        self.mapper = LinearColorMapper(palette=P_PALETTE, low=0.0, high=1.0)
        unit = dict(x=[0.0], y=[0.0], dw=[1.0], dh=[1.0])  # where an image lies; `show` places each frame's
        placed = dict(image="image", x="x", y="y", dw="dw", dh="dh")
        self.image = ColumnDataSource(dict(image=[np.full((2, 2), 0.5, np.float32)], **unit), name="surface-image")
        self.scalar_image = self.figure.image(**placed, source=self.image, color_mapper=self.mapper)
        self.figure.add_tools(HoverTool(renderers=[self.scalar_image], tooltips=[("value", "@image{0.000}")]))
        # K ≥ 3 classes' probabilities: the class colours mixed (an RGBA image; empty and hidden for two classes)
        self.mixture = ColumnDataSource(dict(image=[np.zeros((1, 1), np.uint32)], **unit), name="surface-mixture")
        self.mixture_image = self.figure.image_rgba(**placed, source=self.mixture, visible=False)
        self.colorbar = ColorBar(color_mapper=self.mapper, title="p(y=1)", width=14)
        self.figure.add_layout(self.colorbar, "right")
        self.contour = ColumnDataSource(dict(x=[], y=[]))
        self.figure.line("x", "y", source=self.contour, color="black", line_width=2.5)
        self.train = ColumnDataSource(dict(x=[], y=[], label=[]))
        self.test = ColumnDataSource(dict(x=[], y=[], label=[]))
        # class indices: 0 the −1 class, 1 the +1 class (K ≥ 3: class k the k-th of `class_colors(K)`)
        self.class_mapper = LinearColorMapper(palette=CLASS_COLORS, low=0, high=1)
        colors = {"field": "label", "transform": self.class_mapper}
        by_class = dict(color=colors, line_color="white", line_width=0.5)
        self.figure.scatter("x", "y", source=self.train, marker="circle", size=6, **by_class)
        self.figure.scatter("x", "y", source=self.test, marker="triangle", size=8, alpha=0.8, **by_class)
        self.wrong = ColumnDataSource(dict(x=[], y=[]))
        self.figure.scatter("x", "y", source=self.wrong, marker="x", size=9, color="black", line_width=2)
        self.inducing = ColumnDataSource(dict(x=[], y=[]))
        self.figure.scatter(
            "x", "y", source=self.inducing, marker="square", size=9, fill_alpha=0.0, line_color="gold", line_width=2.5
        )
        self.added = ColumnDataSource(dict(x=[], y=[], label=[]))  # points added by clicks: stars, outlined
        self.figure.scatter(
            "x", "y", source=self.added, marker="star", size=17, color=colors, line_color="black", line_width=1.5
        )
        # K ≥ 3: the classes by name above the plot (a Bokeh legend of one swatch per class: its text is plain text,
        # and updating it while the tab is hidden is a Bokeh property change; a Panel pane updated there made the page
        # fetch theme stylesheets from the CDN)
        self.legend = Legend(items=[], orientation="horizontal", visible=False, margin=2, padding=4, spacing=12)
        self.figure.add_layout(self.legend, "above")
        self._swatches: list = []
        self.figure.on_event(Tap, self._tapped)

    @staticmethod
    def _click_options(class_names: list[str]) -> dict:
        """The click's class choices, class name → class index (two classes: the second, the red one, first, as the
        page always had)."""
        if len(class_names) == 2:
            return {f"click adds class {class_names[1]}": 1, f"click adds class {class_names[0]}": 0}
        return {f"click adds class {name}": k for k, name in enumerate(class_names)}

    def _show_classes(self, class_names: list[str]) -> None:
        """Mode, click and colour choices for the data's classes, named as the data name them."""
        K = len(class_names)
        unchanged = class_names == self.class_names
        self.class_names = list(class_names)
        if unchanged:
            return
        self._configuring = True
        try:
            modes = BINARY_MODES if K == 2 else MULTICLASS_MODES
            shown = self.mode.value if self.mode.value in modes else modes[0]
            self.mode.param.update(options=list(modes), value=shown)
            # the first class of the new set (binary: the second class, red, as the page always had). The value is sent again even when
            # it is the same index: the page shows the pressed button by its position, which moves with the options
            # (binary +1 is the first button, class 1 of three the second), and an unchanged value is not sent
            self.click_class.param.update(options=self._click_options(class_names), value=1 if K == 2 else 0)
            self.click_class.param.trigger("value")
        finally:
            self._configuring = False
        colours = class_colors(K)
        self.class_mapper.update(palette=colours, low=0, high=K - 1)
        if K > 2:
            while len(self._swatches) < K:  # a class's swatch: a circle in its colour at no place on the plot
                self._swatches.append(
                    self.figure.scatter(x=[np.nan], y=[np.nan], marker="circle", size=9, line_color="white")
                )
            for swatch, colour in zip(self._swatches, colours):
                swatch.glyph.fill_color = colour
            self.legend.items = [
                LegendItem(label=value(name), renderers=[swatch]) for name, swatch in zip(class_names, self._swatches)
            ]
        self.legend.visible = K > 2

    # ------------------------------------------------------------------------------------------------ building
    def configure(self, X_train: np.ndarray, feature_names: list[str]) -> None:
        """Set the projection for this data (keeping the user's choice of plane where it still applies)."""
        d = X_train.shape[1]
        self.feature_names = list(feature_names)
        self._configuring = True
        try:
            if self.feature_x.options != self.feature_names:
                self.feature_x.options = self.feature_y.options = self.feature_names
                self.feature_x.value = self.feature_names[0]
                self.feature_y.value = self.feature_names[min(1, d - 1)]
            for widget in (self.axes, self.feature_x, self.feature_y):
                widget.visible = d > 2
        finally:
            self._configuring = False
        self.feature_x.disabled = self.feature_y.disabled = self.axes.value == PCA
        features = (self.feature_names.index(self.feature_x.value), self.feature_names.index(self.feature_y.value))
        if d == 2:
            features = (0, 1)
        self.projection = Projection(X_train, self.axes.value, features)

    def reset(self, model, frame: bool = True) -> dict:
        """Projection, grid, drawn points and (with `frame`) a first frame for the model's current data (call under
        the gate; without a frame the caller computes one with `compute_frame`, e.g. off the event loop); "dropped":
        how many clicked points a new run left behind (a new run starts from the data set)."""
        self.configure(model.X_train, model.feature_names)
        rng = np.random.default_rng(0)
        dropped = 0
        if model.trainer is not self._run:  # a new run (not a new plane for the same one)
            dropped, self._n_added = self._n_added, 0
            self._run, self._n_train = model.trainer, len(model.y_train)
        self._shown = {
            part: np.sort(rng.choice(n, MAX_SHOWN, replace=False)) if n > MAX_SHOWN else np.arange(n)
            for part, n in (("train", self._n_train), ("test", len(model.y_test)))
        }
        shown = np.vstack([model.X_train, model.X_test])  # the image covers every point drawn
        self._axes = grid_axes(self.projection.to_plane(shown), self.resolution)
        return {
            "axes": self._axes,
            "classes": [str(c) for c in model.classes],
            "labels": tuple(PlainText(text=name) for name in self.projection.axis_names(self.feature_names)),
            **self.points(model),
            **(self.frame(model) if frame else {}),
            "dropped": dropped,
        }

    def build(self, static: dict) -> None:
        """Show new data: axis ranges and labels fitted to it, points, inducing points and the first frame (if
        `reset` computed one)."""
        gx, gy = static["axes"]
        self.figure.x_range.update(start=gx[0], end=gx[-1])
        self.figure.y_range.update(start=gy[0], end=gy[-1])
        self.figure.xaxis[0].axis_label, self.figure.yaxis[0].axis_label = static["labels"]
        self._show_classes(static["classes"])
        self.show_points(static)
        self.inducing.data = _xy(static["inducing"])
        dropped = static.get("dropped", 0)
        self.dropped_note.object = (
            f"The {dropped} point{'s' if dropped > 1 else ''} you added by clicking "
            f"{'were' if dropped > 1 else 'was'} dropped: a new run starts from the data set "
            "(a setting changed, Reset, or new data). Click to add points again."
        )
        self.dropped_note.visible = dropped > 0
        if "z" in static:
            self.show(static)

    # ----------------------------------------------------------------------------------------------- refreshing
    def _shown_data(self, model) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(X_train, y_train, X_test, y_test) of the drawn points: the fixed sample plus every point added since."""
        train = np.r_[self._shown["train"], np.arange(self._n_train, len(model.y_train))]
        test = self._shown["test"]
        return model.X_train[train], model.y_train[train], model.X_test[test], model.y_test[test]

    def points(self, model) -> dict:
        """Drawn train, test and inducing points in plot coordinates (call under the worker gate); frames from now
        on check these points for misclassification."""
        X_train, y_train, X_test, y_test = self._shown_data(model)
        self._drawn = (np.vstack([X_train, X_test]), np.concatenate([y_train, y_test]))
        project = self.projection.to_plane
        self._n_added = len(model.y_train) - self._n_train
        base = len(X_train) - self._n_added
        return {
            "train": _xy(project(X_train[:base]), label=np.asarray(y_train[:base], dtype=float)),
            "added": _xy(project(X_train[base:]), label=np.asarray(y_train[base:], dtype=float)),
            "test": _xy(project(X_test), label=np.asarray(y_test, dtype=float)),
            "inducing": project(model.inducing_points),
        }

    def frame(self, model) -> dict:
        """Grid predictions and misclassified points at the model's current state (call under the worker gate)."""
        return self.compute_frame(self.frame_inputs(FrozenPrediction(model)))

    def frame_inputs(self, prediction: FrozenPrediction) -> dict:
        """What `compute_frame` needs (cheap; in the UI thread): the frozen prediction (of the model, or of a
        published snapshot), the grid, the drawn points (as `points` last read them) and the display mode."""
        X, y = self._drawn
        return dict(prediction=prediction, axes=self._axes, projection=self.projection, X=X, y=y, mode=self.mode.value)

    @staticmethod
    def compute_frame(inputs: dict) -> dict:
        """The frame from `frame_inputs(prediction)`, in any thread without the gate (`studies.plane.compute_surface`:
        q(f*) on the grid and at the drawn points in short blocks): p(y=1), the uncertainty or the sd on the grid as
        "z" (K ≥ 3 classes' probabilities: their mixed colours as packed RGBA "rgba"), the 0.5 contour or the class
        boundaries, the misclassified points; "seconds" is the time it took."""
        start = time.perf_counter()
        quantity = shown_quantity(inputs["mode"], inputs["prediction"].engine.n_classes)
        surface = finish(
            compute_surface(
                inputs["prediction"].predict,
                inputs["projection"],
                inputs["axes"],
                points=inputs["X"],
                labels=inputs["y"],
                sd=quantity == "sd",
            )
        )
        if quantity == "probability" and surface.n_classes > 2:
            shown = {"rgba": rgba(class_mixture(surface.probabilities))}
        else:
            z = {"probability": surface.p, "sd": surface.sd, "uncertainty": surface.uncertainty}[quantity]
            shown = {"z": z.astype(np.float32)}
        return {
            "grid": (surface.x, surface.y),
            **shown,
            "quantity": quantity,
            "contour": surface.contour,
            "wrong": surface.misclassified,
            "seconds": time.perf_counter() - start,
        }

    def show(self, frame: dict) -> None:
        """Render a frame from `frame(model)`: image, colour scale, contour and misclassified marks."""
        gx, gy = frame["grid"]
        step_x, step_y = gx[1] - gx[0], gy[1] - gy[0]
        place = dict(
            x=[gx[0] - step_x / 2], y=[gy[0] - step_y / 2], dw=[gx[-1] - gx[0] + step_x], dh=[gy[-1] - gy[0] + step_y]
        )
        mixed = "rgba" in frame
        if mixed:
            self.mixture.data = dict(image=[frame["rgba"]], **place)
        else:
            self.image.data = dict(image=[frame["z"]], **place)
        if self.mixture_image.visible != mixed:
            self.mixture_image.visible, self.scalar_image.visible, self.colorbar.visible = mixed, not mixed, not mixed
        quantity = frame["quantity"]
        if quantity == "sd":
            self.mapper.update(palette=Viridis256, low=0.0, high=float(frame["z"].max()) or 1.0)
        elif quantity == "uncertainty" and self.colorbar.title != "uncertainty":
            self.mapper.update(palette=Magma256, low=0.0, high=1.0)
        elif quantity == "probability" and not mixed and self.colorbar.title != "p(y=1)":
            self.mapper.update(palette=P_PALETTE, low=0.0, high=1.0)
        if not mixed:
            self.colorbar.title = {"sd": "sd of f*", "uncertainty": "uncertainty", "probability": "p(y=1)"}[quantity]
        self.contour.data = _xy(frame["contour"])
        self.wrong.data = _xy(frame["wrong"])
        self.frames += 1
        self._last = frame

    def unchanged(self, frame: dict) -> bool:
        """Whether `frame` would look as the frame shown last does, to within a pixel: the same quantity on the same
        grid, every cell within half a step of the 256-colour palette (K ≥ 3 classes: the same 8-bit colours), the
        contour within a tenth of a grid cell, the same points crossed out. Sending it would change nothing seen."""
        last = self._last
        if last is None or last["quantity"] != frame["quantity"] or set(last) != set(frame):
            return False
        (lx, ly), (gx, gy) = last["grid"], frame["grid"]
        if not (np.array_equal(lx, gx) and np.array_equal(ly, gy)):
            return False
        if "rgba" in frame:
            same_image = np.array_equal(last["rgba"], frame["rgba"])
        else:
            scale = max(float(np.max(last["z"])), float(np.max(frame["z"]))) if frame["quantity"] == "sd" else 1.0
            same_image = bool(np.max(np.abs(last["z"] - frame["z"])) <= 0.5 * scale / len(P_PALETTE))
        cell = min(gx[1] - gx[0], gy[1] - gy[0])
        return (
            same_image
            and last["contour"].shape == frame["contour"].shape
            and bool(np.all(np.abs(last["contour"] - frame["contour"]) <= 0.1 * cell))
            and np.array_equal(last["wrong"], frame["wrong"])
        )

    def show_points(self, points: dict) -> None:
        """Render train/test points from `points(model)` (after new data, or a click added one)."""
        self.train.data = points["train"]
        self.test.data = points["test"]
        self.added.data = points["added"]
        if len(points["added"]["x"]):
            self.dropped_note.visible = False

    def _tapped(self, event) -> None:
        if event.x is not None and event.y is not None:
            x = self.projection.from_plane(np.array([[event.x, event.y]]))[0]
            self._add_point(x, int(self.click_class.value))

    def __panel__(self):
        return pn.Column(
            pn.Row(self.mode),
            pn.Row(self.click_class),  # its own row: three or more class buttons beside the modes ran under the
            # right column's controls (at 1400 wide the third was covered by "ELBO vs iteration")
            pn.Row(self.axes, self.feature_x, self.feature_y),
            pn.pane.Bokeh(self.figure, sizing_mode="stretch_width"),
            pn.pane.Markdown(
                "Circles: training points, triangles: test points (two classes: red the second named above, blue the "
                "first; three or more "
                "classes: the colours named above the plot, the surface their mix by probability); stars: "
                "points you added by clicking (training points too; a new run drops them); black crosses: "
                "misclassified (none while the model is undecided, p ≈ ½); gold squares: inducing "
                "points; black line: p(y=1) = 0.5 (three or more classes: where the most probable class "
                "changes). Uncertainty: the entropy of the class probabilities over log K (1: all equally "
                "likely); predictive sd: of the predicted class's f*.",
                styles={"font-size": "0.85em"},
            ),
            self.dropped_note,
            sizing_mode="stretch_width",
        )
