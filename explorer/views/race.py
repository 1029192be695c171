"""Race curves as a HoloViews layout (paper Fig. 2): test NLL and test error against training time on a log axis, one
curve per method, the edges of the NLL bands as dashed lines and a marker where each method settled within the first
band, all read from the traces by the race's one judge (`explorer.studies.race`); the NLL axis fits the bulk of the
curves (`nll_axis`). The race report (`explorer.dashboard.race_report`) and the Race tab's axes use this module.

    race = json.loads(Path("race-a9a.json").read_text())   # written by `python -m explorer bench race`
    race_curves(race, fold=1)
"""

from __future__ import annotations

import math
from itertools import cycle

import holoviews as hv
import numpy as np
from scipy.ndimage import median_filter

from explorer.studies.race import DIVERGED_FACTOR, NAMES, Verdict, band_edge, judge
from explorer.views.style import RUN_COLORS, curve, grid, panel, scatter, styled

SECONDS = hv.Dimension("seconds", label="training time (s, log scale; evaluation excluded)")
NLL = hv.Dimension("test_nll", label="test negative log-likelihood")
ERROR = hv.Dimension("test_error", label="test error rate")


def robust_range(curves: list, window: int = 5, pad: float = 0.05, spikes: str = "up") -> tuple[float, float] | None:
    """A y-range (low, high) for several curves that shows every curve whole except brief spikes: from the lowest
    value to the highest value of the curves smoothed by a running median over `window` points (a spike of up to
    window // 2 evaluations, e.g. one natural-gradient evaluation at NLL ≈ 7 among values near 0.3, is cut off
    instead of squashing every curve to the floor; the start of a falling curve is kept), padded by `pad` of the
    span. `spikes`: "up" (cut spikes above: NLL, error), "down" (below: the ELBO) or "both". None when there are no
    finite values."""
    if spikes not in ("up", "down", "both"):
        raise ValueError(f"spikes must be 'up', 'down' or 'both', got {spikes!r}")
    finite = [c[np.isfinite(c)] for c in (np.asarray(curve, dtype=float) for curve in curves)]
    finite = [c for c in finite if len(c)]
    if not finite:
        return None
    smooth = [median_filter(c, size=min(window, len(c)), mode="nearest") for c in finite]
    low = min(float(c.min()) for c in (smooth if spikes in ("down", "both") else finite))
    high = max(float(c.max()) for c in (smooth if spikes in ("up", "both") else finite))
    span = high - low if high > low else max(abs(high), 1.0) * 0.1
    return low - pad * span, high + pad * span


def nll_axis(histories: dict, verdict: Verdict, extra=()) -> tuple[float, float] | None:
    """The y-range (low, high) of a race's NLL plot: `robust_range` of the curves (histories: entrant → columns
    "seconds", "test_nll" (k,)) and of the values `extra` (e.g. band edges), each diverged entrant's curve up to the
    evaluation before it diverged only (`verdict`'s `Standing.diverged`), and the top at most twice chance (padded by
    5%: above it a run does worse than predicting 1/K by far). None when there is nothing finite to show."""
    diverged = {s.entrant: s.diverged for s in verdict.standings}
    curves = [list(extra)]
    for entrant, h in histories.items():
        seconds, nll = np.asarray(h["seconds"], float), np.asarray(h["test_nll"], float)
        curves.append(nll[seconds < diverged.get(entrant, math.inf)])
    fitted = robust_range(curves)
    if fitted is None:
        return None
    low, high = fitted
    most = DIVERGED_FACTOR * verdict.chance * 1.05
    return (low, high) if high <= most else (min(low, 0.9 * most), most)


def clipped_words(histories: dict, top: float, verdict: Verdict) -> str:
    """What runs above an NLL axis ending at `top`, in words ('' when nothing does): 'Test NLL above the axis: SVGP
    (natural gradients) from 5.1 s (diverged; NLL up to 14.9); EPGPC at 2 evaluations (up to 3.2).' histories:
    entrant → columns "seconds", "test_nll" (k,); `verdict` says who diverged when."""
    diverged = {s.entrant: s.diverged for s in verdict.standings}
    parts = []
    for entrant, h in histories.items():
        nll = np.asarray(h["test_nll"], float)
        above = ~(nll <= top)
        if not above.any():
            continue
        name = NAMES.get(entrant, entrant)
        highest = float(nll.max()) if np.isfinite(nll).all() else math.inf
        if math.isfinite(diverged.get(entrant, math.inf)):
            parts.append(f"{name} from {diverged[entrant]:.2g} s (diverged; NLL up to {highest:.3g})")
        else:
            count = int(above.sum())
            parts.append(f"{name} at {count} evaluation{'s' if count > 1 else ''} (up to {highest:.3g})")
    return "Test NLL above the axis: " + "; ".join(parts) + "." if parts else ""


def race_fold(race: dict, fold: int = 1) -> dict:
    """Fold `fold` (1-based) of a race JSON payload ({"folds": [...], ...}); a single fold ({"best_nll",
    "methods"}) is returned as it is."""
    if "methods" in race:
        return race
    folds = race.get("folds")
    if not folds or not 1 <= fold <= len(folds):
        raise ValueError(
            f"no fold {fold} in this race (is it the JSON of `python -m explorer bench race`? it has "
            f"{0 if not folds else len(folds)} folds)"
        )
    return folds[fold - 1]


def judged(fold: dict, band: float = 0.01, budget: float | None = None) -> Verdict:
    """The verdict (`explorer.studies.race.judge`) on the traces of one fold of a race JSON (`race_fold`) at `band`,
    for a race of `budget` training seconds per method (None: not said)."""
    return judge({method: r["trace"] for method, r in fold["methods"].items()}, band=band, budget=budget)


def settle_points(race: dict, band: float = 0.01, fold: int = 1) -> dict[str, tuple[float, float]]:
    """method → (seconds, test NLL) of the evaluation from which it stayed within `band` of the best final NLL
    (`judged`), for the methods that settled."""
    one = race_fold(race, fold)
    out = {}
    for standing in judged(one, band).standings:
        if not math.isfinite(standing.settled):
            continue
        trace = one["methods"][standing.entrant]["trace"]
        at = np.asarray(trace["seconds"], float) == standing.settled
        out[standing.entrant] = (standing.settled, float(np.asarray(trace["test_nll"], float)[at][0]))
    return out


def race_curves(race: dict, *, fold: int = 1, bands=None, settle_band: float = 0.01) -> hv.Layout:
    """Test NLL (with band lines and settle markers) above test error, against training time on a log axis, one
    colour per method. race: a race JSON payload or one of its folds; bands: the bands whose edges are drawn as dashed
    lines (default the payload's "bands", else 1% and 5%). Evaluations at t = 0 are left out (log axis)."""
    bands = bands if bands is not None else race.get("bands", (0.01, 0.05))
    one = race_fold(race, fold)
    verdict = judged(one)
    best = verdict.best_nll
    diverged = {s.entrant: s.diverged for s in verdict.standings}
    nll_curves, error_curves, markers = [], [], []
    settled = settle_points(one, settle_band)
    for (method, r), color in zip(one["methods"].items(), cycle(RUN_COLORS)):
        name = NAMES.get(method, method)
        seconds = np.asarray(r["trace"]["seconds"], float)
        shown = seconds > 0
        since = diverged.get(method, math.inf)
        head = shown & (seconds < since)  # a diverged run: solid to its divergence, dashed from the evaluation before
        tail = shown & (np.arange(len(seconds)) >= max(int(np.searchsorted(seconds, since)) - 1, 0))
        parts = [(head, "Curve", name, False)]  # a diverged run: its tail dashed, named so in the legend
        parts += [(tail, "Diverged", f"{name} diverged at {since:.2g} s", True)] if math.isfinite(since) else []
        style = dict(color=color, line_width=2, logx=True, bokeh=dict(tools=["hover"]))
        for dim, curves in ((NLL, nll_curves), (ERROR, error_curves)):
            values = np.asarray(r["trace"][dim.name], float)
            curves += [
                curve((seconds[part], values[part]), SECONDS, dim, label, group, dashed=dashed, **style)
                for part, group, label, dashed in parts
            ]
        if method in settled:
            label = f"{name} settled within {100 * settle_band:g}%"
            outlined = dict(bokeh=dict(line_color="black"), matplotlib=dict(edgecolors="black"))
            style = dict(color=color, marker="diamond", size=12, logx=True, **outlined)
            markers.append(scatter([settled[method]], SECONDS, NLL, label, "Settled", **style))
    edges = {band: band_edge(best, band) for band in bands}
    band_line = dict(color="gray", line_width=1.5, dashed=True)
    lines = [
        styled(hv.HLine(edge, group="Band", label=f"{100 * band:g}% band"), **band_line) for band, edge in edges.items()
    ]
    y_range = nll_axis({method: r["trace"] for method, r in one["methods"].items()}, verdict, edges.values())
    nll = panel(
        nll_curves + markers + lines,
        "Race",
        "test_nll",
        width=900,
        height=380,
        title=f"test NLL (best {best:.4f})",
        logx=True,
        legend_position="right",
        **({"ylim": y_range} if y_range is not None else {}),
    )
    error = panel(error_curves, "Race", "test_error", width=900, title="test error", logx=True, legend_position="right")
    return grid([nll, error], 1, shared_axes=True, matplotlib=dict(fig_size=200, vspace=0.45))
