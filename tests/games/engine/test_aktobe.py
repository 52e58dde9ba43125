"""Issue 8 beside the golden records: the Aktobe preset and its deal, what the views show of the hidden cards,
the options around it, and an epaulette ladder series played game by game up to the queen.

The rules themselves, legal and illegal, are golden records (tests/games/engine/golden/aktobe_*, epaulette*);
docs/aktobe.md says how each point the seed leaves open is played.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import (
    GameResult, Replay,
    MalformedRecord, Record, Rules, Series, deal, first_attacker_for, legal_actions, load_record, new_game, play, public_view, replay_json,
    seat_view, series_after_game, series_start,
)
from games.engine.actions import ANNOUNCE, PASS_ACTION, TAKE_ACTION, Action, attack, challenge
from games.engine.cards import JOKERS, SUITS, card_name, deck_mask, mask_of, parse_card, suit_of
from games.engine.rules import AKTOBE
from games.engine.series import LADDER, series_from_json

AKTOBE_RULES = Rules.from_dict({"preset": "aktobe"})


def cards(text: str) -> int:
    return mask_of(parse_card(name) for name in text.split())


def words(view: dict[str, Any]) -> set[str]:
    text = json.dumps(view)
    return {card_name(card) for card in range(54) if f'"{card_name(card)}"' in text}


# --- the preset and its deal ------------------------------------------------------------------------------------


def test_the_aktobe_preset() -> None:
    """RULES.md, The Aktobe variant: 54 cards, transfers (beyond the next hand too), the neighbours throw in
    (without limit after a take), hidden cards, "one card!", the duel; jokers beat every card by default."""
    assert AKTOBE_RULES == AKTOBE
    assert (AKTOBE.deck, AKTOBE.transfer, AKTOBE.throw_in, AKTOBE.joker_beats) == (54, True, "neighbours", "all")
    assert AKTOBE.hidden_cards and AKTOBE.transfer_beyond_hand and AKTOBE.unlimited_throw_in_on_take
    assert AKTOBE.one_card and AKTOBE.trump_duel and not AKTOBE.no_attack_with_epaulettes
    assert AKTOBE.max_players == 7 and AKTOBE.preset == "aktobe" and AKTOBE.special
    changed = Rules.from_dict({"preset": "aktobe", "joker_beats": "same_colour"})
    assert changed.joker_beats == "same_colour" and changed.preset is None
    assert Rules.from_dict(changed.to_dict()) == changed  # tables store to_dict(): it must come back whole
    assert not Rules().special and Rules().preset == "podkidnoy" and Rules(deck=54).max_players == 8
    with pytest.raises(MalformedRecord, match="joker_beats"):
        Rules.from_dict({"preset": "aktobe", "joker_beats": "red"})
    with pytest.raises(MalformedRecord, match="transfer_beyond_hand needs transfer"):
        Rules.from_dict({"transfer_beyond_hand": True})


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_aktobe_deal(players: int) -> None:
    """Six cards each, then one hidden card each, the stock with its face-up card last, and the deck's last card
    face down under it; the face-up card names the trump."""
    dealt = deal(AKTOBE_RULES, players, seed=f"deal-{players}")
    order = dealt.order
    assert len(order) == 54 and mask_of(order) == deck_mask(54)
    assert dealt.hidden == order[6 * players:7 * players]
    assert dealt.stock == order[7 * players:-1] and dealt.hidden_trump == order[-1]
    assert [hand.bit_count() for hand in dealt.hands] == [6] * players
    assert dealt.trump == suit_of(dealt.stock[-1])
    state = dealt.state()
    assert state.hidden == dealt.hidden and state.hidden_trump == dealt.hidden_trump
    assert dealt.hidden is not None
    assert state.hidden_mask() == mask_of(dealt.hidden) | 1 << dealt.hidden_trump


def test_a_joker_face_up_means_no_trumps() -> None:
    seed = next(f"joker-{n}" for n in range(500) if deal(AKTOBE_RULES, 2, seed=f"joker-{n}").stock[-1] >= 52)
    dealt = deal(AKTOBE_RULES, 2, seed=seed)
    state = dealt.state()
    assert dealt.trump == -1 and state.trump == -1 and state.trump_mask() == 0
    assert state.attacker == 0  # nobody holds a trump: seat 0 leads
    assert public_view(state)["trump"] is None and public_view(state)["trump_card"] in ("RJ", "BJ")


def test_a_record_dumps_its_hidden_cards() -> None:
    dealt = deal(AKTOBE_RULES, 3, seed="dump")
    record = Record(rules=AKTOBE_RULES, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, hidden=dealt.hidden,
                    hidden_trump=dealt.hidden_trump)
    data = record.to_json()
    assert data["rules"] == {"preset": "aktobe"} and dealt.hidden is not None
    assert data["hidden"] == [card_name(card) for card in dealt.hidden]
    assert data["hidden_trump"] == card_name(dealt.hidden_trump)
    again = load_record(json.loads(json.dumps(data)))
    assert again.hidden == dealt.hidden and again.hidden_trump == dealt.hidden_trump


# --- the views ----------------------------------------------------------------------------------------------------


def test_a_hidden_card_is_in_no_view_until_it_is_turned_up() -> None:
    """Not even its owner sees it face down; once turned up it is in his hand, which only he sees. The card under
    the trump is shown once the stock has run out, and never before."""
    state = new_game(
        AKTOBE_RULES, [cards("7C"), cards("8C QD")], [], hidden=[parse_card("3S"), parse_card("9D")],
        hidden_trump=parse_card("2H"), first_attacker=0,
    )
    for seat in (0, 1):
        view = seat_view(state, seat)
        assert not {"3S", "9D"} & words(view)
        assert view["hidden"] == [True, True] and view["hidden_card"] is None
    assert not {"3S", "9D"} & words(public_view(state))
    assert public_view(state)["hidden_trump"] == "2H"  # the stock is empty: turned up
    play(state, 0, attack(parse_card("7C")))  # his last card: he turns up 3S
    view = seat_view(state, 0)
    assert view["hand"] == ["3S"] and view["hidden_card"] == "3S" and view["hidden"] == [False, True]
    assert "3S" not in words(seat_view(state, 1)) and "3S" not in words(public_view(state))
    assert "9D" not in words(seat_view(state, 1)) and "9D" not in words(seat_view(state, 0))


def test_the_card_under_the_trump_is_hidden_while_the_stock_lasts() -> None:
    dealt = deal(AKTOBE_RULES, 2, seed="under")
    state = dealt.state()
    hidden = card_name(dealt.hidden_trump)
    for seat in (0, 1):
        assert hidden not in words(seat_view(state, seat))
    assert hidden not in words(public_view(state)) and public_view(state)["hidden_trump"] is None


# --- options ------------------------------------------------------------------------------------------------------


def test_one_card_moves_are_listed_for_every_seat() -> None:
    """With the stock empty and one card in seat 0's hand, seat 0 may say it and every other seat may ask."""
    state = new_game(
        AKTOBE_RULES, [cards("KS"), cards("8C QD"), cards("9C 10C")], [], hidden=[-1, -1, -1],
        hidden_trump=parse_card("2H"), first_attacker=1,
    )
    assert Action(ANNOUNCE) in legal_actions(state, 0)
    assert challenge(0) in legal_actions(state, 1) and challenge(0) in legal_actions(state, 2)
    play(state, 0, Action(ANNOUNCE))
    assert challenge(0) not in legal_actions(state, 1)


def test_the_forgotten_one_card_is_public() -> None:
    """A player who acts down to one card without saying it is marked: the bots ask only such a player."""
    state = new_game(
        AKTOBE_RULES, [cards("KS QS"), cards("8C QD"), cards("9C 10C")], [], hidden=[-1, -1, -1],
        hidden_trump=parse_card("2H"), first_attacker=0,
    )
    play(state, 0, attack(parse_card("QS")))  # down to one card: he may still say it
    play(state, 1, TAKE_ACTION)
    assert state.forgot == 0
    play(state, 0, PASS_ACTION)  # he acts again, keeping his one card, and has not said it
    assert state.forgot == 1 << 0 and public_view(state)["forgot"] == [0]
    assert challenge(0) in legal_actions(state, 2)


# --- the epaulette ladder -------------------------------------------------------------------------------------------


def endgame(series: Series, winner: int, lead: str, other_hand: str, trump: str = "H") -> dict[str, Any]:
    """A record of a game's last bout: ``winner`` leads his last cards, the other seat takes them and is the
    durak (a record may start mid-game: RULES.md, Decisions, Records)."""
    hands: list[list[str]] = [[], []]
    hands[winner] = lead.split()
    hands[1 - winner] = other_hand.split()
    return {
        "rules": {"epaulette_ladder": True, "next_game_first": "under_fool"}, "players": 2, "hands": hands, "stock": [],
        "trump": trump, "first_attacker": winner, "series": series.to_json(),
        "actions": [{"seat": winner, "type": "attack", "cards": lead.split()}, {"seat": 1 - winner, "type": "take"}],
    }


def final_result(replay: Replay) -> GameResult:
    assert replay.state is not None and replay.state.result is not None
    return replay.state.result


def test_an_epaulette_ladder_series_played_to_the_queen() -> None:
    """Seed 000: each side hangs 6, 7, 8, 9, 10, J, K, A and last the queen chosen before the series (hearts),
    alone. Games without epaulettes and games won by the other side are played in between; a side's rank only
    climbs with its own epaulettes; hanging the queen of hearts ends the series."""
    series = series_start(2, queen_suit=SUITS.index("H"))
    assert series.ranks() == [4, 4] and series.queen == parse_card("QH")
    rungs = ["6", "7", "8", "9", "10", "J", "K", "A"]
    history = []
    for step, rank in enumerate(rungs):
        # Seat 0 hangs his rung (a plain card and, from the 8s on, its trump beside it) ...
        lead = f"{rank}C" if step < 2 else f"{rank}C {rank}H"
        game = replay_json(endgame(series, 0, lead, "7S 9S"))
        result = game.to_json()["result"]
        assert result["epaulettes"] == {"seat": 1, "by": 0, "rank": rank, "cards": sorted(lead.split(), key=parse_card)}
        series = series_after_game(series, final_result(game))
        history.append(series.to_json()["ranks"])
        # ... and every other game seat 1 wins on a card that is not his rung: no epaulettes, nothing climbs.
        if step % 2:
            game = replay_json(endgame(series, 1, "KD", "7S 9S"))
            result = game.to_json()["result"]
            assert result["epaulettes"] is None and result["durak"] == 0
            series = series_after_game(series, final_result(game))
            assert series.previous_durak == 0
            # next_game_first: under_fool in a series: the player on the previous durak's left leads.
            under_fool = Rules(next_game_first="under_fool")
            assert first_attacker_for(under_fool, [cards("6H"), cards("7H")], 3, series.previous_durak) == 1
    assert history[0] == ["7", "6"] and history[-1] == ["Q", "6"]
    # A queen of another suit, or the chosen one beside another queen, hangs nothing.
    for lead in ("QS", "QH QS"):
        game = replay_json(endgame(series, 0, lead, "7S 9S"))
        result = game.to_json()["result"]
        assert result["epaulettes"] is None
    # Seat 1 hangs his own sixes meanwhile: his rung climbs, the series goes on.
    game = replay_json(endgame(series, 1, "6D", "7S 9S"))
    result = game.to_json()["result"]
    assert result["epaulettes"]["rank"] == "6"
    series = series_after_game(series, final_result(game))
    assert series.to_json()["ranks"] == ["Q", "7"] and not series.finished
    # The queen of hearts alone, a trump here: the series is over, seat 0's side has won it.
    game = replay_json(endgame(series, 0, "QH", "7S 9S"))
    result = game.to_json()["result"]
    assert result["epaulettes"] == {"seat": 1, "by": 0, "rank": "Q", "cards": ["QH"]}
    series = series_after_game(series, final_result(game))
    assert series.finished and series.winner == 0
    assert series.games == len(rungs) + len(rungs) // 2 + 2
    with pytest.raises(MalformedRecord, match="over"):
        series_after_game(series, final_result(game))


def test_series_json_round_trip_and_teams() -> None:
    series = series_start(4, queen_suit=0, teams=((0, 2), (1, 3)))
    assert series.ranks() == [LADDER[0]] * 4 and series.side_of(3) == 1
    assert series_from_json(json.loads(json.dumps(series.to_json())), 4) == series
    with pytest.raises(MalformedRecord, match="every seat once"):
        series_from_json({"sides": [[0, 1], [1, 3]]}, 4)
    with pytest.raises(MalformedRecord, match="queen"):
        series_from_json({"queen": "KH"}, 2)


def test_the_jokers_are_in_the_54_card_deck_only() -> None:
    assert deck_mask(54) & JOKERS == JOKERS and not deck_mask(52) & JOKERS
