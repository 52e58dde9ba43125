"""Game review: each decision of a finished game judged from its seat's information at that moment.

For every action of a record whose seat had a choice, the search (``games.bots.search``) looks at the
position from that seat's ``Observation`` (its hand, what it had seen, the public history: never a card it
could not see) and estimates the chance of not being the durak: before the move (the best the seat could
do), after the move played, and after the best move it finds. A decision gives away ``best - after``;
marked an inaccuracy, a mistake or a blunder past the thresholds below (lichess's, on the chance of not
losing: 5, 10 and 15 points of a hundred). A seat's accuracy for the game is the mean of its decisions'
accuracies, each lichess's move accuracy of the chance it gave away (100 when it gave nothing away).

The JSON of an analysis (``GameAnalysis.to_json``), stored by the site and drawn by the replay page::

    {"version": 1, "budget": "default", "players": 2,
     "decisions": [{"ply": 0, "seat": 0, "played": {action}, "best": {action}, "before": 0.62,
                    "after": 0.55, "best_after": 0.62, "forced": false, "solved": false,
                    "mark": "inaccuracy" | "mistake" | "blunder" | null}, ...],
     "accuracy": [87.5, 64.1]}

``ply`` is the action's 0-based index in the record's ``actions`` (the replay's ``?move=ply`` shows the
position the decision was taken in, ``?move=ply+1`` the one after it); actions are in the record's JSON
form (DESIGN.md). A forced decision (one legal action) has ``played == best``, the three chances equal and no
mark. ``solved`` says the chances are the endgame solver's exact 0 or 1, not the search's estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ANALYSIS_VERSION = 1

# Chance of not being the durak given away by a decision (best_after - after), 0 to 1.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15

# Budgets: CPU seconds of search per decision (the endgame solver answers within it where it proves).
BUDGETS: dict[str, float] = {"default": 0.5, "deep": 2.0}

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


def mark_for(given_away: float) -> str | None:
    """The mark of a decision that gave away ``given_away`` of the chance of not being the durak."""
    if given_away >= BLUNDER:
        return "blunder"
    if given_away >= MISTAKE:
        return "mistake"
    if given_away >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(given_away: float) -> float:
    """lichess's accuracy of a move (0 to 100) from the chance it gave away, in points of a hundred:
    103.1668 e^(-0.04354 x) - 3.1669, clamped; 100 when nothing was given away."""
    points = max(0.0, given_away) * 100.0
    if points <= 0.0:
        return 100.0
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


@dataclass(frozen=True)
class Decision:
    ply: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    before: float
    after: float
    best_after: float
    forced: bool
    solved: bool

    @property
    def given_away(self) -> float:
        return 0.0 if self.forced else max(0.0, self.best_after - self.after)

    @property
    def mark(self) -> str | None:
        return None if self.forced else mark_for(self.given_away)

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "seat": self.seat, "played": self.played, "best": self.best,
            "before": round(self.before, 4), "after": round(self.after, 4), "best_after": round(self.best_after, 4),
            "forced": self.forced, "solved": self.solved, "mark": self.mark,
        }  # fmt: skip


@dataclass(frozen=True)
class GameAnalysis:
    budget: str
    players: int
    decisions: tuple[Decision, ...]

    def accuracy(self) -> list[float | None]:
        """Each seat's accuracy (0 to 100) over its decisions with a choice; None for a seat that had none."""
        made: list[list[float]] = [[] for _ in range(self.players)]
        for decision in self.decisions:
            if not decision.forced:
                made[decision.seat].append(move_accuracy(decision.given_away))
        return [round(sum(values) / len(values), 1) if values else None for values in made]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": ANALYSIS_VERSION, "budget": self.budget, "players": self.players,
            "decisions": [decision.to_json() for decision in self.decisions], "accuracy": self.accuracy(),
        }  # fmt: skip


def analysis_from_json(data: Mapping[str, Any]) -> GameAnalysis:
    """The analysis ``to_json`` wrote (the marks and accuracies are computed again, not read)."""
    decisions = tuple(
        Decision(
            ply=int(item["ply"]), seat=int(item["seat"]), played=dict(item["played"]), best=dict(item["best"]),
            before=float(item["before"]), after=float(item["after"]), best_after=float(item["best_after"]),
            forced=bool(item["forced"]), solved=bool(item.get("solved", False)),
        )  # fmt: skip
        for item in data["decisions"]
    )
    return GameAnalysis(budget=str(data["budget"]), players=int(data["players"]), decisions=decisions)


def analyse_record(
    record: Mapping[str, Any], *, budget: str = "default", seed: int = 0, progress: Progress | None = None
) -> GameAnalysis:
    """Every decision of a finished game's record (DESIGN.md's format), judged from its seat's information.
    ``seed`` fixes the search's random draws; ``progress`` is called after each decision. ValueError when the
    record is malformed or the game is not over, or when the variant or the number of players is one the
    analysis does not cover (``analysable``)."""
    raise NotImplementedError("games.bots.review.analyse_record is being written (issue 34)")


def analysable(rules: Mapping[str, Any], players: int) -> bool:
    """Whether ``analyse_record`` covers a game of these rules and players."""
    raise NotImplementedError("games.bots.review.analysable is being written (issue 34)")


def decisions_to_analyse(actions: Sequence[Mapping[str, Any]]) -> int:
    """How many actions a record has: the count the progress goes up to."""
    return len(actions)
