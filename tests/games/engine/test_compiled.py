"""The mypyc-compiled engine (and the bots compiled with it) behaves exactly like the Python source it was compiled
from.

``make test`` compiles the engine (scripts/build_engine.py) so that the tests exercise the code the
site and the bots run. This module replays the same random games with an interpreted copy of the
engine's sources in a subprocess and compares every result. Under CI=true the engine must be compiled:
CI has a C compiler, and a silently failed build would leave the benchmarks measuring the slow path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine._compiled import ROOT, is_compiled

# Plays random games with the engine found first on sys.path and prints one line of JSON per game.
PLAYER = """
import json, random, sys
from games.engine import deal, Rules
from games.engine.simulate import play_game
from games.bots.random_bot import choose
from games.engine._compiled import is_compiled
options = [
    {}, {"transfer": True}, {"transfer": True, "transfer_by_showing_trump": True}, {"cheating": True},
    {"throw_in": "neighbours", "first_bout_limit": 5}, {"deck": 24}, {"deck": 52}, {"preset": "aktobe"},
    {"preset": "aktobe", "joker_beats": "same_colour", "no_attack_with_epaulettes": True}, {"deck": 54},
]
out = []
for number in range(int(sys.argv[1])):
    option = options[number % len(options)]
    rules = Rules.from_dict(option)
    players = 2 + number % (rules.max_players - 1)
    state = deal(rules, players, seed=f"compiled-{number}").state()
    actions = play_game(state, [choose] * players, random.Random(number))
    out.append({"actions": actions, "result": state.result and state.result.to_json(), "state": state.to_json(), "paid": state.paid})
# The heuristic bot (compiled with the engine, like the knowledge model and the search) decides alike too.
from games.bots import BOTS
from games.bots.arena import play_game as bot_game
import games.bots.heuristic as heuristic
bot_games = []
for number in range(int(sys.argv[1]) // 7):
    option = options[number % len(options)]
    rules = Rules.from_dict(option)
    players = 2 + number % (rules.max_players - 1)
    state = deal(rules, players, seed=f"compiled-bots-{number}").state()
    record = bot_game(state, [BOTS["heuristic"]] * players, random.Random(number))
    bot_games.append({"actions": [[seat, action.to_json()] for seat, action in record.actions],
                      "result": state.result and state.result.to_json()})
bots_compiled = not heuristic.__file__.endswith(".py")
print(json.dumps({"compiled": is_compiled(), "bots_compiled": bots_compiled, "games": out, "bot_games": bot_games}))
"""


def run_player(python_path: Path, games: int) -> dict[str, object]:
    environment = {**os.environ, "PYTHONPATH": str(python_path)}
    completed = subprocess.run(
        [sys.executable, "-c", PLAYER, str(games)], env=environment, capture_output=True, text=True,
        check=True, cwd=python_path,
    )
    answer: dict[str, object] = json.loads(completed.stdout)
    return answer


def test_compiled_in_ci() -> None:
    if os.environ.get("CI") == "true":
        assert is_compiled(), "CI has a C compiler: scripts/build_engine.py should have compiled the engine"
    elif not is_compiled():
        pytest.skip("the engine runs interpreted here (no compiled extension); `make test` compiles it")


def test_the_native_matching_is_built_with_the_engine() -> None:
    """scripts/build_engine.py compiles the exact Dutch's matching in C (``NATIVE_LIBRARIES``) with the engine."""
    from tournaments.pairing import weighted_native

    if os.environ.get("CI") == "true" or is_compiled():
        assert weighted_native.available(), "scripts/build_engine.py should have built _weighted_native.so"
        assert weighted_native.wide_available() or os.environ.get("CI") != "true"
    else:
        pytest.skip("nothing compiled here; `make test` compiles it")


def test_compiled_engine_plays_like_its_source(tmp_path: Path) -> None:
    if not is_compiled():
        pytest.skip("the engine runs interpreted here: nothing to compare (`make test` compiles it)")
    interpreted = tmp_path / "interpreted"
    for package in ("games/engine", "games/bots"):
        shutil.copytree(ROOT / package, interpreted / package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    (interpreted / "games" / "__init__.py").write_text("")
    games = 140
    compiled_run = run_player(ROOT, games)
    interpreted_run = run_player(interpreted, games)
    assert compiled_run["compiled"] is True and compiled_run["bots_compiled"] is True
    assert interpreted_run["compiled"] is False and interpreted_run["bots_compiled"] is False
    assert compiled_run["games"] == interpreted_run["games"]
    bot_games = compiled_run["bot_games"]
    assert isinstance(bot_games, list) and len(bot_games) == 20
    assert bot_games == interpreted_run["bot_games"]


# The type check mypyc runs before it compiles, as scripts/build_engine.py asks for it, in a process where
# django-stubs' plugin (a package of `make test`'s, not of `make run`'s) cannot be imported.
BUILD_CHECK = """
import importlib.util, sys
from pathlib import Path
sys.modules["mypy_django_plugin"] = None
from mypy import api
spec = importlib.util.spec_from_file_location("build_engine", "scripts/build_engine.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)
config, cache = sys.argv[1], sys.argv[2]
stdout, stderr, status = api.run(["--cache-dir", cache, *build.mypy_arguments(Path(config))])
print(stdout + stderr)
sys.exit(status)
"""


def test_the_engine_compiles_with_the_sites_packages_alone(tmp_path: Path) -> None:
    """A fresh clone's `make run` installs only the site's packages; with the project's [tool.mypy] (which loads
    django-stubs' plugin) mypyc failed there and the site's bots searched interpreted."""
    completed = subprocess.run(
        [sys.executable, "-c", BUILD_CHECK, str(tmp_path / "mypyc.ini"), str(tmp_path / "cache")],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
