"""Rematches: a player of a finished game offers one, every other person seated accepts or declines (bots
accept at once), and when all have accepted the next game is dealt at the same table, with the same rules,
stake, turn time and people in the same seats.

The services of the rematch, apart from games.services so that its blocks stay separate: each change locks
the finished game's row (one writer, as a move does), checks who asks and what stands, and after the commit
sends the game's group one `game.rematch` message that every page of the game, players' and spectators',
draws (docs/protocol.md). A tournament's games have no rematch: the tournament pairs its players.
"""

from __future__ import annotations


from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import aftermath
from games.broadcast import game_group, send_to_group
from games.models import Game, GameStatus, Rematch, RematchStatus, Result, Seat, Table, TableStatus
from games.selectors import game_seats
from games.services import GameActionError, game_start


class RematchError(GameActionError):
    """A refused rematch message: `code` one of REMATCH_CODES; nothing changed."""

    REMATCH_CODES = (
        "forbidden",
        "not_finished",
        "tournament",
        "offered",
        "no_offer",
        "answered",
        "closed",
        "cannot_start",
    )


ERROR_TEXTS = {
    "forbidden": _("Only a player of this game may ask for or answer a rematch."),
    "not_finished": _("A rematch can be offered once the game is over."),
    "tournament": _("A tournament game has no rematch: the tournament pairs the next games."),
    "offered": _("A rematch is already offered; wait for the answers."),
    "no_offer": _("Nobody has offered a rematch."),
    "answered": _("You have already answered this rematch."),
    "closed": _("The rematch has already started."),
    "cannot_start": _("The rematch cannot start: %(detail)s"),
}


def rematch_error_message(error: RematchError) -> str:
    """The error in the active language (call inside translation.override)."""
    template = str(ERROR_TEXTS.get(error.code, error.message))
    return template % {"detail": error.message} if "%(detail)s" in template else template


def _locked_finished_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
    if game is None:
        raise RematchError("forbidden", "no such game")
    if game.status != GameStatus.FINISHED or not Result.objects.filter(game=game).exists():
        raise RematchError("not_finished", "the game is still being played")
    if aftermath.tournament_of(game) is not None:
        raise RematchError("tournament", "a tournament game")
    return game


def _person_seat(game: Game, seats: list[Seat], user: User | None) -> int:
    """The seat this person played in the game (a bot account's seats are the bot's, never his)."""
    if user is not None and user.is_authenticated:
        for seat in seats:
            if seat.user_id == user.pk and not seat.is_bot and seat.number < game.players:
                return seat.number
    raise RematchError("forbidden", "you hold no seat in this game")


def _everyone_who_must_accept(game: Game, seats: list[Seat]) -> set[int]:
    return {seat.number for seat in seats if seat.number < game.players and not seat.is_bot}


def _announce(game: Game, rematch: Rematch) -> None:
    message = aftermath.rematch_message(game=game, rematch=rematch)
    transaction.on_commit(lambda: send_to_group(game_group(game.pk), {"type": "game.rematch", "message": message}))


@transaction.atomic
def rematch_offer(*, game_id: int, user: User | None) -> Rematch:
    """A player of the finished game offers a rematch: his seat and every bot's have accepted; a table of
    him and bots starts the next game at once. A declined offer may be made again; an open or started one
    may not."""
    game = _locked_finished_game(game_id)
    seats = game_seats(game)
    seat = _person_seat(game, seats, user)
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is not None and rematch.status == RematchStatus.OPEN:
        raise RematchError("offered", "a rematch is offered already")
    if rematch is not None and rematch.status == RematchStatus.STARTED:
        raise RematchError("closed", "the rematch has started")
    bots = sorted(seat.number for seat in seats if seat.number < game.players and seat.is_bot)
    if rematch is None:
        rematch = Rematch(game=game)
    rematch.offered_by, rematch.accepted, rematch.declined_by = seat, sorted({seat, *bots}), None
    rematch.status = RematchStatus.OPEN
    rematch.save()
    return _start_when_all_accepted(game, seats, rematch)


@transaction.atomic
def rematch_accept(*, game_id: int, user: User | None) -> Rematch:
    """A player accepts the open offer; the last acceptance deals the next game at the same table."""
    game, seats, seat, rematch = _answering(game_id, user)
    rematch.accepted = sorted({*rematch.accepted, seat})
    rematch.save(update_fields=["accepted", "changed"])
    return _start_when_all_accepted(game, seats, rematch)


@transaction.atomic
def rematch_decline(*, game_id: int, user: User | None) -> Rematch:
    """A player declines the open offer: it is closed, and everyone is told who declined."""
    game, seats, seat, rematch = _answering(game_id, user)
    rematch.status, rematch.declined_by = RematchStatus.DECLINED, seat
    rematch.save(update_fields=["status", "declined_by", "changed"])
    _announce(game, rematch)
    return rematch


def _answering(game_id: int, user: User | None) -> tuple[Game, list[Seat], int, Rematch]:
    """The finished game (its row locked), its seats, the user's seat and the open offer he has not accepted
    yet: what an acceptance and a refusal both need."""
    game = _locked_finished_game(game_id)
    seats = game_seats(game)
    seat = _person_seat(game, seats, user)
    rematch = _open_rematch(game)
    if seat in rematch.accepted:
        raise RematchError("answered", "you accepted already")
    return game, seats, seat, rematch


def _open_rematch(game: Game) -> Rematch:
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is None or rematch.status == RematchStatus.DECLINED:
        raise RematchError("no_offer", "nothing is offered")
    if rematch.status == RematchStatus.STARTED:
        raise RematchError("closed", "the rematch has started")
    return rematch


def _start_when_all_accepted(game: Game, seats: list[Seat], rematch: Rematch) -> Rematch:
    if not _everyone_who_must_accept(game, seats) <= set(rematch.accepted):
        _announce(game, rematch)
        return rematch
    table = Table.objects.select_for_update().get(pk=game.table_id)
    if Game.objects.filter(table=table, started__gt=game.started).exclude(pk=game.pk).exists():
        raise RematchError("closed", "the table has dealt another game")
    table.status = TableStatus.OPEN
    table.save(update_fields=["status"])
    try:
        new_game = game_start(table=table, first_attacker=_first_attacker(game))
    except ValidationError as error:
        # Raised out of this transaction: the acceptance and the table's status are rolled back with it.
        raise RematchError("cannot_start", " ".join(str(text) for text in error.messages)) from None
    rematch.status, rematch.new_game = RematchStatus.STARTED, new_game
    rematch.save(update_fields=["status", "new_game", "changed"])
    _announce(game, rematch)
    return rematch


def _first_attacker(game: Game) -> int | None:
    """RULES.md, next_game_first: under_fool: the player on the durak's left leads the next game of a
    series; else the rules decide (the lowest trump)."""
    if game.rules.get("next_game_first") != "under_fool":
        return None
    durak = Result.objects.filter(game=game).values_list("durak", flat=True).first()
    return None if durak is None else (int(durak) + 1) % game.players
