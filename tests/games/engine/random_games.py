"""Random tables and random games for the engine's property tests: a hypothesis strategy over every option of
RULES.md this engine plays (the Aktobe preset and each of its rules on any deck among them), a seeded random
player, and the invariants every state must keep."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine import Action, Rules, State, actors, deal, legal_actions, play
from games.engine.actions import ACCUSE, COVER, THROW
from games.engine.cards import CARDS_OF_RANKS, deck_mask

# Deterministic in CI (the same examples every run, so a red build is reproducible); random locally, where
# hypothesis' database replays what failed before.
IN_CI = os.environ.get("CI") == "true"


def property_settings(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=IN_CI,
        suppress_health_check=[HealthCheck.too_slow],
    )


# Random play ends with probability 1 but nothing bounds it in principle (takes move cards round the table,
# caught cheats put cards back); real random games here take at most a few thousand actions (52 cards,
# 8 players, a cheating table), so a game still running after this many is stuck in a loop.
MAX_ACTIONS = 50_000

# How often the random player accuses at a cheating table when it has other moves: accusations are always
# legal there, and a player who made them as often as moves would mostly argue.
ACCUSE_SHARE = 0.05


@dataclass(frozen=True)
class Table:
    rules: Rules
    players: int
    seed: int
    stake: int

    def new_state(self) -> tuple[State, Any]:
        dealt = deal(self.rules, self.players, seed=f"property-{self.seed}")
        return dealt.state(stake=self.stake), dealt


AKTOBE_FLAGS = (
    "hidden_cards", "transfer_beyond_hand", "unlimited_throw_in_on_take", "one_card", "trump_duel",
    "no_attack_with_epaulettes",
)


@st.composite
def tables(draw: st.DrawFn, cheating: bool | None = None, aktobe: bool | None = None) -> Table:
    """Any rule set of RULES.md, any allowed player count, any deal. One table in three plays Aktobe's rules:
    the preset itself (either joker rule) or any of its rules on any deck, mixed with the other options."""
    with_aktobe = draw(st.sampled_from([False, False, True])) if aktobe is None else aktobe
    deck = draw(st.sampled_from([24, 36, 52, 54] if with_aktobe else [24, 36, 52, 54, 36, 52]))
    flags = {name: False for name in AKTOBE_FLAGS}
    if with_aktobe:
        preset = draw(st.booleans())
        for name in AKTOBE_FLAGS:
            flags[name] = draw(st.booleans()) if not preset else name != "no_attack_with_epaulettes"
        if preset:
            deck = 54
    probe = Rules(deck=deck, hidden_cards=flags["hidden_cards"])
    players = draw(st.integers(2, probe.max_players))
    transfer = draw(st.booleans()) or flags["transfer_beyond_hand"]
    teams = None
    if players in (4, 6):
        teams = draw(st.sampled_from([None, "2v2" if players == 4 else "3v3"]))
    rules = Rules(
        deck=deck,
        transfer=transfer,
        transfer_by_showing_trump=transfer and draw(st.booleans()),
        throw_in=draw(st.sampled_from(["all", "neighbours"])),
        first_bout_limit=draw(st.sampled_from([6, 5])),
        teams=teams,
        # One table in four cheats: cheating games run several times longer, and a quarter of the examples
        # is plenty to exercise accusations.
        cheating=draw(st.sampled_from([False, False, False, True])) if cheating is None else cheating,
        joker_beats=draw(st.sampled_from(["all", "same_colour"])) if deck == 54 else "all",
        hidden_cards=flags["hidden_cards"], transfer_beyond_hand=flags["transfer_beyond_hand"],
        unlimited_throw_in_on_take=flags["unlimited_throw_in_on_take"], one_card=flags["one_card"],
        trump_duel=flags["trump_duel"], no_attack_with_epaulettes=flags["no_attack_with_epaulettes"],
    )
    return Table(rules, players, draw(st.integers(0, 2**32)), draw(st.sampled_from([0, 20, 100])))


# At a cheating table the random player plays an honest move this often when it has one: a player who
# cheated with every cover would make games several times longer and mostly exercise accusations.
HONEST_SHARE = 0.75


def is_honest(state: State, action: Action) -> bool:
    if action.kind == COVER:
        return bool(state.beaters[action.target] >> action.card & 1)
    if action.kind == THROW:
        return not action.cards & ~CARDS_OF_RANKS[state.table_ranks]
    return True


def choose(state: State, seat: int, rng: random.Random) -> Action:
    actions = legal_actions(state, seat)
    assert actions, f"seat {seat} was chosen to act but has no legal action"
    if not state.rules.cheating:
        return rng.choice(actions)
    moves = [action for action in actions if action.kind != ACCUSE]
    if not moves or rng.random() < ACCUSE_SHARE:
        return rng.choice(actions)
    if rng.random() < HONEST_SHARE:
        honest = [action for action in moves if is_honest(state, action)]
        if honest:
            return rng.choice(honest)
    return rng.choice(moves)


def acting_seat(state: State, rng: random.Random) -> int:
    """A seat chosen uniformly among those who may act. At a cheating table everyone in the game may accuse,
    and actors() lists them by listing every seat's actions; trying seats in random order is the same draw
    for less work (test_properties checks actors() itself)."""
    if not state.rules.cheating:
        seats = actors(state)
        assert seats, "the game is not over but nobody can act"
        return rng.choice(seats)
    seats = [seat for seat in range(state.n) if not state.out_mask >> seat & 1]
    rng.shuffle(seats)
    for seat in seats:
        if legal_actions(state, seat):
            return seat
    raise AssertionError("the game is not over but nobody can act")


def random_game(state: State, rng: random.Random) -> Iterator[tuple[int, Action]]:
    """Plays ``state`` to its end in place, one random legal action at a time, yielding each (seat, action)
    after it has been applied. Fails if nobody can act in an unfinished game or the game does not end."""
    for _ in range(MAX_ACTIONS):
        if state.finished:
            return
        seat = acting_seat(state, rng)
        action = choose(state, seat, rng)
        play(state, seat, action)
        yield seat, action
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


def card_set(state: State) -> tuple[int, int]:
    """(every card in play as one mask, how many cards were counted): equal bit count means no card twice."""
    mask = count = 0
    for hand in state.hands:
        mask |= hand
        count += hand.bit_count()
    for card in state.attack:
        mask |= 1 << card
        count += 1
    for card in state.cover:
        if card >= 0:
            mask |= 1 << card
            count += 1
    for card in state.stock:
        mask |= 1 << card
        count += 1
    mask |= state.discard
    count += state.discard.bit_count()
    # Aktobe: the hidden cards still face down, and the card under the trump (out of play once turned up).
    hidden = [state.face_down(seat) for seat in range(state.n)] + [state.hidden_trump]
    for card in hidden:
        if card >= 0:
            mask |= 1 << card
            count += 1
    return mask, count


def check_cards_conserved(state: State, deck: int) -> None:
    """Hands + table + stock + discard are the dealt deck, and no card is in two places."""
    mask, count = card_set(state)
    assert count == mask.bit_count(), "a card is in two places"
    assert mask == deck_mask(deck), "a card appeared or vanished"
    assert state.discard_count == state.discard.bit_count()
    assert len(state.cover) == len(state.attack)
    assert state.open == sum(1 for card in state.cover if card < 0)


_FIELDS: list[str] = []


def state_fields(state: State) -> list[str]:
    # Compiled with mypyc a State has no __slots__ to list, so its fields are its non-callable attributes.
    if not _FIELDS:
        _FIELDS.extend(name for name in dir(state) if not name.startswith("_") and not callable(getattr(state, name)))
    return _FIELDS


def snapshot(state: State) -> dict[str, Any]:
    """Every field of a state as plain values, to compare two states or see that a refused action changed
    nothing."""
    values = {}
    for name in state_fields(state):
        value = getattr(state, name)
        values[name] = list(value) if isinstance(value, list) else value
    return values
