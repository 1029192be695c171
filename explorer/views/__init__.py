"""Composable HoloViews views of every picture of the explorer (issue 13): functions that take a `Model`, a run
history, a comparison result, a race result or plain arrays and return HoloViews objects (labels, units and colour
maps set for the Bokeh and the matplotlib backend) that compose with `*`, `+` and `.opts`:

- `surface`: the decision surface (p(y=1) or predictive sd, 0.5 contour, points, misclassified, inducing points;
  K ≥ 3 classes: the class colours mixed by probability, the class boundaries, the uncertainty).
- `traces`: training traces (ELBO, test NLL, error, ρ, kernel parameters) of one or more runs against training time.
- `mcmc`: the MCMC-versus-X-GPC comparison (paper Fig. 1).
- `race`: race curves (test NLL and error against training time, settle markers) from a race JSON.
- `learn`: the Pólya-Gamma pictures of the Learn tab.
- `ep_site`: one point's EP update (probit likelihood, cavity, tilted distribution, site), EPGPC's counterpart.
- `softmax_augmentation`: one point's augmented logistic-softmax (multi-class X-GPC): the likelihood against the
  softmax, q(λ), q(n_k), q(ω_k) and the Gaussian bound along f_k.
- `inducing`: the inducing-point study (paper Fig. 3) from a `bench inducing` JSON.
- `calibration`: reliability diagrams (top-label accuracy against confidence, any K) from `metrics.reliability`.
- `style`: the backend-neutral styling they share.

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
