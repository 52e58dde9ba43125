"""bench/duplicate.py's field of policies (bench.handicapped): every policy plays whole games with legal moves,
each handicap does what it says, and with the arena's ``first_listed`` a game between two policies depends on
the deal and the seats alone (the deal is the only luck), while the arena's draw of who acts does not."""

from __future__ import annotations

import random

from bench.handicapped import HANDICAPS, PASS_ACTION, TAKE_ACTION, all_policies, handicapped, policy_name
from games.bots.arena import play_game
from games.bots.heuristic import dear_cards
from games.bots.knowledge import GameMemory, observe
from games.engine import actors, deal, play
from games.engine.actions import ATTACK, COVER, THROW, Action
from games.engine.legal import legal_actions
from games.engine.rules import preset_rules

RULES = preset_rules("podkidnoy")


def _game(seed: str, first: str, second: str, rng: random.Random, *, first_listed: bool) -> list[tuple[int, Action]]:
    state = deal(RULES, 2, seed=seed, salt="test").state()
    record = play_game(state, [handicapped(first), handicapped(second)], rng, first_listed=first_listed)
    assert state.finished
    return record.actions


def test_the_field_is_every_set_of_handicaps() -> None:
    policies = all_policies()
    assert len(policies) == len(set(policies)) == 2 ** len(HANDICAPS)
    assert policies[0] == "heuristic" and policy_name(HANDICAPS[::-1]) == "+".join(HANDICAPS)


def test_every_policy_plays_whole_games_with_legal_moves() -> None:
    # play_game checks every move with the engine's validating play().
    policies = all_policies()
    for index, policy in enumerate(policies):
        _game(f"legal {index}", policy, policies[-1 - index], random.Random(index), first_listed=index % 2 == 0)


def test_each_handicap_changes_the_moves_it_names() -> None:
    """Over a few games against the heuristic, each handicap's player never makes the moves it gives up
    (while the stock lasts, for trumps and leads), and the heuristic at the same seat would have made some."""
    for handicap in ("throws", "trumps", "leads"):
        bot, heuristic_bot = handicapped(handicap), handicapped("heuristic")
        differs = 0
        for number in range(6):
            state = deal(RULES, 2, seed=f"handicap {number}", salt="test").state()
            rng = random.Random(number)
            memory = GameMemory()
            seen = 0
            while not state.finished:
                seat = actors(state)[0]
                observation = observe(state, seat, seen, memory.history)
                action = (bot if seat == 0 else heuristic_bot)(observation, rng)
                legal = legal_actions(state, seat)
                trumps = dear_cards(state)
                if seat == 0 and len(legal) > 1:
                    differs += heuristic_bot(observation, random.Random(0)) != action
                    if handicap == "throws":
                        assert action.kind != THROW or PASS_ACTION not in legal
                    if handicap == "trumps" and action.kind == COVER and state.stock:
                        assert not action.cards & trumps or TAKE_ACTION not in legal
                    plain = state.hands[0] & ~trumps
                    if handicap == "leads" and action.kind == ATTACK and not state.attack and state.stock and plain:
                        assert action.cards == 1 << (plain.bit_length() - 1)
                memory.remember(state, seat, action, seen)
                play(state, seat, action)
                seen |= action.cards
        assert differs > 0, handicap


def test_with_the_first_listed_acting_the_deal_decides_the_game() -> None:
    # The same deal and policies, different random draws: the same game when the defender answers first.
    for number in range(4):
        games = {tuple(map(str, _game(f"order {number}", "throws", "leads", random.Random(seed), first_listed=True)))
                 for seed in range(3)}  # fmt: skip
        assert len(games) == 1
    # With the arena's draw of who acts, some deal is played differently.
    drawn = {tuple(map(str, _game(f"order {number}", "throws", "leads", random.Random(seed), first_listed=False)))
             for number in range(4) for seed in range(3)}  # fmt: skip
    assert len(drawn) > 4
