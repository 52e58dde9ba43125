"""Golden game records: every rule and option of RULES.md replayed as a small hand-written record, legal and
illegal, plus the shared samples. Issue 8 added the Aktobe preset's rules (aktobe_*: jokers and joker_beats, the
hidden cards, the trump that changes when the stock runs out, transfers beyond the next hand, neighbours-only and
unlimited throw-in, "one card!" with its penalty, the duel for the first lead), the 54-card deck (deck54_*) and
the epaulette options (epaulette_ladder_*, epaulettes_no_attack_*); docs/aktobe.md says how each point the seeds
leave open is played.

Each tests/games/engine/golden/NAME.json has a NAME.expected.json beside it, written by hand from RULES.md:
- a legal record expects DESIGN.md's replay output (ok, finished, result, state);
- an illegal or malformed one expects {"ok": false, "index": N or null, "exit_status": 1 or 2,
  "error_contains": "a phrase the message must hold"}.
"rule" in an expected file quotes the rule the record shows; it is documentation, not compared.
Comparison follows ../shared/tools/check_records.py and RULES.md (Decisions, Output): hands, out and
losing_team as sets, the table as a set of pairs, attacker and defender not compared once the game is over.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    MalformedRecord, Record, Rules, State, deal, first_attacker_for, load_record, redeal_allowed, replay_json, replay_text,
    settlement, verify_commitment,
)
from games.engine.cards import card_name, deck_mask, mask_of, parse_card
from games.engine.records import replay_record
from tests.games.engine.compare import normalise, record_names

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
# The repository is cloned beside ../shared (RULES.md, DESIGN.md, the sample records).
SHARED_RECORDS = HERE.parents[2].parent / "shared" / "records"


def check(record_path: Path, expected: dict[str, Any]) -> None:
    replay = replay_text(record_path.read_text())
    got = replay.to_json()
    if expected["ok"]:
        assert replay.exit_status == 0, got
        want = normalise({key: expected[key] for key in ("ok", "finished", "result", "state")})
        assert normalise(got) == want
    else:
        assert got["ok"] is False, got
        assert got["index"] == expected["index"], got
        assert replay.exit_status == expected["exit_status"], got
        assert expected["error_contains"].lower() in got["error"].lower(), got


GOLDEN_NAMES = record_names(GOLDEN)

# Golden records that show an engine bug (see /tmp/engine_bugs.md): name -> (when it shows, reason). The fix
# removes the entry; a strict xfail that passes fails the suite, so a fixed bug cannot be forgotten here.
KNOWN_ENGINE_BUGS: dict[str, tuple[bool, str]] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(
            KNOWN_ENGINE_BUGS[name][0], reason=KNOWN_ENGINE_BUGS[name][1], strict=True))
        if name in KNOWN_ENGINE_BUGS else name
        for name in GOLDEN_NAMES
    ],
)
def test_golden_record(name: str) -> None:
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    check(GOLDEN / f"{name}.json", expected)


def test_golden_record_dump_round_trip() -> None:
    """A loaded record dumps to a record that replays to the same output (Record.to_json is the export)."""
    for name in GOLDEN_NAMES:
        data = json.loads((GOLDEN / f"{name}.json").read_text())
        first = replay_json(data)
        if first.exit_status == 2:
            continue
        again = replay_json(load_record(data).to_json())
        assert again.to_json() == first.to_json(), name


def test_shared_sample_records() -> None:
    """The six sample records of ../shared/records replay to their expected output (DESIGN.md)."""
    if not SHARED_RECORDS.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the shared sample records are missing: {SHARED_RECORDS}")
        pytest.skip(f"the shared sample records are not beside the repository: {SHARED_RECORDS} is absent")
    names = record_names(SHARED_RECORDS)
    assert len(names) >= 6
    for name in names:
        expected = json.loads((SHARED_RECORDS / f"{name}.expected.json").read_text())
        got = replay_text((SHARED_RECORDS / f"{name}.json").read_text()).to_json()
        assert normalise(got) == normalise(expected), name


# --- stakes, penalties and the bank (RULES.md, Cheating tables and Stakes) --------------------------------

def final_state(name: str, **changes: Any) -> State:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    data.update(changes)
    replay = replay_record(load_record(data))
    assert replay.ok and replay.state is not None, replay.to_json()
    return replay.state


def test_settlement_caught_cheat_and_false_accusation() -> None:
    """cheat_stake_game, stake 100: each pays 100 in; seat 1 is caught once (pays 15) and accuses falsely once
    (pays 15): bank 230. Seat 0 is the durak, so seat 1 alone shares the bank: +100 net, seat 0 -100."""
    state = final_state("cheat_stake_game")
    assert state.result is not None and state.result.durak == 0
    assert state.bank == 230
    assert state.paid == [100, 130]
    assert settlement(state) == [-100, 100]


def test_settlement_false_accuser_pays() -> None:
    """A false accusation: the accuser (seat 0) pays 15 % of the stake into the bank, nothing else changes."""
    data = json.loads((GOLDEN / "cheat_false_accusation.json").read_text())
    data["stake"] = 20
    state = replay_record(load_record(data)).state
    assert state is not None
    assert state.paid == [23, 20]
    assert state.bank == 43


def test_settlement_draw_returns_the_bank() -> None:
    """In a draw the bank is returned: nobody gains or loses."""
    state = final_state("draw_2p", stake=50)
    assert state.result is not None and state.result.outcome == "draw"
    assert settlement(state) == [0, 0]


def test_settlement_shared_by_the_players_who_are_not_the_durak() -> None:
    """durak_3p with a stake of 30 a seat: bank 120 shared by seats 2, 0, 1 (40 each); the durak loses 30."""
    state = final_state("durak_3p", stake=30)
    net = settlement(state)
    assert net == [10, 10, 10, -30]
    assert sum(net) == 0


def test_settlement_teams() -> None:
    """A team win: the bank goes to the winning team, the losing team loses its stakes."""
    state = final_state("teams_2v2_win_epaulettes", stake=10)
    assert settlement(state) == [10, -10, 10, -10]


def test_record_keeps_stake() -> None:
    record = load_record(json.loads((GOLDEN / "cheat_stake_game.json").read_text()))
    assert isinstance(record, Record) and record.stake == 100
    assert record.to_json()["stake"] == 100


# --- options and deal rules without a record form (RULES.md, Deal and trump) ------------------------------

def cards(*names: str) -> int:
    return mask_of(parse_card(name) for name in names)


def test_deal_stock_face_up_card_names_trump() -> None:
    """Six cards each; the rest is the stock, whose bottom (last) card is face up and names the trump."""
    dealt = deal(Rules(), 3, seed="golden")
    assert [hand.bit_count() for hand in dealt.hands] == [6, 6, 6]
    assert len(dealt.stock) == 18
    assert dealt.trump == dealt.stock[-1] & 3
    assert dealt.order == deal(Rules(), 3, seed="golden").order  # reproducible from its seed
    everything = 0
    for hand in dealt.hands:
        everything |= hand
    assert everything | mask_of(dealt.stock) == deck_mask(36)


def test_deal_dealt_out_completely_last_card_names_trump() -> None:
    """6 players at 36 cards: no stock, the last card dealt names the trump."""
    dealt = deal(Rules(), 6, seed="six")
    assert dealt.stock == []
    assert dealt.trump == dealt.order[35] & 3
    assert dealt.hands[5] >> dealt.order[35] & 1
    assert dealt.state().trump == dealt.trump


@pytest.mark.parametrize("deck, players", [(24, 5), (36, 7), (52, 9), (36, 1)])
def test_deal_refuses_player_counts(deck: int, players: int) -> None:
    with pytest.raises(MalformedRecord):
        deal(Rules(deck=deck), players, seed="x")


def test_commitment_checks_the_deck_order() -> None:
    dealt = deal(Rules(), 2, seed="commit", salt="pepper")
    order_text = " ".join(card_name(card) for card in dealt.order)
    assert verify_commitment(dealt.commitment, "pepper", order_text)
    swapped = " ".join(card_name(card) for card in [dealt.order[1], dealt.order[0], *dealt.order[2:]])
    assert not verify_commitment(dealt.commitment, "pepper", swapped)
    assert not verify_commitment(dealt.commitment, "salt", order_text)


def test_redeal_five_same_suit() -> None:
    """A hand with 5 or more cards of one suit may ask for a redeal, only when the option is on."""
    five_spades = cards("6S", "8S", "10S", "QS", "AS", "7H")
    four_spades = cards("6S", "8S", "10S", "QS", "7H", "8H")
    assert redeal_allowed(Rules(redeal_five_same_suit=True), five_spades)
    assert redeal_allowed(Rules(redeal_five_same_suit=True), cards("6S", "8S", "10S", "QS", "AS", "KS"))
    assert not redeal_allowed(Rules(redeal_five_same_suit=True), four_spades)
    assert not redeal_allowed(Rules(), five_spades)


def test_next_game_first() -> None:
    """lowest_trump (default): the lowest trump leads; under_fool: in a series, the player left of the durak."""
    hands = [cards("8H", "6S"), cards("7H", "6C"), cards("AS", "KS"), cards("QS", "JS")]
    hearts = 3
    assert first_attacker_for(Rules(), hands, hearts) == 1
    assert first_attacker_for(Rules(), hands, hearts, previous_durak=2) == 1
    under_fool = Rules(next_game_first="under_fool")
    assert first_attacker_for(under_fool, hands, hearts, previous_durak=2) == 3
    assert first_attacker_for(under_fool, hands, hearts, previous_durak=3) == 0
    # The first game of a series has no previous durak: the lowest trump leads.
    assert first_attacker_for(under_fool, hands, hearts) == 1


def test_presets() -> None:
    """preset perevodnoy turns transfer on and leaves every other option at its default; podkidnoy turns it off."""
    assert Rules.from_dict({"preset": "perevodnoy"}) == Rules(transfer=True)
    assert Rules.from_dict({"preset": "podkidnoy"}) == Rules()
    assert Rules.from_dict({"preset": "perevodnoy", "deck": 24}) == Rules(transfer=True, deck=24)
    aktobe = Rules.from_dict({"preset": "aktobe"})
    assert (aktobe.deck, aktobe.transfer, aktobe.throw_in, aktobe.hidden_cards) == (54, True, "neighbours", True)
    assert Rules.from_dict({"preset": "aktobe", "joker_beats": "same_colour"}).joker_beats == "same_colour"
