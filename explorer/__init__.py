"""X-GPC Explorer: Pólya-Gamma augmented sparse variational GP classification you can watch, race and check.

Public names: `XGPC` (the method's training state), the baselines `SVGPAdam`, `SVGPNatGrad` and `EPGPC`, `Trainer`
(the one training loop), `Run` (one headless run: settings, data, engine, Trainer, save/load), `XGPClassifier`
(scikit-learn estimator), `Model` (param-based stepping run), `datasets`.
They load on first use, so `import explorer.xgpc` stays free of param and the UI stack.
"""

from __future__ import annotations

import importlib

__all__ = ["XGPC", "SVGPAdam", "SVGPNatGrad", "EPGPC", "Trainer", "Run", "XGPClassifier", "Model", "datasets"]
_LOCATIONS = {
    "XGPC": "explorer.xgpc",
    "SVGPAdam": "explorer.svgp",
    "SVGPNatGrad": "explorer.svgp",
    "EPGPC": "explorer.epgpc",
    "Trainer": "explorer.training",
    "Run": "explorer.run",
    "XGPClassifier": "explorer.estimator",
    "Model": "explorer.model",
}


def __getattr__(name: str):
    if name in _LOCATIONS:
        return getattr(importlib.import_module(_LOCATIONS[name]), name)
    if name == "datasets":
        return importlib.import_module("explorer.data.datasets")
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")
