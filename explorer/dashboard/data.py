"""Data tab: the built-in 2-D sets, the paper's data sets found in the data directory, and CSV upload with a
label-column chooser (the upload's limits: `upload.LimitedFileDropper`; the file is read off the event loop,
`changes.Changes.read_file`). A file that cannot be used raises a notification and leaves the current run, and the
label-column box, as they were."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from itertools import islice

import numpy as np
import panel as pn

from explorer import methods
from explorer.dashboard.controls import DATA
from explorer.dashboard.notices import html_text, markdown_text
from explorer.dashboard.tabs import Tab
from explorer.dashboard.upload import MAX_UPLOAD_BYTES, LimitedFileDropper
from explorer.data import datasets, registry
from explorer.data.readers import csv_rows, first_nonblank_line, sniff_delimiter

_LABEL_NAMES = ("label", "labels", "class", "classes", "target", "y", "outcome")


def examples_hint() -> str:
    """Markdown: where the example files for the upload are (`registry.examples_dir()`, in the data home this server
    really uses) and the command that writes them."""
    return (
        f"Files to try it with: `{registry.examples_dir()}` (moons, circles, xor, banana-like, blobs; blobs-3 with three classes; "
        "`xgpc-explorer data examples` writes them there)."
    )


SAMPLED_ROWS = 200
"""Data rows of an upload's first 64 kB that `guess_label_column` looks at."""


def header_and_sample(content: bytes, filename: str) -> tuple[list[str], list[list[str]]]:
    """Column names from the first non-blank line of an uploaded CSV/TSV (delimiter: `readers.sniff_delimiter`) and up
    to SAMPLED_ROWS data rows after it, as text (the last line of the 64 kB read is left out: it may be cut). Raises
    `DataError` for an oversized, empty, binary or one-column file."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise datasets.DataError(
            f"{filename}: {len(content) / 1e6:.1f} MB is over the upload limit of {MAX_UPLOAD_BYTES / 1e6:.0f} MB"
        )
    try:
        text = content[:65536].decode("utf-8-sig")
    except UnicodeDecodeError as err:
        if err.start < 65536 - 4:  # not a multi-byte character cut by the 64 kB read
            raise datasets.DataError(f"{filename}: not UTF-8 text (byte {err.start}: {err.reason})") from None
        text = content[: err.start].decode("utf-8-sig")
    first = first_nonblank_line(text)
    if first is None:
        raise datasets.DataError(f"{filename}: the file is empty")
    delimiter = sniff_delimiter(first, filename)  # the rules the reader parses the file with
    rows = [fields for _, fields in islice(csv_rows(text, delimiter, filename), SAMPLED_ROWS + 2)]
    columns = rows[0] if rows else []  # (a line of one empty quoted field is no row)
    if len(columns) < 2:
        raise datasets.DataError(
            f"{filename}: the first line {first!r} has one column; a header row with a label "
            "column and at least one feature column is needed"
        )
    whole = len(content) <= 65536
    return columns, rows[1 : SAMPLED_ROWS + 1] if whole else rows[1 : min(SAMPLED_ROWS + 1, len(rows) - 1)]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def guess_label_column(columns: list[str], sample: list[list[str]] = ()) -> str:
    """The label column of an upload, from its header and a sample of its data rows (text): the one column holding
    something that is not a number, when exactly one does (the features must be numbers, so it can only be the
    label: 'x,y,species' → species); else a column named like a label ('label', 'class', 'target', 'y', …); else the
    last column."""
    non_numeric = [
        column
        for j, column in enumerate(columns)
        if any(j < len(row) and row[j] != "" and not _is_number(row[j]) for row in sample)
    ]
    if len(non_numeric) == 1:
        return non_numeric[0]
    for column in columns:
        if column.strip().lower() in _LABEL_NAMES:
            return column
    return columns[-1]


def paper_sets_text(availability: list[dict]) -> str:
    """Markdown for the paper's data sets (rows of `datasets.paper_availability()`): those found, each with its one-line
    note, then the missing ones in one short paragraph: the command that fetches those with an OpenML copy into the
    data home this server really uses (`registry.data_home()`) and the command that says where the others' files come
    from."""
    found = [row["name"] for row in availability if row["available"]]
    missing = [row["name"] for row in availability if not row["available"]]
    fetchable = [name for name in missing if datasets.PAPER_DATASETS[name].openml_id is not None]
    by_hand = [name for name in missing if name not in fetchable]
    lines = (
        [
            f"Found here ({len(found)} of {len(availability)}), in the data set list:",
            "",
            *(f"- **{name}**: {datasets.PAPER_DATASETS[name].note}" for name in found),
        ]
        if found
        else [f"None of the {len(availability)} sets was found here."]
    )
    if missing:
        how = []
        if fetchable:
            how.append(
                f"`xgpc-explorer data fetch {' '.join(fetchable)}` downloads "
                f"{'it' if len(fetchable) == 1 else 'them'} from OpenML into `{registry.data_home()}`"
            )
        if by_hand:
            how.append(
                f"{', '.join(by_hand)} {'has' if len(by_hand) == 1 else 'have'} no OpenML copy: "
                f"`xgpc-explorer data list` says where the files come from (put them into `{registry.data_home()}`)"
            )
        lines += ["", f"Missing ({len(missing)}): {', '.join(missing)}. " + "; ".join(how) + "; then reload the page."]
    return "\n".join(lines)


def summary(model) -> str:
    """Markdown description of the model's current data (call under the worker gate). Names come from files, so
    they are escaped: show it in a pane with `disable_math=True`."""
    y = np.concatenate([model.y_train, model.y_test])
    names = ", ".join(markdown_text(name) for name in model.feature_names[:12])
    names += " …" if len(model.feature_names) > 12 else ""
    note = ""
    if model.dataset in datasets.PAPER_DATASETS:
        note = f"\n\n*Source:* {datasets.PAPER_DATASETS[model.dataset].note}"
    classes = model.classes
    rows = np.bincount(y, minlength=len(classes))
    counts = f"{len(classes)} classes: " + ", ".join(
        f"{markdown_text(c)} ({n} rows)" for c, n in zip(classes.tolist(), rows.tolist())
    )
    return (
        f"**{markdown_text(model.dataset)}**: {len(model.y_train)} training and {len(model.y_test)} test points, "
        f"d = {model.X_train.shape[1]} features ({names}); {counts}. "
        f"Inputs are standardised with the training statistics; plots show raw units.{note}"
    )


@dataclass(frozen=True)
class Upload:
    """An uploaded file, its header and the chosen label column."""

    content: bytes
    filename: str
    columns: list[str]
    label_column: str


class DataTab(Tab, pn.viewable.Viewer):
    """Upload widgets and the description of the current data (shows itself in a notebook). `read_file(content,
    filename, label_column)` is the dashboard's coroutine that reads a file off the event loop and swaps the data in;
    it returns whether it did (if not, it has said why). The label-column box shows the header of the last file read:
    the file in use, or a refused one whose label the user may change (the file is then read again)."""

    title = "Data"

    def __init__(self, settings, read_file, report_error):
        super().__init__()
        self._read_file = read_file
        self._report_error = report_error
        self.accepted: Upload | None = None  # the file whose data the model uses
        self.shown: Upload | None = None  # the last file read, accepted or refused: its header is in the label box
        self._in_progress: Upload | None = None
        self.upload = LimitedFileDropper(report_error, multiple=False, layout="compact", sizing_mode="stretch_width")
        self.label_column = pn.widgets.Select(label="label column", options=[], disabled=True, width=240)
        self.reading = pn.widgets.StaticText(value="", visible=False)
        self.reading_bar = pn.indicators.Progress(value=-1, active=True, visible=False, sizing_mode="stretch_width")
        self.description = pn.pane.Markdown("", disable_math=True, sizing_mode="stretch_width")
        self.upload.param.watch(self._uploaded, "value")
        self.label_column.param.watch(self._label_chosen, "value")
        self._settings = settings
        self._showing = False

    def prepare(self, model) -> str:
        return summary(model)

    def show_run(self, prepared: str) -> None:
        self.description.object = prepared

    async def _uploaded(self, event) -> None:
        if not event.new:  # a file was removed
            return
        filename, content = list(event.new.items())[-1]
        # text files arrive decoded from UTF-8: encoded back, every file is read the same way
        content = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        self.upload.value.clear()  # the content lives on in `accepted` only if the file is accepted
        try:
            columns, sample = header_and_sample(content, filename)
        except datasets.DataError as err:
            self._report_error(str(err))
            return
        await self._read(Upload(content, filename, columns, guess_label_column(columns, sample)))

    def _label_chosen(self, event) -> None:
        """A label column chosen by the user (not one shown by `_show_label_choice`): read the file again with it."""
        if self._showing or self.shown is None or event.new in (None, self.shown.label_column):
            return
        pn.state.execute(partial(self._read, replace(self.shown, label_column=event.new)))

    async def _read(self, upload: Upload) -> None:
        """Read `upload` (progress shown meanwhile); keep it as the accepted file if the dashboard took it. One file
        at a time: another one dropped meanwhile is refused with a message."""
        if self._in_progress is not None:
            self._report_error(
                f"Still reading {self._in_progress.filename}: upload {upload.filename} once it is loaded."
            )
            return
        self._in_progress = upload
        self._show_reading(upload)
        try:
            if await self._read_file(upload.content, upload.filename, upload.label_column):
                self.accepted = self.shown = upload
            elif self.shown is None or upload.content is not self.shown.content:
                self.shown = upload  # a new file refused: its header stays in the box, to choose another label
            # (another label of the file shown, refused: the box goes back to the label it had)
        finally:
            self._in_progress = None
            self._show_reading(None)
            self._show_label_choice()

    def _show_reading(self, upload: Upload | None) -> None:
        if upload is not None:
            self.reading.value = f"Reading {html_text(upload.filename)} ({len(upload.content) / 1e6:.1f} MB)…"
        self.reading.visible = self.reading_bar.visible = upload is not None
        self.label_column.disabled = upload is not None or self.shown is None

    def _show_label_choice(self) -> None:
        """The label-column box shows the last file read (`shown`): its header and label (empty before any file)."""
        self._showing = True
        try:
            self.label_column.options = list(self.shown.columns) if self.shown else []
            self.label_column.value = self.shown.label_column if self.shown else None
            self.label_column.disabled = self.shown is None
        finally:
            self._showing = False

    def __panel__(self):
        multiclass = " and ".join(
            f"**{name}**" for name, (_, most) in methods.CLASS_COUNTS.items() if most is None or most > 2
        )
        return pn.Row(
            pn.Column(
                "### Data set",
                self._settings.group(DATA),
                "### Upload a CSV",
                pn.pane.Markdown(
                    f"A header row, one label column with two distinct values (or more, for {multiclass}), "
                    "numeric features. "
                    f"At most {MAX_UPLOAD_BYTES // 10**6} MB. The label column is guessed: the one column that "
                    "is not numbers, else by its name (label, class, target, y), else the last column; change it "
                    "below (also after a refusal: the file is read again with the label you choose)."
                ),
                pn.pane.Markdown(examples_hint(), disable_math=True),
                self.upload,
                self.reading,
                self.reading_bar,
                self.label_column,
                width=360,
            ),
            pn.Column(
                "### Current data",
                self.description,
                "### The paper's data sets",
                pn.pane.Markdown(
                    paper_sets_text(datasets.paper_availability()), disable_math=True, sizing_mode="stretch_width"
                ),
                sizing_mode="stretch_width",
            ),
            sizing_mode="stretch_width",
        )
