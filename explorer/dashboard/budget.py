"""What one action of a served session may cost, checked before the work starts (`over_budget`, issue 19), and how
the server's training sessions share its event loop and GIL (`RefreshBudget`, `Turns`, issue 33).

Every action runs in the session's worker, but the machine is shared by the whole room. The units of work that cannot
be interrupted are bounded (`LIMITS`) by counts the configuration fixes before anything is computed — n training
rows, d features, m inducing points, s minibatch rows, r evaluation rows (test plus ELBO rows): building a run
(k-means++ for Z: n·m·(d + 30)), one iteration (s·m·(m + d)), the minibatch's arrays (s·m) and one evaluation
(r·m·(m + d)). Their measured costs, and why the Cholesky of K_mm and Step or Play need no limit: README, "Serving a
class". The budget is the dashboard's: a `Model` used from Python is not limited.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import threading
import time
from collections.abc import Callable

from explorer.dashboard.controls import LABELS
from explorer.data import datasets
from explorer.data.registry import PAPER_DATASETS

PASS_OVERHEAD = 30  # k-means++: the cost of one pass over n rows, in units of one feature (measured: see README)
LIMITS = {"building": 4e9, "iteration": 1e10, "minibatch": 1e7, "evaluation": 1e10}


def data_shape(config: dict, custom_shape: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """(n rows, d features) of the data set `config` names, known without loading it: generated sets from
    n_points, paper sets from the registry, 'custom' from `custom_shape` (the uploaded data's). None if unknown."""
    name = config["dataset"]
    if name in datasets.BUILTIN:
        return int(config["n_points"]), 2
    if name in PAPER_DATASETS:
        return PAPER_DATASETS[name].n, PAPER_DATASETS[name].d
    return custom_shape if name == "custom" else None


def _largest(cost_of, start: int) -> int:
    """The largest value v ≤ start with cost_of(v) within budget (cost_of is increasing; 0 if even 1 is not)."""
    return bisect.bisect_left(range(1, start + 1), True, key=lambda v: not cost_of(v))  # the count of those that fit


def over_budget(config: dict, shape: tuple[int, int], changed=()) -> list[str]:
    """Why the configuration `config` (every setting by name, as `controls.configuration` gives them, and
    `eval_points`) would exceed the budget on data of `shape` (n rows, d features), in words — each names the
    unit, its count and limit, the settings asked for (`changed`, else the one to lower) and the largest value that
    fits. Empty if within budget."""
    n, d = shape
    n_train = max(1, round(n * config["train_fraction"]))
    n_test = max(1, n - n_train)
    m = min(config["n_inducing"], n_train)
    s = min(config["batch_size"], n_train)
    rows = min(n_test, config["eval_points"]) + min(n_train, config["eval_points"])
    counts = {
        "building": (
            lambda m, s: n_train * m * (d + PASS_OVERHEAD),
            f"building the run costs n·m·(d + {PASS_OVERHEAD})",
        ),
        "iteration": (lambda m, s: s * m * (m + d), "one iteration costs s·m·(m + d)"),
        "minibatch": (lambda m, s: s * m, "the minibatch's arrays hold s·m"),
        "evaluation": (lambda m, s: rows * m * (m + d), "one evaluation costs r·m·(m + d)"),
    }
    problems = []
    for unit, (cost, formula) in counts.items():
        value, limit = cost(m, s), LIMITS[unit]
        if value <= limit:
            continue
        fits = {"n_inducing": _largest(lambda v: cost(v, s) <= limit, m)}
        if unit in ("iteration", "minibatch"):
            fits["batch_size"] = _largest(lambda v: cost(m, v) <= limit, s)
        names = sorted(fits, key=lambda name: name not in changed)
        advice = " or ".join(f"{LABELS[name]} at most {fits[name]}" for name in names)
        asked = ", ".join(f"{LABELS[name]} {config[name]!r}" for name in changed if name in LABELS) or LABELS[names[0]]
        problems.append(
            f"{asked}: {formula} = {value:.3g} (m = {m}, s = {s}, n = {n_train} training "
            f"rows, d = {d}"
            + (f", r = {rows}" if unit == "evaluation" else "")
            + f"), over this server's limit of {limit:.3g}; {advice}"
        )
    return problems


class RefreshBudget:
    """How often each training session of one server process is refreshed: every training session gets the same
    interval, `n · cost / share` clamped to [`fastest`, `slowest`] seconds, where n is the number of sessions that
    trained within the last `memory` seconds and cost the event-loop seconds one refresh took (a running mean of its
    wall time: a loaded machine makes refreshes rarer; why: README, "Serving a class"). Periodic surface frames get
    `frame_share` of one core the same way (`frame_interval`). One object per server process (made by `serve`, handed
    to every session), which also holds the process's training `turns` (`Turns` of `lanes` lanes); safe to use from
    any thread; `clock` is injectable for tests."""

    def __init__(
        self,
        share: float = 0.4,
        fastest: float = 0.17,
        slowest: float = 2.0,
        frame_share: float = 0.25,
        memory: float = 3.0,
        lanes: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ):
        if not (0 < share <= 1 and 0 < frame_share <= 1 and 0 < fastest <= slowest and memory > 0):
            raise ValueError(
                f"RefreshBudget needs 0 < share ≤ 1, 0 < frame_share ≤ 1, 0 < fastest ≤ slowest and memory > 0; got "
                f"share={share}, frame_share={frame_share}, fastest={fastest}, slowest={slowest}, memory={memory}"
            )
        self.share, self.frame_share, self.memory = share, frame_share, memory
        self.fastest, self.slowest = fastest, slowest
        self.clock = clock
        self.turns = Turns(lanes)  # the training chunks of this process's sessions take turns in `lanes` lanes
        self.cost: float | None = None  # event-loop seconds of one refresh (running mean)
        self._seen: dict[int, float] = {}  # training session → when it was last seen training
        self._lock = threading.Lock()

    def training(self, session: int) -> None:
        """Session `session` (any key: the Dashboards use their id) is training now."""
        with self._lock:
            self._seen[session] = self.clock()

    def stopped(self, session: int) -> None:
        """Session `session` no longer trains (paused, or closed)."""
        with self._lock:
            self._seen.pop(session, None)

    def record(self, seconds: float) -> None:
        """A training session's refresh took `seconds` of the event loop."""
        with self._lock:
            self.cost = seconds if self.cost is None else 0.8 * self.cost + 0.2 * seconds

    @property
    def sessions(self) -> int:
        """The sessions training now (seen within the last `memory` seconds)."""
        now = self.clock()
        with self._lock:
            for session in [s for s, seen in self._seen.items() if now - seen > self.memory]:
                del self._seen[session]
            return len(self._seen)

    def interval(self) -> float:
        """Seconds between two refreshes of each training session."""
        wanted = self.sessions * (self.cost or 0.0) / self.share
        return min(self.slowest, max(self.fastest, wanted))

    def frame_interval(self, frame_seconds: float, least: float) -> float:
        """Seconds between two periodic surface frames of a training session whose last frame took `frame_seconds`
        to compute: at least `least` (the session's own rule), longer when the frames of every training session
        together would take more than `frame_share` of one core."""
        return max(least, max(1, self.sessions) * frame_seconds / self.frame_share)

    def slowed(self) -> str | None:
        """Why refreshes are slower than the fastest rate, in words for a status line; None when they are not."""
        interval, n = self.interval(), self.sessions
        if interval <= self.fastest * 1.05:
            return None
        return (
            f"Refreshes slowed to {1 / interval:.1f} a second: {n} sessions are training on this server process and "
            f"each refresh takes {1000 * (self.cost or 0.0):.0f} ms of it; the refreshes of all together may take "
            f"{self.share:.0%} of it."
        )


class Turns:
    """Whose training chunk runs now: at most `lanes` of one server process's sessions run a chunk of their training
    job at a time, the others wait for their turn, first come first served — a chunk that ends hands its lane to the
    session that has waited longest, so none is left out and one that asks again goes to the back of the queue.

    Why: README, "Serving a class" (a chunk holds the GIL, which every refresh needs). A worker waits for its turn
    without its gate, so the page can still take the gate meanwhile, and its wait ends early when it is told to do
    something else (`interrupt`). Safe from any thread."""

    def __init__(self, lanes: int = 1):
        if isinstance(lanes, bool) or not isinstance(lanes, int) or lanes < 1:
            raise ValueError(f"Turns needs lanes, a whole number ≥ 1; got lanes={lanes!r}")
        self.lanes = lanes
        self._free = lanes  # lanes nobody holds (only while nobody waits)
        self._queue: collections.deque = collections.deque()  # the keys waiting, longest first
        self._tickets: dict[object, threading.Event] = {}  # a waiting key's event: set once it has a lane or gave up
        self._granted: set = set()  # keys handed a lane that have not woken yet
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        """The chunks waiting for a lane now."""
        with self._lock:
            return len(self._queue)

    @contextlib.contextmanager
    def turn(self, key: object):
        """The block runs in a lane of its own: it gets True once it has one (waited for in the order asked), or
        False if `interrupt(key)` ended the wait first (it must then not run its chunk). `key`: the waiter (a
        worker), one wait at a time."""
        with self._lock:
            if self._free and not self._queue:
                self._free -= 1
                granted, ticket = True, None
            else:
                granted, ticket = False, self._tickets.setdefault(key, threading.Event())
                self._queue.append(key)
        if ticket is not None:
            ticket.wait()
            with self._lock:
                granted = key in self._granted
                self._granted.discard(key)
                del self._tickets[key]
                if not granted:
                    self._queue.remove(key)
        try:
            yield granted
        finally:
            if granted:
                with self._lock:
                    if self._queue:  # the lane goes straight to the longest waiting
                        following = self._queue.popleft()
                        self._granted.add(following)
                        self._tickets[following].set()
                    else:
                        self._free += 1

    def interrupt(self, key: object) -> None:
        """End `key`'s wait for a turn, if it waits (its block gets False)."""
        with self._lock:
            if key in self._tickets:
                self._tickets[key].set()
