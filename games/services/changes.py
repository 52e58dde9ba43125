"""How a game being played changes: `game_change`, the one way every write to a game's play goes.

One writer per game (STYLE.md 6): the game's row is locked and the version `seq` checked, so a stale or
repeated message is refused and never applied twice. The change is recorded and the row written with its
log rows (games.services.sql); after the commit the seats get their views (built from what the
transaction read: nothing is read again) and the next bot move, the turn timer and the finalisation are
scheduled as tasks that carry the version they expect (games.tasks), so a late one changes nothing. The
tasks module is looked up when a task is sent: games.tasks imports the services.
"""

from __future__ import annotations

import contextlib
import datetime
import random
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.botplay import AUTOPILOT_LEVEL
from games.broadcast import send_game, send_lobby
from games.clocks import Clocks, clocks_after_move, clocks_credited, clocks_start
from games.engine import Action, IllegalAction, State, play
from games.engine.actions import REDEAL, SURRENDER, SURRENDER_ACTION
from games.models import ActionLog, BotPace, Game, GameStatus, Seat, Table, TableStatus
from games.selectors import game_seats
from games.services import kept
from games.services.errors import GameActionError
from games.services.sql import _bot_pace, _locked_game, _locked_game_or_none, _write_game
from games.snapshots import remember, state_of
from games.turns import optional_seats, turn_seconds, waiting_seats

# --- the lobby ------------------------------------------------------------------------------------

# Inside `lobby_batch()` a table's change only marks the lobby changed; the batch sends it once.
_lobby_batches: ContextVar[list[bool] | None] = ContextVar("lobby_batches", default=None)


def _lobby_changed() -> None:
    batch = _lobby_batches.get()
    if batch is not None:
        batch.append(True)
        return
    transaction.on_commit(send_lobby)


@contextlib.contextmanager
def lobby_batch() -> Iterator[None]:
    """Many tables changed in one go (a tournament round dealing a hundred games): the lobby's list is sent
    once, after the commit, instead of once a table."""
    if _lobby_batches.get() is not None:
        yield
        return
    changed: list[bool] = []
    token = _lobby_batches.set(changed)
    try:
        yield
    finally:
        _lobby_batches.reset(token)
    if changed:
        transaction.on_commit(send_lobby)


# --- a change of a game being played -------------------------------------------------------------


class GameChange:
    """A game being changed under its row lock (`game_change`): the game, its seats (read when first asked
    for), the seat of the person who asked, and what the change makes: the state after it (`replay`,
    `end`), the action log's new rows (`record`) and, for a change other than moves, the fields it writes."""

    def __init__(self, game: Game | None) -> None:
        self.found = game
        self.state: State | None = None  # None: nothing for game_change to write
        self.logged: list[ActionLog] = []
        self.fields: Sequence[str] | None = None  # None: the move's row write (games.services.sql)
        self.person_seat: int | None = None
        self.row_version: str | None = None  # the row's version as the move's write left it (PostgreSQL)
        self._seats: list[Seat] | None = None

    @property
    def game(self) -> Game:
        assert self.found is not None
        return self.found

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = game_seats(self.game)
        return self._seats

    @property
    def seat(self) -> int:
        """The seat of the person whose request this is (`game_change(user=...)`)."""
        assert self.person_seat is not None
        return self.person_seat

    def late(self, seq: int) -> bool:
        """Whether a task of version `seq` came late: the game is gone, over or at another version."""
        return self.found is None or self.found.status != GameStatus.PLAYING or self.found.seq != seq

    def replay(self) -> State:
        """A copy of the game's state to play on; the change's state from now on."""
        self.state = state_of(self.game).copy()
        return self.state

    def record(self, seat: int, action: Action, *, by_timer: bool = False, by_autopilot: bool = False) -> None:
        """`action`, already played on the change's state by `seat`, goes into the record and the log."""
        assert self.state is not None
        if action.kind == SURRENDER:
            self.game.surrendered = seat
        self.logged.append(_record_action(game=self.game, state=self.state, seat=seat, action=action,
                                          by_timer=by_timer, by_autopilot=by_autopilot))  # fmt: skip

    def end(self, seat: int) -> None:
        """End the game with `seat` as the durak (his team losing): his surrender, or his clock's fall, played
        and recorded as the engine's surrender action (`Game.flagged` tells a fall from a surrender). A seat
        that went out already cannot surrender: GameActionError."""
        state = self.replay()
        try:
            play(state, seat, SURRENDER_ACTION)
        except IllegalAction as error:
            raise GameActionError("illegal", str(error)) from None
        self.record(seat, SURRENDER_ACTION)

    def clock_fell(self) -> bool:
        """Whether a running clock is out (a clock game): then its seat loses, as if he had surrendered, and
        `Game.flagged` says it was the clock."""
        fallen = _clock_fallen(self.game)
        if fallen is None:
            return False
        self.game.flagged = fallen
        self.end(fallen)
        return True


@contextlib.contextmanager
def game_change(game_id: int, *, user: User | None = None, seq: int | None = None) -> Iterator[GameChange]:
    """One change of a game, in one transaction under the game's row lock.

    For a person's request (`user`) his seat and the version `seq` (None: any) are checked first, a
    GameActionError refusing them. A task's change (no `user`) is refused nothing: its body asks
    `late(seq)`. The body changes `change.game` and sets the state after the change (`replay`, `end`);
    then the row is written with the log rows (`_save_game`) and, on commit, the views go out and what
    comes next is scheduled (`_after_commit`). A body that leaves no state writes nothing here. A copy of
    the game this process kept for a person's next move (games.services.kept) is dropped: it is about to
    be out of date."""
    kept.forget(game_id)
    with transaction.atomic():
        change = GameChange(_locked_game(game_id) if user is not None else _locked_game_or_none(game_id))
        if user is not None:
            change.person_seat = _seat_of(change.game, change.seats, user)
            _check_playing(change.game, seq)
        yield change
        if change.state is not None:
            timer_in, change.row_version = _save_game(change.game, change.state, change.logged, change.fields)
            _after_commit(game=change.game, seats=change.seats, state=change.state, timer_in=timer_in)


def _seat_of(game: Game, seats: Sequence[Seat], user: User) -> int:
    """The seat the person plays in this game (a bot account's seats are the bot's, never his)."""
    if user is None or not user.is_authenticated:
        raise GameActionError("forbidden", "not signed in")
    for seat in seats:
        if seat.user_id == user.pk and not seat.is_bot and seat.number < game.players:
            return seat.number
    raise GameActionError("forbidden", "you hold no seat in this game")


def _check_playing(game: Game, seq: int | None) -> None:
    if game.status != GameStatus.PLAYING:
        raise GameActionError("finished", "the game is over")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq != game.seq):
        raise GameActionError("stale", f"version {seq!r} is not the game's current version {game.seq}")


def _record_action(
    *, game: Game, state: State, seat: int, action: Action, by_timer: bool = False, by_autopilot: bool = False
) -> ActionLog:
    """Append an applied action to the record, bump the version; `state` is already played. The action
    log's row is returned unsaved: `_save_game` writes it with the game's row."""
    entry: dict[str, Any] = {"seat": seat, **action.to_json()}
    if by_timer:
        entry["timer"] = True
    if by_autopilot:
        entry["autopilot"] = True
    game.record = {**game.record, "actions": [*game.record.get("actions", []), entry]}
    now = timezone.now()
    logged = ActionLog(
        game_id=game.pk, seq=game.seq, seat=seat, action=action.to_json(), at=now, by_timer=by_timer,
        by_autopilot=by_autopilot,
    )  # fmt: skip
    game.seq += 1
    if state.finished:
        game.status = GameStatus.FINISHED
        game.finished = now
        game.deadline = None
    else:
        game.deadline = now + datetime.timedelta(seconds=turn_seconds(game))
    if game.clock_ms:  # a surrender (or a fall) and a redeal earn no increment
        _clock_after_move(game, mover=None if action.kind in (SURRENDER, REDEAL) else seat,
                          running=waiting_seats(state), now=now)  # fmt: skip
    return logged


# A timer task may fire a little before its time (two machines' clocks, a rounded countdown) and is still
# the one that was due; only a timer due later than this is another one on its way.
TIMER_EARLY = datetime.timedelta(seconds=1)


def _arm_timer(game: Game, now: datetime.datetime) -> float | None:
    """The countdown (seconds) of the turn timer task that the game's current version needs, `timer_at`
    set to its time; None when none is needed: the game is over, or a timer already on its way fires no
    later than the deadline (it will find the game moved on and schedule this version's timer)."""
    if game.status != GameStatus.PLAYING or game.deadline is None:
        return None
    pending = game.timer_at
    if pending is not None and now + TIMER_EARLY < pending <= game.deadline:
        return None
    game.timer_at = game.deadline
    return max(0.0, (game.deadline - now).total_seconds())


def _save_game(
    game: Game, state: State, logged: Sequence[ActionLog] = (), fields: Sequence[str] | None = None
) -> tuple[float | None, str | None]:
    """Write the game after its change (and its new log rows; or only `fields`, through the ORM); the
    countdown of the turn timer to schedule after the commit, if any, and the row's version as the move's
    write left it (PostgreSQL; None for a write of `fields`)."""
    timer_in = _arm_timer(game, timezone.now())
    row_version = None
    if fields is None:
        row_version = _write_game(game, logged)
    else:
        game.save(update_fields=fields)
        ActionLog.objects.bulk_create(logged)
    remember(game, state)
    if game.status == GameStatus.FINISHED:
        Table.objects.filter(pk=game.table_id).update(status=TableStatus.FINISHED)
        _lobby_changed()
    return timer_in, row_version


def _after_commit(*, game: Game, seats: Sequence[Seat], state: State, timer_in: float | None) -> None:
    """On commit: send the views (built from what the transaction read), then schedule what comes next
    (bot move, the turn timer if `timer_in` says one is needed, finalisation)."""
    from games import tasks

    game_id, seq = game.pk, game.seq
    finished = game.status == GameStatus.FINISHED
    bot_waiting = bots_to_answer(game, seats, state)
    snapshot = (game, list(seats), state)
    # Aktobe: a bot's "one card!" (or duel) goes at once, whatever the pace, before a person moves on past it.
    announcing = any(seats[seat].is_bot for seat in optional_seats(state))
    bot_in = 0.0 if announcing or not bot_waiting else bot_countdown(
        pace=_bot_pace(game), level=_first_bot_level(seats, bot_waiting)
    )
    if bot_in and game.clock_ms:
        # A clock game: the bot's clock runs while it waits, so its pace is a courtesy that never loses it the
        # game on time; it waits at most a twentieth of what it has left.
        left_ms = min((game.clock_ms[seat] for seat in bot_waiting if seat < len(game.clock_ms)), default=0)
        bot_in = min(bot_in, left_ms / 1000 / 20)

    def deliver() -> None:
        sent_game, sent_seats, sent_state = snapshot
        send_game(game=sent_game, seats=sent_seats, state=sent_state, result=None,
                  deferrable=not finished and not bot_waiting)  # fmt: skip
        if finished:
            tasks.finalise_game.delay(game_id)
            return
        if bot_waiting:
            schedule_bot_move(game_id=game_id, seq=seq, countdown=bot_in)
        if timer_in is not None:
            tasks.turn_timeout.apply_async(args=(game_id, seq), countdown=timer_in)

    transaction.on_commit(deliver)


def bots_to_answer(game: Game, seats: Sequence[Seat], state: State) -> list[int]:
    """The seats a bot (or the autopilot) plays that the game waits for, or where a bot says its Aktobe
    "one card!" at once."""
    autopilot = game.autopilot
    return [
        seat for seat in waiting_seats(state) + optional_seats(state)
        if seats[seat].is_bot or (seat < len(autopilot) and autopilot[seat])
    ]  # fmt: skip


# --- the bots' pace -------------------------------------------------------------------------------

# Seconds a bot waits before it answers, by the table's pace (games.models.BotPace): a range, drawn afresh for
# each move, so that a bot's answers do not tick like a clock.
BOT_PACE_SECONDS: dict[str, tuple[float, float]] = {
    BotPace.INSTANT: (0.0, 0.0),
    BotPace.SECOND: (0.8, 1.2),
    BotPace.SLOW: (2.5, 4.0),
}


def bot_countdown(*, pace: str, level: str, rng: random.Random | None = None) -> float:
    """The countdown of a bot's move task: the pace's time less the CPU budget the level's bot thinks for (a
    search bot thinks its whole budget after the countdown, so its answer still comes at about the pace; a
    budget longer than the pace makes the countdown 0). Never a sleep: the task waits on the scheduler. With
    settings.GAMES_BOT_PACE off (the tests) every bot answers at once."""
    least, most = BOT_PACE_SECONDS.get(pace, BOT_PACE_SECONDS[BotPace.SECOND])
    if most <= 0 or not settings.GAMES_BOT_PACE:
        return 0.0
    from games.bots.levels import LEVELS

    thinking = LEVELS[level].seconds if level in LEVELS else 0.0
    return round(max(0.0, (rng or _pace_rng).uniform(least, most) - thinking), 3)


_pace_rng = random.Random()


def _first_bot_level(seats: Sequence[Seat], waiting: Sequence[int]) -> str:
    """The level of the bot (or the autopilot) that moves next among the `waiting` seats (game_bot_move's order)."""
    for seat in waiting:
        if seats[seat].is_bot:
            return seats[seat].bot_level
    return AUTOPILOT_LEVEL


def schedule_bot_move(*, game_id: int, seq: int, countdown: float) -> None:
    """Send the bot move task of version `seq`, `countdown` seconds from now (0: at once)."""
    from games import tasks

    if countdown > 0:
        tasks.bot_move.apply_async(args=(game_id, seq), countdown=countdown)
    else:
        tasks.bot_move.delay(game_id, seq)


# --- clocks (games.clocks) ------------------------------------------------------------------------
# A clock game keeps each seat's remaining time on its row (Game.clock_ms as at clock_since, the seats
# whose clock runs in clock_running); every change under the row lock charges the running clocks, and the
# game's `deadline` is the moment the first running clock falls, so the turn timer's task, its version
# check and the sweep of games.recovery serve the clocks unchanged. A fall ends the game as a surrender.

CLOCK_FIELDS = ("clock_ms", "clock_running", "clock_since", "flagged")


def _clocks_of(game: Game) -> Clocks:
    assert game.clock_since is not None
    return Clocks(remaining_ms=tuple(game.clock_ms), running=tuple(game.clock_running), since=game.clock_since)


def _clocks_store(game: Game, clocks: Clocks) -> None:
    game.clock_ms = list(clocks.remaining_ms)
    game.clock_running = list(clocks.running)
    game.clock_since = clocks.since
    if game.status == GameStatus.PLAYING:
        game.deadline = clocks.falls_at()


def _clock_start(*, game: Game, table: Table, state: State, now: datetime.datetime) -> float | None:
    """The new game's clocks: every seat the base time, the first waited seat's running; the timer armed
    for its fall (the countdown to schedule)."""
    assert table.clock_base is not None
    game.clock_increment_ms = table.clock_increment * 1000
    _clocks_store(game, clocks_start(players=game.players, base_seconds=table.clock_base,
                                     running=waiting_seats(state), now=now))  # fmt: skip
    game.timer_at = None
    timer_in = _arm_timer(game, now)
    game.save(update_fields=["deadline", "timer_at", "clock_increment_ms", *CLOCK_FIELDS])
    return timer_in


def _clock_after_move(game: Game, *, mover: int | None, running: Sequence[int], now: datetime.datetime) -> None:
    """Charge the running clocks up to `now`, give `mover` his increment (if his clock ran) and run the
    clocks of `running` from now on; the deadline becomes the first fall."""
    moved = clocks_after_move(_clocks_of(game), mover=mover, increment_ms=game.clock_increment_ms, running=running,
                              now=now)  # fmt: skip
    _clocks_store(game, moved)


def _clock_credit(game: Game, credit_ms: Mapping[int, int]) -> None:
    """Give seats time back on their clocks (ms by seat); the deadline becomes the first fall."""
    _clocks_store(game, clocks_credited(_clocks_of(game), credit_ms))


def _clock_fallen(game: Game) -> int | None:
    """The running seat whose clock is out now (the locked game), or None (no clock, or time left)."""
    if not game.clock_ms or game.status != GameStatus.PLAYING or game.clock_since is None:
        return None
    return _clocks_of(game).fallen(timezone.now())
