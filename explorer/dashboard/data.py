"""Data tab: the built-in 2-D sets, the paper's data sets found in the data directory, and CSV upload with a
label-column chooser. A file that cannot be used raises a notification and leaves the current run as it was."""
from __future__ import annotations

import csv

import numpy as np
import panel as pn

from explorer import datasets
from explorer.dashboard.controls import DATA

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
_LABEL_NAMES = ("label", "labels", "class", "classes", "target", "y", "outcome")


def header_columns(content: bytes, filename: str) -> list[str]:
    """Column names from the first non-blank line of an uploaded CSV/TSV (delimiter: the most frequent of
    , TAB ; | else whitespace). Raises `DataError` for an empty, binary or one-column file."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise datasets.DataError(f"{filename}: {len(content) / 1e6:.1f} MB is over the upload limit of "
                                 f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB")
    try:
        text = content[:65536].decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise datasets.DataError(f"{filename}: not UTF-8 text (byte {err.start}: {err.reason})") from None
    first = next((line for line in text.splitlines() if line.strip()), None)
    if first is None:
        raise datasets.DataError(f"{filename}: the file is empty")
    counts = {d: first.count(d) for d in (",", "\t", ";", "|")}
    delimiter = max(counts, key=counts.get)
    columns = next(csv.reader([first], delimiter=delimiter)) if counts[delimiter] else first.split()
    columns = [c.strip() for c in columns]
    if len(columns) < 2:
        raise datasets.DataError(f"{filename}: the first line {first!r} has one column; a header row with a label "
                                 "column and at least one feature column is needed")
    return columns


def guess_label_column(columns: list[str]) -> str:
    """A column named like a label ('label', 'class', 'target', 'y', …), else the last column."""
    for column in columns:
        if column.strip().lower() in _LABEL_NAMES:
            return column
    return columns[-1]


def summary(model) -> str:
    """Markdown description of the model's current data (call under the worker gate)."""
    y = np.concatenate([model.y_train, model.y_test])
    positive = int(np.sum(y > 0))
    names = ", ".join(model.feature_names[:12]) + (" …" if len(model.feature_names) > 12 else "")
    note = ""
    if model.dataset in datasets.PAPER_DATASETS:
        note = f"\n\n*Source:* {datasets.PAPER_DATASETS[model.dataset].note}"
    return (f"**{model.dataset}**: {len(model.y_train)} training and {len(model.y_test)} test points, "
            f"d = {model.X_train.shape[1]} features ({names}); class +1: {positive}, class −1: {len(y) - positive}. "
            f"Inputs are standardised with the training statistics; plots show raw units.{note}")


class DataTab(pn.viewable.Viewer):
    """Upload widgets and the description of the current data (shows itself in a notebook). `load_file(content,
    filename, label_column)` is the dashboard's callback that parses a file and swaps the data in (or notifies what
    is wrong)."""

    def __init__(self, settings, load_file, report_error):
        super().__init__()
        self._load_file = load_file
        self._report_error = report_error
        self._content: bytes | None = None
        self._filename = ""
        self.upload = pn.widgets.FileInput(accept=".csv,.tsv,.txt", multiple=False)
        self.label_column = pn.widgets.Select(label="label column", options=[], disabled=True, width=240)
        self.description = pn.pane.Markdown("", sizing_mode="stretch_width")
        self.upload.param.watch(self._uploaded, "value")
        self.label_column.param.watch(self._label_chosen, "value")
        self._settings = settings
        self._choosing = False

    def _uploaded(self, event) -> None:
        if event.new is None:
            return
        content, filename = bytes(event.new), self.upload.filename or "uploaded file"
        try:
            columns = header_columns(content, filename)
        except datasets.DataError as err:
            self._report_error(str(err))
            return
        self._content, self._filename = content, filename
        self._choosing = True
        try:
            self.label_column.options = columns
            self.label_column.value = guess_label_column(columns)
            self.label_column.disabled = False
        finally:
            self._choosing = False
        self._load_file(content, filename, self.label_column.value)

    def _label_chosen(self, event) -> None:
        if not self._choosing and self._content is not None and event.new is not None:
            self._load_file(self._content, self._filename, event.new)

    def __panel__(self):
        availability = datasets.paper_availability()
        found = [f"{row['name']}: {datasets.PAPER_DATASETS[row['name']].note}"
                 for row in availability if row["available"]]
        missing = [f"{row['name']}: {row['how_to_get']}" for row in availability if not row["available"]]
        paper = "\n".join(
            ([f"Found here ({len(found)} of {len(availability)}), in the data set list:", *found] if found
             else [f"None of the {len(availability)} sets was found here."])
            + (["", "Missing, and how to get them (then reload the page):", *missing] if missing else []))
        return pn.Row(
            pn.Column(
                "### Data set", self._settings.group(DATA),
                "### Upload a CSV",
                pn.pane.Markdown(f"A header row, one label column with two distinct values, numeric features. "
                                 f"At most {MAX_UPLOAD_BYTES // 2**20} MB. The label column is guessed from its "
                                 "name (label, class, target, y) or is the last column; change it below."),
                self.upload, self.label_column,
                width=360,
            ),
            pn.Column(
                "### Current data", self.description,
                "### The paper's data sets",
                pn.pane.Str(paper, styles={"white-space": "pre-wrap"}, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )
