"""HoloViews views as Panel panes drawn on a 2-D canvas, not with WebGL (HoloViews' default for Bokeh): in Chromium
the WebGL plots of panes inserted after the page has loaded drew no points and no image. The dashboard's views are
small (hundreds of points, 40×40 images), well within what the canvas draws at once.
"""

from __future__ import annotations

import panel as pn

CANVAS = {"plot.output_backend": "canvas"}
# A Row whose panes wrap onto the next line where the window is too narrow for them side by side (a 1024-px
# projector). Panel's FlexBox would wrap too, but drew the HoloViews panes inside it at zero size.
WRAPPING = dict(sizing_mode="stretch_width", styles={"flex-wrap": "wrap", "min-width": "0", "width": "100%"})


def canvas_pane(view, **params) -> pn.pane.HoloViews:
    """A Panel pane of the HoloViews `view` (an element, Overlay or DynamicMap) whose Bokeh plot draws on a canvas,
    not with WebGL (`params` go to the pane)."""
    return pn.pane.HoloViews(on_canvas(view), backend="bokeh", **params)


def on_canvas(view):
    """`view` with its Bokeh plot (for a DynamicMap: every frame's) drawn on a canvas."""
    return view.opts(backend_opts=CANVAS, backend="bokeh")
