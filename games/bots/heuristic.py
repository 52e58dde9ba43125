"""The heuristic bot: how a sound club player plays, as rules over the cards (the "medium" level, and the
rollout policy of the search bot).

Cards are valued by rank, every trump above every plain card (Aktobe's jokers above every trump). The bot
leads and covers with its cheapest cards, keeps its trumps, throws in every plain card it can, takes a bout
it cannot win rather than cover part of it, transfers whenever it can cheaply, counts cards once the stock
is empty, and heads-up with the stock empty plays a move the endgame solver (``endgame``) proves. At a
cheating table it accuses every card it can tell was illegal and never cheats itself. Its play, rule by
rule: docs/architecture.md, "Bots"; its weights were tuned by self-play (docs/experiments.md,
games.bots.heuristic.decide).

``decide(state, seat, possible)`` is the core: it reads only the public facts of ``state``, the seat's own
hand and ``possible`` (the cards each seat may hold), so the bot calls it on a state filled from its
observation, and the search bot's playouts call it on sampled states.
"""

from __future__ import annotations

import random
from typing import Final

from games.engine.acting import movers
from games.engine.actions import (
    ACCUSE, ANNOUNCE, ATTACK, CHALLENGE, COVER, DUEL, GIVE, PASS, SHOW_TRUMP, TAKE, THROW, TRANSFER, Action,
)
from games.engine.aktobe import barred_leads, must_cover_with, one_card_due
from games.engine.cards import CARDS_OF_RANKS, JOKERS, RANK_MASK, SUIT_MASK, popcount
from games.engine.legal import legal_actions
from games.engine.state import State
from games.engine.table import throw_room

from .endgame import NOT_LOSE, exact_endgame, winning_move
from .knowledge import Observation

TAKE_ACTION: Final = Action(TAKE)
PASS_ACTION: Final = Action(PASS)
ANNOUNCE_ACTION: Final = Action(ANNOUNCE)

# Leading two cards of a rank is worth as much as leading a card this many ranks lower.
PAIR_BONUS: Final = 3
# Leading a rank whose trump the bot holds is worth as much as leading a card this many ranks higher: when the
# engine asks it to act before the defender answers, its only moves are throw-ins of that rank.
TRUMP_IN_RANK_PENALTY: Final = 2
# Positions the endgame solver may visit for one move (a move costs a few milliseconds at most).
ENDGAME_BUDGET: Final = 3_000
# Covering with a card of a rank that is not on the table yet, and that a player who may throw in may hold,
# costs as much as covering with a card this many ranks higher: he may throw that rank in too. (Above 8 it
# changes nothing: a trump is never preferred to a plain card.)
NEW_RANK_PENALTY: Final = 8
# Leading plain cards the defender can beat with no plain card (he must spend a trump or take) is worth as much
# as leading cards this many ranks lower.
FORCING_LEAD_BONUS: Final = 4
# With three or more players, leading what the next player cannot beat can go round for ever: each taker
# passes the cards on the same way. Past this many bouts (a game takes 10 to 30) the bot leads its cheapest card,
# and at a table (``choose``, and the search bot) it plays a random honest move LONG_GAME_RANDOM of the time:
# the cheapest card can be one of those going round, and a deterministic bot cannot leave such a cycle
# (how often it happened: docs/experiments.md, games.bots.heuristic.LONG_GAME_BOUTS).
LONG_GAME_BOUTS: Final = 60
LONG_GAME_RANDOM: Final = 0.25


def dear_cards(state: State) -> int:
    """The cards the bot spends last: the trumps, and the jokers (54 cards), which beat even trumps."""
    return (SUIT_MASK[state.trump] if state.trump >= 0 else 0) | JOKERS


def _lowest_bit_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def cheapest(cards: int, trumps: int) -> int:
    """The card of ``cards`` that is cheapest to part with: the lowest plain card, else the lowest trump."""
    plain = cards & ~trumps
    return _lowest_bit_card(plain if plain else cards)


def card_cost(card: int, trumps: int) -> int:
    """A card's worth: its rank, every trump above every plain card."""
    return (card >> 2) + (13 if trumps >> card & 1 else 0)


def _rank_groups(cards: int) -> list[int]:
    groups = []
    while cards:
        low = cards & -cards
        group = cards & RANK_MASK[(low.bit_length() - 1) >> 2]
        groups.append(group)
        cards &= ~group
    return groups


def first_cards(cards: int, count: int) -> int:
    """The ``count`` lowest cards of ``cards``."""
    chosen = 0
    while cards and count > 0:
        low = cards & -cards
        chosen |= low
        cards ^= low
        count -= 1
    return chosen


def cover_card(state: State, options: int, trumps: int, throwable: int) -> int:
    """The card of ``options`` to cover with: a plain card if there is one, the cheapest, where a rank that is
    not on the table and of which ``throwable`` (the cards the others may throw in) holds a card costs
    NEW_RANK_PENALTY more, since covering with it lets them throw that rank in."""
    plain = options & ~trumps
    pool = plain if plain else options
    best, best_score = -1, 1 << 30
    table_ranks = state.table_ranks
    while pool:
        low = pool & -pool
        pool ^= low
        card = low.bit_length() - 1
        rank = card >> 2
        score = card_cost(card, trumps)
        if not table_ranks >> rank & 1 and throwable & RANK_MASK[rank]:
            score += NEW_RANK_PENALTY
        if score < best_score:
            best, best_score = card, score
    return best


def cover_plan(state: State, hand: int, throwable: int = 0) -> list[tuple[int, int]] | None:
    """Which card covers which open attack card, cheaply; None if some card cannot be covered.

    The attack cards with the fewest beaters in hand are served first, each with the beater ``cover_card``
    picks (``throwable``: the cards the others may throw in)."""
    beaters = state.beaters
    trumps = dear_cards(state)
    if state.open == 1:
        # The usual case, and the search's playouts call this at every defence: no sorting to do.
        attack = state.attack[state.cover.index(-1)]
        options = beaters[attack] & hand
        if not options:
            return None
        return [(attack, cover_card(state, options, trumps, throwable))]
    open_cards = [attack for attack, covering in zip(state.attack, state.cover) if covering < 0]
    open_cards.sort(key=lambda attack: popcount(beaters[attack] & hand))
    used = 0
    plan = []
    for attack in open_cards:
        options = beaters[attack] & hand & ~used
        if not options:
            return None
        card = cover_card(state, options, trumps, throwable)
        used |= 1 << card
        plan.append((attack, card))
    return plan


def decide(state: State, seat: int, possible: list[int]) -> Action:
    """The heuristic's move for ``seat``, who must be one of the seats that may act (not only by accusing).

    Reads the table, the counts, the stock count, the discard, the seat's own hand and ``possible``."""
    if state.special:
        if state.owed:
            # Only owed cards are given now; the cheapest goes.
            return Action(GIVE, 1 << cheapest(state.hands[seat], dear_cards(state)))
        if one_card_due(state, seat):
            return ANNOUNCE_ACTION
    if not state.attack:
        return _lead(state, seat, possible)
    if seat == state.defender and not state.taken and state.open:
        return _defend(state, seat, possible)
    return _throw_or_pass(state, seat)


def _lead(state: State, seat: int, possible: list[int]) -> Action:
    hand = state.hands[seat]
    trumps = dear_cards(state)
    if state.special and state.rules.no_attack_with_epaulettes:
        allowed = hand & ~barred_leads(state, seat)
        hand = allowed if allowed else hand
    limit = state.limit
    if state.bouts > LONG_GAME_BOUTS:
        return Action(ATTACK, 1 << cheapest(hand, trumps))
    if not state.stock:
        return Action(ATTACK, _endgame_lead(state, hand, trumps, limit, possible[state.defender]))
    plain = hand & ~trumps
    if not plain:
        return Action(ATTACK, hand & -hand)
    best, best_score = 0, 1 << 30
    held_trumps = hand & trumps
    beaters = state.beaters
    defender_plain = possible[state.defender] & ~trumps
    rest = plain
    while rest:
        rank = ((rest & -rest).bit_length() - 1) >> 2
        group = rest & RANK_MASK[rank]
        rest ^= group
        count = popcount(group)
        if count > limit:
            count = limit
            group = first_cards(group, limit)
        score = rank - PAIR_BONUS * (count - 1)
        if held_trumps & RANK_MASK[rank]:
            score += TRUMP_IN_RANK_PENALTY
        if _forcing(group, beaters, defender_plain):
            score -= FORCING_LEAD_BONUS
        if score < best_score:
            best, best_score = group, score
    return Action(ATTACK, best)


def _forcing(lead: int, beaters: tuple[int, ...], defender_plain: int) -> bool:
    """Whether the defender may hold no plain card that beats a card of ``lead``: to cover, he must spend a
    trump on each."""
    while lead:
        low = lead & -lead
        lead ^= low
        if beaters[low.bit_length() - 1] & defender_plain:
            return False
    return True


def _endgame_lead(state: State, hand: int, trumps: int, limit: int, defender_may_hold: int) -> int:
    """With the stock empty: lead what the defender cannot beat, many cards at once, the cheapest first;
    keep the high trumps for last. A trump goes with the plain cards of its rank only when they are the whole
    hand: a trump he must take is a trump he then holds."""
    beaters = state.beaters
    best, best_score = 0, -(1 << 30)
    for group in _rank_groups(hand):
        plain = group & ~trumps
        # The plain cards of the rank alone, and the whole rank with its trump if that is the whole hand.
        for lead in (plain, group) if plain and plain != group and group == hand else (plain if plain else group,):
            lead = first_cards(lead, limit)
            count = popcount(lead)
            unbeatable = 0
            cost = 0
            rest = lead
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                rest ^= low
                cost += card_cost(card, trumps)
                if not beaters[card] & defender_may_hold:
                    unbeatable += 1
            score = 4 * count + 10 * unbeatable - cost // count
            if lead == hand:
                score += 100
            if score > best_score:
                best, best_score = lead, score
    return best


def _defend(state: State, seat: int, possible: list[int]) -> Action:
    hand = state.hands[seat]
    trumps = dear_cards(state)
    if state.forced_take:
        return TAKE_ACTION  # an epaulette lead (no_attack_with_epaulettes)
    throwable, sure = _throwers_cards(state, seat, possible)
    plan = cover_plan(state, hand, throwable)
    rules = state.rules
    if rules.transfer and not state.covered:
        transfer = _transfer(state, seat, hand, trumps)
        if transfer is not None:
            return transfer
    if plan is None:
        if state.hidden_cards:
            card = must_cover_with(state)
            if card >= 0:
                # He holds only his turned-up hidden card and it beats an open card: he must cover with it.
                for attack, covering in zip(state.attack, state.cover):
                    if covering < 0 and state.beaters[attack] >> card & 1:
                        return Action(COVER, 1 << card, attack)
        return TAKE_ACTION
    if not state.special and _covering_in_vain(state, hand, plan, sure & ~trumps):
        return TAKE_ACTION
    # Any order covers with the same cards; self-play found the dearest first no worse than the cheapest first.
    attack, card = plan[0] if len(plan) == 1 else max(plan, key=lambda pair: card_cost(pair[1], trumps))
    return Action(COVER, 1 << card, attack)


def _throwers_cards(state: State, seat: int, possible: list[int]) -> tuple[int, int]:
    """The cards the other players in the game may hold, and those they surely hold (every card of a player
    whose every card is known: heads-up with the stock empty, and in the search's playouts)."""
    may = sure = 0
    for other in range(state.n):
        if other == seat or state.out_mask >> other & 1:
            continue
        cards = possible[other]
        may |= cards
        if popcount(cards) == popcount(state.hands[other]):
            sure |= cards
    return may, sure


def _covering_in_vain(state: State, hand: int, plan: list[tuple[int, int]], threat: int) -> bool:
    """Whether, after covering by ``plan``, the others surely hold cards of the table's ranks (``threat``: plain
    cards, since a player rarely throws in a trump) that the rest of the hand cannot beat. Taking at once
    then takes fewer cards: the covers stay in hand and their ranks give no more throw-ins."""
    room = throw_room(state)
    if room <= 0 or not threat:
        return False
    covers = 0
    ranks = state.table_ranks
    for _attack, card in plan:
        covers |= 1 << card
        ranks |= 1 << (card >> 2)
    threat &= CARDS_OF_RANKS[ranks]
    if not threat:
        return False
    rest = hand & ~covers
    beaters = state.beaters
    cards: list[int] = []
    while threat:
        low = threat & -threat
        threat ^= low
        cards.append(low.bit_length() - 1)
    # The cards hardest to beat come first; at most ``room`` of them can be thrown in.
    cards.sort(key=lambda card: popcount(beaters[card] & rest))
    trumps = dear_cards(state)
    for card in cards[:room]:
        options = beaters[card] & rest
        if not options:
            return True
        rest &= ~(1 << cheapest(options, trumps))
    return False


def _transfer(state: State, seat: int, hand: int, trumps: int) -> Action | None:
    """A transfer when it can: showing a trump costs nothing, and plain cards of the rank are cheap (self-play:
    transferring only when covering needs trumps lost games). Trumps are laid only with the stock empty."""
    rank_cards = hand & RANK_MASK[state.attack[0] >> 2]
    if not rank_cards:
        return None
    options = [action for action in legal_actions(state, seat) if action.kind in (TRANSFER, SHOW_TRUMP)]
    if not options:
        return None
    for action in options:
        if action.kind == SHOW_TRUMP:
            return action
    best: Action | None = None
    for action in options:
        cards = action.cards
        if cards & trumps and state.stock:
            continue  # a trump laid to transfer is a trump lost
        if best is None or popcount(cards) > popcount(best.cards):
            best = action
    return best


def _throw_or_pass(state: State, seat: int) -> Action:
    hand = state.hands[seat]
    trumps = dear_cards(state)
    matching = hand & CARDS_OF_RANKS[state.table_ranks]
    room = throw_room(state)
    can_pass = state.taken or not state.open
    if room > 0 and matching:
        give = matching & ~trumps
        if not state.stock and matching == hand and popcount(hand) <= room:
            give = matching  # every card in hand can go: out of the game
        if give:
            return Action(THROW, first_cards(give, room))
        if not can_pass:
            # Asked to act with cards still open: the only moves are throw-ins, so the cheapest one.
            return Action(THROW, 1 << cheapest(matching, trumps))
    return PASS_ACTION


def honest(state: State, action: Action) -> bool:
    """Whether an action breaks no rule a cheating table relaxes (a cover that beats, a throw-in of a rank
    on the table). Accusations are judged separately."""
    if action.kind == COVER:
        return bool(state.beaters[action.target] >> action.card & 1)
    if action.kind == THROW:
        return not action.cards & ~CARDS_OF_RANKS[state.table_ranks]
    return True


def caught_cards(state: State, seat: int) -> int:
    """The cards on the table that ``seat`` can tell were illegal when played and may accuse."""
    cards = 0
    for index, attack in enumerate(state.attack):
        if not state.attack_ok[index] and state.attack_by[index] != seat:
            cards |= 1 << attack
        covering = state.cover[index]
        if covering >= 0 and not state.cover_ok[index] and state.defender != seat:
            cards |= 1 << covering
    return cards


def special_move(observation: Observation) -> Action | None:
    """Aktobe's moves around the bout, before anything else: say "one card!", win the duel for the first lead
    (the lead, and a card shed), ask "how many cards?" of a player seen to forget. None if there is none."""
    if not observation.rules.special:
        return None
    public = observation.public
    challenge: Action | None = None
    for action in observation.legal:
        kind = action.kind
        if kind == ANNOUNCE or kind == DUEL:
            return action
        if kind == CHALLENGE and public.forgot >> action.target & 1 and challenge is None:
            challenge = action
    return challenge


def choose(observation: Observation, rng: random.Random) -> Action:
    legal = observation.legal
    if len(legal) == 1:
        return legal[0]
    state = observation.filled()
    seat = observation.seat
    routine = routine_move(observation, state, rng)
    if routine is not None:
        return routine
    possible = [observation.possible(other) for other in range(observation.players)]
    action = decide(state, seat, possible)
    if exact_endgame(state):
        return endgame_move(state, seat, action, legal, ENDGAME_BUDGET)
    return action


def routine_move(observation: Observation, state: State, rng: random.Random) -> Action | None:
    """The move a bot at a table makes before weighing anything (the heuristic's and the search's alike), or
    None: Aktobe's moves around the bout (``special_move``), a move for a seat the game does not wait for, an
    accusation of a card caught at a cheating table, a move when no honest one is left, and now and then a
    random move in a game gone on too long (``long_game_move``). ``state``: ``observation.filled()``."""
    special = special_move(observation)
    if special is not None:
        return special
    seat = observation.seat
    legal = observation.legal
    if state.special and seat not in movers(state):
        return optional_move(state, legal)
    if state.rules.cheating:
        caught = caught_cards(state, seat)
        if caught:
            return Action(ACCUSE, caught & -caught)
        if not any(action.kind != ACCUSE and honest(state, action) for action in legal):
            return least_harm(legal)
    return long_game_move(state, legal, rng)


def long_game_move(state: State, legal: tuple[Action, ...] | list[Action], rng: random.Random) -> Action | None:
    """Past LONG_GAME_BOUTS bouts, LONG_GAME_RANDOM of the time: a random honest move (never an accusation, a
    question "how many cards?" or a card owed), so that bots cannot pass the same cards round for ever. None
    otherwise; before LONG_GAME_BOUTS it draws nothing from ``rng``."""
    if state.bouts <= LONG_GAME_BOUTS or state.special and state.owed or rng.random() >= LONG_GAME_RANDOM:
        return None
    moves = [action for action in legal if action.kind not in (ACCUSE, CHALLENGE) and honest(state, action)]
    return moves[int(rng.random() * len(moves))] if moves else None


def endgame_move(state: State, seat: int, action: Action, legal: tuple[Action, ...] | list[Action],
                 budget: int) -> Action:
    """Heads-up with the stock empty (``state`` is then the true state): a move proven to win, else one proven
    not to lose, trying ``action`` first; ``action`` if the solver proves neither within its budget."""
    proven = proven_move(state, seat, action, legal, budget)
    return proven if proven is not None else action


def proven_move(state: State, seat: int, action: Action, legal: tuple[Action, ...] | list[Action],
                budget: int) -> Action | None:
    """A move proven to win, else one proven not to lose (``action`` tried first), or None."""
    moves = [action] + [move for move in legal if move != action]
    proven = winning_move(state, seat, moves, budget)
    if proven is None:
        proven = winning_move(state, seat, moves, budget, NOT_LOSE)
    return proven


def optional_move(state: State, legal: tuple[Action, ...] | list[Action]) -> Action:
    """A move for a seat made to act although the game needs nothing from it (Aktobe: every move it has is
    optional): ask "how many cards?" (the asker sheds a card), else make the first lead out of turn with its
    cheapest card, else its first listed move."""
    trumps = dear_cards(state)
    best: Action | None = None
    for action in legal:
        if action.kind == CHALLENGE:
            return action
        if action.kind == ATTACK and not action.cards & (action.cards - 1):
            if best is None or card_cost(action.card, trumps) < card_cost(best.card, trumps):
                best = action
    return best if best is not None else legal[0]


def least_harm(legal: tuple[Action, ...] | list[Action]) -> Action:
    """A move for a seat made to act at a cheating table with no honest move: an accusation (a false one
    costs a fine but breaks no rule), or, if it cannot even accuse, its first listed move."""
    for action in legal:
        if action.kind == ACCUSE:
            return action
    return legal[0]
