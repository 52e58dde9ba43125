"""Every change to tables and games: seats, starting a game, actions, timers, bots, surrender, finalising.

The modules, by what a reader looks for:

- `tables`: opening a table, its settings' checks, seats taken and left, bots seated, the deal that starts it;
- `actions`: a person's move, a bot's, the turn timer, a surrender, a redeal;
- `changes`: `game_change`, the one way those write (lock, check, record, save, views and tasks after the
  commit), with the lobby's notices, the bots' pace and the clocks' bookkeeping;
- `finishing`: the finished game's result, chips and revealed deck, once;
- `sql`: the locked read of a game's row and its write, SQL written out once;
- `kept`: the games a process keeps after writing them, for a person's next move in one statement;
- `errors`: a refused move and its words.

The names other apps and tests use are re-exported here; a test that replaces a function replaces it in the
module that looks it up (`tables.shuffle_seed`, `changes.schedule_bot_move`, ...).
"""

from __future__ import annotations

from games.broadcast import send_lobby
from games.services.actions import (
    TIMEOUTS_BEFORE_AUTOPILOT, game_bot_move, game_redeal, game_submit_action, game_surrender, game_timeout,
)
from games.services.changes import (
    BOT_PACE_SECONDS, CLOCK_FIELDS, GameChange, _check_playing, _clock_after_move, _lobby_changed, bot_countdown,
    game_change, lobby_batch,
)
from games.services.errors import ERROR_TEXTS, GameActionError, error_message
from games.services.finishing import game_finalise, game_finalised, games_reveal
from games.services.sql import _locked_game
from games.services.tables import (
    MAX_TURN_SECONDS, MIN_TURN_SECONDS, bot_account_for, clock_check, game_start, game_start_reserved,
    seat_arrived, seat_connected, seat_connected_to, table_add_bot, table_create, table_fill_bots, table_join, table_leave,
    table_options_check, table_password_ok, table_remove_seat_bot,
)

__all__ = [
    "BOT_PACE_SECONDS", "CLOCK_FIELDS", "ERROR_TEXTS", "MAX_TURN_SECONDS", "MIN_TURN_SECONDS",
    "TIMEOUTS_BEFORE_AUTOPILOT", "GameActionError", "GameChange", "_check_playing", "_clock_after_move",
    "_lobby_changed", "_locked_game", "bot_account_for", "bot_countdown", "clock_check", "error_message",
    "game_bot_move", "game_change", "game_finalise", "game_finalised", "game_redeal", "game_start",
    "game_start_reserved", "game_submit_action", "games_reveal", "game_surrender", "game_timeout", "lobby_batch", "seat_arrived", "seat_connected",
    "seat_connected_to", "send_lobby", "table_add_bot", "table_create", "table_fill_bots", "table_join",
    "table_leave", "table_options_check", "table_password_ok", "table_remove_seat_bot",
]  # fmt: skip
