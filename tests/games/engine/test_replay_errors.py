"""Replay never raises (issue 3: "Malformed records and illegal actions give the exit statuses and messages of
DESIGN.md, never a traceback"): random JSON, record-shaped JSON with wrong parts, and mutated golden records all
give DESIGN.md's answer: ok with exit 0, an illegal action with its index and exit 1, or a malformed record with
index null and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Replay, replay_json, replay_text
from games.engine.cards import card_name, deck_cards
from tests.games.engine.random_games import property_settings

GOLDEN = Path(__file__).resolve().parent / "golden"

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20,
)

# Parts of a record that are nearly right, so that validation gets past the first check.
card_names = st.sampled_from([card_name(card) for card in range(54)]) | st.sampled_from(["1S", "6X", "", "10"])
seats = st.integers(-1, 9)
actions = st.fixed_dictionaries(
    {"seat": seats | json_values,
     "type": st.sampled_from(["attack", "cover", "throw", "transfer", "show_trump", "take", "pass", "accuse", "x"])},
    optional={"cards": st.lists(card_names, max_size=4) | json_values, "card": card_names | json_values,
              "attack": card_names | json_values},
)
rules = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.sampled_from([24, 36, 52, 54, 0, "36", 36.0, True]),
        "preset": st.sampled_from(["podkidnoy", "perevodnoy", "aktobe", "x", None, 5]),
        "transfer": st.booleans() | json_scalars,
        "transfer_by_showing_trump": st.booleans() | json_scalars,
        "throw_in": st.sampled_from(["all", "neighbours", "x", 1]),
        "first_bout_limit": st.sampled_from([5, 6, 4, True, "6"]),
        "teams": st.sampled_from([None, "2v2", "3v3", "1v1", 2]),
        "cheating": st.booleans() | json_scalars,
        "next_game_first": st.sampled_from(["lowest_trump", "under_fool", "x"]),
        "redeal_five_same_suit": st.booleans() | json_scalars,
        "epaulette_ladder": st.booleans(),
        "colour": json_scalars,
    },
)
records = st.fixed_dictionaries(
    {"players": st.integers(0, 9) | json_values, "hands": st.lists(st.lists(card_names, max_size=7), max_size=9)},
    optional={
        "rules": rules | json_values,
        "stock": st.lists(card_names, max_size=10) | json_values,
        "trump": st.sampled_from(["S", "C", "D", "H", "X", "s", ""]) | json_values,
        "first_attacker": seats | json_values,
        "teams": st.lists(st.lists(seats, max_size=4), max_size=3) | json_values,
        "stake": st.integers(-5, 1000) | json_values,
        "actions": st.lists(actions, max_size=8) | json_values,
    },
)


valid_rules = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.sampled_from(["podkidnoy", "perevodnoy"]),
        "transfer": st.booleans(),
        "throw_in": st.sampled_from(["all", "neighbours"]),
        "first_bout_limit": st.sampled_from([5, 6]),
        "cheating": st.booleans(),
    },
)


@st.composite
def plausible_records(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed 36-card deal, mostly valid rules, and actions of the right shape by real seats with cards of
    the deal: replay gets past validation and stops at an illegal action, or plays them all."""
    order = draw(st.permutations([card_name(card) for card in deck_cards(36)]))
    players = draw(st.integers(2, 6))
    hands, used = [], 0
    for _ in range(players):
        size = draw(st.integers(1, 6))
        hands.append(order[used : used + size])
        used += size
    stock = order[used : used + draw(st.integers(0, 36 - used))]
    data: dict[str, Any] = {
        "rules": draw(valid_rules) if draw(st.integers(0, 4)) else draw(rules),
        "players": players,
        "hands": hands,
        "stock": stock,
    }
    if not stock:
        data["trump"] = draw(st.sampled_from("SCDH"))
    if draw(st.booleans()):
        data["first_attacker"] = draw(st.integers(0, players - 1))
    dealt = order[:used]
    kinds = ["attack", "cover", "throw", "transfer", "show_trump", "take", "pass", "accuse"]
    data["actions"] = []
    for _ in range(draw(st.integers(0, 12))):
        action: dict[str, Any] = {"seat": draw(st.integers(0, players - 1)), "type": draw(st.sampled_from(kinds))}
        if action["type"] in ("attack", "throw", "transfer"):
            action["cards"] = draw(st.lists(st.sampled_from(dealt), min_size=1, max_size=3, unique=True))
        elif action["type"] == "cover":
            action["attack"], action["card"] = draw(st.sampled_from(dealt)), draw(st.sampled_from(dealt))
        elif action["type"] in ("show_trump", "accuse"):
            action["card"] = draw(st.sampled_from(dealt))
        data["actions"].append(action)
    return data


def check_answer(replay: Replay, data: Any = None) -> None:
    """The answer has DESIGN.md's shape, and its exit status goes with it."""
    answer = replay.to_json()
    json.dumps(answer)
    if answer["ok"]:
        assert replay.exit_status == 0
        assert set(answer) == {"ok", "finished", "result", "state"}
        return
    assert set(answer) == {"ok", "index", "error"}
    assert isinstance(answer["error"], str) and answer["error"]
    if answer["index"] is None:
        assert replay.exit_status == 2
    else:
        assert replay.exit_status == 1
        assert isinstance(data, dict) and 0 <= answer["index"] < len(data["actions"])


@property_settings(max_examples=200)
@given(data=json_values)
def test_random_json_is_malformed_never_an_exception(data: Any) -> None:
    replay = replay_json(data)
    check_answer(replay, data)
    if not isinstance(data, dict) or "hands" not in data:
        assert replay.exit_status == 2
    check_answer(replay_text(json.dumps(data)), data)


@property_settings(max_examples=80)
@given(data=records)
def test_record_shaped_json_never_an_exception(data: dict[str, Any]) -> None:
    check_answer(replay_json(data), data)


@property_settings(max_examples=150)
@given(data=plausible_records())
def test_plausible_records_never_an_exception(data: dict[str, Any]) -> None:
    check_answer(replay_json(data), data)


@property_settings(max_examples=200)
@given(text=st.text(max_size=200))
def test_random_text_never_an_exception(text: str) -> None:
    replay = replay_text(text)
    check_answer(replay)
    assert not replay.ok


GOLDEN_RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


@st.composite
def mutated_golden_records(draw: st.DrawFn) -> dict[str, Any]:
    """A golden record with one part replaced by random JSON, or deleted."""
    data = json.loads(draw(st.sampled_from(GOLDEN_RECORDS)).read_text())
    node: Any = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return data
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and draw(st.integers(0, 3)) == 0:
            del node[key]
        else:
            node[key] = draw(json_values | card_names | seats)
        return data


@property_settings(max_examples=250)
@given(data=mutated_golden_records())
def test_mutated_golden_records_never_an_exception(data: dict[str, Any]) -> None:
    check_answer(replay_json(data), data)
    check_answer(replay_text(json.dumps(data)), data)


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "nul", "\x00", '{"players": 2,}', "NaN", "1e999999"])
def test_not_json_or_not_an_object(text: str) -> None:
    replay = replay_text(text)
    assert replay.to_json()["ok"] is False and replay.to_json()["index"] is None
    assert replay.exit_status == 2


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 100_000])
def test_replay_text_deeply_nested_json(text: str) -> None:
    """json's decoder raises RecursionError, not ValueError, on deep nesting: still a malformed record."""
    replay = replay_text(text)
    assert replay.to_json()["ok"] is False and replay.to_json()["index"] is None
    assert replay.exit_status == 2
