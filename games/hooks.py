"""What other apps do when a game is finished: ratings and tournaments register a callback here.

`game_finalise` calls every callback once per game, inside its transaction, after the Result and the
ledger rows are written: a callback that raises rolls the finalisation back, so it is retried whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Result

GameFinishedCallback = Callable[["Result"], None]

_callbacks: list[GameFinishedCallback] = []


def on_game_finished(callback: GameFinishedCallback) -> GameFinishedCallback:
    """Register a callback (usable as a decorator); registering the same one twice has no effect."""
    if callback not in _callbacks:
        _callbacks.append(callback)
    return callback


def remove_game_finished(callback: GameFinishedCallback) -> None:
    if callback in _callbacks:
        _callbacks.remove(callback)


def game_finished(result: Result) -> None:
    for callback in list(_callbacks):
        callback(result)
