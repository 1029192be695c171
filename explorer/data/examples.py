"""Small example files for the upload demo, made from the built-in 2-D sets (`xgpc-explorer data examples`).

Each file shows one thing the readers accept: labels 0/1, words as labels, a TSV, the label column first, a semicolon
delimiter, three classes. They are generated from fixed seeds, so running the command again writes the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer.data import datasets
from explorer.data.registry import examples_dir


@dataclass(frozen=True)
class Example:
    """A file: built-in set `dataset` with n rows, written with `delimiter`, label column `label` first or last,
    class k (a class index 0…K−1 of the generated set; binary: 0 is class −1, 1 is +1) written as labels[k]."""

    file: str
    dataset: str
    n: int
    seed: int
    label: str
    labels: tuple[str, ...]
    delimiter: str = ","
    label_first: bool = False


EXAMPLES = (
    Example("moons.csv", "moons", 200, 1, "label", ("0", "1")),
    Example("circles.csv", "circles", 240, 2, "ring", ("outer", "inner")),
    Example("xor.tsv", "xor", 200, 3, "class", ("-1", "+1"), delimiter="\t"),
    Example("banana-like.csv", "banana-like", 300, 4, "class", ("A", "B"), label_first=True),
    Example("blobs-semicolon.csv", "blobs", 160, 5, "target", ("no", "yes"), delimiter=";"),
    Example("blobs-3.csv", "blobs-3", 240, 6, "species", ("bird", "cat", "dog")),
)


def example_text(example: Example) -> str:
    """The file's content: a header, then one row per point, coordinates to 6 significant digits."""
    X, y = datasets.load(example.dataset, n=example.n, seed=example.seed)
    names = ["x1", "x2"]
    header = [example.label] + names if example.label_first else names + [example.label]
    lines = [example.delimiter.join(header)]
    for (x1, x2), label in zip(X.tolist(), y.tolist()):
        text = example.labels[label]
        cells = [f"{x1:.6g}", f"{x2:.6g}"]
        lines.append(example.delimiter.join([text] + cells if example.label_first else cells + [text]))
    return "\n".join(lines) + "\n"


def write_examples(directory: Path | None = None) -> list[Path]:
    """Write every example file into `directory` (default: `registry.examples_dir()`, `examples/` in the data home;
    a checkout keeps them in `data/examples/`). Returns their paths."""
    directory = examples_dir() if directory is None else Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for example in EXAMPLES:
        path = directory / example.file
        path.write_text(example_text(example), encoding="utf-8", newline="\n")
        written.append(path)
    return written
