"""A session's jobs: what its worker runs over and over while playing — training (Play; Step too when served, to the
next evaluation) or the study of a study tab (`tabs.StudyTab`: the MCMC comparison, the race; on the Dask cluster
when one is named) — one at a time: a job that starts pauses the other, and the page says so."""

from __future__ import annotations

import time
from collections.abc import Callable

from explorer.dashboard import cluster
from explorer.dashboard.notices import notify
from explorer.dashboard.tabs import StudyTab
from explorer.dashboard.train import EVALUATION_SHARE
from explorer.data import datasets

CHUNK_SECONDS = 0.015  # target length of a worker chunk: the UI waits at most this (plus an evaluation) for the gate
TRAINING_JOBS = ("train", "step")


def stepper(generator):
    """A worker job that advances `generator` by one step per call and reports True once it is exhausted;
    `job.close()` (in the worker) ends the generator."""

    def job() -> bool:
        for _ in generator:
            return False
        return True

    job.close = generator.close
    return job


class Jobs:
    """The jobs of one session (`session.Session`) on its `model`: each published snapshot goes to `publisher`,
    a study starts once the worker is idle (an empty action)."""

    def __init__(self, session, model, publisher, studies: tuple[StudyTab, ...], actions):
        self.session, self.worker = session, session.worker
        self.model, self.publisher, self.studies, self.actions = model, publisher, studies, actions
        self._jobs: dict = {}
        self.announced = True  # the end of the training job has been announced (or there is none to announce)
        self.stepping = False  # Step runs as a job (served): the refresh shows where it ended

    def training_job(self, to_next_evaluation: bool = False) -> Callable[[], bool]:
        """The worker job that trains in chunks of ≈ CHUNK_SECONDS: until Pause (or convergence, unless the run had
        already converged), or with `to_next_evaluation` for `eval_every` iterations (Step)."""
        stop_at_convergence = not self.model.converged
        state = {"seconds": None, "target": None}  # seconds per iteration, measured on chunks without an evaluation

        def chunk() -> bool:
            model, seconds = self.model, state["seconds"]
            if to_next_evaluation and state["target"] is None:
                state["target"] = model.iteration + model.eval_every
            k = 1 if seconds is None else max(1, min(model.eval_every, int(CHUNK_SECONDS / max(seconds, 1e-5))))
            if to_next_evaluation:
                k = min(k, state["target"] - model.iteration)
            start = time.perf_counter()
            trainer = model.trainer
            # Play skips an evaluation that would take more than its share of the time; Step evaluates every eval_every
            trainer.eval_share = None if to_next_evaluation else EVALUATION_SHARE
            try:
                new_rows = model.step(k)
            finally:
                trainer.eval_share = None
            if new_rows == 0:
                state["seconds"] = (time.perf_counter() - start) / k
            self.publisher.publish(model)
            if to_next_evaluation:
                return model.iteration >= state["target"]
            return stop_at_convergence and model.converged

        return chunk

    def play(self) -> None:
        """Train in the worker until Pause (or convergence, unless the run had already converged)."""
        self.start("train", self.training_job())

    def step(self) -> None:
        """Train to the next evaluation as the worker's job (served: the page shows its progress, Pause stops it)."""
        self.stepping = True
        self.start("step", self.training_job(to_next_evaluation=True))

    def start_study(self, study: StudyTab, projection: Callable[[], object]) -> None:
        """Run the study tab's study (the MCMC comparison, the race) on the model's current data, kernel and plane
        (`projection()`, read once the worker is idle) as the worker's job (training pauses meanwhile)."""
        problem = study.problem()
        if problem is not None:
            notify(problem)
            return

        def start() -> None:
            try:
                with self.worker.hold():
                    run = study.new_run(self.model, projection())
            except datasets.DataError as err:  # e.g. no chosen method takes the data's classes: nothing started
                notify(str(err))
                return
            remote = cluster.scheduler() is not None and hasattr(run, "mirror")  # the run goes to the Dask cluster
            self.start(study.title, stepper(cluster.on_cluster(run) if remote else run.chunks()))

        self.actions.act(study.starting, lambda: None, lambda _: start())  # once the worker is idle (its job paused)

    def stop(self, name: str) -> None:
        """Stop a study: its job pauses and its run ends (in the worker; a run on the Dask cluster is cancelled)."""
        if self.running(name):
            self.worker.pause(wait=not self.session.offload)
            self.worker.submit(self._jobs[name].close)

    def running(self, name: str) -> bool:
        return self.worker.playing and self.worker.job is self._jobs.get(name)

    def start(self, name: str, job) -> None:
        jobs = [(study.title, study.job_label) for study in self.studies] + [("train", "Training")]
        for other, label in jobs:
            if other != name and self.running(other):
                notify(f"{label} was paused: one job runs at a time per session.", kind="info")
        self._jobs[name] = job
        self.announced = False
        self.worker.play(job, take_turns=name in TRAINING_JOBS)

    def training_finished(self) -> bool:
        """Whether the training job (Play) has ended by itself (converged) and not been announced yet."""
        return self.worker.finished and not self.announced and self.worker.job is self._jobs.get("train")
