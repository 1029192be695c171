"""Composable HoloViews views of every picture of the explorer (issue 13): functions that take a `Model`, a run
history, a comparison result, a race result or plain arrays and return HoloViews objects (labels, units and colour
maps set for the Bokeh and the matplotlib backend) that compose with `*`, `+` and `.opts`. One module per picture
(`surface`, `traces`, `mcmc`, `race`, `learn`, `ep_site`, `softmax_augmentation`, `inducing`, `calibration`; each
module's docstring says what it draws), `style` for the styling they share and `export` for files.

Notebooks, the MCMC and Learn tabs and the race report draw with these; the Train tab's live surface and traces
stay raw Bokeh (they refresh at 5 Hz: DESIGN §8).
"""

from explorer.views.calibration import reliability_diagram
from explorer.views.ep_site import ep_site_view
from explorer.views.inducing import inducing_study
from explorer.views.learn import augmentation_identity, augmented_bound, minibatch_histogram, minibatch_view, pg_density
from explorer.views.mcmc import mcmc_comparison, mcmc_scatter, mcmc_surfaces, mcmc_traces
from explorer.views.race import race_curves, settle_points
from explorer.views.softmax_augmentation import softmax_augmentation_view
from explorer.views.surface import decision_surface, decision_surface_from_arrays, surface_arrays, surface_plane
from explorer.views.traces import training_traces

__all__ = [
    "augmentation_identity",
    "augmented_bound",
    "decision_surface",
    "decision_surface_from_arrays",
    "ep_site_view",
    "inducing_study",
    "mcmc_comparison",
    "mcmc_scatter",
    "mcmc_surfaces",
    "mcmc_traces",
    "minibatch_histogram",
    "minibatch_view",
    "pg_density",
    "race_curves",
    "reliability_diagram",
    "settle_points",
    "softmax_augmentation_view",
    "surface_arrays",
    "surface_plane",
    "training_traces",
]
