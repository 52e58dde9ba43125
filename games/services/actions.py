"""A game being played: a person's move, a bot's, the turn timer's defaults, a surrender, a redeal.

Each is one `game_change` (games.services.changes): locked, checked, played, recorded, written, and sent
after the commit. The turn timer is one task a turn time per game, not one a move: a move schedules none
while a timer fires no later than its deadline, and that timer, finding the game moved on, schedules the
timer of the version it finds.
"""

from __future__ import annotations

import datetime
import functools
import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.botplay import AUTOPILOT_LEVEL, bot_action
from games.engine import (
    Action, EngineError, IllegalAction, MalformedRecord, RecordDeal, Rules, State, action_from_json, load_record,
    play, redeal_refusal,
)
from games.engine.actions import redeal
from games.engine.cards import SUITS
from games.engine.deal import redeal_suit
from games import lag
from games.models import ActionLog, Game, GameStatus, Seat
from games.selectors import game_seats
from games.services import kept
from games.services.changes import (
    CLOCK_FIELDS, GameChange, _after_commit, _arm_timer, _check_playing, _clock_credit, _clock_fallen,
    _record_action, _seat_of, bots_to_answer, game_change,
)
from games.services.errors import GameActionError
from games.services.sql import _write_if_unchanged
from games.services.tables import _new_deal
from games.snapshots import deal_actions, dealt_state, remember, state_of
from games.turns import default_action, optional_seats, turn_seconds, waiting_seats

logger = logging.getLogger(__name__)

TIMEOUTS_BEFORE_AUTOPILOT = 3
# What a redeal writes of the game's row (a new deal: not a move's fields).
REDEAL_FIELDS = ("record", "seq", "seed", "salt", "commitment", "redeals", "deadline", "timer_at", "timeouts",
                 *CLOCK_FIELDS)  # fmt: skip


def game_submit_action(*, game_id: int, user: User, action: dict[str, Any], seq: int) -> Game:
    """Apply a person's move: his seat, the current version, a well-formed and legal action, or a
    GameActionError and no change. Made from the copy of the game this process kept, where it has one
    and the move is a plain one (`_kept_move`), else under the row lock. The Game returned may be the one
    kept for the next move, which changes it: the callers read the game again (a view, an API answer)."""
    moved = _kept_move(game_id=game_id, user=user, action=action, seq=seq)
    if moved is not None:
        return moved
    with game_change(game_id, user=user, seq=seq) as change:
        if change.clock_fell():
            return change.game
        parsed = _parsed(action)
        seat, state = change.seat, change.replay()
        _person_plays(change.game, state, seat, parsed)
        change.record(seat, parsed)
    if change.row_version is not None and not transaction.get_connection().in_atomic_block:
        _keep_for_next_move(change.game, change.seats, change.state, change.row_version)
    return change.game


def _person_plays(game: Game, state: State, seat: int, action: Action) -> None:
    """`action` of a person's `seat` played on `state` (or a GameActionError); he is at the table again:
    his own move ends the timeouts' count and the autopilot."""
    try:
        play(state, seat, action)
    except IllegalAction as error:
        raise GameActionError("illegal", str(error)) from None
    except EngineError as error:
        raise GameActionError("malformed", str(error)) from None
    game.timeouts = [0 if index == seat else count for index, count in enumerate(game.timeouts)]
    game.autopilot = [False if index == seat else flag for index, flag in enumerate(game.autopilot)]


def _keep_for_next_move(game: Game, seats: Sequence[Seat], state: State | None, row_version: str) -> None:
    """Keep the game just written for the next person's move in this process (games.services.kept), if it
    is being played and waits for people only: where a bot answers, its move will change the row first."""
    if not settings.GAMES_KEPT_MOVES or state is None or game.status != GameStatus.PLAYING:
        return
    if bots_to_answer(game, seats, state):
        return
    kept.keep(kept.Kept(game=game, seats=list(seats), state=state, row_version=row_version))


def _kept_move(*, game_id: int, user: User, action: Any, seq: int) -> Game | None:
    """A person's move made from the game this process kept (games.services.kept) and written in one
    statement, or None: the move is for `game_change` (no copy; a refusal, which that path gives with the
    game's current row; a fallen clock, the game's end, a bot to answer; another writer changed the row).

    It does what `game_change` does for a plain move, from the copy: the seat and version checked, the
    move played and recorded (the timeouts' count and the autopilot of his seat ended, the clocks charged,
    the deadline), the turn timer armed when none is on its way, the row and its log row written, the state
    cached, the views sent (deferred to the socket's loop, `broadcast.deferring`) and the timer's task. A
    move on the socket's own loop (games.services.loop_moves) shares its steps."""
    if not kept_moves_here():
        return None
    copy = kept.take(game_id)
    if copy is None:
        return None
    move = kept_move_played(copy, user=user, action=action, seq=seq)
    if move is None:
        return None
    row_version = _write_if_unchanged(move.game, move.logged, copy.row_version)
    if row_version is None:
        return None
    remember(move.game, move.state)
    # The views are built (and the timer sent) before the copy is kept: from then on another thread's
    # move may change this Game.
    _after_commit(game=move.game, seats=move.seats, state=move.state, timer_in=move.timer_in)
    kept_move_written(move, row_version)
    return move.game


def kept_moves_here() -> bool:
    """Whether this thread's moves may start from a kept game: the setting on, PostgreSQL, no transaction open."""
    if not settings.GAMES_KEPT_MOVES:
        return False
    connection = transaction.get_connection()
    return connection.vendor == "postgresql" and not connection.in_atomic_block


@dataclass
class KeptMove:
    """A person's move played on a copy of a kept game, recorded and not yet written."""

    game: Game
    seats: list[Seat]
    state: State
    logged: ActionLog
    timer_in: float | None  # the turn timer's countdown when one is to be sent, as `_arm_timer` says


def kept_move_played(copy: kept.Kept, *, user: User, action: Any, seq: int) -> KeptMove | None:
    """The move played and recorded on the kept copy (its Game changed; its state copied), or None when it is
    for `game_change`: a refusal (given there from the current row), a fallen clock, the game's end, a bot or
    the autopilot to answer."""
    game, seats = copy.game, copy.seats
    try:
        seat = _seat_of(game, seats, user)
        _check_playing(game, seq)
        if _clock_fallen(game) is not None:
            return None
        parsed = _parsed(action)
        state = copy.state.copy()
        _person_plays(game, state, seat, parsed)
    except GameActionError:
        return None
    if state.finished or bots_to_answer(game, seats, state):
        return None
    logged = _record_action(game=game, state=state, seat=seat, action=parsed)
    timer_in = _arm_timer(game, timezone.now())
    return KeptMove(game=game, seats=seats, state=state, logged=logged, timer_in=timer_in)


def kept_move_written(move: KeptMove, row_version: str) -> None:
    """The game kept again after its move's write (the row at `row_version`), for the next move."""
    kept.keep(kept.Kept(game=move.game, seats=move.seats, state=move.state, row_version=row_version))


def _parsed(action: Any) -> Action:
    if not isinstance(action, dict):
        raise GameActionError("malformed", "an action must be an object")
    try:
        return action_from_json(action)
    except MalformedRecord as error:
        raise GameActionError("malformed", str(error)) from None


def game_timeout(*, game_id: int, seq: int) -> Game | None:
    """The turn timer of version `seq` fired: each seat the game waited for gets its default action (a
    defender takes, a leader plays his lowest card, throwers pass). A person whose time ran out three
    turns in a row is played by the autopilot until he moves again. If the game moved on, nothing is
    played: the timer of the version it is at is scheduled, unless one is on its way already."""
    with game_change(game_id) as change:
        if change.late(seq):
            game = change.found
            if game is not None and game.status == GameStatus.PLAYING and seq < game.seq:
                _timer_of_current_version(game)
            return None
        seats = _clocked_seats(change)
        delivered = lag.take(game_id=game_id, seq=seq, seats=seats)
        if not delivered and _timer_plays(change):
            delivered = lag.close(game_id=game_id, seq=seq, seats=seats)
        if delivered and _credit_lag(change, delivered):
            return None
        if change.game.clock_ms:
            return _clock_timer_fired(change)
        _play_defaults(change)
    return change.game


def _clocked_seats(change: GameChange) -> list[int]:
    """The seats whose time runs at the game's version: its running clocks, or those the turn timer waits for."""
    if change.game.clock_ms:
        return list(change.game.clock_running)
    return waiting_seats(state_of(change.game))


def _timer_plays(change: GameChange) -> bool:
    """Whether the timer, with no lag to credit, plays now: always at a per-move timer's version; in a clock
    game only when a running clock is out (a timer before the fall schedules the fall's)."""
    return not change.game.clock_ms or _clock_fallen(change.game) is not None


def _credit_lag(change: GameChange, delivered: dict[int, float]) -> bool:
    """The server showed the seats of `delivered` their turn late, at these moments (games.lag): a per-move
    turn runs to the latest delivery plus the turn's length, a clock game gives each running clock the time
    from `clock_since` to its delivery back; the views say the new deadline and its timer is scheduled.
    False (nothing changed) when that gives no time: the deadline was already that late."""
    game = change.game
    if game.clock_ms:
        assert game.clock_since is not None
        since = game.clock_since.timestamp()
        credits = {seat: int((moment - since) * 1000) for seat, moment in delivered.items() if moment > since}
        if not credits:
            return False
        _clock_credit(game, credits)
        change.fields = ("deadline", "timer_at", *CLOCK_FIELDS)
    else:
        assert game.deadline is not None
        owed = datetime.datetime.fromtimestamp(max(delivered.values()), tz=datetime.UTC) + datetime.timedelta(
            seconds=turn_seconds(game)
        )
        if owed <= game.deadline:
            return False
        credits = {seat: int((owed - game.deadline).total_seconds() * 1000) for seat in delivered}
        game.deadline = owed
        change.fields = ("deadline", "timer_at")
    game.timer_at = None
    logger.info("game %s version %s: the server's lag credited %s ms", game.pk, game.seq, credits)
    change.replay()  # nothing is played: the state is the views' to send
    return True


def _play_defaults(change: GameChange) -> None:
    """The timer's default action for each seat the game waits for, one after another."""
    game, seats = change.game, change.seats
    state = change.replay()
    timeouts, autopilot = list(game.timeouts), list(game.autopilot)
    for seat in waiting_seats(state):
        if seat not in waiting_seats(state):
            continue  # an earlier default action ended his turn (a bout that ended, say)
        action = default_action(state, seat)
        play(state, seat, action)
        change.record(seat, action, by_timer=True)
        if not seats[seat].is_bot:
            timeouts[seat] += 1
            if timeouts[seat] >= TIMEOUTS_BEFORE_AUTOPILOT:
                autopilot[seat] = True
        if state.finished:
            break
    game.timeouts, game.autopilot = timeouts, autopilot


def _timer_of_current_version(game: Game) -> None:
    """An earlier version's timer fired (under the game's lock): the moves since scheduled no timer while
    it was on its way, so it schedules the current version's, unless another one is on its way already.
    The game itself does not change."""
    from games import tasks

    timer_in = _arm_timer(game, timezone.now())
    if timer_in is None:
        return
    game.save(update_fields=["timer_at"])
    game_id, seq = game.pk, game.seq
    transaction.on_commit(lambda: tasks.turn_timeout.apply_async(args=(game_id, seq), countdown=timer_in))


def _clock_timer_fired(change: GameChange) -> Game | None:
    """The timer of a clock game's current version fired (the game locked): the seat whose clock is out
    loses. A timer that came before the fall (a rounded countdown) schedules the fall's timer again."""
    if change.clock_fell():
        return change.game
    change.game.timer_at = None
    _timer_of_current_version(change.game)
    return None


def game_bot_move(*, game_id: int, seq: int) -> Game | None:
    """Play the move of the first bot (or autopiloted) seat the game waits for at version `seq`.

    The bot thinks outside any transaction (a search bot takes up to a second), then its move is applied
    under the row lock only if the game is still at `seq`."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != GameStatus.PLAYING or game.seq != seq:
        return None
    seats = game_seats(game)
    state = state_of(game)
    autopilot = list(game.autopilot)
    # Aktobe: a bot says "one card!" (or duels) at once, before the seats the game waits for move.
    optional = [seat for seat in optional_seats(state) if seats[seat].is_bot]
    for seat in optional + waiting_seats(state):
        if seats[seat].is_bot:
            level, by_autopilot = seats[seat].bot_level, False
        elif seat < len(autopilot) and autopilot[seat]:
            level, by_autopilot = AUTOPILOT_LEVEL, True
        else:
            continue
        action = bot_action(
            state=state.copy(), seat=seat, level=level, log=deal_actions(game),
            rng=bot_rng(), dealt=functools.partial(dealt_state, game),
        )  # fmt: skip
        return _apply_bot_action(game_id=game_id, seq=seq, seat=seat, action=action, by_autopilot=by_autopilot)
    return None


def bot_rng() -> random.Random:
    """The bots' random draws (from `secrets`; tests replace it to play a game they need again)."""
    return secrets.SystemRandom()


def _apply_bot_action(*, game_id: int, seq: int, seat: int, action: Action, by_autopilot: bool) -> Game | None:
    with game_change(game_id) as change:
        if change.late(seq):
            return None
        autopilot = change.game.autopilot
        if by_autopilot and not (seat < len(autopilot) and autopilot[seat]):
            return None  # he came back while it thought (games.services.tables._seat_handed_back)
        if change.clock_fell():
            return change.game
        state = change.replay()
        try:
            play(state, seat, action)
        except EngineError as error:
            # A bot with a bug: its seat plays the default move instead, and the log says so without the engine's
            # words, which name the cards of the refused move (a card of a hand or of the stock: issue 39).
            logger.error("game %s: the bot of seat %s chose a refused move (%s) at version %s; the default move is played",
                         game_id, seat, type(error).__name__, seq)  # fmt: skip
            state = change.replay()
            action = default_action(state, seat)
            play(state, seat, action)
        change.record(seat, action, by_autopilot=by_autopilot)
    return change.game


def game_surrender(*, game_id: int, user: User, seq: int | None = None) -> Game:
    """He gives up: the game ends with him as the durak (his team losing, in a team game)."""
    with game_change(game_id, user=user, seq=seq) as change:
        change.end(change.seat)
    return change.game


def game_redeal(*, game_id: int, user: User, seq: int | None = None) -> Game:
    """RULES.md, redeal_five_same_suit: before the first move a player dealt five or more cards of one suit
    asks for a redeal, the engine's `redeal` action (`games.engine.records.Record.play_on` checks it). The
    record keeps the voided deal and adds the new one to its `redeals`; the new deal has a commitment of its
    own, and the voided deal's seed, salt and commitment stay in `Game.redeals`, so that its deck is revealed
    and checkable with the game's once it is over. Everyone is told who asked and for which suit (the voided
    hand itself stays unseen); the stakes stay paid, and a move sent for the voided deal is refused as stale."""
    with game_change(game_id, user=user, seq=seq) as change:
        game, seat = change.game, change.seat
        rules = Rules.from_dict(game.rules)
        before = state_of(game)
        suit = redeal_suit(rules, before.hands[seat])
        action = redeal(suit if suit is not None else 0)  # with no such suit the engine refuses it
        refusal = redeal_refusal(rules, before.hands[seat], action.target, moved=bool(deal_actions(game)))
        if refusal is not None:
            raise GameActionError("illegal", refusal)
        seed, dealt, _ = _new_deal(rules, game.players, stake=game.stake, first_attacker=game.record.get("first_attacker"))
        fresh = RecordDeal(hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, hidden=dealt.hidden,
                           hidden_trump=dealt.hidden_trump)  # fmt: skip
        actions = game.record.get("actions", [])
        record = {**game.record, "redeals": [*game.record.get("redeals", []), fresh.to_json()]}
        try:
            after = load_record({**record, "actions": [*actions, {"seat": seat, **action.to_json()}]})
            change.state = after.play_on(before.copy(), len(actions))
        except (IllegalAction, MalformedRecord) as error:
            raise GameActionError("illegal", str(error)) from None
        voided = {"seat": seat, "suit": SUITS[action.target], "seed": game.seed, "salt": game.salt,
                  "commitment": game.commitment}  # fmt: skip
        game.redeals = [*game.redeals, voided]
        game.record, game.seed, game.salt, game.commitment = record, seed, dealt.salt, dealt.commitment
        game.timeouts = [0] * game.players
        change.record(seat, action)
        change.fields = REDEAL_FIELDS
    return change.game
