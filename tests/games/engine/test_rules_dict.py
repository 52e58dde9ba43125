"""A table's rules as the record writes them (`Rules.to_dict`): every option by name, in the order of the
fields, exactly what `dataclasses.asdict` gives (the views build it three times a move, so it is written out),
and the record's rules read back to the same rules."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import Rules
from games.engine.rules import PRESETS, preset_rules


@pytest.mark.parametrize(
    "rules",
    [
        *(preset_rules(name) for name in PRESETS),
        Rules(deck=52, teams="2v2", throw_in="neighbours", first_bout_limit=5, next_game_first="under_fool"),
        Rules(deck=24, transfer=True, transfer_by_showing_trump=True, cheating=True, redeal_five_same_suit=True),
        Rules(deck=54, joker_beats="same_colour", one_card=True, epaulette_ladder=True, no_attack_with_epaulettes=True),
    ],
    ids=lambda rules: rules.preset or "custom",
)
def test_the_rules_dict_is_every_option_in_order(rules: Rules) -> None:
    written = rules.to_dict()
    expected = dataclasses.asdict(rules)
    assert written == expected and list(written) == list(expected)
    assert list(written) == [field.name for field in dataclasses.fields(Rules)]
    assert Rules.from_dict(written) == rules
    written["deck"] = 0  # the caller's own dict: the rules are not changed through it
    assert rules.to_dict() == expected
