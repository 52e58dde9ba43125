"""The lobby's list goes out at most once a `LOBBY_SEND_EVERY_S` from a process (games.broadcast.send_lobby):
a burst of changes (a round's games ending together) is one send, made after the burst with the tables as
they are then."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from games import broadcast


@pytest.fixture
def sends(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When each send of the lobby's list was made (the list read and sent), as `time.monotonic`."""
    made: list[float] = []
    lock = threading.Lock()

    def lobby_send(run: Any) -> Any:
        async def send() -> None:
            with lock:
                made.append(time.monotonic())

        return send

    monkeypatch.setattr(broadcast, "_lobby_send", lobby_send)
    return made


def _wait_for(sends: list[float], count: int, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while len(sends) < count and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_burst_of_changes_is_one_send_after_it(sends: list[float], settings: Any) -> None:
    settings.LOBBY_SEND_EVERY_S = 0.3
    started = time.monotonic()
    for _ in range(20):
        broadcast.send_lobby()
    assert sends == []  # none at once
    _wait_for(sends, 1, 2.0)
    time.sleep(0.4)
    assert len(sends) == 1 and sends[0] - started >= 0.3
    broadcast.send_lobby()  # a change after the send: sent again, once
    broadcast.send_lobby()
    _wait_for(sends, 2, 2.0)
    time.sleep(0.4)
    assert len(sends) == 2


def test_with_no_interval_every_change_is_sent_at_once(sends: list[float], settings: Any) -> None:
    settings.LOBBY_SEND_EVERY_S = 0
    for _ in range(3):
        broadcast.send_lobby()
    assert len(sends) == 3
