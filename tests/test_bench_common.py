"""The plumbing every benchmark shares (`explorer.bench.common`, `explorer.bench.race.entrants_markdown`): the command
line and settings recorded beside each table, and the entrants' table of the races on named entrants."""

from __future__ import annotations

import json
from types import SimpleNamespace

from explorer.bench.common import BenchParser, finish
from explorer.bench.race import entrants_markdown


def test_a_benchmark_records_the_command_line_that_ran_and_its_settings(tmp_path, capsys):
    parser = BenchParser("python -m explorer bench demo", "A demonstration.")
    parser.add_argument("--size", type=int, default=3)
    argv = ["--size", "5", "--results", str(tmp_path), "--json", str(tmp_path / "numbers.json")]
    args = parser.parse_args(argv)
    finish(args, "demo (5)", "| a |\n|---|\n| 1 |", {"rows": [1]})
    command = "python -m explorer bench demo --size 5 --results " + str(tmp_path) + " --json " + str(tmp_path)
    payload = json.loads((tmp_path / "numbers.json").read_text())
    assert payload["command"] == command + "/numbers.json"
    # the settings, without where and how the run was written (the output flags) and without the command itself
    assert payload["config"] == {"size": 5, "threads": 1}
    assert payload["rows"] == [1]
    assert f"Command: `{command}/numbers.json`" in (tmp_path / "demo-5.md").read_text()
    assert json.loads((tmp_path / "demo-5.json").read_text())["config"] == {"size": 5, "threads": 1}


def test_the_entrants_table_has_a_cell_under_every_heading_and_marks_the_best():
    entrant = {"final_error": 0.1, "first_0.01": 1.0, "settled_0.01": float("inf"), "iterations": 7, "variance": 2.0}
    races = {
        "demo": {
            "n": 1000,
            "best_nll": 0.25,
            "entrants": {"a": {**entrant, "final_nll": 0.25}, "b": {**entrant, "final_nll": 0.5}},
        }
    }
    args = SimpleNamespace(protocol="clean", fold=1, seconds=2.0, kernel="rbf", eval_points=100)
    columns = {
        "σ²": lambda r, _: f"{r['variance']:.3g}",
        "ref.": lambda r, race: f"{r['final_nll'] - race['n'] / 4000 - 0.05:+.2f}",
    }
    table, note = entrants_markdown(races, args, columns, "A note.").split("\n\n")
    lines = table.split("\n")
    assert len(lines) == 4 and len({line.count("|") for line in lines}) == 1
    assert lines[0].startswith("| data set (n) | entrant | final NLL | gap to best |")
    assert lines[0].endswith("| σ² | ref. |")
    assert lines[2].startswith("| demo (1,000) | a | 0.2500 **best** | +0.0000 |")
    assert lines[2].endswith("| 2 | -0.05 |")  # a column's cell sees the race (its n) as well as the entrant
    assert "**best**" not in lines[3] and lines[3].startswith("| demo (1,000) | b | 0.5000 | +0.2500 |")
    assert lines[3].endswith("| 2 | +0.20 |")
    assert note.endswith("A note.")
