"""Reliability diagrams: top-label accuracy against confidence per equal-width bin, one curve per method, beside the
diagonal of perfect calibration, above the share of test points in each bin (`explorer.metrics.reliability`; its
expected calibration error in the legend).

    tables = {"X-GPC": reliability(P, y)}             # or the "reliability" entries of a `bench multiclass` JSON
    reliability_diagram(tables)                       # as a file from the command line: `views.reliability_figure`
"""

from __future__ import annotations

from itertools import cycle

import holoviews as hv
import numpy as np

from explorer.metrics import calibration_error
from explorer.views.style import RUN_COLORS, curve, panel, scatter

CONFIDENCE = hv.Dimension("confidence", label="confidence (top-label probability)", range=(0.0, 1.0))
ACCURACY = hv.Dimension("accuracy", label="accuracy", range=(0.0, 1.0))
SHARE = hv.Dimension("share", label="share of test points")


def reliability_diagram(tables: dict[str, dict], *, title: str = "") -> hv.Layout:
    """A reliability diagram: per method, accuracy against mean confidence of each non-empty bin (curve and
    markers) over the diagonal of perfect calibration, its ECE in the legend; below, the share of points per bin.

    Parameters
    ----------
    tables : dict of str to dict
        Method name → its reliability table (`explorer.metrics.reliability`: arrays or lists "lower", "upper",
        "count", "confidence", "accuracy" of one length, as a `bench multiclass` JSON holds them).
    title : str, default ""
        Title of the reliability panel ("reliability" if empty).

    Returns
    -------
    holoviews.Layout
        The reliability panel above the confidence histogram.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.metrics import reliability
    >>> P = np.array([[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.4, 0.35, 0.25]])
    >>> view = reliability_diagram({"model": reliability(P, np.array([0, 1, 2]))})
    >>> len(view), [element.label for element in view[0]][:2]
    (2, ['perfect', 'model (ECE 0.267)'])
    """
    if not tables:
        raise ValueError("a reliability diagram needs at least one method's reliability table")
    diagonal = curve(
        ([0.0, 1.0], [0.0, 1.0]), CONFIDENCE, ACCURACY, "perfect", "Perfect", color="gray", line_width=1.5, dashed=True
    )
    curves, shares = [diagonal], []
    for (name, table), color in zip(tables.items(), cycle(RUN_COLORS)):
        count = np.asarray(table["count"], float)
        full = count > 0
        label = f"{name} (ECE {calibration_error(table):.3f})"
        points = (np.asarray(table["confidence"], float)[full], np.asarray(table["accuracy"], float)[full])
        curves += [curve(points, CONFIDENCE, ACCURACY, label, color=color, line_width=2)]
        curves += [scatter(points, CONFIDENCE, ACCURACY, label, color=color, marker="circle", size=7)]
        centres = 0.5 * (np.asarray(table["lower"], float) + np.asarray(table["upper"], float))
        share = (centres, count / count.sum())
        shares.append(curve(share, CONFIDENCE, SHARE, name, color=color, line_width=2, interpolation="steps-mid"))
    top = panel(curves, width=420, height=420, title=title or "reliability", legend_position="bottom")
    bottom = panel(shares, width=420, height=160, title="confidence histogram", show_legend=False)
    return (top + bottom).cols(1)


def bench_tables(payload: dict, dataset: str | None = None, fold: int = 1) -> tuple[str, dict[str, dict]]:
    """(data set, method name → reliability table) of fold `fold` (1-based) of a `bench multiclass` JSON payload, on
    `dataset` (default: its first)."""
    records = payload.get("records") or []
    dataset = dataset or (records[0]["dataset"] if records else None)
    chosen = [r for r in records if r["dataset"] == dataset and r["fold"] == fold - 1 and "reliability" in r]
    if not chosen:
        found = sorted({(r["dataset"], r["fold"] + 1) for r in records})
        raise ValueError(f"no reliability tables for data set {dataset!r}, fold {fold} (the JSON has {found})")
    names = payload.get("names", {})
    return dataset, {names.get(r["method"], r["method"]): r["reliability"] for r in chosen}
