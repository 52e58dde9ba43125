"""The raw SQL of a move: the game's row read under its lock, and the row written with its new log rows.

Written out once rather than compiled by the ORM for each move (a move's largest CPU cost in the live
bench's profile): the locked read's text by database vendor, the write's by vendor and number of log rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import orjson
from django.db import connection, models

from games.models import ActionLog, Game, Table
from games.services.errors import GameActionError


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


@functools.cache
def _game_row_converters(vendor: str) -> tuple[tuple[int, Any, tuple[Any, ...]], ...]:
    """Each game column's converters from the database's value to the field's (a JSON field's decoding, a
    date's time zone), as the ORM applies them: (column index, column expression, converters), looked up once."""
    found = []
    for index, field in enumerate(Game._meta.concrete_fields):
        expression = field.get_col(Game._meta.db_table)
        converters = tuple(connection.ops.get_db_converters(expression)) + tuple(field.get_db_converters(connection))  # type: ignore[attr-defined]
        if isinstance(field, models.JSONField) and field.decoder is None:
            # The JSON read by orjson, as the write writes it: the record is a move's largest value.
            converters = tuple(_json_loads if converter == field.from_db_value else converter for converter in converters)
        if converters:
            found.append((index, expression, converters))
    return tuple(found)


@functools.cache
def _game_attnames() -> list[str]:
    """The game's columns as `Model.from_db` names them, in the locked read's order."""
    return [field.attname for field in Game._meta.concrete_fields]


def _cursor() -> Any:
    """A cursor for the move's two statements. On PostgreSQL one that binds its parameters on the server
    (psycopg's ``Cursor``; Django's cursors bind them in Python, `ClientCursor`): the record, a move's largest
    value, goes as it is instead of quoted into the SQL text, and psycopg prepares a statement a connection
    has run a few times, so the server parses and plans it once. Wrapped as Django wraps its own (the debug
    cursor logs it, the database's errors become Django's)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg
    from django.db.backends.postgresql.psycopg_any import register_tzloader  # type: ignore[import-untyped]
    from psycopg.pq import Format

    connection.ensure_connection()
    raw = connection.connection
    cursor = psycopg.Cursor(raw)
    timestamptz = raw.adapters.types["timestamptz"].oid
    if connection.timezone != raw.adapters.get_loader(timestamptz, Format.TEXT).timezone:  # as Django's own cursors
        register_tzloader(connection.timezone, cursor)
    return connection._prepare_cursor(cursor)  # type: ignore[attr-defined]


def _json_loads(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value`` with orjson's decoder (a text that is not JSON stays as it is, as there)."""
    if not isinstance(value, (str, bytes)):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return value


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _db_value(field: models.Field[Any, Any], value: Any) -> Any:
    """A field's value as the write sends it: as the ORM would, but a JSON value on PostgreSQL written by
    orjson (the standard library's encoder was most of the write's own CPU; the server stores jsonb parsed,
    so the text's spacing does not matter)."""
    if value is not None and isinstance(field, models.JSONField) and connection.vendor == "postgresql":
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=_dumps)
    return field.get_db_prep_save(value, connection)


def _locked_game_or_none(game_id: int) -> Game | None:
    """The game, its row locked (the table's is not: nobody changes a table while its game is played, and
    the finish updates its status under the game's lock); `game.turn_seconds_of_table` is its table's turn
    time, and `game.table` is read only if asked for. The row becomes a Game through `Model.from_db`, as a
    queryset makes one, without the raw queryset's per-query column mapping."""
    sql = _GAME_ROW_SQL.get(connection.vendor) or _GAME_ROW_SQL.setdefault(connection.vendor, _game_row_sql())
    with _cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, expression, converters in _game_row_converters(connection.vendor):
        for converter in converters:
            values[index] = converter(values[index], expression, connection)
    names = _game_attnames()
    game = Game.from_db(connection.alias, names, values[: len(names)])
    game.turn_seconds_of_table = values[len(names)]  # type: ignore[attr-defined]
    game.bot_pace_of_table = values[len(names) + 1]  # type: ignore[attr-defined]
    return game


def _locked_game(game_id: int) -> Game:
    game = _locked_game_or_none(game_id)
    if game is None:
        raise GameActionError("forbidden", "no such game")
    return game


def _bot_pace(game: Game) -> str:
    pace = getattr(game, "bot_pace_of_table", None)
    return str(pace) if pace is not None else str(game.table.bot_pace)


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
        if connection.vendor == "postgresql":
            statements = (*statements[:-1], f"{statements[-1]} RETURNING xmin::text")
        _WRITE_SQL[key] = statements
    return statements


def _write_game(game: Game, logged: Sequence[ActionLog]) -> str | None:
    """The game row's changed fields and its new action log rows, in one statement on PostgreSQL (the
    inserts in a WITH of the update), in one for each elsewhere. Written out rather than through
    `save()` and `create()`: the ORM compiled both statements anew for every move; the text is built once
    for each number of log rows (`_write_sql`). On PostgreSQL the row's version as written is returned
    (`xmin`, see `_write_if_unchanged`), elsewhere None."""
    update_values = [_db_value(field, getattr(game, field.attname)) for field in _fields(Game, GAME_CHANGED_FIELDS)]
    update_values.append(game.pk)
    statements = _write_sql(len(logged))
    if not logged:
        values = [update_values]
    else:
        log_fields = _fields(ActionLog, LOG_FIELDS)
        insert_values = [_db_value(field, getattr(one, field.attname)) for one in logged for field in log_fields]
        values = [[*insert_values, *update_values]] if len(statements) == 1 else [insert_values, update_values]
    with _cursor() as cursor:
        for sql, params in zip(statements, values, strict=True):
            cursor.execute(sql, params)
        if connection.vendor != "postgresql":
            return None
        row = cursor.fetchone()
    return None if row is None else str(row[0])


# The kept move's statement (PostgreSQL), built once.
_KEPT_WRITE_SQL: list[str] = []


def _kept_write_sql() -> str:
    """The UPDATE of the game's row under the condition that the row is as this process last wrote it, in a
    WITH whose INSERT of the log row takes its one row from the update's: nothing is logged when no row
    matched. The log's values are cast to their columns' types (an INSERT from a SELECT does not infer them)."""
    if not _KEPT_WRITE_SQL:
        quote = connection.ops.quote_name
        fields = _fields(Game, GAME_CHANGED_FIELDS)
        log_fields = _fields(ActionLog, LOG_FIELDS)
        update = (
            f"UPDATE {quote(Game._meta.db_table)} SET {', '.join(f'{quote(field.column)} = %s' for field in fields)}"
            f" WHERE {quote('id')} = %s AND xmin::text = %s RETURNING xmin::text AS row_version"
        )
        values = ", ".join(f"%s::{field.db_type(connection)}" for field in log_fields)
        insert = (
            f"INSERT INTO {quote(ActionLog._meta.db_table)} ({', '.join(quote(field.column) for field in log_fields)})"
            f" SELECT {values} FROM moved"
        )
        _KEPT_WRITE_SQL.append(f"WITH moved AS ({update}), logged AS ({insert}) SELECT row_version FROM moved")
    return _KEPT_WRITE_SQL[0]


def _write_if_unchanged(game: Game, logged: ActionLog, row_version: str) -> str | None:
    """A kept game's move written in one statement, in autocommit (games.services.kept): the row and its
    log row only if the row is still at `row_version`, its `xmin` as this process's last write returned it
    (PostgreSQL gives every write of a row a new one: a move, a timer's lag credit, a socket counted, from
    any process). The row's new version, or None when another writer changed the row and nothing was written."""
    with _cursor() as cursor:
        cursor.execute(_kept_write_sql(), _kept_write_values(game, logged, row_version, _db_value))
        row = cursor.fetchone()
    return None if row is None else str(row[0])


def _kept_write_values(
    game: Game, logged: ActionLog, row_version: str, value_of: Callable[[models.Field[Any, Any], Any], Any]
) -> list[Any]:
    """The parameters of the kept move's statement (`_kept_write_sql`), in its order, each field's value as
    `value_of` gives it."""
    values = [value_of(field, getattr(game, field.attname)) for field in _fields(Game, GAME_CHANGED_FIELDS)]
    values += [game.pk, row_version]
    values += [value_of(field, getattr(logged, field.attname)) for field in _fields(ActionLog, LOG_FIELDS)]
    return values


@functools.cache
def kept_write_sql() -> str:
    """The kept move's statement as asyncpg takes it (numbered parameters), for a connection of a server's
    event loop (games.services.loop_moves)."""
    parts = _kept_write_sql().split("%s")
    return "".join(f"{part}${index}" for index, part in enumerate(parts[:-1], 1)) + parts[-1]


def kept_write_arguments(game: Game, logged: ActionLog, row_version: str) -> list[Any]:
    """The kept statement's parameters as asyncpg takes them: a JSON column's value as its text (orjson's, as
    the other writes), every other value as it is (a number, a text, a time with its zone, a flag)."""
    return _kept_write_values(game, logged, row_version, _plain)


def _plain(field: models.Field[Any, Any], value: Any) -> Any:
    if value is not None and isinstance(field, models.JSONField):
        return _dumps(value).decode()
    return value
