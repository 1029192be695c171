"""The layers of DESIGN §1, read from the source (every import statement, with `ast`) and from a fresh interpreter
(what an import really loads): arrows point down only.

HoloViews itself imports Panel when its plotting backends load (holoviews requires panel ≥ 1.0 and
`holoviews.plotting.renderer` imports it), so "views without Panel" means: no view module imports Panel or the
dashboard, and importing the views loads no module of `explorer.dashboard`."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from early import Early

import explorer

PACKAGE = Path(explorer.__file__).parent
UI = ("panel", "bokeh", "holoviews", "explorer.dashboard", "explorer.views")
CATALOGUE = tuple(
    f"explorer.data.{name}"
    for name in ("datasets", "registry", "download", "examples", "data_command", "sources", "readers")
)
"""Every module of the data catalogue, the file readers included: the data-source protocol the engines read through
lives beside the numerics (`explorer.sources`), and the catalogue's file sources implement it (issue 32 item 5)."""
FACES = ("explorer.model", "explorer.estimator", "explorer.bench", "explorer.__main__")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _offending(path: Path, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(name for name in _imports(path) if any(name == f or name.startswith(f + ".") for f in forbidden))


def _modules(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((PACKAGE / folder).glob("*.py"))]


RUN_LAYER = [PACKAGE / "run.py"] + _modules("studies")
"""`Run` and the studies: above the numerics, below the faces; a run may open a user's file (the catalogue)."""
NUMERICS = [path for path in _modules(".") if path.stem not in ("model", "estimator", "__main__", "run")]


@pytest.mark.parametrize("path", NUMERICS, ids=lambda path: path.name)
def test_the_numerics_import_no_ui_no_param_no_face_and_no_data_catalogue(path):
    assert not _offending(path, UI + ("param",) + FACES + CATALOGUE), path.name


@pytest.mark.parametrize("path", RUN_LAYER, ids=lambda path: path.name)
def test_the_run_and_the_studies_import_no_ui_and_no_face(path):
    assert not _offending(path, UI + ("param",) + FACES), path.name


@pytest.mark.parametrize("path", _modules("data"), ids=lambda path: path.name)
def test_the_data_catalogue_imports_no_ui_no_face_and_no_engine(path):
    engines = ("explorer.engine", "explorer.xgpc", "explorer.svgp", "explorer.epgpc", "explorer.training")
    assert not _offending(path, UI + ("param",) + FACES + engines), path.name


@pytest.mark.parametrize("path", _modules("bench") + [PACKAGE / "model.py", PACKAGE / "estimator.py"], ids=str)
def test_no_face_imports_the_dashboard_or_a_view(path):
    assert not _offending(path, ("panel", "explorer.dashboard", "explorer.views")), path.name


@pytest.mark.parametrize("path", _modules("dashboard"), ids=lambda path: path.name)
def test_the_dashboard_imports_neither_a_benchmark_nor_a_tool(path):
    """The tools that serve and drive the dashboard (its benchmark, the load test, the screenshots) stand above it, in
    `explorer.tools`: the dashboard stands above no benchmark."""
    assert not _offending(path, ("explorer.bench", "explorer.tools")), path.name


@pytest.mark.parametrize("path", _modules("views"), ids=lambda path: path.name)
def test_the_views_import_neither_panel_nor_the_dashboard(path):
    assert not _offending(path, ("panel", "explorer.dashboard")), path.name


VIEWS_IMPORT = "import explorer.views"
ENGINES_IMPORT = "import explorer.engine, explorer.xgpc, explorer.svgp, explorer.epgpc"
_early = Early()


def _run_python(statement: str) -> subprocess.CompletedProcess:
    code = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def start_early(items, lane) -> None:
    """The two fresh Pythons that import the views and the engines, in `lane` (see conftest.start_early)."""
    names = {getattr(item, "originalname", "") for item in items}
    if "test_importing_the_views_loads_no_dashboard_module" in names:
        _early.submit(lane, VIEWS_IMPORT, _run_python, VIEWS_IMPORT)
    if "test_importing_an_engine_loads_neither_the_data_catalogue_nor_param" in names:
        _early.submit(lane, ENGINES_IMPORT, _run_python, ENGINES_IMPORT)


def _loaded_after(statement: str) -> set[str]:
    """The modules a fresh Python has loaded after `statement`."""
    result = _early.result(statement, _run_python, statement)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_importing_the_views_loads_no_dashboard_module():
    loaded = _loaded_after(VIEWS_IMPORT)
    assert "explorer.views.surface" in loaded  # the check below is about a real import
    assert not {name for name in loaded if name.startswith("explorer.dashboard")}


def test_importing_an_engine_loads_neither_the_data_catalogue_nor_param():
    loaded = _loaded_after(ENGINES_IMPORT)
    assert "explorer.xgpc" in loaded
    assert not loaded & (set(CATALOGUE) | {"param", "panel", "holoviews"})
