"""A finished game's result as a value (DESIGN.md, "The game record", ``result``).

``GameResult`` is what ``State.result`` holds once the game is over, and what a surrender or a director's
decision yields too (games.services.finishing, games.decisions). It is frozen: whoever reads it cannot change
the game it came from. ``to_json`` gives the record's ``result`` object, field for field as before, so
records, views and stored results keep their shape; ``result_from_json`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DURAK = "durak"
DRAW = "draw"


@dataclass(frozen=True)
class Epaulettes:
    """Epaulettes hung on the durak (RULES.md, Epaulettes): by whom, of which rank, with which cards."""

    seat: int | None  # the durak (None when a team lost)
    by: int           # the winning side's last player out
    rank: str         # "6", or the side's rung of the ladder
    cards: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by, "rank": self.rank, "cards": list(self.cards)}


@dataclass(frozen=True)
class GameResult:
    """``outcome`` is "durak" (a durak or a losing team) or "draw"; ``out_order`` the seats in the order
    they went out."""

    outcome: str
    durak: int | None
    losing_team: tuple[int, ...] | None
    out_order: tuple[int, ...]
    epaulettes: Epaulettes | None = None

    @property
    def draw(self) -> bool:
        return self.outcome == DRAW

    @property
    def losers(self) -> tuple[int, ...]:
        """The durak, or the losing team's seats; nobody in a draw."""
        if self.outcome == DRAW:
            return ()
        if self.losing_team:
            return self.losing_team
        return () if self.durak is None else (self.durak,)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "durak": self.durak,
            "losing_team": None if self.losing_team is None else list(self.losing_team),
            "out_order": list(self.out_order),
            "epaulettes": None if self.epaulettes is None else self.epaulettes.to_json(),
        }
