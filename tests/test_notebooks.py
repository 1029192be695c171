"""The notebooks run top to bottom in a fresh kernel (nbclient), so they never rot."""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def execute(name: str) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return notebook


VIEW_TYPES = ("application/vnd.holoviews_exec.v0+json", "application/vnd.bokehjs_exec.v0+json")


def rendered_view(cell) -> bool:
    """The cell's output holds a rendered Panel/Bokeh view (not the object's plain repr)."""
    return any(any(kind in output.get("data", {}) for kind in VIEW_TYPES) for output in cell.get("outputs", [])
               if output.output_type in ("display_data", "execute_result"))


def cell_with(notebook, code: str):
    (cell,) = [cell for cell in notebook.cells if cell.cell_type == "code" and code in cell.source]
    return cell


def text_outputs(notebook) -> str:
    return "\n".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                     for output in cell.get("outputs", []) if output.output_type == "stream")


@pytest.mark.slow
def test_tour_runs_and_the_dashboard_follows_the_model():
    notebook = execute("tour.ipynb")
    text = text_outputs(notebook)
    assert "iteration 300: 31 points on the live curves" in text
    assert "['run 1: first run', 'run 2 (now): inducing points 30 → 10']" in text
    assert "reached the band" in text and ("won" in text or "settled" in text)
    assert rendered_view(cell_with(notebook, "dashboard = Dashboard(model)"))


@pytest.mark.slow
def test_pg_augmentation_notebook_runs_and_shows_the_learn_tab():
    notebook = execute("pg_augmentation.ipynb")
    text = text_outputs(notebook)
    assert "density integrates to 1.0000000" in text
    assert "last minibatch: 100 points" in text
    last = cell_with(notebook, "learn = LearnTab()")
    assert rendered_view(last)
    assert not any("LearnTab at 0x" in str(output.get("data", {}).get("text/plain", "")) for output in last.outputs)
