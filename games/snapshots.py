"""A game's engine state from its stored record, cached in this process by game and version.

The record (the deal and the action log) is the truth; replaying it costs well under a millisecond a
action with the compiled engine, and the cache makes the usual case (the state of the version just
played) a dictionary lookup. A cached state is shared: callers copy it before they play on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.cache import VersionedCache
from games.engine import Record, State, action_from_json, load_record, play, played_deal

if TYPE_CHECKING:
    from games.models import Game

_CACHE_SIZE = 4096
_DEAL_KEYS = ("hands", "stock", "trump", "hidden", "hidden_trump", "redeals")
_cache: VersionedCache[tuple[int, str], State] = VersionedCache(_CACHE_SIZE)


def record_of(game: Game) -> Record:
    return load_record(game.record)


def state_of(game: Game) -> State:
    """The state after the game's `seq` actions; raises if the stored record does not replay."""
    key = (game.pk, game.commitment)
    actions: list[dict[str, Any]] = game.record.get("actions", [])
    cached = _cache.get(key)
    if cached is not None and cached[0] == game.seq:
        return cached[1]
    # A redeal changed the commitment: a cached state is always of the deal being played, after its redeals.
    if cached is not None and cached[0] < game.seq <= len(actions):
        start, state = cached[0], cached[1].copy()
    else:
        start, state = len(game.record.get("redeals", [])), dealt_state(game)
    for raw in actions[start : game.seq]:
        play(state, raw["seat"], action_from_json(raw))
    remember(game, state)
    return state


def dealt_state(game: Game) -> State:
    """The state of the deal being played before its first move (after the redeals, if any)."""
    rest = {key: value for key, value in game.record.items() if key not in _DEAL_KEYS}
    return load_record({**rest, **played_deal(game.record), "actions": []}).initial_state()


def deal_actions(game: Game) -> list[dict[str, Any]]:
    """The record's actions on the deal being played: the log after its redeals."""
    return game.record.get("actions", [])[len(game.record.get("redeals", [])) :]


def remember(game: Game, state: State) -> None:
    """Cache the state of the game's current version (after the service applied an action)."""
    _cache.put((game.pk, game.commitment), game.seq, state)


def forget_all() -> None:
    _cache.clear()
