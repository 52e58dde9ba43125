"""Every change to tables and games: seats, starting a game, actions, timers, bots, surrender, finalising.

One writer per game (STYLE.md 6): every change locks the game's row and checks the version `seq`, so a
stale or repeated message is refused and never applied twice. After the commit the seats get their
views, and the next bot move, the turn timer and the finalisation are scheduled as tasks that carry the
version they expect (games.tasks), so a late one changes nothing in the game.

A move costs one round of queries (the game row locked, its seats, the game row written with its log
row) and builds the views from what it read: nothing is read again after the commit. The locked read
and the write are SQL written once, not compiled by the ORM for each move (a move's largest CPU cost in
the live bench's profile). The turn timer is one
task a turn time per game, not one a move: a move schedules none while a timer fires no later than its
deadline, and that timer, finding the game moved on, schedules the timer of the version it finds.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import logging
import random
import secrets
from collections.abc import Collection, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.bot_names import BOT_BENCH, english_name
from accounts.ledger import ledger_balance
from accounts.models import BotLevel, LedgerKind, User
from accounts.services import bot_account_ensure, ledger_record
from games import decisions, hooks
from games.botplay import AUTOPILOT_LEVEL, bot_action
from games.broadcast import send_game, send_lobby
from games.clocks import (
    MAX_BASE_SECONDS, MAX_INCREMENT_SECONDS, MIN_BASE_SECONDS, Clocks, clocks_after_move, clocks_start,
)
from games.engine import (
    Action, EngineError, IllegalAction, MalformedRecord, Record, Rules, State, action_from_json, deal, places, play,
    settlement, verify_commitment,
)
from games.engine.cards import SUITS
from games.engine.deal import Deal, deck_text, redeal_suit
from games.models import ActionLog, BotPace, Game, GameStatus, Result, Seat, Table, TableStatus
from games.selectors import game_result, game_seats
from games.snapshots import dealt_state, remember, state_of
from games.turns import default_action, optional_seats, waiting_seats

logger = logging.getLogger(__name__)

TIMEOUTS_BEFORE_AUTOPILOT = 3
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 24 * 60 * 60


class GameActionError(Exception):
    """A refused move. `code` is one of CODES; `message` says what is wrong (English; consumers
    translate by code, see `error_message`)."""

    CODES = ("malformed", "stale", "forbidden", "illegal", "finished", "not_finished")

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


ERROR_TEXTS = {
    "malformed": _("That message is not a move this table understands: %(detail)s"),
    "stale": _("The game has moved on since you saw it; here is where it stands now."),
    "forbidden": _("You do not hold a seat in this game."),
    "illegal": _("That move is not allowed now: %(detail)s"),
    "finished": _("The game is over."),
    "not_finished": _("The game is not over yet."),
}


def error_message(error: GameActionError) -> str:
    """The error in the active language (call inside translation.override)."""
    template = ERROR_TEXTS.get(error.code)
    if template is None:
        return error.message
    return str(template) % {"detail": error.message} if "%(detail)s" in str(template) else str(template)


# --- tables ---------------------------------------------------------------------------------------


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


@transaction.atomic
def table_create(
    *,
    owner: User,
    rules: Rules,
    seats: int,
    stake: int = 0,
    private: bool = False,
    password: str = "",
    rated: bool = False,
    turn_seconds: int = 30,
    name: str = "",
    bot_pace: str = BotPace.SECOND,
    clock_base: int | None = None,
    clock_increment: int = 0,
) -> Table:
    """Open a table. `clock_base` (seconds) gives each player a clock of that base time and `clock_increment`
    seconds more after each of his moves (games.clocks); without it the per-move timer of `turn_seconds` runs."""
    if owner.is_bot:
        raise ValidationError(_("A bot cannot open a table."))
    if not 2 <= seats <= rules.max_players:
        raise ValidationError(
            _("A %(deck)s-card game takes 2 to %(most)s players.") % {"deck": rules.deck, "most": rules.max_players}
        )
    if rules.teams and seats != 2 * rules.team_size:
        raise ValidationError(_("Teams %(teams)s need %(count)s players.") % {"teams": rules.teams, "count": 2 * rules.team_size})
    if stake < 0:
        raise ValidationError(_("A stake cannot be negative."))
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise ValidationError(_("A turn lasts %(least)s seconds at least.") % {"least": MIN_TURN_SECONDS})
    if bot_pace not in BotPace.values:
        raise ValidationError(_("Unknown bots' pace %(pace)s.") % {"pace": bot_pace})
    clock_check(base_seconds=clock_base, increment_seconds=clock_increment)
    table = Table.objects.create(
        name=name.strip()[:60],
        rules=rules.to_dict(),
        seat_count=seats,
        stake=stake,
        private=private,
        link_token=secrets.token_urlsafe(16),
        password_hash=make_password(password) if password else "",
        rated=rated,
        turn_seconds=turn_seconds,
        bot_pace=bot_pace,
        clock_base=clock_base,
        clock_increment=clock_increment if clock_base is not None else 0,
        owner=owner,
    )
    Seat.objects.bulk_create([Seat(table=table, number=number) for number in range(seats)])
    _lobby_changed()
    return table


def table_password_ok(*, table: Table, password: str) -> bool:
    return not table.password_hash or check_password(password, table.password_hash)


def _locked_open_table(table: Table) -> Table:
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if locked.status != TableStatus.OPEN:
        raise ValidationError(_("The game at this table has started."))
    return locked


def _free_seat(table: Table, seat: int | None) -> Seat:
    free = Seat.objects.select_for_update().filter(table=table, user__isnull=True).order_by("number")
    if seat is not None:
        free = free.filter(number=seat)
    chosen = free.first()
    if chosen is None:
        raise ValidationError(_("That seat is taken.") if seat is not None else _("Every seat is taken."))
    return chosen


def _start_if_full(table: Table) -> None:
    if not Seat.objects.filter(table=table, user__isnull=True).exists():
        game_start(table=table)


@transaction.atomic
def table_join(*, table: Table, user: User, seat: int | None = None, password: str = "") -> Seat:
    """Sit a person down (the lowest free seat unless one is named); the game starts when every seat is taken."""
    table = _locked_open_table(table)
    if user.is_bot:
        raise ValidationError(_("Bots join through table_add_bot."))
    existing = Seat.objects.filter(table=table, user=user, bot_level="").first()
    if existing is not None:
        if seat is None or seat == existing.number:
            return existing
        raise ValidationError(_("You already sit at this table."))
    if user.pk != table.owner_id and not table_password_ok(table=table, password=password):
        raise ValidationError(_("Wrong password."))
    if table.stake and ledger_balance(user=user) < table.stake:
        raise ValidationError(_("You need %(stake)s chips to sit at this table.") % {"stake": table.stake})
    chosen = _free_seat(table, seat)
    chosen.user = user
    chosen.bot_level = ""
    chosen.save(update_fields=["user", "bot_level"])
    _lobby_changed()
    _start_if_full(table)
    return chosen


@transaction.atomic
def table_leave(*, table: Table, user: User) -> None:
    table = _locked_open_table(table)
    updated = Seat.objects.filter(table=table, user=user, bot_level="").update(user=None, connections=0)
    if not updated:
        raise ValidationError(_("You do not sit at this table."))
    _lobby_changed()


def bot_account_for(level: str, *, seated: Collection[int] = ()) -> User:
    """The bench's first bot account of the level (accounts.bot_names) that is not among the `seated` account
    ids, created if missing: each bot at a table is an account of its own, with its own name and rating. When
    every account of the bench sits already (more bots of one level than the bench has), the first is
    seated again. A bench name a person took as his username is passed over."""
    bench = BOT_BENCH.get(level)
    if bench is None:
        raise ValidationError(_("Unknown bot level %(level)s.") % {"level": level})
    existing = {user.username: user for user in User.objects.filter(username__in=[one.username for one in bench])}
    for persona in bench:
        account = existing.get(persona.username)
        if account is not None and (not account.is_bot or account.pk in seated):
            continue
        if account is not None and account.bot_level == level:
            return account
        return bot_account_ensure(
            username=persona.username, display_name=english_name(persona), engine=persona.engine, level=BotLevel(level)
        )
    accounts = (existing.get(persona.username) for persona in bench)
    reused = next((account for account in accounts if account is not None and account.is_bot), None)
    if reused is None:
        raise ValidationError(_("No bot of level %(level)s can sit down.") % {"level": level})
    return reused


@transaction.atomic
def table_remove_seat_bot(*, table: Table, seat: int) -> None:
    table = _locked_open_table(table)
    if not Seat.objects.filter(table=table, number=seat).exclude(bot_level="").update(user=None, bot_level=""):
        raise ValidationError(_("No bot sits there."))
    _lobby_changed()


def _seat_bot(table: Table, level: str, seat: int | None) -> Seat:
    seated = set(Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True))
    account = bot_account_for(level, seated=seated)
    chosen = _free_seat(table, seat)
    chosen.user = account
    chosen.bot_level = level
    chosen.save(update_fields=["user", "bot_level"])
    return chosen


@transaction.atomic
def table_add_bot(*, table: Table, level: str, seat: int | None = None) -> Seat:
    table = _locked_open_table(table)
    chosen = _seat_bot(table, level, seat)
    _lobby_changed()
    _start_if_full(table)
    return chosen


@transaction.atomic
def table_fill_bots(*, table: Table, level: str) -> list[Seat]:
    table = _locked_open_table(table)
    seats = []
    while Seat.objects.filter(table=table, user__isnull=True).exists():
        seats.append(_seat_bot(table, level, None))
    _lobby_changed()
    _start_if_full(table)
    return seats


# --- starting a game ------------------------------------------------------------------------------


@transaction.atomic
def game_start(*, table: Table, by: User | None = None, first_attacker: int | None = None) -> Game:
    """Deal (a seed from `secrets`, the deck's commitment stored), charge the stakes, start the clock.

    `first_attacker` names the seat that leads (a tournament alternates it); by default the rules decide
    (the lowest trump)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if by is not None and by.pk != table.owner_id:
        raise ValidationError(_("Only the table's owner starts the game."))
    if table.status != TableStatus.OPEN:
        existing = Game.objects.filter(table=table).order_by("-started").first()
        if existing is not None:
            return existing
        raise ValidationError(_("This table is closed."))
    seats = list(Seat.objects.select_related("user").filter(table=table).order_by("number"))
    if any(seat.user is None for seat in seats):
        raise ValidationError(_("Every seat must be taken before the game starts."))
    rules = Rules.from_dict(table.rules)
    players = len(seats)
    if first_attacker is not None and not 0 <= first_attacker < players:
        raise ValidationError(_("No seat %(seat)s at this table.") % {"seat": first_attacker})
    seed, dealt, record = _new_deal(rules, players, stake=table.stake, first_attacker=first_attacker)
    if table.stake:
        for seat in seats:
            assert seat.user is not None
            if not seat.is_bot and ledger_balance(user=seat.user) < table.stake:
                raise ValidationError(
                    _("%(name)s has fewer than %(stake)s chips.") % {"name": seat.user.public_name, "stake": table.stake}
                )
    now = timezone.now()
    game = Game.objects.create(
        table=table,
        rules=table.rules,
        players=players,
        record=record,
        seq=0,
        stake=table.stake,
        seed=seed,
        salt=dealt.salt,
        commitment=dealt.commitment,
        deadline=now + datetime.timedelta(seconds=table.turn_seconds),
        timer_at=now + datetime.timedelta(seconds=table.turn_seconds),
        timeouts=[0] * players,
        autopilot=[False] * players,
    )
    ledger_record(
        entries=[(seat.user_id, -table.stake, LedgerKind.STAKE) for seat in seats if seat.user_id is not None],
        game=game,
    )
    table.status = TableStatus.PLAYING
    table.save(update_fields=["status"])
    state = state_of(game)
    timer_in: float | None = float(table.turn_seconds)
    if table.clock_base is not None:
        timer_in = _clock_start(game=game, table=table, state=state, now=now)
    _lobby_changed()
    _after_commit(game=game, seats=seats, state=state, timer_in=timer_in)
    return game


def shuffle_seed() -> str:
    """The seed of a new deal's shuffle (tests replace it to deal a hand they need)."""
    return secrets.token_hex(16)


def _new_deal(
    rules: Rules, players: int, *, stake: int, first_attacker: int | None
) -> tuple[str, Deal, dict[str, Any]]:
    """A fresh shuffle (its seed from `secrets`): the seed, the deal with its commitment, the record's JSON."""
    seed = shuffle_seed()
    dealt = deal(rules, players, seed=seed, salt=secrets.token_hex(16))
    record = Record(
        rules=rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, stake=stake,
        first_attacker=first_attacker, hidden=dealt.hidden, hidden_trump=dealt.hidden_trump,
    ).to_json()
    return seed, dealt, record


@transaction.atomic
def game_start_reserved(
    *,
    owner: User,
    rules: Rules,
    players: Sequence[User],
    rated: bool = False,
    turn_seconds: int = 30,
    name: str = "",
    first_attacker: int | None = None,
    clock_base: int | None = None,
    clock_increment: int = 0,
) -> Game:
    """Open a table whose seats are taken at once by the named accounts, in seat order, and deal: a
    scheduled game such as a tournament's. A bot account plays its own seat at its own level (one bot
    account may hold several seats, as table_fill_bots seats it; a person holds one)."""
    people = [player.pk for player in players if not player.is_bot]
    if len(set(people)) != len(people):
        raise ValidationError(_("A player cannot take two seats at one table."))
    table = table_create(
        owner=owner, rules=rules, seats=len(players), rated=rated, turn_seconds=turn_seconds, name=name,
        clock_base=clock_base, clock_increment=clock_increment,
    )
    for number, player in enumerate(players):
        Seat.objects.filter(table=table, number=number).update(user=player, bot_level=player.bot_level or "")
    return game_start(table=table, first_attacker=first_attacker)


# --- actions --------------------------------------------------------------------------------------


def _game_row_sql() -> str:
    """The game's row with its table's turn time (as `turn_seconds_of_table`), locked where the database
    locks rows (SQLite locks the whole database for the transaction's writes instead). Written out once:
    the ORM compiled this query of some 40 columns anew for every move, most of the locked read's CPU."""
    quote = connection.ops.quote_name
    game, table = quote(Game._meta.db_table), quote(Table._meta.db_table)
    columns = ", ".join(f"{game}.{quote(field.column)}" for field in Game._meta.concrete_fields)
    sql = (
        f"SELECT {columns}, {table}.{quote('turn_seconds')} AS turn_seconds_of_table,"
        f" {table}.{quote('bot_pace')} AS bot_pace_of_table FROM {game}"
        f" INNER JOIN {table} ON {table}.{quote('id')} = {game}.{quote('table_id')} WHERE {game}.{quote('id')} = %s"
    )
    if connection.features.has_select_for_update_of:
        sql += f" FOR UPDATE OF {game}"
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


# By database vendor (the SQL depends on the connection's features).
_GAME_ROW_SQL: dict[str, str] = {}


def _locked_game_or_none(game_id: int) -> Game | None:
    """The game, its row locked (the table's is not: nobody changes a table while its game is played, and
    the finish updates its status under the game's lock); `game.turn_seconds_of_table` is its table's turn
    time, and `game.table` is read only if asked for."""
    sql = _GAME_ROW_SQL.get(connection.vendor) or _GAME_ROW_SQL.setdefault(connection.vendor, _game_row_sql())
    return next(iter(Game.objects.raw(sql, [game_id])), None)


def _locked_game(game_id: int) -> Game:
    game = _locked_game_or_none(game_id)
    if game is None:
        raise GameActionError("forbidden", "no such game")
    return game


def _bot_pace(game: Game) -> str:
    pace = getattr(game, "bot_pace_of_table", None)
    return str(pace) if pace is not None else str(game.table.bot_pace)


def _turn_seconds(game: Game) -> int:
    seconds = getattr(game, "turn_seconds_of_table", None)
    return int(seconds) if seconds is not None else game.table.turn_seconds


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
        game.deadline = now + datetime.timedelta(seconds=_turn_seconds(game))
    if game.clock_ms:
        _clock_after_move(game, mover=seat, running=waiting_seats(state), now=now)
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


# What a change of a game being played writes of its row.
GAME_CHANGED_FIELDS = (
    "record", "seq", "status", "finished", "deadline", "timer_at", "timeouts", "autopilot", "surrendered",
    "clock_ms", "clock_running", "clock_since", "flagged",
)  # fmt: skip
LOG_FIELDS = ("game", "seq", "seat", "action", "at", "by_timer", "by_autopilot")


@functools.cache
def _fields(model: type[models.Model], names: tuple[str, ...]) -> tuple[models.Field[Any, Any], ...]:
    """The model's fields of those names, looked up once (every move's write needs them)."""
    return tuple(field for name in names if isinstance(field := model._meta.get_field(name), models.Field))


# The write's SQL by database vendor and number of new log rows, built once (see _write_game).
_WRITE_SQL: dict[tuple[str, int], tuple[str, ...]] = {}


def _write_sql(rows: int) -> tuple[str, ...]:
    """The statements that write the game's changed fields and ``rows`` new action log rows: on PostgreSQL
    one (the inserts in a WITH of the update), elsewhere the insert (if any) and then the update."""
    key = (connection.vendor, rows)
    statements = _WRITE_SQL.get(key)
    if statements is None:
        quote = connection.ops.quote_name
        fields = _fields(Game, GAME_CHANGED_FIELDS)
        update = (
            f"UPDATE {quote(Game._meta.db_table)} SET {', '.join(f'{quote(field.column)} = %s' for field in fields)}"
            f" WHERE {quote('id')} = %s"
        )
        if rows:
            log_fields = _fields(ActionLog, LOG_FIELDS)
            row = f"({', '.join(['%s'] * len(log_fields))})"
            insert = (
                f"INSERT INTO {quote(ActionLog._meta.db_table)} ({', '.join(quote(field.column) for field in log_fields)})"
                f" VALUES {', '.join([row] * rows)}"
            )
            statements = (f"WITH logged AS ({insert}) {update}",) if connection.vendor == "postgresql" else (insert, update)
        else:
            statements = (update,)
        _WRITE_SQL[key] = statements
    return statements


def _write_game(game: Game, logged: Sequence[ActionLog]) -> None:
    """The game row's changed fields and its new action log rows, in one statement on PostgreSQL (the
    inserts in a WITH of the update), in one for each elsewhere. Written out rather than through
    `save()` and `create()`: the ORM compiled both statements anew for every move; the text is built once
    for each number of log rows (`_write_sql`)."""
    update_values = [
        field.get_db_prep_save(getattr(game, field.attname), connection) for field in _fields(Game, GAME_CHANGED_FIELDS)
    ]
    update_values.append(game.pk)
    statements = _write_sql(len(logged))
    if not logged:
        values = [update_values]
    else:
        log_fields = _fields(ActionLog, LOG_FIELDS)
        insert_values = [
            field.get_db_prep_save(getattr(one, field.attname), connection) for one in logged for field in log_fields
        ]
        values = [[*insert_values, *update_values]] if len(statements) == 1 else [insert_values, update_values]
    with connection.cursor() as cursor:
        for sql, params in zip(statements, values, strict=True):
            cursor.execute(sql, params)


def _save_game(game: Game, state: State, logged: Sequence[ActionLog] = ()) -> float | None:
    """Write the game after its change (and its new log rows); the countdown of the turn timer to schedule
    after the commit, if any."""
    timer_in = _arm_timer(game, timezone.now())
    _write_game(game, logged)
    remember(game, state)
    if game.status == GameStatus.FINISHED:
        Table.objects.filter(pk=game.table_id).update(status=TableStatus.FINISHED)
        _lobby_changed()
    return timer_in


def _after_commit(*, game: Game, seats: Sequence[Seat], state: State, timer_in: float | None) -> None:
    """On commit: send the views (built from what the transaction read), then schedule what comes next
    (bot move, the turn timer if `timer_in` says one is needed, finalisation)."""
    from games import tasks

    game_id, seq = game.pk, game.seq
    finished = game.status == GameStatus.FINISHED
    autopilot = list(game.autopilot)
    bot_waiting = [
        seat for seat in waiting_seats(state) + optional_seats(state)
        if seats[seat].is_bot or (seat < len(autopilot) and autopilot[seat])
    ]  # fmt: skip
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
        send_game(game=sent_game, seats=sent_seats, state=sent_state, result=None)
        if finished:
            tasks.finalise_game.delay(game_id)
            return
        if bot_waiting:
            schedule_bot_move(game_id=game_id, seq=seq, countdown=bot_in)
        if timer_in is not None:
            tasks.turn_timeout.apply_async(args=(game_id, seq), countdown=timer_in)

    transaction.on_commit(deliver)


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


@transaction.atomic
def game_submit_action(*, game_id: int, user: User, action: dict[str, Any], seq: int) -> Game:
    """Apply a person's move: his seat, the current version, a well-formed and legal action, or a
    GameActionError and no change."""
    game = _locked_game(game_id)
    seats = game_seats(game)
    seat = _seat_of(game, seats, user)
    _check_playing(game, seq)
    fallen = _clock_fallen(game)
    if fallen is not None:
        return _clock_flag(game=game, seats=seats, seat=fallen)
    if not isinstance(action, dict):
        raise GameActionError("malformed", "an action must be an object")
    try:
        parsed = action_from_json(action)
    except MalformedRecord as error:
        raise GameActionError("malformed", str(error)) from None
    state = state_of(game).copy()
    try:
        play(state, seat, parsed)
    except IllegalAction as error:
        raise GameActionError("illegal", str(error)) from None
    except EngineError as error:
        raise GameActionError("malformed", str(error)) from None
    # He is at the table again: his own move ends the timeouts' count and the autopilot.
    game.timeouts = [0 if index == seat else count for index, count in enumerate(game.timeouts)]
    game.autopilot = [False if index == seat else flag for index, flag in enumerate(game.autopilot)]
    logged = _record_action(game=game, state=state, seat=seat, action=parsed)
    timer_in = _save_game(game, state, [logged])
    _after_commit(game=game, seats=seats, state=state, timer_in=timer_in)
    return game


@transaction.atomic
def game_timeout(*, game_id: int, seq: int) -> Game | None:
    """The turn timer of version `seq` fired: each seat the game waited for gets its default action (a
    defender takes, a leader plays his lowest card, throwers pass). A person whose time ran out three
    turns in a row is played by the autopilot until he moves again. If the game moved on, nothing is
    played: the timer of the version it is at is scheduled, unless one is on its way already."""
    game = _locked_game_or_none(game_id)
    if game is None or game.status != GameStatus.PLAYING:
        return None
    if game.seq != seq:
        if seq < game.seq:
            _timer_of_current_version(game)
        return None
    if game.clock_ms:
        return _clock_timer_fired(game)
    seats = game_seats(game)
    state = state_of(game).copy()
    timeouts, autopilot = list(game.timeouts), list(game.autopilot)
    logged: list[ActionLog] = []
    for seat in waiting_seats(state):
        if seat not in waiting_seats(state):
            continue  # an earlier default action ended his turn (a bout that ended, say)
        action = default_action(state, seat)
        play(state, seat, action)
        logged.append(_record_action(game=game, state=state, seat=seat, action=action, by_timer=True))
        if not seats[seat].is_bot:
            timeouts[seat] += 1
            if timeouts[seat] >= TIMEOUTS_BEFORE_AUTOPILOT:
                autopilot[seat] = True
        if state.finished:
            break
    game.timeouts, game.autopilot = timeouts, autopilot
    timer_in = _save_game(game, state, logged)
    _after_commit(game=game, seats=seats, state=state, timer_in=timer_in)
    return game


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
            state=state.copy(), seat=seat, level=level, log=game.record.get("actions", []),
            rng=secrets.SystemRandom(), dealt=functools.partial(dealt_state, game),
        )  # fmt: skip
        return _apply_bot_action(game_id=game_id, seq=seq, seat=seat, action=action, by_autopilot=by_autopilot)
    return None


@transaction.atomic
def _apply_bot_action(*, game_id: int, seq: int, seat: int, action: Action, by_autopilot: bool) -> Game | None:
    game = _locked_game(game_id)
    if game.status != GameStatus.PLAYING or game.seq != seq:
        return None
    fallen = _clock_fallen(game)
    if fallen is not None:
        return _clock_flag(game=game, seats=game_seats(game), seat=fallen)
    state = state_of(game).copy()
    try:
        play(state, seat, action)
    except EngineError as error:
        # A bot with a bug: its seat plays the default move instead, and the log says so without the engine's
        # words, which name the cards of the refused move (a card of a hand or of the stock: issue 39).
        logger.error("game %s: the bot of seat %s chose a refused move (%s) at version %s; the default move is played",
                     game_id, seat, type(error).__name__, seq)  # fmt: skip
        state = state_of(game).copy()
        action = default_action(state, seat)
        play(state, seat, action)
    logged = _record_action(game=game, state=state, seat=seat, action=action, by_autopilot=by_autopilot)
    timer_in = _save_game(game, state, [logged])
    _after_commit(game=game, seats=game_seats(game), state=state, timer_in=timer_in)
    return game


@transaction.atomic
def game_surrender(*, game_id: int, user: User, seq: int | None = None) -> Game:
    """He gives up: the game ends with him as the durak (his team losing, in a team game)."""
    game = _locked_game(game_id)
    seats = game_seats(game)
    seat = _seat_of(game, seats, user)
    _check_playing(game, seq)
    return _end_by_surrender(game=game, seats=seats, seat=seat)


def _end_by_surrender(*, game: Game, seats: Sequence[Seat], seat: int) -> Game:
    """End the locked game with `seat` as the durak (his team losing): a surrender, or his clock's fall."""
    state = state_of(game)
    now = timezone.now()
    game.surrendered = seat
    game.seq += 1
    game.status = GameStatus.FINISHED
    game.finished = now
    game.deadline = None
    if game.clock_ms:
        _clock_after_move(game, mover=None, running=[], now=now)
    timer_in = _save_game(game, state)
    _after_commit(game=game, seats=seats, state=state, timer_in=timer_in)
    return game


@transaction.atomic
def game_redeal(*, game_id: int, user: User, seq: int | None = None) -> Game:
    """RULES.md, redeal_five_same_suit: before the first move a player dealt five or more cards of one suit
    asks for a redeal. The deal is voided and a new one shuffled under a new commitment; everyone is told
    who asked and for which suit (the voided hand itself stays unseen), and the voided deal's seed, salt and
    commitment are kept so that its deck is revealed and checkable with the game's once it is over. The
    stakes stay paid and the version moves on, so a move sent for the voided deal is refused as stale."""
    game = _locked_game(game_id)
    seats = game_seats(game)
    seat = _seat_of(game, seats, user)
    _check_playing(game, seq)
    rules = Rules.from_dict(game.rules)
    if not rules.redeal_five_same_suit:
        raise GameActionError("illegal", "this table does not play redeal_five_same_suit")
    if game.record.get("actions"):
        raise GameActionError("illegal", "a redeal may be asked only before the first move")
    suit = redeal_suit(rules, state_of(game).hands[seat])
    if suit is None:
        raise GameActionError("illegal", "a redeal needs five or more cards of one suit in your hand")
    voided = {"seat": seat, "suit": SUITS[suit], "seed": game.seed, "salt": game.salt, "commitment": game.commitment}
    seed, dealt, record = _new_deal(
        rules, game.players, stake=game.stake, first_attacker=game.record.get("first_attacker")
    )
    game.redeals = [*game.redeals, voided]
    game.record, game.seed, game.salt, game.commitment = record, seed, dealt.salt, dealt.commitment
    game.seq += 1
    now = timezone.now()
    game.deadline = now + datetime.timedelta(seconds=_turn_seconds(game))
    game.timeouts = [0] * game.players
    fresh = state_of(game)
    if game.clock_ms:
        _clock_after_move(game, mover=None, running=waiting_seats(fresh), now=now)
    timer_in = _arm_timer(game, now)
    game.save(update_fields=["record", "seq", "seed", "salt", "commitment", "redeals", "deadline", "timer_at",
                             "timeouts", *CLOCK_FIELDS])  # fmt: skip
    _after_commit(game=game, seats=seats, state=fresh, timer_in=timer_in)
    return game


# --- clocks (games.clocks) ------------------------------------------------------------------------
# A clock game keeps each seat's remaining time on its row (Game.clock_ms as at clock_since, the seats
# whose clock runs in clock_running); every change under the row lock charges the running clocks, and the
# game's `deadline` is the moment the first running clock falls, so the turn timer's task, its version
# check and the sweep of games.recovery serve the clocks unchanged. A fall ends the game as a surrender.

CLOCK_FIELDS = ("clock_ms", "clock_running", "clock_since", "flagged")


def clock_check(*, base_seconds: int | None, increment_seconds: int) -> None:
    """Refuse a clock setting out of range; each error under its field's name (`clock_base`,
    `clock_increment`), so that a form shows it beside the field. No base: no clock, nothing to check."""
    if base_seconds is None:
        return
    errors: dict[str, Any] = {}
    if isinstance(base_seconds, bool) or not MIN_BASE_SECONDS <= base_seconds <= MAX_BASE_SECONDS:
        errors["clock_base"] = _("The base time is %(least)s seconds to %(most)s minutes.") % {
            "least": MIN_BASE_SECONDS, "most": MAX_BASE_SECONDS // 60,
        }  # fmt: skip
    if isinstance(increment_seconds, bool) or not 0 <= increment_seconds <= MAX_INCREMENT_SECONDS:
        errors["clock_increment"] = _("The increment is 0 to %(most)s seconds a move.") % {
            "most": MAX_INCREMENT_SECONDS
        }
    if errors:
        raise ValidationError(errors)


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


def _clock_fallen(game: Game) -> int | None:
    """The running seat whose clock is out now (the locked game), or None (no clock, or time left)."""
    if not game.clock_ms or game.status != GameStatus.PLAYING or game.clock_since is None:
        return None
    return _clocks_of(game).fallen(timezone.now())


def _clock_flag(*, game: Game, seats: Sequence[Seat], seat: int) -> Game:
    """`seat`'s clock fell: he is the durak, as if he had surrendered; `Game.flagged` says it was the clock."""
    game.flagged = seat
    return _end_by_surrender(game=game, seats=seats, seat=seat)


def _clock_timer_fired(game: Game) -> Game | None:
    """The timer of a clock game's current version fired (the game locked): the seat whose clock is out
    loses. A timer that came before the fall (a rounded countdown) schedules the fall's timer again."""
    fallen = _clock_fallen(game)
    if fallen is None:
        game.timer_at = None
        _timer_of_current_version(game)
        return None
    return _clock_flag(game=game, seats=game_seats(game), seat=fallen)


# --- finishing ------------------------------------------------------------------------------------


def _surrender_result(state: State, seat: int) -> tuple[dict[str, Any], list[list[int]], list[int]]:
    """Result, places and net chips when `seat` gives up: he (or his team) loses, as a durak would."""
    losing_team = None
    if state.teams is not None and state.team_of is not None:
        losing_team = sorted(state.teams[state.team_of[seat]])
        losers = set(losing_team)
    else:
        losers = {seat}
    result = {
        "outcome": "durak",
        "durak": None if losing_team else seat,
        "losing_team": losing_team,
        "out_order": list(state.out),
        "epaulettes": None,
    }
    groups: list[list[int]] = []
    last_bout = -1
    for out_seat, bout in zip(state.out, state.out_bouts):
        if out_seat in losers:
            continue
        if bout != last_bout:
            groups.append([])
            last_bout = bout
        groups[-1].append(out_seat)
    rest = [other for other in range(state.n) if other not in losers and other not in state.out]
    if rest:
        groups.append(rest)
    groups.append(sorted(losers))
    winners = [other for other in state.out if other not in losers] + rest
    share, left_over = divmod(state.bank, len(winners))
    net = [-paid for paid in state.paid]
    for position, winner in enumerate(winners):
        net[winner] += share + (1 if position < left_over else 0)
    return result, groups, net


@transaction.atomic
def game_finalise(*, game_id: int) -> Result:
    """Store the result, settle the chips, reveal the deck and tell ratings and tournaments; once per
    game however often and however concurrently it is called."""
    game = _locked_game(game_id)
    existing = Result.objects.filter(game=game).first()
    if existing is not None:
        return existing
    if game.status != GameStatus.FINISHED:
        raise GameActionError("not_finished", "the game is still being played")
    state = state_of(game)
    decision = decisions.decision_of(game)
    if decision is not None:  # a director stopped the game and decided it (games.decisions)
        outcome, groups, chips = decisions.decided_result(state, decision)
    elif game.surrendered is not None:
        outcome, groups, chips = _surrender_result(state, game.surrendered)
    else:
        assert state.result is not None
        outcome, groups, chips = dict(state.result), places(state), settlement(state)
    rules = Rules.from_dict(game.rules)
    order = deal(rules, game.players, seed=game.seed, salt=game.salt).order
    game.revealed_deck = deck_text(order)
    if not verify_commitment(game.commitment, game.salt, game.revealed_deck):
        raise RuntimeError(f"game {game.pk}: the deck does not match its commitment")
    game.save(update_fields=["revealed_deck"])
    result = Result.objects.create(
        game=game,
        outcome=outcome["outcome"],
        durak=outcome["durak"],
        losing_team=outcome["losing_team"],
        out_order=outcome["out_order"],
        places=groups,
        epaulettes=outcome["epaulettes"],
        chips=chips,
        # A fall of the clock ends the game as a surrender does, but he did not give up (the view's `flagged`).
        surrendered=game.surrendered if game.flagged is None else None,
    )
    seats = game_seats(game)
    entries: list[tuple[User | int, int, str]] = []
    draw = outcome["outcome"] == "draw"
    for seat in seats[: game.players]:
        if seat.user_id is None:
            continue
        paid = state.paid[seat.number]
        penalty = paid - game.stake
        if penalty > 0:
            entries.append((seat.user_id, -penalty, LedgerKind.PENALTY))
        received = chips[seat.number] + paid
        if received > 0:
            entries.append((seat.user_id, received, LedgerKind.REFUND if draw else LedgerKind.BANK_SHARE))
    ledger_record(entries=entries, game=game)
    if decisions.counts(decision):
        hooks.game_finished(result)

    def deliver() -> None:
        send_game(game=game, seats=seats, state=state, result=result)

    transaction.on_commit(deliver)
    return result


def game_finalised(*, game: Game) -> Result | None:
    return game_result(game)


@transaction.atomic
def seat_connected_to(*, game_id: int, user: User, change: int) -> int | None:
    """`seat_connected` for a socket that knows its game's id only."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    return None if game is None else seat_connected(game=game, user=user, change=change)


def seat_connected(*, game: Game, user: User, change: int) -> int | None:
    """Count a person's open sockets at his seat (+1 on connect, -1 on disconnect); the seat, or None."""
    if user is None or not user.is_authenticated:
        return None
    seats = Seat.objects.filter(table_id=game.table_id, user=user, bot_level="", number__lt=game.players)
    if change > 0:
        seats.update(connections=F("connections") + change)
    else:
        seats.update(connections=Greatest(F("connections") + change, 0))
    # Every process reads the seats again (games.selectors.game_seats).
    Game.objects.filter(pk=game.pk).update(seats_version=F("seats_version") + 1)
    number = seats.values_list("number", flat=True).first()
    if number is None:
        return None
    state = state_of(game)
    fresh = Game.objects.select_related("table").get(pk=game.pk)
    _send_views_on_commit(fresh, state_of(fresh) if fresh.seq != game.seq else state)
    return int(number)


def _send_views_on_commit(game: Game, state: State) -> None:
    def deliver() -> None:
        send_game(game=game, seats=game_seats(game), state=state, result=game_result(game))

    transaction.on_commit(deliver)
