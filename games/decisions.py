"""A director stops a game still being played and decides it: awards it (places he sets), scores it a draw,
or orders it replayed with a fresh deal.

One writer per game (STYLE.md 6): the decision locks the game's row and checks that it is still being played
(and, when the caller names one, that `seq` is its current version), so a decision on a game that has just
ended, or a second decision, is refused and changes nothing. The decision is written into the game's record as
the optional field `decision` (DESIGN.md's record, extended compatibly; its keys: docs/architecture.md,
"Tournaments"), and the game is finalised at once in the same transaction through
`games.services.game_finalise` with the decided places: ratings and tournaments hear of it as of any other game
(games.hooks). A replayed game is finalised with no hook called (nothing rated, nothing scored), and its
replacement takes its place. After the commit every reader of the game is sent the same `game.decision`
message (docs/protocol.md): what was decided, the places, the reason and, for a replay, the new game's URL.
It names seats, never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.broadcast import game_group, send_to_group
from games.engine import GameResult, State
from games.engine.result import DRAW as DRAWN, DURAK
from games.models import Game, GameStatus, Result, Table, TableStatus
from games.snapshots import remember, state_of

AWARD, DRAW, REPLAY = "award", "draw", "replay"
KINDS = (AWARD, DRAW, REPLAY)


def decision_of(game: Game) -> dict[str, Any] | None:
    """The director's decision stored in the game's record, or None for a game played to its end."""
    decision = game.record.get("decision") if isinstance(game.record, dict) else None
    return decision if isinstance(decision, dict) else None


def _checked_places(players: int, kind: str, places: Sequence[Sequence[int]] | None) -> list[list[int]]:
    from games.services import GameActionError

    if kind not in KINDS:
        raise GameActionError("malformed", f"a decision is one of {', '.join(KINDS)}, not {kind!r}")
    if kind in (DRAW, REPLAY):
        return [list(range(players))]
    groups = [[int(seat) for seat in group] for group in places or ()]
    if sorted(seat for group in groups for seat in group) != list(range(players)) or any(not group for group in groups):
        raise GameActionError("malformed", "name every seat of the game exactly once, best place first")
    if len(groups) < 2:
        raise GameActionError("malformed", "an award needs a winner and a loser; a shared place is a draw")
    return groups


def decided_result(state: State, decision: dict[str, Any]) -> tuple[GameResult, list[list[int]], list[int]]:
    """Result, places and net chips of a decided game (games.services.game_finalise): the decided places; the
    last group is the durak (a team's seats: the losing team); a director's decision moves no chips, every
    stake goes back."""
    groups = [[int(seat) for seat in group] for group in decision["places"]]
    draw = decision["kind"] != AWARD or len(groups) < 2
    losers = [] if draw else sorted(groups[-1])
    team_game = state.teams is not None
    result = GameResult(
        outcome=DRAWN if draw else DURAK,
        durak=losers[0] if losers and not team_game and len(losers) == 1 else None,
        losing_team=tuple(losers) if losers and team_game else None,
        out_order=tuple(state.out),
    )
    return result, groups, [0] * state.n


def counts(decision: dict[str, Any] | None) -> bool:
    """Whether a finished game's result counts (ratings, tournaments): not when it was ordered replayed."""
    return decision is None or decision.get("kind") != REPLAY


@transaction.atomic
def game_decide(
    *, game_id: int, kind: str, places: Sequence[Sequence[int]] | None = None, reason: str, seq: int | None = None
) -> tuple[Game, Result]:
    """Stop the game being played and decide it (`kind`: award with `places`, groups of seats best first;
    draw; replay). Under the game's row lock; refused (GameActionError "finished" or "stale") when the game
    is over or `seq` is not its current version. The caller checks who may, logs it, and announces it
    (`announce`) once a replay's new game is known."""
    from games.services import _check_playing, _clock_after_move, _lobby_changed, _locked_game, game_finalise

    game = _locked_game(game_id)
    _check_playing(game, seq)
    groups = _checked_places(game.players, kind, places)
    state = state_of(game)
    now = timezone.now()
    game.record = {
        **game.record,
        "decision": {"by": "director", "kind": kind, "places": groups, "reason": reason, "at": now.isoformat()},
    }
    game.seq += 1
    game.status = GameStatus.FINISHED
    game.finished = now
    game.deadline = None
    game.timer_at = None
    if game.clock_ms:
        _clock_after_move(game, mover=None, running=[], now=now)
    game.save(update_fields=["record", "seq", "status", "finished", "deadline", "timer_at",
                             "clock_ms", "clock_running", "clock_since"])  # fmt: skip
    remember(game, state)
    Table.objects.filter(pk=game.table_id).update(status=TableStatus.FINISHED)
    _lobby_changed()
    result = game_finalise(game_id=game.pk)
    return game, result


def game_replaced(*, game: Game, new_game: Game) -> None:
    """A replayed game's record names the game dealt in its place."""
    decision = decision_of(game)
    if decision is None or decision.get("kind") != REPLAY:
        raise ValueError("only a game ordered replayed is replaced")
    game.record = {**game.record, "decision": {**decision, "replayed_by": new_game.pk}}
    Game.objects.filter(pk=game.pk).update(record=game.record)


def decision_json(game: Game) -> dict[str, Any] | None:
    """What every reader is told of the decision (no card): kind, places, reason, the replay's URL."""
    decision = decision_of(game)
    if decision is None:
        return None
    replayed_by = decision.get("replayed_by")
    return {
        "kind": decision.get("kind"),
        "places": decision.get("places"),
        "reason": decision.get("reason", ""),
        "game": replayed_by,
        "url": reverse("games:game", args=[replayed_by]) if replayed_by is not None else None,
    }


def decision_message(game: Game) -> dict[str, Any]:
    """The protocol's `game.decision` message: the same for every reader of the game."""
    return {"type": "game.decision", "game": game.pk, "decision": decision_json(game)}


def announce(game: Game) -> None:
    """After the commit, tell every page of the game what the director decided."""
    message = decision_message(game)
    transaction.on_commit(lambda: send_to_group(game_group(game.pk), {"type": "game.decision", "message": message}))
