"""`python -m explorer bench <name>`: each module here with a `DESCRIPTION` and `main(argv)` is one benchmark."""

from __future__ import annotations

import importlib
import pkgutil
import sys


def _benchmark(name: str):
    """The module of benchmark `name` (it has a `DESCRIPTION` and a `main`), or None."""
    if name == "common" or name not in {info.name for info in pkgutil.iter_modules(__path__)}:
        return None
    module = importlib.import_module(f"{__name__}.{name}")
    return module if hasattr(module, "main") and hasattr(module, "DESCRIPTION") else None


def available() -> dict[str, str]:
    """Benchmark name → one-line description, discovered from the modules of this package."""
    modules = {info.name: _benchmark(info.name) for info in pkgutil.iter_modules(__path__)}
    return {name: module.DESCRIPTION for name, module in modules.items() if module is not None}


def run(name: str, argv: list[str]) -> int:
    """Run benchmark `name` with its options `argv` (only its module is imported: a usage error is quick)."""
    module = _benchmark(name)
    if module is None:
        listing = "\n".join(f"  {n:12s} {d}" for n, d in sorted(available().items()))
        raise SystemExit(f"unknown benchmark {name!r}; available:\n{listing}")
    from explorer.bench.grid import GridFailed
    from explorer.data.datasets import DataError

    try:
        return module.main(argv)
    except DataError as err:  # a data set missing or unreadable: one line saying what and how to get it
        raise SystemExit(f"python -m explorer bench {name}: {err}") from None
    except GridFailed as err:  # tasks on a cluster failed: each named (the others' results kept for a rerun)
        print(f"python -m explorer bench {name}: {err}", file=sys.stderr)
        return 1
