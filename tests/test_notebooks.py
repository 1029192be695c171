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


def text_outputs(notebook) -> str:
    return "\n".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                     for output in cell.get("outputs", []) if output.output_type == "stream")


@pytest.mark.slow
def test_tour_runs_and_the_dashboard_follows_the_model():
    notebook = execute("tour.ipynb")
    text = text_outputs(notebook)
    assert "iteration 300: 31 points on the live curves" in text
    assert "run 1: n_inducing=30" in text
    assert "first within 1%" in text
    displayed = [output for cell in notebook.cells for output in cell.get("outputs", [])
                 if output.output_type == "display_data"]
    assert any("application/vnd.holoviews_exec.v0+json" in output.get("data", {}) for output in displayed)


@pytest.mark.slow
def test_pg_augmentation_notebook_runs():
    text = text_outputs(execute("pg_augmentation.ipynb"))
    assert "density integrates to 1.0000000" in text
    assert "last minibatch: 100 points" in text
