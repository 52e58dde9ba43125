"""Fixtures of the game review tests: the analysis's search replaced by tests.review.fakes (its body is being
written elsewhere; these tests are about storing and running it), and the analysis task recorded instead of
sent, so that a test runs it itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.bots import review as core
from tests.review.fakes import fake_analysis


@dataclass
class FakeSearch:
    calls: list[int] = field(default_factory=list)  # the game's seed of each analyse_record call
    covers: bool = True  # what analysable answers
    during: Callable[[int], None] | None = None
    failure: Exception | None = None
    ended_early: list[bool] = field(default_factory=list)  # what each call said of a game ended otherwise

    def analyse_record(
        self, record: Any, *, budget: str = "default", seed: int = 0, progress: Any = None, ended_early: bool = False
    ) -> Any:
        self.calls.append(seed)
        self.ended_early.append(ended_early)
        if self.failure is not None:
            raise self.failure
        return fake_analysis(record, budget=budget, progress=progress, during=self.during, ended_early=ended_early)

    def analysable(self, rules: Any, players: int) -> bool:
        return self.covers


@pytest.fixture
def search(monkeypatch: pytest.MonkeyPatch) -> FakeSearch:
    fake = FakeSearch()
    monkeypatch.setattr(core, "analyse_record", fake.analyse_record)
    monkeypatch.setattr(core, "analysable", fake.analysable)
    return fake


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the analyses sent to the task (after the commit), not run."""
    from review import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.analyse_game, "delay", lambda analysis_id: sent.append(analysis_id))
    return sent
