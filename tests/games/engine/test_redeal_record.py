"""A redeal in the record (issue 40; RULES.md, redeal_five_same_suit): the record keeps its first deal, lists
the deals that replaced it in `redeals`, and its log opens with a `redeal` action for each. A redeal is legal
only before the first move, for a hand holding five or more of the suit it names, at a table that plays the
option; anything else is refused with the action's index, and a record whose deals and redeals disagree is
malformed. Old records (DESIGN.md's format) are untouched: the golden records check that."""

from __future__ import annotations

import itertools

import pytest

from games.engine import IllegalAction, RecordDeal, Rules, deal, load_record, play, redeal_suit, replay_json
from games.engine.actions import REDEAL, action_from_json, redeal
from games.engine.cards import SUITS, names
from games.engine.records import EXIT_ILLEGAL, EXIT_MALFORMED

RULES = {"preset": "podkidnoy", "redeal_five_same_suit": True}
RULE_SET = Rules.from_dict(RULES)


def _seed(wanted: tuple[bool, ...], players: int, rules: Rules = RULE_SET, after: int = 0) -> str:
    """A seed whose deal lets each seat ask for a redeal as `wanted` says."""
    for number in itertools.count(after):
        seed = f"redeal-record-{number}"
        hands = deal(rules, players, seed=seed).hands
        if tuple(redeal_suit(rules, hand) is not None for hand in hands) == wanted:
            return seed
    raise AssertionError("unreachable")


def _deal_json(seed: str, players: int, rules: Rules = RULE_SET) -> dict:
    dealt = deal(rules, players, seed=seed)
    return RecordDeal(dealt.hands, dealt.stock, dealt.trump, dealt.hidden, dealt.hidden_trump).to_json()


def _record(players: int = 2, asker: int = 0) -> tuple[dict, str]:
    wanted = tuple(seat == asker for seat in range(players))
    first = _seed(wanted, players)
    second = _seed((False,) * players, players)
    hand = deal(RULE_SET, players, seed=first).hands[asker]
    suit = SUITS[redeal_suit(RULE_SET, hand)]  # type: ignore[index]
    record = {"rules": RULES, "players": players, **_deal_json(first, players),
              "redeals": [_deal_json(second, players)], "actions": [{"seat": asker, "type": "redeal", "suit": suit}]}
    return record, second


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_redeal_replays_to_the_next_deal_and_the_game_goes_on_from_it(players: int) -> None:
    record, second = _record(players, asker=players - 1)
    replayed = replay_json(record)
    assert replayed.ok and replayed.state is not None
    assert [names(hand) for hand in replayed.state.hands] == [names(hand) for hand in deal(RULE_SET, players, seed=second).hands]
    # The moves after it are played on the new deal: its leader's first card.
    state = load_record(record).initial_state(1)
    leader = state.attacker
    card = names(state.hands[leader])[0]
    longer = {**record, "actions": [*record["actions"], {"seat": leader, "type": "attack", "cards": [card]}]}
    after = replay_json(longer)
    assert after.ok and after.state is not None and after.state.to_json()["table"] == [{"attack": card, "cover": None}]
    # The record dumps as it was read.
    assert load_record(longer).to_json()["redeals"] == record["redeals"]


def test_a_redeal_is_refused_after_a_move_for_a_hand_without_five_or_without_the_option() -> None:
    record, _ = _record()
    state = load_record({**record, "redeals": [], "actions": []}).initial_state()
    leader = state.attacker
    card = names(state.hands[leader])[0]
    moved = {**record, "actions": [{"seat": leader, "type": "attack", "cards": [card]}, *record["actions"]]}
    refused = replay_json(moved)
    assert (refused.ok, refused.index, refused.exit_status) == (False, 1, EXIT_ILLEGAL)
    assert "before the first move" in (refused.error or "")

    asked = record["actions"][0]
    other_suit = next(suit for suit in SUITS if suit != asked["suit"])
    for action in ({**asked, "seat": 1}, {**asked, "suit": other_suit}):
        wrong = replay_json({**record, "actions": [action]})
        assert (wrong.ok, wrong.index, wrong.exit_status) == (False, 0, EXIT_ILLEGAL)
        assert "five or more cards of one suit" in (wrong.error or "")

    plain = replay_json({**record, "rules": {"preset": "podkidnoy"}})
    assert (plain.ok, plain.index) == (False, 0) and "redeal_five_same_suit" in (plain.error or "")


def test_deals_and_redeals_that_disagree_are_malformed_and_play_refuses_a_redeal() -> None:
    record, _ = _record()
    for broken in (
        {**record, "redeals": []},
        {**record, "actions": []},
        {**record, "redeals": [{"hands": [], "stock": []}]},
        {**record, "redeals": "none"},
        {**record, "actions": [{"seat": 0, "type": "redeal"}]},
    ):
        malformed = replay_json(broken)
        assert (malformed.ok, malformed.index, malformed.exit_status) == (False, None, EXIT_MALFORMED)
    assert action_from_json({"type": "redeal", "suit": "H"}) == redeal(3)
    assert redeal(3).to_json() == {"type": "redeal", "suit": "H"} and redeal(3).kind == REDEAL
    state = load_record(record).initial_state()
    with pytest.raises(IllegalAction):
        play(state, 0, redeal(0))
