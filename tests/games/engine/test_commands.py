"""``manage.py replay`` and ``manage.py simulate`` as a user runs them: real processes, real exit statuses.

The shared sample records are replayed with ../shared/tools/check_records.py, the checker DESIGN.md names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"
MANAGE = [sys.executable, str(ROOT / "manage.py")]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MANAGE, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_shared_records_pass_the_shared_checker() -> None:
    checker = SHARED / "tools" / "check_records.py"
    if not checker.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the shared checker is missing: {checker}")
        pytest.skip(f"the shared folder is not beside the repository: {checker} is absent")
    completed = subprocess.run(
        [sys.executable, str(checker), "--cmd", f"{sys.executable} manage.py replay"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "records: 6 passed, 0 failed" in completed.stdout


ILLEGAL: dict[str, Any] = {
    "rules": {"deck": 36}, "players": 2, "hands": [["6S", "7S"], ["8S", "9H"]], "trump": "H",
    "first_attacker": 0,
    "actions": [{"seat": 0, "type": "attack", "cards": ["6S"]}, {"seat": 1, "type": "cover", "attack": "6S", "card": "9H"},
                {"seat": 1, "type": "cover", "attack": "6S", "card": "8S"}],
}


@pytest.mark.parametrize(
    ("stdin", "status", "index", "phrase"),
    [
        (json.dumps(ILLEGAL), 1, 2, "already covered"),
        (json.dumps({**ILLEGAL, "actions": [{"seat": 1, "type": "cover", "attack": "6S", "card": "7C"}]}), 1, 0,
         "not an attack card on the table"),
        (json.dumps({**ILLEGAL, "actions": [{"seat": 0, "type": "fold"}]}), 2, None, "unknown action type"),
        (json.dumps({**ILLEGAL, "actions": [{"seat": 0, "type": "attack", "cards": ["1S"]}]}), 2, None, "not a card"),
        (json.dumps({**ILLEGAL, "hands": [["6S", "7S"], ["6S", "9H"]]}), 2, None, "listed twice"),
        ("{not json", 2, None, "not JSON"),
        ("[]", 2, None, "JSON object"),
    ],
)
def test_replay_exit_statuses_and_messages(stdin: str, status: int, index: int | None, phrase: str) -> None:
    completed = run("replay", "-", stdin=stdin)
    assert completed.returncode == status, completed.stderr
    assert "Traceback" not in completed.stderr
    answer = json.loads(completed.stdout)
    assert answer["ok"] is False and answer["index"] == index
    assert phrase in answer["error"]


def test_replay_valid_record_prints_state(tmp_path: Path) -> None:
    record = {**ILLEGAL, "actions": ILLEGAL["actions"][:2]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    completed = run("replay", str(path))
    assert completed.returncode == 0
    answer = json.loads(completed.stdout)
    assert answer["ok"] is True and answer["finished"] is False and answer["result"] is None
    assert answer["state"]["table"] == [{"attack": "6S", "cover": "9H"}]
    assert sorted(answer["state"]["hands"][1]) == ["8S"]


def test_replay_missing_file_is_malformed() -> None:
    completed = run("replay", "/nonexistent/record.json")
    assert completed.returncode == 2
    assert json.loads(completed.stdout)["index"] is None


def test_simulate_writes_figures_and_replayable_records(tmp_path: Path) -> None:
    figures = tmp_path / "figures.json"
    records = tmp_path / "records"
    completed = run("simulate", "--preset", "perevodnoy", "--players", "3", "--bots", "random", "--games", "30",
                    "--seed", "7", "--json", str(figures), "--record-dir", str(records))
    assert completed.returncode == 0, completed.stderr
    assert "30/30 games (100%)" in completed.stderr  # the progress line
    summary = json.loads(figures.read_text())
    assert summary["games"] == 30 and summary["unfinished"] == 0
    for seat in summary["seats"]:
        low, high = seat["durak_ci95"]
        assert low <= seat["durak"] <= high
    assert abs(sum(seat["durak"] for seat in summary["seats"]) + summary["seats"][0]["draw"] - 1) < 1e-9
    saved = sorted(records.glob("game-*.json"))
    assert len(saved) == 30
    from games.engine import replay_json

    for path in saved[:10]:
        replayed = replay_json(json.loads(path.read_text()))
        assert replayed.ok and replayed.state is not None and replayed.state.finished


def test_simulate_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    outputs = []
    for attempt in range(2):
        figures = tmp_path / f"run{attempt}.json"
        assert run("simulate", "--games", "20", "--seed", "abc", "--json", str(figures)).returncode == 0
        summary = json.loads(figures.read_text())
        outputs.append((summary["seats"], summary["actions_per_game"]))
    assert outputs[0] == outputs[1]


def test_simulate_refuses_bad_options() -> None:
    completed = run("simulate", "--players", "9")
    assert completed.returncode != 0 and "2 to 6 players" in completed.stderr
    completed = run("simulate", "--bots", "random,nobody")
    assert completed.returncode != 0 and "unknown bot" in completed.stderr
