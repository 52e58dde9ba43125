"""Applying a move: ``apply(state, seat, action)`` returns the next state, ``play`` changes a state in place.

RULES.md is the specification, its "Decisions" section included; each rule is cited where it is enforced.
``apply`` checks everything before it changes anything, so a refused action leaves the state as it was.
``play`` is the in-place form that the bots' searches and the benchmarks use, ``play_trusted`` the unchecked
one for actions taken from ``legal.legal_actions``. The bout's moves are here (lead, throw in, cover, take,
pass, transfer, show a trump, accuse); Aktobe's own moves are in ``aktobe``, the end of a bout in ``end``.
"""

from __future__ import annotations

from .actions import (
    ACCUSE, ANNOUNCE, ATTACK, CHALLENGE, COVER, DUEL, GIVE, KIND_NAMES, PASS, REDEAL, SHOW_TRUMP, SURRENDER, TAKE, THROW,
    TRANSFER, Action,
)
from .aktobe import barred_leads, epaulette_cards, lowest_trump, must_cover_with, one_card_due, special_play
from .cards import CARDS_OF_RANKS, RANK_BIT, RANK_MASK, RANKS, card_name, names, popcount, suit_of
from .end import end_bout_if_done, surrender
from .errors import IllegalAction, MalformedRecord
from .state import NO_CLAIM, State
from .table import (
    base_limit, bout_limit, check_holds, defence_count, defender_for, lead_limit, penalty, remove_from_hand,
    return_to_hand, throw_room, throwers, transfer_room, transfer_target,
)


def is_legal(state: State, seat: int, action: Action) -> bool:
    """Whether ``apply`` would accept the action (the ground truth ``legal_actions`` lists)."""
    try:
        play(state.copy(), seat, action)
    except IllegalAction:
        return False
    return True


def apply(state: State, seat: int, action: Action) -> State:
    """The state after ``seat`` takes ``action``; IllegalAction (and no change) if the rules forbid it."""
    new = state.copy()
    play(new, seat, action)
    return new


def play(state: State, seat: int, action: Action) -> None:
    """Apply ``action`` to ``state`` in place; checks everything before changing anything."""
    if state.finished:
        raise IllegalAction("the game is over")
    if not 0 <= seat < state.n:
        raise MalformedRecord(f"no such seat: {seat}")
    if state.out_mask >> seat & 1:
        raise IllegalAction(f"seat {seat} is out of the game")
    if action.kind == SURRENDER:
        surrender(state, seat)
        return
    if action.kind == REDEAL:
        raise IllegalAction("a redeal replaces the deal: only a record, which holds the next deal, plays it")
    if state.special:
        # "One card!" forgotten: he acts down to one card, keeps it, and has not said so (everyone saw it).
        due = state.one_card and action.kind != ANNOUNCE and one_card_due(state, seat)
        hand = state.hands[seat]
        if not special_play(state, seat, action):
            _play_bout_action(state, seat, action)
        if due and state.hands[seat] == hand and one_card_due(state, seat):
            state.forgot |= 1 << seat
        return
    _play_bout_action(state, seat, action)


def _play_bout_action(state: State, seat: int, action: Action) -> None:
    kind = action.kind
    if kind == COVER:
        _cover(state, seat, action)
    elif kind == THROW:
        _throw(state, seat, action.cards)
    elif kind == PASS:
        _pass(state, seat)
    elif kind == ATTACK:
        _lead(state, seat, action.cards)
    elif kind == TAKE:
        _take(state, seat)
    elif kind == TRANSFER:
        _transfer(state, seat, action.cards)
    elif kind == SHOW_TRUMP:
        _show_trump(state, seat, action.cards)
    elif kind == ACCUSE:
        _accuse(state, seat, action.cards)
    elif kind in (ANNOUNCE, CHALLENGE, GIVE, DUEL):
        raise IllegalAction(f"{KIND_NAMES[kind]} is not played at this table")
    else:
        raise MalformedRecord(f"unknown action kind {kind}")


def play_trusted(state: State, seat: int, action: Action) -> None:
    """Apply an action taken from ``legal_actions(state, seat)`` without checking it again.

    The search bots and random playouts choose only listed actions; skipping the second check is
    what makes their inner loop fast. Anything else goes through ``play``, and so does every action under
    Aktobe's rules, whose side effects (the duel, the cards owed, "one card!") ``play`` keeps in one place."""
    if state.special:
        play(state, seat, action)
        return
    kind = action.kind
    if kind == COVER:
        attack_card = action.target
        card = action.card
        _do_cover(state, seat, state.attack.index(attack_card), card,
                  bool(state.beaters[attack_card] >> card & 1))
    elif kind == THROW:
        _do_throw(state, seat, action.cards)
    elif kind == PASS:
        _do_pass(state, seat)
    elif kind == ATTACK:
        _do_lead(state, seat, action.cards)
    elif kind == TAKE:
        state.taken = True
        end_bout_if_done(state)
    elif kind == TRANSFER:
        target = transfer_target(state, seat)
        _add_attack_cards(state, seat, action.cards, state.table_ranks)
        _become_defender(state, target)
    elif kind == SHOW_TRUMP:
        state.shown |= 1 << seat
        _become_defender(state, transfer_target(state, seat))
    else:
        play(state, seat, action)


# --- the bout's moves -------------------------------------------------------------------------------


def _add_attack_cards(state: State, seat: int, cards: int, legal_rank_bits: int) -> None:
    """Put attack cards on the table; each is legal if its rank was in ``legal_rank_bits``."""
    rest = cards
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        state.attack.append(card)
        state.cover.append(-1)
        state.attack_by.append(seat)
        state.attack_ok.append(bool(RANK_BIT[card] & legal_rank_bits))
        state.cover_ok.append(True)
        state.table_ranks |= RANK_BIT[card]
    state.open += popcount(cards)
    state.played[seat] |= cards
    state.passed = 0
    remove_from_hand(state, seat, cards)


def _one_rank(cards: int) -> bool:
    for rank_cards in RANK_MASK:
        if cards & rank_cards:
            return not cards & ~rank_cards
    return False


def _lead(state: State, seat: int, cards: int) -> None:
    if state.attack:
        raise IllegalAction("the bout has already been led: throw in instead")
    if seat != state.attacker and not (state.opening and state.hands[seat] & state.trump_mask()):
        raise IllegalAction(f"seat {state.attacker} leads this bout, not seat {seat}")
    check_holds(state, seat, cards, "attack with")
    if not _one_rank(cards):
        raise IllegalAction("an attack is one card or several cards of one rank")
    count = popcount(cards)
    limit = lead_limit(state, seat)
    if count > limit:
        raise IllegalAction(_limit_message(state, count, 0, limit))
    if state.special and state.rules.no_attack_with_epaulettes:
        barred = cards & barred_leads(state, seat)
        if barred:
            raise IllegalAction(f"{' '.join(names(barred))}: an opponent's epaulettes may not be led")
    _do_lead(state, seat, cards)


def _do_lead(state: State, seat: int, cards: int) -> None:
    if state.special:
        if state.opening:
            # The game's first lead: whoever makes it claims the lowest trump (trump_duel).
            state.opening = False
            if seat != state.attacker:
                state.attacker = seat
                state.defender = defender_for(state, seat)
                state.limit = bout_limit(state)
            lowest = lowest_trump(state, seat)
            state.claim = lowest if lowest >= 0 else NO_CLAIM
            state.duel_open = True
        if state.rules.no_attack_with_epaulettes and cards & epaulette_cards(state, seat):
            state.forced_take = True
    _add_attack_cards(state, seat, cards, -1)


def _limit_message(state: State, adding: int, on_table: int, limit: int = -1) -> str:
    limit = state.limit if limit < 0 else limit
    room = limit - on_table
    base = base_limit(state)
    if limit < base:
        reason = f"the defender held {limit}"
    elif base == 5:
        reason = "5 before the first discard"
    else:
        reason = "a bout holds at most 6"
    if room <= 0:
        return f"no more cards may be added: {reason}"
    return f"only {room} card{'s' if room != 1 else ''} may be added, not {adding}: {reason}"


def _throw(state: State, seat: int, cards: int) -> None:
    if not state.attack:
        raise IllegalAction("nothing to throw in on: the bout has not been led")
    if seat == state.defender:
        raise IllegalAction("the defender cannot throw in")
    if not throwers(state) >> seat & 1:
        raise IllegalAction(f"seat {seat} may not throw in on this defender")
    if state.passed >> seat & 1:
        raise IllegalAction(f"seat {seat} has passed: he may throw in again only after another card is played")
    check_holds(state, seat, cards, "throw in")
    count = popcount(cards)
    if count > throw_room(state):
        raise IllegalAction(_limit_message(state, count, len(state.attack)))
    table_ranks = state.table_ranks
    if not state.rules.cheating:
        wrong = cards & ~CARDS_OF_RANKS[table_ranks]
        if wrong:
            raise IllegalAction(f"throw-in {' '.join(names(wrong))}: no card of that rank is on the table")
    _do_throw(state, seat, cards)


def _do_throw(state: State, seat: int, cards: int) -> None:
    _add_attack_cards(state, seat, cards, state.table_ranks)
    if state.taken:
        # A thrower who has just thrown his last cards after a take may leave nobody to pass.
        end_bout_if_done(state)


def _cover(state: State, seat: int, action: Action) -> None:
    if seat != state.defender:
        raise IllegalAction(f"only the defender (seat {state.defender}) covers")
    if state.taken:
        raise IllegalAction("the defender has taken: he can no longer cover")
    if state.forced_take:
        raise IllegalAction("an epaulette lead must be taken, not covered")
    attack_card, card = action.target, action.card
    try:
        index = state.attack.index(attack_card)
    except ValueError:
        raise IllegalAction(f"{card_name(attack_card)} is not an attack card on the table") from None
    if state.cover[index] >= 0:
        raise IllegalAction(f"{card_name(attack_card)} is already covered")
    check_holds(state, seat, action.cards, "cover with")
    beats = bool(state.beaters[attack_card] >> card & 1)
    if not beats and not state.rules.cheating:
        raise IllegalAction(f"cover {card_name(card)} does not beat {card_name(attack_card)}")
    _do_cover(state, seat, index, card, beats)


def _do_cover(state: State, seat: int, index: int, card: int, beats: bool) -> None:
    state.cover[index] = card
    state.cover_ok[index] = beats
    state.table_ranks |= RANK_BIT[card]
    state.open -= 1
    state.covered |= 1 << seat
    state.passed = 0
    remove_from_hand(state, seat, 1 << card)
    if not state.open:
        end_bout_if_done(state)


def _take(state: State, seat: int) -> None:
    if seat != state.defender:
        raise IllegalAction(f"only the defender (seat {state.defender}) takes")
    if state.taken:
        raise IllegalAction("the defender has already taken")
    if not state.open:
        raise IllegalAction("nothing to take: every attack card is covered")
    if state.hidden_cards and not state.forced_take:
        card = must_cover_with(state)
        if card >= 0:
            raise IllegalAction(f"seat {seat} must cover with his turned-up hidden card {card_name(card)}")
    state.taken = True
    end_bout_if_done(state)


def _pass(state: State, seat: int) -> None:
    if seat == state.defender:
        raise IllegalAction("the defender never passes: he covers or takes")
    if not state.attack:
        raise IllegalAction("the bout has not been led")
    if not throwers(state) >> seat & 1:
        raise IllegalAction(f"seat {seat} is not throwing in on this defender")
    if state.open and not state.taken:
        raise IllegalAction("cannot pass while attack cards are uncovered and the defender has not taken")
    if state.passed >> seat & 1:
        raise IllegalAction(f"seat {seat} has already passed")
    _do_pass(state, seat)


def _do_pass(state: State, seat: int) -> None:
    state.passed |= 1 << seat
    end_bout_if_done(state)


def _check_transfer(state: State, seat: int, adding: int) -> tuple[int, int]:
    if not state.rules.transfer:
        raise IllegalAction("transfers are not played at this table")
    if seat != state.defender:
        raise IllegalAction(f"only the defender (seat {state.defender}) transfers")
    if state.taken:
        raise IllegalAction("the defender has taken: he can no longer transfer")
    if state.covered:
        raise IllegalAction("no transfer once an attack card has been covered")
    if state.forced_take:
        raise IllegalAction("an epaulette lead must be taken, not transferred")
    if not state.attack:
        raise IllegalAction("nothing to transfer")
    ranks = state.table_ranks
    if ranks & (ranks - 1):
        raise IllegalAction("transfer only while all attack cards share one rank")
    target, room = transfer_room(state, seat)
    if target < 0:
        raise IllegalAction("nobody can receive a transfer")
    if adding > room:
        total = len(state.attack) + adding
        held = defence_count(state, target)
        if total > base_limit(state):
            raise IllegalAction(f"a transfer would make {total} attack cards: at most {base_limit(state)}")
        raise IllegalAction(f"seat {target} holds {held} cards: he cannot defend against {total}")
    return target, ranks


def _transfer(state: State, seat: int, cards: int) -> None:
    check_holds(state, seat, cards, "transfer with")
    target, ranks = _check_transfer(state, seat, popcount(cards))
    if cards & ~CARDS_OF_RANKS[ranks]:
        rank = RANKS[ranks.bit_length() - 1]
        raise IllegalAction(f"a transfer needs cards of the attacked rank {rank}")
    _add_attack_cards(state, seat, cards, ranks)
    _become_defender(state, target)


def _show_trump(state: State, seat: int, cards: int) -> None:
    if not state.rules.transfer_by_showing_trump:
        raise IllegalAction("transfer by showing a trump is not played at this table")
    check_holds(state, seat, cards, "show")
    target, ranks = _check_transfer(state, seat, 0)
    card = (cards & -cards).bit_length() - 1
    if cards & (cards - 1) or suit_of(card) != state.trump or not RANK_BIT[card] & ranks:
        raise IllegalAction(f"{card_name(card)} is not the trump of the attacked rank")
    if state.shown >> seat & 1:
        raise IllegalAction(f"seat {seat} has already shown a trump in this bout")
    state.shown |= 1 << seat
    _become_defender(state, target)


def _become_defender(state: State, seat: int) -> None:
    state.defender = seat
    state.limit = bout_limit(state)
    state.passed = 0


def _accuse(state: State, seat: int, cards: int) -> None:
    if not state.rules.cheating:
        raise IllegalAction("accusations are made only at cheating tables")
    card = (cards & -cards).bit_length() - 1
    attack = state.attack
    if card in attack:
        index = attack.index(card)
        by, honest = state.attack_by[index], state.attack_ok[index]
        is_cover = False
    elif card in state.cover:
        index = state.cover.index(card)
        by, honest = state.defender, state.cover_ok[index]
        is_cover = True
    else:
        raise IllegalAction(f"{card_name(card)} is not on the table")
    if by == seat:
        raise IllegalAction("a player cannot accuse his own card")
    fine = penalty(state.stake)
    if honest:
        # A false accusation changes nothing on the table, and the accuser pays.
        state.paid[seat] += fine
        state.bank += fine
        return
    state.paid[by] += fine
    state.bank += fine
    if is_cover:
        state.cover[index] = -1
        state.cover_ok[index] = True
        state.open += 1
        return_to_hand(state, by, 1 << card)
    else:
        covering = state.cover[index]
        for column in (attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok):
            del column[index]
        state.played[by] &= ~(1 << card)
        return_to_hand(state, by, 1 << card)
        if covering >= 0:
            return_to_hand(state, state.defender, 1 << covering)
        else:
            state.open -= 1
    ranks = 0
    for attack_card in attack:
        ranks |= RANK_BIT[attack_card]
    for covering in state.cover:
        if covering >= 0:
            ranks |= RANK_BIT[covering]
    state.table_ranks = ranks
    state.passed = 0
    end_bout_if_done(state)
