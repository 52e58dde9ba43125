"""A view's log entries are built a version at a time from the entries of the game's previous version in this
process (games.selectors._log_entries): each version's must be what the record gives read afresh, as the
window slides, when versions are skipped, when a game id comes back with another record, and when a clock's
fall turns the last surrender into a fall."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors
from games.models import Game
from games.selectors import LOG_LINES


def _expected(game: Game) -> list[dict[str, Any]]:
    """The record's last LOG_LINES actions as the log shows them, written out here without the cache."""
    actions = game.record["actions"]
    start = max(0, len(actions) - LOG_LINES)
    shown = []
    for seq, raw in enumerate(actions[start:], start=start):
        if raw["type"] == "surrender" and game.flagged is not None:
            action = {"type": "flag"}
        else:
            action = {key: value for key, value in raw.items() if key not in ("seat", "timer", "autopilot")}
        shown.append({"seq": seq, "seat": raw["seat"], "action": action, "timer": bool(raw.get("timer")),
                      "autopilot": bool(raw.get("autopilot"))})  # fmt: skip
    return shown


def _action(number: int) -> dict[str, Any]:
    """A made-up recorded action, each number its own (the log does not check moves)."""
    kinds = ("attack", "cover", "take", "pass")
    raw: dict[str, Any] = {"seat": number % 2, "type": kinds[number % 4]}
    if raw["type"] == "attack":
        raw["cards"] = [f"{6 + number % 9}S"]
    if number % 7 == 0:
        raw["timer"] = True
    if number % 11 == 0:
        raw["autopilot"] = True
    return raw


def _game(actions: list[dict[str, Any]], *, pk: int = 1, commitment: str = "c1", flagged: int | None = None) -> Game:
    return Game(pk=pk, commitment=commitment, flagged=flagged, record={"actions": actions}, players=2)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    selectors._entries.clear()


def test_each_version_s_entries_are_the_record_s_as_the_window_slides() -> None:
    actions: list[dict[str, Any]] = []
    for number in range(LOG_LINES * 2 + 7):
        actions.append(_action(number))
        game = _game(list(actions))
        assert selectors._log_entries(game) == _expected(game), number


def test_versions_skipped_a_shorter_record_and_the_same_version_again() -> None:
    record = [_action(number) for number in range(200)]
    for count in (3, 9, 9, 40, 41, 95, 150, 151, 151, 30, 0, 5, 200):
        game = _game(record[:count])
        assert selectors._log_entries(game) == _expected(game), count


def test_a_game_id_that_comes_back_with_another_record_is_read_afresh() -> None:
    first = [_action(number) for number in range(20)]
    other = [_action(number + 1) for number in range(25)]  # the same id and commitment, another game
    assert selectors._log_entries(_game(first)) == _expected(_game(first))
    assert selectors._log_entries(_game(other)) == _expected(_game(other))
    another_deal = _game(first[:22] + [_action(99)], commitment="c2")
    assert selectors._log_entries(another_deal) == _expected(another_deal)


def test_a_clock_s_fall_shows_the_surrender_before_it_as_a_fall() -> None:
    actions = [_action(number) for number in range(12)]
    before = _game(actions)
    assert selectors._log_entries(before) == _expected(before)
    fallen = _game([*actions, {"seat": 1, "type": "surrender"}], flagged=1)
    entries = selectors._log_entries(fallen)
    assert entries == _expected(fallen) and entries[-1]["action"] == {"type": "flag"}
    # A surrender earlier in the record (a game of three) shows as a fall once the game is flagged, too.
    earlier = [*actions[:5], {"seat": 0, "type": "surrender"}, *actions[5:]]
    selectors._entries.clear()
    assert selectors._log_entries(_game(earlier)) == _expected(_game(earlier))
    flagged = _game([*earlier, {"seat": 1, "type": "surrender"}], flagged=1)
    assert selectors._log_entries(flagged) == _expected(flagged)
    assert [entry["action"] for entry in selectors._log_entries(flagged) if entry["seq"] == 5] == [{"type": "flag"}]


def test_the_entries_given_out_are_not_changed_by_later_versions() -> None:
    actions = [_action(number) for number in range(LOG_LINES)]
    given = selectors._log_entries(_game(list(actions)))
    copy = [dict(entry) for entry in given]
    for number in range(LOG_LINES, LOG_LINES + 10):
        actions.append(_action(number))
        selectors._log_entries(_game(list(actions)))
    assert given == copy and len(given) == LOG_LINES
