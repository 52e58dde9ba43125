"""Tables: opening one, seats taken and left, bots seated, and the deal that starts its game.

A table's settings are checked here, each refusal a ValidationError with a translated message (under the
field's name where a form shows it beside the field), which the web form and the API show as they are.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Collection, Sequence
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.bot_names import BOT_BENCH, english_name
from accounts.ledger import ledger_balance
from accounts.models import BotLevel, LedgerKind, User
from accounts.services import bot_account_ensure, ledger_record
from games.broadcast import send_game
from games.clocks import MAX_BASE_SECONDS, MAX_INCREMENT_SECONDS, MIN_BASE_SECONDS
from games.engine import Record, Rules, State, deal
from games.engine.deal import Deal
from games.models import BotPace, Game, GameStatus, Seat, Table, TableStatus
from games.selectors import game_result, game_seats
from games.services import kept
from games.services.changes import _after_commit, _clock_start, _lobby_changed
from games.snapshots import state_of

MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 24 * 60 * 60


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
    seconds more after each of his moves (games.clocks); without it the per-move timer of `turn_seconds` runs.
    Options that do not go together are refused first, under the create form's fields (`table_options_check`)."""
    if owner.is_bot:
        raise ValidationError(_("A bot cannot open a table."))
    table_options_check(rules=rules, rated=rated, private=private, password=password)
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


def table_options_check(*, rules: Rules, rated: bool, private: bool, password: str) -> None:
    """Refuse options that do not go together, each error under the create form's field: no rated game at a
    cheating table, a password only at a private table. `table_create` asks it, so no table is opened with
    them; a row that has them all the same (written by hand) is still handled: a cheating table's game finds
    no rating pool, and a listed table's password keeps its games out of the data export (gamedata.services)."""
    errors: dict[str, Any] = {}
    if rated and rules.cheating:
        errors["cheating"] = _("A rated game is never played at a cheating table.")
    if password and not private:
        errors["password"] = _("Only a private table has a password.")
    if errors:
        raise ValidationError(errors)


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
def game_start(
    *, table: Table, by: User | None = None, first_attacker: int | None = None, deal_seed: str | None = None,
    rotation: int = 0, deck_held: bool = False,
) -> Game:
    """Deal (a seed from `secrets`, the deck's commitment stored), charge the stakes, start the clock.

    `first_attacker` names the seat that leads (a tournament alternates it); by default the rules decide
    (the lowest trump). A duplicate round's board gives the round's `deal_seed` and its `rotation` (the
    same shuffle, the hands moved round the seats) and `deck_held`: its deck and record wait, once the game
    is over, until the round ends (games_reveal)."""
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
    seed, dealt, record = _new_deal(
        rules, players, stake=table.stake, first_attacker=first_attacker, seed=deal_seed, rotation=rotation
    )
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
        rotation=rotation,
        deck_held=deck_held,
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
    rules: Rules, players: int, *, stake: int, first_attacker: int | None, seed: str | None = None, rotation: int = 0
) -> tuple[str, Deal, dict[str, Any]]:
    """A fresh shuffle (its seed from `secrets`, or the duplicate round's `seed` dealt at `rotation`): the
    seed, the deal with its commitment (a salt of its own), the record's JSON."""
    seed = seed if seed is not None else shuffle_seed()
    dealt = deal(rules, players, seed=seed, salt=secrets.token_hex(16), rotation=rotation)
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
    deal_seed: str | None = None,
    rotation: int = 0,
    deck_held: bool = False,
) -> Game:
    """Open a table whose seats are taken at once by the named accounts, in seat order, and deal: a
    scheduled game such as a tournament's. A bot account plays its own seat at its own level (one bot
    account may hold several seats, as table_fill_bots seats it; a person holds one). `deal_seed`,
    `rotation` and `deck_held`: game_start's, for a duplicate round's board."""
    people = [player.pk for player in players if not player.is_bot]
    if len(set(people)) != len(people):
        raise ValidationError(_("A player cannot take two seats at one table."))
    table = table_create(
        owner=owner, rules=rules, seats=len(players), rated=rated, turn_seconds=turn_seconds, name=name,
        clock_base=clock_base, clock_increment=clock_increment,
    )
    for number, player in enumerate(players):
        Seat.objects.filter(table=table, number=number).update(user=player, bot_level=player.bot_level or "")
    return game_start(
        table=table, first_attacker=first_attacker, deal_seed=deal_seed, rotation=rotation, deck_held=deck_held
    )


# --- a seat's sockets -----------------------------------------------------------------------------


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
    # Every process reads the seats again (games.selectors.game_seats); a copy kept for the next move is out of date.
    Game.objects.filter(pk=game.pk).update(seats_version=F("seats_version") + 1)
    kept.forget(game.pk)
    number = seats.values_list("number", flat=True).first()
    if number is None:
        return None
    if change > 0:
        _seat_handed_back(game.pk, number)
    state = state_of(game)
    fresh = Game.objects.select_related("table").get(pk=game.pk)
    _send_views_on_commit(fresh, state_of(fresh) if fresh.seq != game.seq else state)
    return int(number)


def _seat_handed_back(game_id: int, seat: int) -> bool:
    """A socket of the person of `seat` came while the autopilot played his seat: he is at the table again,
    so the seat is his, as his own move would make it (his timeouts' count starts again); whether it was the
    autopilot's. The autopilot stands in for an absent player; a player who arrives late (a server slow to
    let his socket in, issue 36) must not find it answering before him, every move of his refused as stale.
    Read under the row lock, so that a timer that turned it on just before is seen. A bot move of the
    autopilot on its way plays nothing (`games.services.actions._apply_bot_action`)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id, status=GameStatus.PLAYING).first()
        if game is None or seat >= len(game.autopilot) or not game.autopilot[seat]:
            return False
        game.autopilot = [False if index == seat else flag for index, flag in enumerate(game.autopilot)]
        game.timeouts = [0 if index == seat else count for index, count in enumerate(game.timeouts)]
        game.save(update_fields=["autopilot", "timeouts"])
    kept.forget(game_id)
    return True


def seat_arrived(*, game_id: int, seat: int) -> None:
    """A socket at `seat` was about to show its player a turn that the timer played meanwhile (games.lag: the
    server let him in, or showed him the turn, a whole turn late): if that timeout gave his seat to the
    autopilot, he takes it back (`_seat_handed_back`), and every socket of the game is told."""
    if _seat_handed_back(game_id, seat):
        game = Game.objects.select_related("table").get(pk=game_id)
        _send_views_on_commit(game, state_of(game))


def _send_views_on_commit(game: Game, state: State) -> None:
    def deliver() -> None:
        send_game(game=game, seats=game_seats(game), state=state, result=game_result(game))

    transaction.on_commit(deliver)
