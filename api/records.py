"""Game records in and out: a record replayed step by step for analysis (the engine validates it), and a
finished game's record or a standings table as CSV rows."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from games.engine import EngineError, load_record
from games.engine.cards import card_name
from games.engine.records import EXIT_MALFORMED

MAX_ACTIONS = 5000
RECORD_CSV_FIELDS = ("index", "seat", "player", "type", "cards", "attack", "card")


def analyse(data: object) -> dict[str, Any]:
    """Replay a record for stepping through it: the state before the first action and after each legal
    one. An illegal action stops the replay there (``index``, ``error``); a malformed record gives no steps.
    The record is the caller's own, so every hand is shown."""
    try:
        record = load_record(data)
    except (EngineError, RecursionError) as error:
        return {"ok": False, "index": None, "error": str(error), "finished": False, "result": None, "steps": [],
                "exit_status": EXIT_MALFORMED}
    if len(record.actions) > MAX_ACTIONS:
        return {"ok": False, "index": None, "error": f"a record holds at most {MAX_ACTIONS} actions",
                "finished": False, "result": None, "steps": [], "exit_status": EXIT_MALFORMED}
    state = record.initial_state()
    steps: list[dict[str, Any]] = [{"index": None, "seat": None, "action": None, "state": _state_json(state)}]
    for index, (seat, action) in enumerate(record.actions):
        try:
            state = record.play_on(state, index)
        except EngineError as error:
            return {"ok": False, "index": index, "error": f"{action}: {error}", "finished": False,
                    "result": None, "steps": steps, "exit_status": 1}
        steps.append({"index": index, "seat": seat, "action": action.to_json(), "state": _state_json(state)})
    return {"ok": True, "index": None, "error": None, "finished": state.finished,
            "result": None if state.result is None else state.result.to_json(),
            "steps": steps, "exit_status": 0}


def _state_json(state: Any) -> dict[str, Any]:
    shown = state.to_json()
    shown["trump_card"] = str(card_name(state.trump_card)) if state.stock and state.trump_card >= 0 else None
    shown["finished"] = state.finished
    return dict(shown)


def record_rows(record: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """A finished game's actions as CSV rows: one a move, cards space-separated."""
    rows = []
    for index, raw in enumerate(record.get("actions", [])):
        seat = raw.get("seat")
        rows.append({
            "index": index,
            "seat": seat,
            "player": names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "",
            "type": raw.get("type", ""),
            "cards": " ".join(raw.get("cards", [])),
            "attack": raw.get("attack", ""),
            "card": raw.get("card", ""),
        })
    return rows


def csv_text(rows: Iterable[dict[str, Any]], fields: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_safe(value) for key, value in row.items()})
    return out.getvalue()


def _csv_safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula is written with a leading quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value
