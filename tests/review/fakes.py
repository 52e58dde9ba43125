"""A stand-in for the analysis's search (games.bots.review.analyse_record, being written elsewhere): a real
JudgedGame built from the record's actions, each decision calling ``progress`` as the search will. Seat 0
plays every decision as the "best"; seat 1 gives away 12 points of a hundred at every fourth ply (a mistake), so
the two seats' accuracies differ and a stored accuracy can be told from another."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.bots.review import JudgedDecision, JudgedGame, Progress


def fake_analysis(record: Mapping[str, Any], *, budget: str = "default", progress: Progress | None = None,
                  during: Callable[[int], None] | None = None, ended_early: bool = False) -> JudgedGame:
    """The analysis the fake search gives ``record``; ``during(ply)`` is called before each decision's progress
    (a test's way of doing something while the analysis runs)."""
    actions = record["actions"]
    decisions = []
    for ply, action in enumerate(actions):
        seat = int(action["seat"])
        played = {key: value for key, value in action.items() if key != "seat"}
        forced = action["type"] == "pass"
        given_away = 0.12 if seat == 1 and ply % 4 == 1 and not forced else 0.0
        decisions.append(
            JudgedDecision(ply=ply, seat=seat, played=played, best=played, before=0.6, after=0.6 - given_away,
                     best_after=0.6, forced=forced, solved=False)
        )  # fmt: skip
        if during is not None:
            during(ply)
        if progress is not None:
            progress(ply + 1, len(actions))
    return JudgedGame(budget=budget, players=int(record["players"]), decisions=tuple(decisions))
