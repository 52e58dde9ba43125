"""The open game data's tests: games driven step by step, files written to a folder of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import tasks


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Games are driven step by step here: scheduled bot moves, timers and finalisations do nothing."""
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    yield


@pytest.fixture
def data_dir(settings: Any, tmp_path: Path) -> Path:
    settings.GAME_DATA_DIR = tmp_path / "gamedata"
    return settings.GAME_DATA_DIR
