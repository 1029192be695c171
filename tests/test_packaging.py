"""The project's own files declare every package its code and its tests import.

A package installed by hand on one machine must not hide a missing declaration: the README's test command installs
into a fresh virtual environment, and this test names any import that `pyproject.toml` would not bring there.
"""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_top_level_modules(paths) -> dict[str, set[str]]:
    """Top-level module names imported anywhere in the files (module level or inside functions) → the files."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.partition(".")[0], set()).add(Path(path).name)
    return found


def normalise(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_distributions(pyproject: dict, extras=None) -> set[str]:
    """Distribution names in `[project] dependencies` and the named optional extras (all of them by default)."""
    project = pyproject["project"]
    optional = project.get("optional-dependencies", {})
    requirements = list(project.get("dependencies", []))
    for extra in optional if extras is None else extras:
        requirements += optional[extra]
    return {normalise(re.match(r"[A-Za-z0-9._-]+", requirement).group()) for requirement in requirements}


def undeclared_imports(modules: dict[str, set[str]], declared: set[str], local: set[str]) -> dict[str, str]:
    """Imported modules that are neither standard library, nor local, nor provided by a declared distribution →
    a message naming the module, its distribution and the files that import it."""
    distributions = packages_distributions()
    missing = {}
    for module, files in sorted(modules.items()):
        if module in sys.stdlib_module_names or module in local:
            continue
        providers = {normalise(d) for d in distributions.get(module, [])}
        if not providers & declared:
            where = ", ".join(sorted(files))
            missing[module] = (
                f"{module} (distribution {', '.join(sorted(providers)) or 'not installed'}) is "
                f"imported by {where} but not declared in pyproject.toml"
            )
    return missing


def test_every_module_the_tests_import_is_declared_by_the_package_or_its_test_extra():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    test_files = sorted((ROOT / "tests").glob("*.py"))
    local = {"explorer"} | {path.stem for path in test_files}
    missing = undeclared_imports(
        imported_top_level_modules(test_files), declared_distributions(pyproject, extras=["test"]), local
    )
    assert not missing, "\n".join(missing.values())


def test_every_module_the_package_imports_is_declared():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    sources = sorted((ROOT / "explorer").rglob("*.py")) + sorted((ROOT / "apps").glob("*.py"))
    missing = undeclared_imports(
        imported_top_level_modules(sources), declared_distributions(pyproject), local={"explorer"}
    )
    assert not missing, "\n".join(missing.values())


def test_the_check_names_an_import_whose_declaration_is_removed():
    """The checker is not vacuous: the project's own declarations with mpmath struck out flag test_likelihoods."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pyproject["project"]["optional-dependencies"]["test"] = [
        r for r in pyproject["project"]["optional-dependencies"]["test"] if not r.startswith("mpmath")
    ]
    test_files = sorted((ROOT / "tests").glob("*.py"))
    local = {"explorer"} | {path.stem for path in test_files}
    missing = undeclared_imports(
        imported_top_level_modules(test_files), declared_distributions(pyproject, extras=["test"]), local
    )
    assert set(missing) == {"mpmath"} and "test_likelihoods.py" in missing["mpmath"]
