"""The bots play Aktobe sensibly (issue 8): the heuristic beats the random bot, spends its jokers last, says
"one card!" in time (so heuristic tables never see "how many cards?"), asks only a player it saw forget, gives
away its cheapest card when it owes one, and takes the lead with a lower trump in the duel."""

from __future__ import annotations

import random

from games.bots import BOTS
from games.bots.arena import new_state, play_game
from games.bots.knowledge import observe, seen_in_log
from games.engine import Action, Rules, new_game, play
from games.engine.actions import ANNOUNCE, CHALLENGE, COVER, DUEL, GIVE, TAKE_ACTION, attack, challenge
from games.engine.cards import JOKERS, mask_of, parse_card

AKTOBE = Rules.from_dict({"preset": "aktobe"})


def cards(text: str) -> int:
    return mask_of(parse_card(name) for name in text.split())


def test_the_heuristic_beats_the_random_bot_at_aktobe() -> None:
    """Heads-up, the heuristic in either seat: it is the durak far less often than the random bot."""
    games = 40
    not_durak = 0
    for number in range(games):
        hero = number % 2
        bots = [BOTS["random"], BOTS["random"]]
        bots[hero] = BOTS["heuristic"]
        state = new_state(AKTOBE, 2, f"aktobe-strength-{number}")
        play_game(state, bots, random.Random(number))
        assert state.result is not None
        not_durak += state.result.durak != hero
    assert not_durak >= 30, not_durak


def test_heuristic_tables_say_one_card_in_time_and_spend_jokers_last() -> None:
    announced = 0
    for number in range(12):
        players = 2 + number % 3
        state = new_state(AKTOBE, players, f"aktobe-self-{number}")
        record = play_game(state, [BOTS["heuristic"]] * players, random.Random(number))
        kinds = [action.kind for _, action in record.actions]
        assert CHALLENGE not in kinds and GIVE not in kinds  # nobody forgot, so nobody was asked
        announced += kinds.count(ANNOUNCE)
    assert announced > 12


def test_a_joker_covers_only_when_nothing_cheaper_does() -> None:
    no_duel = Rules.from_dict({"preset": "aktobe", "trump_duel": False})  # seat 0 leads without a trump
    state = new_game(no_duel, [cards("9C 4D"), cards("RJ 10C 2H 5S")], [parse_card("3D"), parse_card("7H")],
                     hidden=[parse_card("6S"), parse_card("6C")], hidden_trump=parse_card("8S"), first_attacker=0)
    play(state, 0, attack(parse_card("9C")))
    action = BOTS["heuristic"](observe(state, 1, seen_in_log([])), random.Random(1))
    assert action == Action(COVER, 1 << parse_card("10C"), parse_card("9C"))
    state = new_game(no_duel, [cards("9C 4D"), cards("RJ 8C 2H 5S")], [parse_card("3D"), parse_card("7H")],
                     hidden=[parse_card("6S"), parse_card("6C")], hidden_trump=parse_card("8S"), first_attacker=0)
    play(state, 0, attack(parse_card("9C")))
    action = BOTS["heuristic"](observe(state, 1, seen_in_log([])), random.Random(1))
    assert action.kind == COVER and not action.cards & JOKERS  # the trump 2H, not the joker


def test_the_heuristic_wins_the_duel_and_gives_its_cheapest_card() -> None:
    """Spades are trumps. Seat 1 leads out of turn holding 9S, though seat 0 holds 3S: seat 0 shows it and so
    takes the lead; seat 1, who led, owes him a card and gives its cheapest (RULES.md, Aktobe)."""
    log = [(1, attack(parse_card("KD")))]
    state = new_game(AKTOBE, [cards("3S 9C JH AD"), cards("9S KD KC")], [parse_card("5H"), parse_card("AS")],
                     hidden=[parse_card("2D"), parse_card("3D")], hidden_trump=parse_card("4D"))
    play(state, *log[0])
    duel = BOTS["heuristic"](observe(state, 0, seen_in_log(log)), random.Random(1))
    assert duel.kind == DUEL and duel.card == parse_card("3S")
    play(state, 0, duel)
    log.append((0, duel))
    give = BOTS["heuristic"](observe(state, 1, seen_in_log(log)), random.Random(1))
    assert give.kind == GIVE and give.cards in (1 << parse_card("KC"), 1 << parse_card("KD"))  # not the trump 9S


def test_the_heuristic_asks_only_a_player_it_saw_forget() -> None:
    state = new_game(AKTOBE, [cards("KS QS"), cards("8C QD 10D"), cards("9C 10C 2C")], [], hidden=[-1, -1, -1],
                     hidden_trump=parse_card("2H"), first_attacker=0)
    log = [(0, attack(parse_card("QS")))]
    play(state, *log[0])
    # Seat 0 has just come down to one card: the defender covers rather than ask at once.
    action = BOTS["heuristic"](observe(state, 1, seen_in_log(log)), random.Random(1))
    assert action.kind != CHALLENGE
    play(state, 1, TAKE_ACTION)
    play(state, 0, Action(6))  # seat 0 passes without saying "one card!"
    action = BOTS["heuristic"](observe(state, 2, seen_in_log(log)), random.Random(1))
    assert action == challenge(0)
