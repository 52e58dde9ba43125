"""What the director's results (templates/tournaments/_direct_results.html) and the log show: each outcome a
board may be given, with the exact result its confirmation names, the decisions of a game being played, and
a change of result in words ("1–0 → ½–½")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import MatchGame, Seating, Tournament
from tournaments.scoring import points_by_place
from tournaments.services import results

register = template.Library()


@dataclass(frozen=True)
class Choice:
    """A button of the director's page: the value it sends, its label, what its dialog says, whether red."""

    value: str
    label: str
    confirm: str
    danger: bool = False


def written(value: float | None) -> str:
    """Points as a club writes them: 1, 0, ½, 1½."""
    if value is None:
        return "–"
    whole, half = divmod(round(float(value) * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def score_line(values: Sequence[float | None]) -> str:
    return "–".join(written(value) for value in values)


@register.filter
def result_change(details: Mapping[str, Any] | None) -> str:
    """An audit entry's result before and after in words: "1–0 → ½–½" (no before: "→ 1–0")."""
    if not isinstance(details, Mapping):
        return ""
    after = details.get("after")
    if isinstance(after, Mapping):  # a game's outcome (match_game_set_result)
        after = after.get("points")
    before = details.get("before")
    if isinstance(before, Mapping):
        before = before.get("points")
    if not isinstance(after, list):
        return ""
    if isinstance(before, list):
        return f"{score_line(before)} → {score_line(after)}"
    return f"→ {score_line(after)}"


@register.filter
def decision_words(details: Mapping[str, Any] | None) -> str:
    """What a stopped game's decision was, in the reader's language."""
    if not isinstance(details, Mapping):
        return ""
    return {
        results.AWARD: _("awarded"), results.DRAW: _("scored a draw"), results.REPLAY: _("ordered replayed"),
    }.get(str(details.get("decision", "")), "")  # fmt: skip


def _names(line: selectors.PairingLine) -> list[str]:
    return [seat.name for seat in line.seats]


@register.simple_tag
def board_outcomes(tournament: Tournament, line: selectors.PairingLine) -> list[Choice]:
    """The outcomes a heads-up or team board may be given, each with the result it records."""
    if tournament.seating == Seating.TABLES or len(line.seats) != 2:
        return []
    first, second = _names(line)
    board = line.pairing.board

    def says(points: list[float]) -> str:
        return _("Board %(board)s: %(first)s %(score)s %(second)s") % {
            "board": board, "first": first, "second": second, "score": score_line(points)}

    made = []
    labels = {
        results.FIRST: _("%(name)s wins") % {"name": first},
        results.SECOND: _("%(name)s wins") % {"name": second},
        results.DRAW: _("Draw"),
        results.FORFEIT_FIRST: _("%(name)s forfeits") % {"name": first},
        results.FORFEIT_SECOND: _("%(name)s forfeits") % {"name": second},
        results.DOUBLE_FORFEIT: _("Both forfeit"),
    }
    for outcome, label in labels.items():
        points = results.outcome_points(tournament, line.pairing, outcome)
        text = says(points)
        if outcome in (results.FORFEIT_FIRST, results.FORFEIT_SECOND, results.DOUBLE_FORFEIT):
            text += " " + _("(a forfeit: the board's games are no longer rated)")
        made.append(Choice(outcome, label, text, danger=False))
    return made


@register.simple_tag
def place_points(tournament: Tournament, line: selectors.PairingLine, one_game: bool = False) -> str:
    """A table's points by place for a whole match (or for one game of it), as JSON, for the dialog to name
    what will be recorded."""
    by_place = points_by_place(len(line.seats), tournament.place_points)
    games = 1 if one_game else tournament.games_per_pairing
    return json.dumps([float(value) * games for value in by_place])


@register.simple_tag
def game_decisions(tournament: Tournament, line: selectors.PairingLine, game: MatchGame) -> list[Choice]:
    """What the director may do with a heads-up or team game being played: award it to either side, a
    draw, or a replay. All stop the game: all red."""
    if tournament.seating == Seating.TABLES or len(line.seats) != 2:
        return []
    first, second = _names(line)
    number = game.number
    made = []
    for position, name in enumerate((first, second)):
        made.append(Choice(
            f"{results.AWARD}:{position}", _("Award to %(name)s") % {"name": name},
            _("Stop game %(number)s now and award it to %(name)s: %(name)s wins it, the other loses it.")
            % {"number": number, "name": name}, danger=True,
        ))  # fmt: skip
    made.append(Choice(results.DRAW, _("Score a draw"),
                       _("Stop game %(number)s now and score it a draw.") % {"number": number}, danger=True))
    made.append(Choice(results.REPLAY, _("Replay with a fresh deal"),
                       _("Stop game %(number)s now and deal it again: the same players in the same seats, a new "
                         "shuffle; what was played counts for nothing.") % {"number": number}, danger=True))
    return made


@register.filter
def playing_lines(lines: Sequence[selectors.PairingLine]) -> list[selectors.PairingLine]:
    """The boards whose game is being played now."""
    return [line for line in lines if line.playing_game is not None]


@register.filter
def seat_list(line: selectors.PairingLine) -> str:
    return " – ".join(_names(line))


@register.simple_tag
def game_overrides(tournament: Tournament, line: selectors.PairingLine, game: MatchGame) -> list[Choice]:
    """A finished heads-up or team game's result set anew by a click: each side's win, or a draw (the places
    the existing act takes, seats best first: "1 / 0")."""
    if tournament.seating == Seating.TABLES or len(line.seats) != 2:
        return []
    names = _names(line)
    seats_of = [[seat for seat, at in enumerate(game.seats) if at == position] for position in (0, 1)]
    made = []
    for position, name in enumerate(names):
        places = " / ".join(" ".join(str(seat) for seat in group) for group in (seats_of[position], seats_of[1 - position]))
        made.append(Choice(places, _("Game %(number)s to %(name)s") % {"number": game.number, "name": name},
                           _("Game %(number)s: %(name)s wins it, the other loses it; the match, the standings and "
                             "the ratings follow.") % {"number": game.number, "name": name}))
    every = " ".join(str(seat) for seat in range(len(game.seats)))
    made.append(Choice(every, _("Game %(number)s drawn") % {"number": game.number},
                       _("Game %(number)s: a draw; the match, the standings and the ratings follow.")
                       % {"number": game.number}))
    return made


@register.simple_tag
def game_place_picks(line: selectors.PairingLine, game: MatchGame) -> list[dict[str, Any]]:
    """A finished table game's seats, each with its player's name and the place he holds by the game's points
    (1 the best; before any outcome, the seat order): the selects of its result set anew start from them."""
    points = list((game.outcome or {}).get("points") or [])  # by pairing position
    picks = []
    for seat, position in enumerate(game.seats):
        if all(0 <= at < len(points) for at in game.seats):
            place = 1 + sum(1 for at in game.seats if points[at] > points[position])
        else:
            place = seat + 1
        name = next((entrant.name for entrant in line.seats if entrant.position == position), "")
        picks.append({"seat": seat, "name": name, "place": place})
    return picks


@register.filter
def place_now(line: selectors.PairingLine, position: int) -> int:
    """The place an entrant of a table holds by the board's points as they stand (1 the best; before any
    result, the seat order), which the place selects start from."""
    scores = {seat.position: seat.points for seat in line.seats}
    if all(value is None for value in scores.values()):
        return sorted(scores).index(position) + 1
    mine = scores.get(position) or 0.0
    return 1 + sum(1 for value in scores.values() if (value or 0.0) > mine)
