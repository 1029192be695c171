"""Headless studies a tab drives and a script runs (`plane`, `comparison`, `race`, `inducing`): each imports numerics
and the data catalogue only, never Panel or a view.

A long study is a generator: each `next` does a short piece of work and yields its progress, and the generator
returns the study's result. A tab's worker advances it a step at a time between clicks; a script runs it with
`finish`."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TypeVar

Event = TypeVar("Event")
Result = TypeVar("Result")


def finish(study: Generator[Event, None, Result], report: Callable[[Event], None] | None = None) -> Result:
    """Run the generator `study` to its end, handing each progress event it yields to `report` (if given); return
    the study's result (the generator's return value)."""
    while True:
        try:
            event = next(study)
        except StopIteration as stop:
            return stop.value
        if report is not None:
            report(event)
