"""Reads that pages, consumers and tests need: the lobby, a table, a game's view for a person, its log and record.

A view for a seat holds that seat's hand and nothing of any other hand, the stock's order or the deck;
the deck order, its salt and the full record are shown only once the game is over.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Sequence
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bot_names import bot_persona
from accounts.models import User, public_name_of
from games.aftermath import result_extras
from games.cache import VersionedCache
from games.clocks import Clocks, clock_text
from games.engine import Rules, State, deal, public_view, redeal_allowed, seat_view
from games import lag
from games.engine.deal import deck_text
from games.logtext import log_lines
from games.models import Game, GameStatus, Result, Seat, Table, TableStatus, table_title
from games.snapshots import deal_actions, state_of
from games.turns import waiting_seats

LOG_LINES = 50
LOBBY_TABLES = 200


def seat_name(seat: Seat) -> str:
    if seat.user is None:
        return ""
    return seat.user.public_name


# What the lobby's list and a table's page show of a table, read as rows, not models: the list is read for every
# lobby socket that connects and after tables change (games.broadcast.send_lobby), and as models most of its
# time went to making them (docs/experiments.md, "lobby_tables").
_TABLE_COLUMNS = (
    "id", "name", "rules", "stake", "rated", "status", "private", "turn_seconds", "clock_base", "clock_increment",
    "password_hash",
)  # fmt: skip


def _seats_by_table(table_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each table's seats in order, as `_table_json` shows them: the number, the sitter's public name (None for
    an empty seat; a bench bot's in the current language, `User.public_name`) and whether a bot sits there."""
    seats: dict[int, list[dict[str, Any]]] = {table_id: [] for table_id in table_ids}
    rows = (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "bot_level", "user__username", "user__display_name", "user__is_bot")
    )
    # A bot's account sits at many tables: its name, looked up in the language's catalogue, is looked up once.
    names: dict[tuple[str, str, bool], str | None] = {}
    for table_id, number, bot_level, username, display_name, is_bot in rows:
        account = (username, display_name, is_bot)
        if account not in names:
            names[account] = (
                None if username is None else public_name_of(username=username, display_name=display_name, is_bot=is_bot)
            ) or None
        seats[table_id].append({"number": number, "name": names[account], "bot": bool(bot_level)})
    return seats


def _table_json(table: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table as the lobby and the table's page show it, from its `_TABLE_COLUMNS` and `_seats_by_table`."""
    clock_base = table["clock_base"]
    return {
        "id": table["id"],
        "name": table_title(name=table["name"], pk=table["id"]),
        "rules": table["rules"],
        "seats": seats,
        "stake": table["stake"],
        "rated": table["rated"],
        "status": table["status"],
        "private": table["private"],
        "turn_seconds": table["turn_seconds"],
        "clock": (
            {"base": clock_base, "increment": table["clock_increment"],
             "text": clock_text(clock_base, table["clock_increment"])}
            if clock_base is not None else None
        ),  # fmt: skip
        "password": bool(table["password_hash"]),
    }


def lobby_tables() -> list[dict[str, Any]]:
    """The public tables that are open or being played, newest first, as the lobby socket sends them: two
    queries, the tables and their seats with their sitters' names."""
    tables = list(
        Table.objects.filter(private=False, status__in=[TableStatus.OPEN, TableStatus.PLAYING])
        .order_by("-created")
        .values(*_TABLE_COLUMNS)[:LOBBY_TABLES]
    )
    seats = _seats_by_table([table["id"] for table in tables])
    return [_table_json(table, seats[table["id"]]) for table in tables]


def table_detail(*, table_id: int) -> dict[str, Any]:
    """`lobby_tables`' entry of one table (any table, private or over), its owner and its latest game."""
    table = Table.objects.values(*_TABLE_COLUMNS, "owner_id").get(pk=table_id)
    game = Game.objects.filter(table_id=table_id).order_by("-started").values_list("pk", flat=True).first()
    return {**_table_json(table, _seats_by_table([table_id])[table_id]), "owner": table["owner_id"], "game": game}


def table_seat_of(*, table: Table, user: User | None) -> Seat | None:
    """The seat a person holds at a table (bots' accounts are never "the person" of a seat)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user, bot_level="").first()


def game_admission(*, game_id: int, user: User | None, token: str) -> tuple[bool, int | None] | None:
    """Who a socket opened on a game is: None when there is no such game; else (admitted, seat): a person
    seated in the game plays his seat; anyone else watches, a private table's game only with its link."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    table = game.table
    seat = table_seat_of(table=table, user=user)
    if seat is not None and seat.number < game.players:
        return True, seat.number
    return (not table.private or token == table.link_token), None


# The seats of games being played, as read at a `Game.seats_version`: every move needs them (who may move,
# the names and "connected" in the views), and the query (a join with the accounts) cost a move's service
# about a third of its time, mostly in building the SQL. (game id, commitment) -> (seats_version, seats):
# the commitment, a random hash of each deal, tells apart two games that got the same id (a database
# rolled back and used again, as in tests).
_SEATS_CACHED = 2048
_seats_cache: VersionedCache[tuple[int, str], tuple[Seat, ...]] = VersionedCache(_SEATS_CACHED)


def game_seats(game: Game) -> list[Seat]:
    """The table's seats in order. A game being played has the same people and bots in its seats until it
    ends, and each change of their sockets' count bumps `seats_version`: its seats read at the game's
    version are used again (a change of a person's public name shows from the next such change on)."""
    playing = game.status == GameStatus.PLAYING
    key = (game.pk, game.commitment)
    if playing:
        cached = _seats_cache.get(key)
        if cached is not None and cached[0] == game.seats_version:
            return list(cached[1])
    seats = list(Seat.objects.filter(table_id=game.table_id).select_related("user").order_by("number"))
    if playing:
        _seats_cache.put(key, game.seats_version, tuple(seats))
    return seats


# Each game's log entries as this process last built them, by (game id, deal's commitment): (the game's
# `flagged`, the record's length, its last action, the entries of its last LOG_LINES actions). The record
# only grows within a deal, so the next version's entries are these and its new actions'; the last action
# compared tells a record that is not this one's continuation (a game id used again, as in tests).
_ENTRIES_CACHED = 2048
_entries: dict[tuple[int, str], tuple[Any, int, dict[str, Any], list[dict[str, Any]]]] = {}


def _log_entries(game: Game) -> list[dict[str, Any]]:
    """The log's entries of the record's last LOG_LINES actions. A list and its entries are shared between
    versions and never changed."""
    actions = game.record.get("actions", [])
    count = len(actions)
    start = max(0, count - LOG_LINES)
    key = (game.pk, game.commitment)
    cached = _entries.get(key)
    kept: list[dict[str, Any]] = []
    if cached is not None:
        flagged, known, last, entries = cached
        if flagged == game.flagged and 0 < known <= count and actions[known - 1] == last:
            kept = entries[max(0, start - (known - len(entries))) :]
    first = start + len(kept)
    log = kept + [_log_entry(game, index, raw) for index, raw in enumerate(actions[first:], start=first)]
    if count and game.pk is not None:
        if key not in _entries and len(_entries) >= _ENTRIES_CACHED:
            _entries.clear()
        _entries[key] = (game.flagged, count, actions[-1], log)
    return log


def _log_entry(game: Game, index: int, raw: dict[str, Any]) -> dict[str, Any]:
    return {
        "seq": index,
        "seat": raw["seat"],
        "action": _logged_action(game, raw),
        "timer": bool(raw.get("timer")),
        "autopilot": bool(raw.get("autopilot")),
    }


def _logged_action(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """A record's action as the log shows it: a clock's fall is recorded as a surrender and shown as a fall."""
    if raw.get("type") == "surrender" and game.flagged is not None:
        return {"type": "flag"}
    return {key: value for key, value in raw.items() if key not in ("seat", "timer", "autopilot")}


def _result_json(game: Game, result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        **result.to_json(),
        # Ratings (applied in the finalisation's transaction, before this view is sent), the rematch, the
        # tournament: games.aftermath.
        **result_extras(game),
        "deck": game.revealed_deck,
        # A duplicate round's deck is the same at every board: its salt (and deck) wait for the round's end.
        "salt": "" if game.deck_held else game.salt,
        "deck_held": game.deck_held,
        "commitment": game.commitment,
        "voided_deals": _voided_deals(game),
        "flagged": game.flagged,
    }


def _voided_deals(game: Game) -> list[dict[str, Any]]:
    """The deals a redeal voided, each with its deck revealed (shown once the game is over), so that their
    commitments can be checked as the game's is."""
    if not game.redeals:
        return []
    rules = Rules.from_dict(game.rules)
    return [
        {
            "seat": voided["seat"],
            "suit": voided["suit"],
            "commitment": voided["commitment"],
            "salt": voided["salt"],
            "deck": deck_text(deal(rules, game.players, seed=voided["seed"], salt=voided["salt"]).order),
        }
        for voided in game.redeals
    ]


def view_common(*, game: Game, seats: Sequence[Seat], state: State, result: Result | None) -> dict[str, Any]:
    """The part of the game.view message that is the same for every reader."""
    names = [seat_name(one) for one in seats]
    timeouts = list(game.timeouts) or [0] * game.players
    autopilot = list(game.autopilot) or [False] * game.players
    playing = game.status == GameStatus.PLAYING
    return {
        "type": "game.view",
        "game": game.pk,
        "seq": game.seq,
        "status": game.status,
        "players": [
            {
                "seat": one.number,
                "name": names[one.number],
                "bot": one.is_bot,
                "level": one.bot_level or None,
                "connected": one.is_bot or one.connections > 0,
                "timeouts": timeouts[one.number] if one.number < len(timeouts) else 0,
                "autopilot": bool(autopilot[one.number]) if one.number < len(autopilot) else False,
            }
            for one in seats
            if one.number < game.players
        ],
        "waiting": waiting_seats(state) if playing else [],
        "deadline": _iso(game.deadline) if playing and game.deadline is not None else None,
        "clocks": _clocks_json(game),
        "commitment": game.commitment,
        "log_entries": _log_entries(game),
        "names": names,
        # The bench bots' accounts by seat (None for anyone else): message_in_language names them in the
        # reader's language, since one event serves readers of both languages. Never sent as such.
        "bench_bots": [_bench_username(one) for one in seats],
        "result": _result_json(game, result) if not playing else None,
        "cards_held": game.deck_held and not playing,
        # Who asked for a redeal and for which suit (RULES.md, redeal_five_same_suit); the voided hands stay unseen.
        "redeals": [{"seat": voided["seat"], "suit": voided["suit"]} for voided in game.redeals],
        # Whether a redeal may still be asked (before the first move); view_for_seat says if this seat may.
        "redeal_open": playing and bool(game.rules.get("redeal_five_same_suit")) and not deal_actions(game),
    }


def _clocks_json(game: Game) -> dict[str, Any] | None:
    """A clock game's clocks as they stand now (public: every reader sees every clock): each seat's
    remaining time at `at` (the server's time), the seats whose clock runs, the increment, and the seat
    whose clock fell. None at a table of the per-move timer."""
    if not game.clock_ms or game.clock_since is None:
        return None
    now = timezone.now()
    clocks = Clocks(remaining_ms=tuple(game.clock_ms), running=tuple(game.clock_running), since=game.clock_since)
    playing = game.status == GameStatus.PLAYING
    return {
        "remaining_ms": [max(0, left) for left in (clocks.at(now) if playing else clocks.remaining_ms)],
        "running": list(clocks.running) if playing else [],
        "at": _iso(now),
        "increment_ms": game.clock_increment_ms,
        "flagged": game.flagged,
    }


def view_for_seat(
    common: dict[str, Any], state: State, seat: int | None, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The game.view message (its log not yet in words; see `message_in_language`) for a seat or, with
    seat None, for spectators. `public`: the state's `public_view` where the caller built it once for every
    reader (games.broadcast.game_event)."""
    if public is None:
        public = public_view(state)
    if seat is None:
        if common.get("cards_held"):
            # A duplicate round's finished board while another board plays the same deck: its players saw
            # it, nobody else sees a card of it (the log, the last bout's table) until the round ends.
            return {**common, "seat": None, "view": {**public, "table": []}, "can_redeal": False,
                    "log_entries": []}  # fmt: skip
        return {**common, "seat": None, "view": public, "can_redeal": False}
    can_redeal = bool(common["redeal_open"]) and redeal_allowed(state.rules, state.hands[seat])
    return {**common, "seat": seat, "view": seat_view(state, seat, public), "can_redeal": can_redeal}


def view_payload(
    *, game: Game, seats: Sequence[Seat], state: State, seat: int | None, result: Result | None
) -> dict[str, Any]:
    return view_for_seat(view_common(game=game, seats=seats, state=state, result=result), state, seat)


# The log in words of each game's latest version in this process, by (game, deal's commitment, language,
# names): every socket of a game in a process gets the same log after each move (the log is part of every
# reader's view), and the next version's log has the same lines but the newest, so only those are put in
# words. The commitment, random for each deal, tells apart games that reuse an id. A line never changes
# once written (an entry's `seq` is its place in the record).
_LOGS_CACHED = 4096
_logs: dict[tuple[Any, ...], tuple[Any, list[dict[str, Any]]]] = {}
_logs_lock = threading.Lock()


def log_entries_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload's log entries; a game's group event carries them as one JSON blob (games.broadcast), which
    each server unpacks once a version rather than each socket's consumer once a message."""
    entries = payload["log_entries"]
    return orjson.loads(entries) if isinstance(entries, bytes) else entries


def _bench_username(seat: Seat) -> str | None:
    if seat.user is None or not seat.user.is_bot or bot_persona(seat.user.username) is None:
        return None
    return str(seat.user.username)


def _names_in_language(payload: dict[str, Any], message: dict[str, Any], language: str) -> list[str]:
    """The seats' names with each bench bot's in `language`; the message's players list renamed to match."""
    names: list[str] = list(payload["names"])
    bench: list[str | None] = payload.get("bench_bots") or []
    if not any(bench):
        return names
    with translation.override(language):
        for number, username in enumerate(bench):
            persona = bot_persona(username) if username else None
            if persona is not None and number < len(names):
                names[number] = str(persona.name)
    if "players" in message:
        message["players"] = [
            {**player, "name": names[player["seat"]]} if player["seat"] < len(names) else player
            for player in message["players"]
        ]
    return names


def message_in_language(payload: dict[str, Any], language: str) -> dict[str, Any]:
    """The protocol's game.view: the payload with its log (and the bench bots' names) in the reader's language."""
    message = {key: value for key, value in payload.items() if key not in ("log_entries", "names", "bench_bots")}
    names = _names_in_language(payload, message, language)
    if payload.get("cards_held") and payload.get("seat") is None:
        message["log"] = []  # view_for_seat: a held board's log is its players' only (and kept out of the cache)
        return message
    key = (payload.get("game"), payload.get("commitment"), language, tuple(names))
    version = payload.get("seq")
    with _logs_lock:
        cached = _logs.get(key)
    if cached is not None and cached[0] == version:
        message["log"] = cached[1]
        return message
    entries = log_entries_of(payload)
    known = {line["seq"]: line for line in cached[1]} if cached is not None else {}
    missing = [entry for entry in entries if entry["seq"] not in known]
    if missing:
        known.update((line["seq"], line) for line in log_lines(missing, names, language))
    log = [known[entry["seq"]] for entry in entries]
    with _logs_lock:
        if key not in _logs and len(_logs) >= _LOGS_CACHED:
            _logs.clear()
        _logs[key] = (version, log)
    message["log"] = log
    return message


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def user_language(user: User | None) -> str:
    if user is not None and user.is_authenticated and user.preferred_language:
        return str(user.preferred_language)
    return str(settings.LANGUAGE_CODE)


def game_result(game: Game) -> Result | None:
    if game.status != GameStatus.FINISHED:
        return None
    return Result.objects.filter(game=game).first()


def game_view_for(*, game: Game, user: User | None, language: str | None = None) -> dict[str, Any]:
    """The game.view message for this person: his seat's view if he plays in the game, else the public one."""
    seats = game_seats(game)
    mine = None
    if user is not None and user.is_authenticated:
        mine = next((one.number for one in seats if one.user_id == user.pk and not one.is_bot), None)
    payload = view_payload(game=game, seats=seats, state=state_of(game), seat=mine, result=game_result(game))
    return message_in_language(payload, language or user_language(user))


def game_log_shown(*, game: Game, user: User | None) -> bool:
    """Whether this person may read the game's whole log: anyone, but while a finished duplicate board's deck
    is held (Game.deck_held) only its players."""
    if not (game.deck_held and game.status == GameStatus.FINISHED):
        return True
    return user is not None and user.is_authenticated and any(
        one.user_id == user.pk and not one.is_bot for one in game_seats(game)
    )


def game_view_of_seat(*, game_id: int, seat: int | None, language: str) -> dict[str, Any]:
    """The game.view message of a socket that has its seat (None: a spectator's), as the game stands."""
    return game_view_and_since(game_id=game_id, seat=seat, language=language)[0]


def game_view_and_since(*, game_id: int, seat: int | None, language: str) -> tuple[dict[str, Any], float | None]:
    """`game_view_of_seat`, and the moment the game began to wait at its version (games.lag.turn_since)."""
    game = Game.objects.select_related("table").get(pk=game_id)
    payload = view_payload(game=game, seats=game_seats(game), state=state_of(game), seat=seat, result=game_result(game))
    return message_in_language(payload, language), lag.turn_since(game)


def game_log_lines(*, game: Game, language: str) -> list[dict[str, Any]]:
    """The whole log of a game in words (the view carries only the last lines)."""
    seats = game_seats(game)
    with translation.override(language):
        names = [seat_name(one) for one in seats]
    entries = [
        {"seq": index, "seat": raw["seat"], "action": _logged_action(game, raw), "timer": bool(raw.get("timer")),
         "autopilot": bool(raw.get("autopilot"))}
        for index, raw in enumerate(game.record.get("actions", []))
    ]  # fmt: skip
    return log_lines(entries, names, language)


def deck_held_text() -> str:
    """Why a finished game's deck, record and replay are not shown yet (Game.deck_held)."""
    return str(_("This game's deck, record and replay are available when the round ends: other boards of the "
                 "duplicate round are still playing the same cards."))  # fmt: skip


def game_record_json(*, game: Game) -> dict[str, Any]:
    """The full record of a finished game (the deal, every hand, the actions) with its commitment and the
    revealed deck; refused while the game is played, since it holds every hidden card, and while its
    duplicate round still plays the same deck elsewhere (Game.deck_held)."""
    if game.status != GameStatus.FINISHED:
        raise ValidationError("the record of a game is available once the game is over")
    if game.deck_held:
        raise ValidationError(deck_held_text(), code="deck_held")
    record = dict(game.record)
    record["actions"] = [
        {key: value for key, value in raw.items() if key not in ("timer", "autopilot")} for raw in record["actions"]
    ]
    record["commitment"] = game.commitment
    record["salt"] = game.salt
    record["deck"] = game.revealed_deck
    if game.surrendered is not None:
        record["surrendered"] = game.surrendered
    return record


def latest_game(*, table: Table) -> Game | None:
    return Game.objects.filter(table=table).order_by("-started").first()
