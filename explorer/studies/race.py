"""The race (paper Fig. 2): every entrant trains on the same data for the same training time, and the verdict says who
came within the band of the best test NLL first and stayed there. `bench race`, the dashboard's Race tab and the race
report all run and judge races here; this module is the one definition of the band and of "settled" (README, "Race";
DESIGN §6).

**The band.** Predicting 1/K for every point scores a test NLL of log K, chance (a coin flip, log 2, for two
classes). The reference is the best *final* NLL (`final_value`) of the entrants that did not diverge; an evaluation is
*within the band* when it has gained at least (1 − band) of the reference's gain over chance (`band_edge`):

    NLL ≤ best + band · (log K − best)            (band = 1%: within 1% of the best gain over chance)

An entrant *reached* the band at the training time of its first evaluation inside it and *settled* at the time after
which every evaluation stayed inside; the first to settle wins (`Verdict.winner`). An entrant whose NLL ends above
twice chance for good has *diverged* (`diverged_at`): it is judged apart. The verdict also says when a race was too
short to call (`Verdict.conclusive`) and when the best entrant left nothing to misclassify (`Verdict.solved`).

    race = Race({"xgpc": lambda: make_trainer("xgpc"), "svgp-natgrad": lambda: make_trainer("svgp-natgrad")}, 8.0)
    for progress in race.run():          # one slice of training per step: a tab draws the traces as they grow
        ...
    print(race.result().verdict.words())
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass

import numpy as np

from explorer.metrics import first_time_within, settled_time_within
from explorer.training import Trainer

BAND = 0.01  # the band of the verdict: within 1% of the best gain over a coin flip
BANDS = (0.01, 0.05)  # the bands `bench race` tabulates
COIN_FLIP_NLL = math.log(2.0)  # the test NLL of p(y=1) = ½ everywhere
SLICE_SECONDS = 0.05  # training time an entrant gets per step before the entrant with the least time goes next
COLUMNS = ("seconds", "iteration", "test_nll", "test_error")
NAMES = {"xgpc": "X-GPC", "svgp-adam": "SVGP (Adam)", "svgp-natgrad": "SVGP (natural gradients)", "epgpc": "EPGPC"}


# ----- the evaluation schedule and a run's final value --------------------------------------------------------------
def log_spaced_evaluation(trainer: Trainer, per_decade: int = 40, minimum: int = 10, most_seconds: float = 2.0) -> None:
    """Progress hook: evaluate about `per_decade` times per decade of iterations (every max(minimum, t/per_decade)
    iterations), so long races keep fine resolution early and stay cheap late; but at least every `most_seconds` of
    training at the last chunk's cost per iteration, so that a run whose iterations are costly still stops near its
    time budget (the trainer checks the budget between chunks)."""
    t = trainer.engine.iteration
    every = max(minimum, int(t / per_decade) // minimum * minimum)
    rows = trainer.history.rows
    if len(rows) >= 2 and rows[-1]["iteration"] > rows[-2]["iteration"]:
        cost = (rows[-1]["seconds"] - rows[-2]["seconds"]) / (rows[-1]["iteration"] - rows[-2]["iteration"])
        if cost > 0:
            every = min(every, max(1, int(most_seconds / cost)))
    trainer.eval_every = every


DIVERGED_FACTOR = 2.0  # an NLL above this many times chance (log K) is worse than predicting 1/K, and not by noise
DIVERGED_EVALUATIONS = 5  # evaluations in a row, to the end, that make a divergence (fewer: a spike)


def diverged_at(seconds: np.ndarray, nll: np.ndarray, chance: float = COIN_FLIP_NLL) -> float:
    """When an entrant diverged, or inf: the training time of the first evaluation of the stretch at the end of its
    trace (seconds, nll: arrays (k,)) in which every test NLL is above `DIVERGED_FACTOR` · `chance` (default 2 · log
    2; a NaN or inf NLL counts as above), provided that stretch holds at least `DIVERGED_EVALUATIONS` evaluations.
    Such a run is worse than predicting 1/K for every point and has stayed so: its last evaluations (and so its
    `final_value`) say nothing about the time to a good classifier. A shorter stretch (a spike) or one that ends back
    below is not a divergence; in a race still running the reading is of the trace so far."""
    seconds, nll = np.asarray(seconds, float), np.asarray(nll, float)
    below = np.flatnonzero(nll <= DIVERGED_FACTOR * chance)
    start = below[-1] + 1 if len(below) else 0
    return float(seconds[start]) if len(nll) - start >= DIVERGED_EVALUATIONS else math.inf


def final_value(values: np.ndarray, last: int = 5) -> float:
    """The median of the last `last` evaluations (values (k,)): a run's final quality, robust to one noisy
    evaluation."""
    return float(np.median(values[-last:]))


# ----- the band and the verdict -------------------------------------------------------------------------------------
def band_edge(best: float, band: float = BAND, chance: float = COIN_FLIP_NLL) -> float:
    """The largest test NLL within `band` of the reference `best`: best + band · (chance − best), i.e. at least
    (1 − band) of the reference's gain over chance (a reference no better than chance: best itself); `chance` the
    NLL of predicting 1/K for every point, log K (default log 2, a coin flip)."""
    return best + band * max(chance - best, 0.0)


@dataclass(frozen=True)
class Standing:
    """One entrant's reading of the race: its last iteration and training time, best and final test NLL and final
    test error (`final_value`), when it first reached the band and from when it stayed in it (`first`, `settled`;
    inf: not), from when its test error stayed 0 (`error_zero`; inf: not), and when it diverged (`diverged`,
    `diverged_at`; inf: not; a diverged entrant never settles)."""

    entrant: str
    iterations: int
    seconds: float
    best_nll: float
    final_nll: float
    final_error: float
    first: float
    settled: float
    error_zero: float
    chance: float = COIN_FLIP_NLL  # the NLL of predicting 1/K everywhere, log K
    diverged: float = math.inf

    @property
    def gain(self) -> float:
        """Final NLL gained over chance (log K; a coin flip for two classes), nats per test point."""
        return self.chance - self.final_nll


@dataclass(frozen=True)
class Verdict:
    """The judged race: the reference (best final NLL of the entrants that did not diverge), the band and its edge,
    the training budget per entrant (None: unknown), whether the race is over, and one `Standing` per entrant that
    has evaluations."""

    best_nll: float
    band: float
    edge: float
    budget: float | None
    finished: bool
    standings: tuple[Standing, ...]
    chance: float = COIN_FLIP_NLL  # the NLL of predicting 1/K everywhere, log K

    @property
    def judged(self) -> tuple[Standing, ...]:
        """The standings of the entrants that did not diverge: the ones the band and the winner are read from."""
        return tuple(s for s in self.standings if not math.isfinite(s.diverged))

    @property
    def diverged(self) -> tuple[Standing, ...]:
        """The standings of the entrants that diverged (`diverged_at`), in the order they diverged."""
        return tuple(sorted((s for s in self.standings if math.isfinite(s.diverged)), key=lambda s: s.diverged))

    @property
    def solved(self) -> bool:
        """The entrant with the best final NLL ends with test error 0: the band around it then measures confidence on
        a set with nothing left to misclassify, not the time to a good classifier."""
        return any(s.final_error == 0 and s.final_nll == self.best_nll for s in self.judged)

    @property
    def winner(self) -> Standing | None:
        """The first entrant to settle within the band (None: none did); a diverged entrant is not judged; of entrants
        that settled at the same second, the one listed first (`standings` keep the histories' order; `words` ranks
        equal final NLLs the same way)."""
        settled = [s for s in self.judged if math.isfinite(s.settled)]
        return min(settled, key=lambda s: s.settled) if settled else None

    @property
    def conclusive(self) -> bool:
        """The winner settled within the first half of the budget, so it held the band for at least the second half
        (a winner that settled later was still falling when the race ended: the race was too short to call)."""
        winner = self.winner
        return winner is not None and (self.budget is None or winner.settled <= self.budget / 2)

    @property
    def final(self) -> str:
        """How the words call a run's last evaluations: "final" once the race finished, "latest" while it runs."""
        return "final" if self.finished else "latest"

    @property
    def classes(self) -> int:
        """K, whose chance level log K the band is measured from."""
        return round(math.exp(self.chance))

    def words(self) -> str:
        """Who won (or leads, while the race runs) and by how much, in words (Markdown: the winner in bold); the
        entrants that diverged first, and the verdict on the others."""
        if not self.standings:
            return ""
        name = {s.entrant: NAMES.get(s.entrant, s.entrant) for s in self.standings}
        lead = _diverged_words(self, name)
        if not self.judged:
            return lead + " No method is left to judge."
        return (lead + " " if lead else "") + self._judged_words(name)

    def table(self) -> str:
        """The standings as a Markdown table under a sentence defining the band ("latest" for "final" while the race
        runs; the ratio to X-GPC's time only when X-GPC settled)."""
        if not self.standings:
            return ""
        finished, final, K = self.finished, self.final, self.classes
        reference = next((s.settled for s in self.standings if s.entrant == "xgpc"), math.nan)
        ratios = math.isfinite(reference) and reference > 0
        never = "never" if finished else "not yet"

        def at(seconds: float, otherwise: str) -> str:
            return f"{seconds:.3g} s" if math.isfinite(seconds) else otherwise

        chance = "coin flip" if K == 2 else "chance"
        diverged = f" *Diverged*: its test NLL stayed above {DIVERGED_FACTOR:g}× log {K} from then on; it does not set "
        lines = [
            f"The band: NLL ≤ {self.edge:.4f}, i.e. within {100 * self.band:g}% of the best {final} gain over a "
            f"{chance} (best {final} test NLL {self.best_nll:.4f}, a {chance} log {K} = {self.chance:.4f}; a "
            f"method's {final} NLL is the median of its last five evaluations; the same judge as `bench race`). "
            "*Reached the band*: training time of the first evaluation inside it. *In the band from*: the time after "
            "which every evaluation stayed inside (a method can reach the band, leave it as its kernel parameters "
            f"move, and end above it: then its {final} NLL is larger than the band's edge)."
            + (diverged + "the band." if self.diverged else ""),
            "",
        ]
        columns = ["method", "iterations", "training time", "best NLL", f"{final} NLL", f"{final} error"]
        columns += ["reached the band", "in the band from"] + (["÷ X-GPC's"] if ratios else [])
        lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        for s in self.standings:
            left = never if not math.isfinite(s.first) else "left it again" if finished else "not in it now"
            stays = f"diverged at {s.diverged:.3g} s" if math.isfinite(s.diverged) else at(s.settled, left)
            ratio = (f" {s.settled / reference:.2g}× |" if math.isfinite(s.settled) else " — |") if ratios else ""
            lines.append(
                f"| {NAMES.get(s.entrant, s.entrant)} | {s.iterations} | {s.seconds:.2f} s | {s.best_nll:.4f} | "
                f"{s.final_nll:.4f} | {s.final_error:.3f} | {at(s.first, never)} | {stays} |{ratio}"
            )
        return "\n".join(lines)

    def _judged_words(self, name: dict[str, str]) -> str:
        if self.solved:
            return _solved_words(self, name)
        final = self.final
        won, so_far = ("won", "") if self.finished else ("leads", " so far")
        chance = "a coin flip" if self.classes == 2 else f"chance (log {self.classes})"
        band = f"the band (NLL ≤ {self.edge:.4f}: within {100 * self.band:g}% of the best {final} gain over {chance})"
        winner = self.winner
        if winner is None:
            ranked = sorted(self.judged, key=lambda s: s.final_nll)
            settled = "settled" if self.finished else "has settled yet"
            return (
                f"No method {settled} within {band}. Lowest {final} NLL: **{name[ranked[0].entrant]}** "
                f"({ranked[0].final_nll:.4f}); "
                + "; ".join(f"{name[s.entrant]} {s.final_nll:.4f} ({_share(s, ranked[0])})" for s in ranked[1:])
                + "."
            )
        if self.finished and not self.conclusive:
            words = [
                f"**Too short to call**: {name[winner.entrant]} settled first, within {band}, but only after "
                f"{winner.settled:.2g} s of the {self.budget:g}-s race, while the curves were still falling"
            ]
        else:
            words = [
                f"**{name[winner.entrant]} {won}**{so_far}: it came within {band} to stay after {winner.settled:.2g} s"
            ]
        for s in self.judged:
            if s is winner:
                continue
            if math.isfinite(s.settled):
                ratio = s.settled / winner.settled if winner.settled > 0 else math.inf
                words.append(f"{name[s.entrant]} after {s.settled:.2g} s ({ratio:.3g}× as long)")
            elif math.isfinite(s.first):
                stay = "did not stay" if self.finished else "is not in it now"
                words.append(
                    f"{name[s.entrant]} reached the band at {s.first:.2g} s but {stay} ({final} NLL {s.final_nll:.4f})"
                )
            else:
                never = "never" if self.finished else "has not yet"
                words.append(f"{name[s.entrant]} {never} reached it ({final} NLL {s.final_nll:.4f})")
        return "; ".join(words) + "."


def _share(s: Standing, best: Standing) -> str:
    """How much of the best entrant's gain over a coin flip `s` kept."""
    if best.gain <= 0:
        return f"+{s.final_nll - best.final_nll:.4f}"
    return f"{100 * s.gain / best.gain:.1f}% of its gain"


def _diverged_words(verdict: Verdict, name: dict[str, str]) -> str:
    """'**SVGP (natural gradients) diverged** at 5.1 s (test NLL above 1.39, twice a coin flip's, from then on;
    final 14.2); the verdict is on the others.' ('' when none did)."""
    if not verdict.diverged:
        return ""
    chance = "a coin flip's" if verdict.classes == 2 else f"chance's (log {verdict.classes})"
    since = "from then on" if verdict.finished else "since"
    each = [
        f"**{name[s.entrant]} diverged** at {s.diverged:.2g} s (test NLL above {DIVERGED_FACTOR * verdict.chance:.3g}, "
        f"{DIVERGED_FACTOR:g}× {chance}, {since}; {verdict.final} {s.final_nll:.3g})"
        for s in verdict.diverged
    ]
    others = "" if len(verdict.diverged) == len(verdict.standings) else "; the verdict is on the others"
    return "; ".join(each) + others + "."


def _solved_words(verdict: Verdict, name: dict[str, str]) -> str:
    final = verdict.final
    judged = verdict.judged
    right = sorted((s for s in judged if s.final_error == 0), key=lambda s: s.error_zero)
    wrong = [s for s in judged if s.final_error > 0]
    nll = sorted(s.final_nll for s in right)
    every = "Every method classifies" if not verdict.diverged else "Every other method classifies"
    who = every if not wrong else f"{len(right)} of {len(judged)} methods classify"
    so_far = "" if verdict.finished else " so far"
    words = (
        f"**{who} every test point correctly**{so_far} ({final} test error 0), so "
        f"this race cannot show the paper's claim: their NLLs ({nll[0]:.4f}–{nll[-1]:.4f}) differ only in "
        "confidence, which keeps growing with the kernel's variance on a set with nothing left to misclassify. Test "
        "error 0 to stay: "
        + ", ".join(
            f"{name[s.entrant]} after {s.error_zero:.2g} s" if math.isfinite(s.error_zero) else name[s.entrant]
            for s in right
        )
    )
    ends = "ends with" if verdict.finished else "is at"
    words += "".join(
        f"; {name[s.entrant]} {ends} test error {s.final_error:.3g} (NLL {s.final_nll:.4f})" for s in wrong
    )
    return words + "."


def judge(
    histories: Mapping[str, Mapping[str, np.ndarray]],
    *,
    band: float = BAND,
    budget: float | None = None,
    finished: bool = True,
    classes: int = 2,
) -> Verdict:
    """The verdict on a race from each entrant's history columns (seconds, iteration, test_nll, test_error: arrays
    (k,), k ≥ 0). An entrant that diverged (`diverged_at`) is judged apart; the reference is the best final NLL
    (`final_value` of the finite NLLs) of the others (of every entrant when all diverged); `band_edge` bounds the band,
    measured from chance, log `classes`; `budget` (training seconds per entrant) lets the verdict say whether the race
    was long enough; `finished` False: a race still running, judged on its traces so far."""
    chance = math.log(classes)
    columns = {
        entrant: tuple(np.asarray(h[name], float) for name in ("seconds", "test_nll", "test_error"))
        for entrant, h in histories.items()
    }
    diverged = {entrant: diverged_at(seconds, nll, chance) for entrant, (seconds, nll, _) in columns.items()}
    finite = {entrant: nll[np.isfinite(nll)] for entrant, (_, nll, _) in columns.items()}
    finite = {entrant: nll for entrant, nll in finite.items() if len(nll)}
    kept = [nll for entrant, nll in finite.items() if not math.isfinite(diverged[entrant])] or list(finite.values())
    best = min((final_value(nll) for nll in kept), default=math.nan)
    edge = band_edge(best, band, chance)
    standings = []
    for entrant, (seconds, nll, error) in columns.items():
        if not len(seconds):
            continue
        standings.append(
            Standing(
                entrant=entrant,
                iterations=int(np.asarray(histories[entrant]["iteration"])[-1]),
                seconds=float(seconds[-1]),
                best_nll=float(np.nanmin(nll)) if np.isfinite(nll).any() else math.nan,
                final_nll=final_value(nll),
                final_error=final_value(error),
                first=first_time_within(seconds, nll, edge),
                settled=settled_time_within(seconds, nll, edge) if not math.isfinite(diverged[entrant]) else math.inf,
                error_zero=settled_time_within(seconds, error, 0.0),
                chance=chance,
                diverged=diverged[entrant],
            )
        )
    return Verdict(best, band, edge, budget, finished, tuple(standings), chance)


# ----- running a race -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """One step of a race: which entrant just moved (`entrant`; on the first steps: was built), its history rows
    added by the step (`rows`: its trace as it grows), and every entrant's training seconds so far (`trained`)."""

    entrant: str
    rows: list[dict]
    trained: dict[str, float]


@dataclass(frozen=True)
class RaceResult:
    """A race's outcome: each entrant's history columns (`COLUMNS`: arrays (k,)) and the `Verdict` on them."""

    histories: dict[str, dict[str, np.ndarray]]
    verdict: Verdict


class Race:
    """A race of `entrants` (name → a function that builds the entrant's `Trainer`, each called in a step of its own,
    so a tab stays responsive while the runs are built), `budget` seconds of training each (evaluation time
    excluded), advanced in fair slices: the entrant with the least training time trains `slice_seconds` (to its next
    evaluation) next, so every entrant meets the same load of a shared machine. Evaluations follow
    `log_spaced_evaluation`."""

    def __init__(
        self,
        entrants: Mapping[str, Callable[[], Trainer]],
        budget: float,
        *,
        slice_seconds: float = SLICE_SECONDS,
        band: float = BAND,
    ):
        if not entrants:
            raise ValueError("a race needs at least one entrant")
        if not (budget > 0 and math.isfinite(budget)):
            raise ValueError(f"the budget must be a finite number of seconds > 0, got {budget!r}")
        self.entrants, self.budget = dict(entrants), float(budget)
        self.slice_seconds, self.band = float(slice_seconds), float(band)
        self.trainers: dict[str, Trainer] = {}
        self.finished = False

    def trained(self) -> dict[str, float]:
        """Training seconds so far per built entrant."""
        return {name: trainer.seconds for name, trainer in self.trainers.items()}

    def run(self) -> Generator[Progress, None, RaceResult]:
        """Build every entrant (one step each), then advance the one with the least training time until each has
        trained `budget` seconds (its first slice evaluates the untrained start at 0 s). `finished` is True once the
        generator is exhausted; its return value is the `result`."""
        for name, build in self.entrants.items():
            self.trainers[name] = build()
            yield Progress(name, [], self.trained())
        while behind := [name for name, trainer in self.trainers.items() if trainer.seconds < self.budget]:
            name = min(behind, key=lambda n: self.trainers[n].seconds)
            trainer = self.trainers[name]
            before = trainer.history.total
            trainer.run(
                seconds=min(self.slice_seconds, self.budget - trainer.seconds),
                stop_at_convergence=False,
                progress=log_spaced_evaluation,
            )
            yield Progress(name, trainer.history.since(before), self.trained())
        self.finished = True
        return self.result()

    def result(self) -> RaceResult:
        """Each built entrant's history columns (`COLUMNS`: arrays (k,)) and the verdict (`judge`), as they stand."""
        histories = {
            name: {column: trainer.history.column(column) for column in COLUMNS}
            for name, trainer in self.trainers.items()
        }
        return RaceResult(histories, judge(histories, band=self.band, budget=self.budget, finished=self.finished))
