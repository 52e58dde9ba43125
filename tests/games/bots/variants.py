"""The tables the bots' tests play: every option the engine plays, 2 to 8 players, decks of 24, 36 and 52."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.bots import heuristic, random_bot
from games.bots.knowledge import GameMemory, Observation, observe
from games.engine import Action, Rules, State, actors, deal, play, play_trusted

# (rules, players): podkidnoy and perevodnoy at 2 to 6, the trump-show transfer, teams 2v2 and 3v3, cheating
# tables, throw-in by neighbours only, the 5-card first bout, and the 24- and 52-card decks.
VARIANTS: list[tuple[Rules, int]] = [
    (Rules(), 2),
    (Rules(), 3),
    (Rules(), 6),
    (Rules(transfer=True), 2),
    (Rules(transfer=True), 4),
    (Rules(transfer=True, transfer_by_showing_trump=True), 3),
    (Rules(teams="2v2"), 4),
    (Rules(teams="3v3", transfer=True), 6),
    (Rules(cheating=True), 2),
    (Rules(cheating=True, transfer=True), 4),
    (Rules(throw_in="neighbours", first_bout_limit=5), 5),
    (Rules(deck=24), 2),
    (Rules(deck=24, transfer=True), 4),
    (Rules(deck=52), 8),
    (Rules(deck=52, transfer=True), 3),
    # Aktobe (issue 8): 54 cards, hidden cards, the changing trump, "one card!", the duel for the first lead.
    (Rules.from_dict({"preset": "aktobe"}), 2),
    (Rules.from_dict({"preset": "aktobe"}), 3),
    (Rules.from_dict({"preset": "aktobe", "joker_beats": "same_colour"}), 5),
]


def variant_id(variant: tuple[Rules, int]) -> str:
    rules, players = variant
    options = [f"{players}p", f"deck{rules.deck}"]
    if rules.transfer:
        options.append("show-trump" if rules.transfer_by_showing_trump else "transfer")
    if rules.teams:
        options.append(rules.teams)
    if rules.cheating:
        options.append("cheating")
    if rules.throw_in != "all":
        options.append("neighbours")
    if rules.first_bout_limit != 6:
        options.append("limit5")
    if rules.hidden_cards:
        options.append("aktobe")
    if rules.joker_beats != "all":
        options.append("same-colour")
    return "-".join(options)


def new_state(rules: Rules, players: int, seed: str) -> State:
    return deal(rules, players, seed=seed, salt="salt").state()


def random_positions(rules: Rules, players: int, seed: str, every: int) -> Iterator[tuple[State, int, list[tuple[int, Action]]]]:
    """Positions of a random game (the state, a seat that may act, the log so far), one every ``every`` actions;
    the state is a copy the caller may keep."""
    state = new_state(rules, players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Action]] = []
    while not state.finished:
        seats = actors(state)
        seat = seats[int(rng.random() * len(seats))]
        if len(log) % every == every - 1:
            yield state.copy(), seat, list(log)
        action = random_bot.choose(state, seat, rng)
        play_trusted(state, seat, action)
        log.append((seat, action))


def shuffle_hidden(state: State, seat: int, seen: int, rng: random.Random) -> State:
    """A copy of ``state`` in which the cards ``seat`` cannot place are dealt anew among the places they could
    be: the other hands (each keeps its count and its known cards, the ones among ``seen``) and the stock
    (its count kept, the face-up card left at its bottom). Written apart from games.bots.knowledge, from the
    rules of what is public: the table, the discard, the face-up card and every card seen in the log."""
    shuffled = state.copy()
    public = seen | state.discard | state.table_mask()
    if state.trump_card >= 0:
        public |= 1 << state.trump_card
    pool: list[int] = []
    for other in range(state.n):
        if other != seat:
            pool += [card for card in range(54) if state.hands[other] >> card & 1 and not public >> card & 1]
    face_up_at_bottom = bool(state.stock) and state.stock[0] == state.trump_card
    stock_hidden = state.stock[1:] if face_up_at_bottom else state.stock[:]
    pool += stock_hidden
    # Aktobe: every hidden card still face down (his own too) and the card under the trump while the stock lasts.
    face_down = [other for other in range(state.n) if state.face_down(other) >= 0]
    pool += [state.hidden[other] for other in face_down]
    under = state.hidden_trump >= 0 and bool(state.stock)
    if under:
        pool.append(state.hidden_trump)
    rng.shuffle(pool)
    start = 0
    for other in range(state.n):
        if other == seat:
            continue
        known = state.hands[other] & public
        need = state.hands[other].bit_count() - known.bit_count()
        hand = known
        for card in pool[start:start + need]:
            hand |= 1 << card
        shuffled.hands[other] = hand
        start += need
    for other in face_down:
        shuffled.hidden[other] = pool[start]
        start += 1
    if under:
        shuffled.hidden_trump = pool[start]
        start += 1
    shuffled.stock = ([state.stock[0]] if face_up_at_bottom else []) + pool[start:]
    return shuffled


def heuristic_self_play(games: int, seed: str, rng_seed: int) -> Iterator[tuple[State, Observation]]:
    """Every position of ``games`` heads-up podkidnoy games the heuristic plays against itself, as the state
    and the observation of the seat to act (with the game's public steps), before it acts."""
    rng = random.Random(rng_seed)
    for game in range(games):
        state = new_state(Rules(), 2, f"{seed}:{game}")
        seen, memory = 0, GameMemory()
        while not state.finished:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            observation = observe(state, seat, seen, memory.history)
            yield state, observation
            action = heuristic.choose(observation, rng)
            memory.remember(state, seat, action, seen)
            play(state, seat, action)
            seen |= action.cards
