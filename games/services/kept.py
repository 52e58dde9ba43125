"""Games kept in the memory of the process that last wrote them, for a person's next move in one statement.

After a person's move over his socket writes version V of a game that waits for people only, the process
keeps that `Game`, its seats and its state with the row's version as the write returned it (PostgreSQL's
`xmin`, new with every write of the row by anyone). The next person's move there starts from the kept copy
instead of a locked read (games.services.actions `_kept_move`) and is written by one statement in autocommit
that changes the row only if it is still at that version (games.services.sql `_write_if_unchanged`): no
BEGIN, no locked SELECT, no COMMIT. A move that finds no copy, or whose write matched nothing (another
writer came first: a timer, a bot, a director, another process), is made by `game_change` as ever.

A copy is taken out of the store while its move is made, so two moves of one game in this process never
start from the same copy; every `game_change` in this process drops the game's copy.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from games.engine import State
from games.models import Game, Seat

# Games a process keeps (the least recently written goes first): a copy holds the game's record and state,
# a few kilobytes.
KEPT_GAMES = 4096


@dataclass
class Kept:
    game: Game
    seats: list[Seat]
    state: State
    row_version: str  # the row's `xmin` as this process's write of version `game.seq` returned it


_kept: OrderedDict[int, Kept] = OrderedDict()
_lock = threading.Lock()


def keep(copy: Kept) -> None:
    """Keep the game as this process just wrote it (unless a later version of it is kept already)."""
    with _lock:
        held = _kept.get(copy.game.pk)
        if held is not None and held.game.seq > copy.game.seq:
            return
        _kept[copy.game.pk] = copy
        _kept.move_to_end(copy.game.pk)
        while len(_kept) > KEPT_GAMES:
            _kept.popitem(last=False)


def take(game_id: int) -> Kept | None:
    """The game's kept copy, out of the store: the caller keeps its next version, or nothing."""
    with _lock:
        return _kept.pop(game_id, None)


def held(game_id: int) -> bool:
    """Whether a copy of the game is kept (a glance: a move takes it with `take`)."""
    return game_id in _kept


def forget(game_id: int) -> None:
    with _lock:
        _kept.pop(game_id, None)


def forget_all() -> None:
    with _lock:
        _kept.clear()

