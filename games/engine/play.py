"""Legal moves and their effects: ``legal_actions(state, seat)`` and ``apply(state, seat, action)``.

RULES.md is the specification, its "Decisions" section included; each rule is cited where it is
enforced. ``apply`` checks everything before it changes anything, so a refused action leaves the
state as it was. ``play`` is the in-place form that the bots' searches and the benchmarks use.
"""

from __future__ import annotations

from typing import Final

from .actions import (
    ACCUSE, ANNOUNCE, ATTACK, CHALLENGE, COVER, DUEL, GIVE, KIND_NAMES, PASS, SHOW_TRUMP, SURRENDER, TAKE, THROW,
    TRANSFER, Action,
)
from .cards import (
    BEATERS, CARDS_OF_RANKS, RANK_BIT, RANK_MASK, RANK_OF_BIT_INDEX, RANKS, SUIT_MASK, card_name, names, popcount,
    rank_of, suit_of,
)
from .errors import IllegalAction, MalformedRecord
from .result import DRAW, DURAK, Epaulettes, GameResult
from .rules import Rules
from .state import EPAULETTE_RANK, NO_CLAIM, State, owed_entry, owed_pair

HAND_SIZE: Final = 6
QUEEN_RANK: Final = RANKS.index("Q")
# After a take under unlimited_throw_in_on_take a throw may hold any number of cards: more than any hand.
NO_LIMIT: Final = 64
PENALTY_PERCENT: Final = 15  # RULES.md, Cheating tables: a caught cheater (or a false accuser) pays 15 % of the stake


def penalty(stake: int) -> int:
    """15 % of the stake in whole chips, rounded half up (chips are integers in the ledger)."""
    return (stake * PENALTY_PERCENT + 50) // 100


def new_game(
    rules: Rules,
    hands: list[int],
    stock: list[int],
    *,
    trump: int | None = None,
    first_attacker: int | None = None,
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    stake: int = 0,
    hidden: list[int] | None = None,
    hidden_trump: int = -1,
    epaulette_ranks: list[int] | None = None,
    queen: int = -1,
) -> State:
    """A game about to start. ``stock`` lists the stock top first, its last card face up.

    With ``rules.hidden_cards``, ``hidden`` is each seat's hidden card (-1: none, or already turned up) and
    ``hidden_trump`` the card face down under the face-up trump card (with an empty stock: the card that was
    turned up and names the trump). ``epaulette_ranks`` is each seat's epaulette rank in a ladder series (6
    otherwise) and ``queen`` the series' queen. A joker face up means no trumps (``trump`` -1).

    Checks the deal (a card twice, a seat without cards, no trump) and raises MalformedRecord."""
    n = len(hands)
    if not 2 <= n <= rules.max_players:
        raise MalformedRecord(f"a {rules.deck}-card game takes 2 to {rules.max_players} players, not {n}")
    seen = 0
    for seat, hand in enumerate(hands):
        if not hand:
            raise MalformedRecord(f"seat {seat} has no cards")
        if seen & hand:
            raise MalformedRecord(f"card listed twice: {', '.join(names(seen & hand))}")
        seen |= hand
    for card in stock:
        if seen >> card & 1:
            raise MalformedRecord(f"card listed twice: {card_name(card)}")
        seen |= 1 << card
    if hidden is None:
        hidden = [-1] * n
    else:
        hidden = list(hidden)
        if len(hidden) != n:
            raise MalformedRecord(f"hidden must name one card (or none) for each of the {n} seats")
    if hidden_trump >= 0 or hidden.count(-1) != n:
        if not rules.hidden_cards:
            raise MalformedRecord("hidden cards are dealt only under the hidden_cards rule (preset aktobe)")
        for card in hidden + [hidden_trump]:
            if card >= 0:
                if seen >> card & 1:
                    raise MalformedRecord(f"card listed twice: {card_name(card)}")
                seen |= 1 << card
    if stock:
        face_up_suit = suit_of(stock[-1])
        if trump is not None and trump != face_up_suit:
            raise MalformedRecord("trump differs from the suit of the face-up stock card")
        trump = face_up_suit
    elif hidden_trump >= 0:
        # The card under the trump has been turned up: it names the trump (a joker: none).
        if trump is not None and trump != suit_of(hidden_trump):
            raise MalformedRecord("trump differs from the suit of the turned-up hidden trump card")
        trump = suit_of(hidden_trump)
    elif trump is None:
        raise MalformedRecord("an empty stock needs 'trump'")
    ranks = list(epaulette_ranks) if epaulette_ranks is not None else [EPAULETTE_RANK] * n
    if len(ranks) != n or any(not 0 <= rank < 13 for rank in ranks):
        raise MalformedRecord("epaulette ranks must name one rank 2..A for each seat")
    if queen >= 0 and rank_of(queen) != QUEEN_RANK:
        raise MalformedRecord(f"the series' queen must be a queen, not {card_name(queen)}")
    if teams is None and rules.teams:
        teams = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
    team_of: tuple[int, ...] | None = None
    if teams is not None:
        team_of = _check_teams(rules, n, teams)

    state = State.__new__(State)
    state.rules = rules
    state.n = n
    state.hands = list(hands)
    state.stock = list(reversed(stock))
    state.trump = trump
    state.trump_card = stock[-1] if stock else -1
    state.attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok = [], [], [], [], []
    state.open = 0
    state.table_ranks = 0
    state.discard = 0
    state.discard_count = 0
    state.taken = False
    state.passed = 0
    state.shown = 0
    state.played = [0] * n
    state.covered = 0
    state.emptied = []
    state.out = []
    state.out_mask = 0
    state.discarded_once = False
    state.finished = False
    state.result = None
    state.teams = teams
    state.team_of = team_of
    state.stake = stake
    state.bank = stake * n
    state.paid = [stake] * n
    state.epaulette_ranks = ranks
    state.queen = queen
    state.neighbours = rules.throw_in == "neighbours"
    state.beaters = BEATERS[rules.joker_beats][trump + 1]
    state.bouts = 0
    state.out_bouts = []
    state.special = rules.special
    state.hidden_cards = rules.hidden_cards
    state.one_card = rules.one_card
    state.hidden = hidden
    state.hidden_up = 0
    state.hidden_trump = hidden_trump
    state.announced = 0
    state.forgot = 0
    state.owed = []
    # RULES.md, Aktobe: the lowest trump leads, but trumps are not shown; any trump holder may lead first
    # (a public fact of the rules and the deal, whether or not anyone holds a trump).
    state.opening = rules.trump_duel and bool(stock) and trump >= 0
    state.duel_open = False
    state.claim = NO_CLAIM
    state.forced_take = False
    if first_attacker is None:
        first_attacker = lowest_trump_holder(hands, trump)
    elif not 0 <= first_attacker < n:
        raise MalformedRecord(f"no such seat: {first_attacker}")
    state.attacker = first_attacker
    state.defender = _defender_for(state, first_attacker)
    state.limit = _bout_limit(state)
    return state


def _check_teams(rules: Rules, n: int, teams: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, ...]:
    if rules.teams and n != 2 * rules.team_size:
        raise MalformedRecord(f"teams {rules.teams} need {2 * rules.team_size} players, not {n}")
    if len(teams) != 2 or sorted(s for team in teams for s in team) != list(range(n)):
        raise MalformedRecord("teams must be two lists that hold every seat once")
    if len(teams[0]) != len(teams[1]) or len(teams[0]) < 2:
        raise MalformedRecord("teams must be of equal size, two or three players each")
    team_of = [0] * n
    for index, team in enumerate(teams):
        for seat in team:
            team_of[seat] = index
    if any(team_of[seat] == team_of[(seat + 1) % n] for seat in range(n)):
        raise MalformedRecord("partners may not sit side by side")
    return tuple(team_of)


def lowest_trump_holder(hands: list[int], trump: int) -> int:
    """The seat holding the lowest trump (the face-up stock card is not in a hand); seat 0 if none."""
    if trump < 0:
        return 0
    trumps = SUIT_MASK[trump]
    best_seat, best_card = 0, 1 << 60
    for seat, hand in enumerate(hands):
        mine = hand & trumps
        if mine and (mine & -mine) < best_card:
            best_seat, best_card = seat, mine & -mine
    return best_seat


# --- seats ----------------------------------------------------------------------------------------

def _next_with_cards(state: State, seat: int) -> int:
    hands, n = state.hands, state.n
    for step in range(1, n):
        other = (seat + step) % n
        if hands[other]:
            return other
    return -1


def _next_opponent_with_cards(state: State, seat: int, team: int) -> int:
    hands, n, team_of = state.hands, state.n, state.team_of
    assert team_of is not None
    for step in range(1, n):
        other = (seat + step) % n
        if hands[other] and team_of[other] != team:
            return other
    return -1


def _defender_for(state: State, leader: int) -> int:
    """The next player with cards on the leader's left; in teams, the next such opponent."""
    if state.team_of is None:
        return _next_with_cards(state, leader)
    return _next_opponent_with_cards(state, leader, state.team_of[leader])


def _base_limit(state: State) -> int:
    # RULES.md: at most 6 attack cards, or 5 before the first discard under first_bout_limit 5.
    if state.rules.first_bout_limit == 5 and not state.discarded_once:
        return 5
    return HAND_SIZE


def defence_count(state: State, seat: int) -> int:
    """The cards ``seat`` can defend with: his hand, and with the stock empty his hidden card still face down,
    which he turns up as soon as his hand runs out (RULES.md, Aktobe; it does not interrupt the bout)."""
    count = popcount(state.hands[seat])
    if state.hidden_cards and not state.stock and state.hidden[seat] >= 0 and not state.hidden_up >> seat & 1:
        count += 1
    return count


def _bout_limit(state: State) -> int:
    """Never more attack cards than the defender held when he became the defender."""
    return min(_base_limit(state), defence_count(state, state.defender))


def throwers(state: State) -> int:
    """The seats that may throw in now, as a mask: players other than the defender who hold cards;
    with throw_in neighbours only the nearest player still in the game on each side of the defender;
    in teams only the defender's opponents (RULES.md, Decisions, The bout)."""
    defender, hands, n = state.defender, state.hands, state.n
    if state.neighbours:
        out_mask = state.out_mask
        candidates = 0
        seat = (defender + 1) % n
        while seat != defender and out_mask >> seat & 1:
            seat = (seat + 1) % n
        if seat != defender:
            candidates |= 1 << seat
        seat = (defender - 1) % n
        while seat != defender and out_mask >> seat & 1:
            seat = (seat - 1) % n
        if seat != defender:
            candidates |= 1 << seat
    else:
        if state.team_of is None:
            mask = 0
            for seat in range(n):
                if hands[seat] and seat != defender:
                    mask |= 1 << seat
            return mask
        candidates = ((1 << n) - 1) ^ (1 << defender)
    mask = 0
    team_of = state.team_of
    for seat in range(n):
        if candidates >> seat & 1 and hands[seat]:
            if team_of is None or team_of[seat] != team_of[defender]:
                mask |= 1 << seat
    return mask


def _transfer_target(state: State, seat: int) -> int:
    """Who defends after ``seat`` transfers: the next player on his left with cards; in teams the next
    such opponent of the transferring player."""
    if state.team_of is None:
        return _next_with_cards(state, seat)
    return _next_opponent_with_cards(state, seat, state.team_of[seat])


def _submasks(mask: int, most: int) -> list[int]:
    """Every non-empty subset of ``mask`` with at most ``most`` cards."""
    if not mask & (mask - 1):
        return [mask] if mask and most > 0 else []
    found = []
    sub = mask
    while sub:
        if popcount(sub) <= most:
            found.append(sub)
        sub = (sub - 1) & mask
    return found


# --- legal actions --------------------------------------------------------------------------------

def is_legal(state: State, seat: int, action: Action) -> bool:
    """Whether ``apply`` would accept the action (the ground truth ``legal_actions`` lists)."""
    try:
        play(state.copy(), seat, action)
    except IllegalAction:
        return False
    return True


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it is not his to act).

    At a cheating table, throw-ins that mix several cards of ranks missing from the table are legal
    but not listed (see below); every other legal action is listed."""
    if state.finished or state.out_mask >> seat & 1:
        return []
    if state.special:
        return _special_legal_actions(state, seat)
    return _bout_actions(state, seat)


def _bout_actions(state: State, seat: int) -> list[Action]:
    hand = state.hands[seat]
    attack = state.attack
    if not attack:
        limit = state.limit
        if seat != state.attacker:
            # Aktobe: before the game's first lead any trump holder may make it (trump_duel).
            if not (state.opening and hand & state.trump_mask()):
                return []
            limit = _lead_limit(state, seat)
        # A lead: one card, or several of one rank, within the limit.
        actions = []
        rest = hand
        while rest:
            low = rest & -rest
            same = hand & RANK_MASK[RANK_OF_BIT_INDEX[low.bit_length() - 1]]
            rest &= ~same
            if same == low:
                actions.append(Action(ATTACK, low))
            else:
                for sub in _submasks(same, limit):
                    actions.append(Action(ATTACK, sub))
        if state.special and state.rules.no_attack_with_epaulettes:
            barred = barred_leads(state, seat)
            if barred:
                actions = [action for action in actions if not action.cards & barred]
        return actions

    actions = []
    cheating = state.rules.cheating
    if seat == state.defender:
        if state.forced_take:
            # An epaulette lead must be taken (no_attack_with_epaulettes): no cover, no transfer.
            if not state.taken:
                actions.append(Action(TAKE))
        elif not state.taken:
            if state.open:
                beaters = state.beaters
                for attack_card, covering in zip(attack, state.cover):
                    if covering < 0:
                        candidates = hand if cheating else hand & beaters[attack_card]
                        while candidates:
                            low = candidates & -candidates
                            actions.append(Action(COVER, low, attack_card))
                            candidates ^= low
                if not (state.hidden_cards and must_cover_with(state) >= 0):
                    actions.append(Action(TAKE))
            if state.rules.transfer:
                _add_transfers(state, seat, hand, actions)
    elif throwers(state) >> seat & 1 and not state.passed >> seat & 1:
        room = state.limit - len(attack)
        if state.taken and state.special and state.rules.unlimited_throw_in_on_take:
            room = NO_LIMIT
        if room > 0:
            honest = hand & CARDS_OF_RANKS[state.table_ranks]
            for sub in _submasks(honest, room):
                actions.append(Action(THROW, sub))
            if cheating:
                # A dishonest throw-in is listed one card at a time: throws that mix several cards
                # are legal too (``is_legal``), but listing them all would grow as 2 ** hand size.
                dishonest = hand & ~honest
                while dishonest:
                    low = dishonest & -dishonest
                    actions.append(Action(THROW, low))
                    dishonest ^= low
        if state.taken or not state.open:
            actions.append(Action(PASS))
    if cheating:
        _add_accusations(state, seat, actions)
    return actions


def _special_legal_actions(state: State, seat: int) -> list[Action]:
    """Aktobe's moves around the bout's (docs/aktobe.md): while cards are owed only they are given; "one card!"
    and "how many cards?" with the stock empty; a lower trump shown during the first bout."""
    if state.owed:
        giver = _owed_by(state, seat)
        if giver < 0:
            return []
        actions = []
        hand = state.hands[seat]
        while hand:
            low = hand & -hand
            actions.append(Action(GIVE, low))
            hand ^= low
        return actions
    actions = _bout_actions(state, seat)
    if state.one_card and not state.stock:
        if one_card_due(state, seat):
            actions.append(Action(ANNOUNCE))
        for other in range(state.n):
            if other != seat and one_card_due(state, other) and _givers(state, other):
                actions.append(Action(CHALLENGE, 0, other))
    if state.duel_open and seat != state.attacker:
        card = duel_card(state, seat)
        if card >= 0:
            actions.append(Action(DUEL, 1 << card))
    return actions


def _lead_limit(state: State, seat: int) -> int:
    """The limit of a bout ``seat`` would lead: the one set for it if he is its attacker, else (a first lead
    made by another trump holder) the limit against the defender he would have."""
    if seat == state.attacker:
        return state.limit
    return min(_base_limit(state), defence_count(state, _defender_for(state, seat)))


def _transfer_room(state: State, seat: int) -> tuple[int, int]:
    """(new defender, how many cards may still be added) if ``seat`` may transfer now, else (-1, -1).

    RULES.md: only before any cover, before a take, while all attack cards share one rank; the new
    defender holds at least as many cards as there will be attack cards, and the total stays within
    6 (or 5)."""
    rules = state.rules
    if not rules.transfer or state.taken or state.covered:
        return -1, -1
    ranks = state.table_ranks
    if ranks & (ranks - 1):
        return -1, -1
    target = _transfer_target(state, seat)
    if target < 0:
        return -1, -1
    if state.special and rules.transfer_beyond_hand:
        # Aktobe: the next player may get more cards than he holds; he covers what he can and takes the rest.
        return target, _base_limit(state) - len(state.attack)
    room = min(_base_limit(state), defence_count(state, target)) - len(state.attack)
    return target, room


def _add_transfers(state: State, seat: int, hand: int, actions: list[Action]) -> None:
    target, room = _transfer_room(state, seat)
    if target < 0 or room < 0:
        return
    rank = rank_of(state.attack[0])
    same = hand & RANK_MASK[rank]
    if room > 0:
        for sub in _submasks(same, room):
            actions.append(Action(TRANSFER, sub))
    if state.rules.transfer_by_showing_trump and not state.shown >> seat & 1 and state.trump >= 0 and rank < 13:
        trump_card = rank * 4 + state.trump
        if same >> trump_card & 1:
            actions.append(Action(SHOW_TRUMP, 1 << trump_card))


def _add_accusations(state: State, seat: int, actions: list[Action]) -> None:
    defender = state.defender
    for attack_card, by, covering in zip(state.attack, state.attack_by, state.cover):
        if by != seat:
            actions.append(Action(ACCUSE, 1 << attack_card))
        if covering >= 0 and defender != seat:
            actions.append(Action(ACCUSE, 1 << covering))


# --- Aktobe's rules around the bout (docs/aktobe.md) ---------------------------------------------------

def _owed_by(state: State, seat: int) -> int:
    """The index in ``owed`` of the first card ``seat`` still has to give, or -1."""
    for index, (giver, _) in enumerate(state.owed_pairs()):
        if giver == seat:
            return index
    return -1


def one_card_due(state: State, seat: int) -> bool:
    """RULES.md, Aktobe: with the stock empty, a player down to one card must say "one card!"; until he does
    (since his hand last changed) anyone may ask him "how many cards?"."""
    return (
        not state.stock and not state.out_mask >> seat & 1 and not state.announced >> seat & 1
        and popcount(state.hands[seat]) == 1
    )


def _lowest_trump(state: State, seat: int) -> int:
    if state.trump < 0:
        return -1
    trumps = state.hands[seat] & SUIT_MASK[state.trump]
    return (trumps & -trumps).bit_length() - 1


def duel_card(state: State, seat: int) -> int:
    """The trump ``seat`` may show in the duel for the first lead: his lowest, if it is lower than the lowest
    trump the leader held when he led; else -1. Jokers are no trumps and never take part."""
    card = _lowest_trump(state, seat)
    return card if 0 <= card < state.claim else -1


def must_cover_with(state: State) -> int:
    """The defender's turned-up hidden card if it is all he holds and it beats an open attack card: he must
    cover with it (RULES.md, Aktobe), so he may not take yet. Else -1."""
    defender = state.defender
    card = state.hidden[defender]
    if card < 0 or not state.hidden_up >> defender & 1 or state.hands[defender] != 1 << card:
        return -1
    for attack_card, covering in zip(state.attack, state.cover):
        if covering < 0 and state.beaters[attack_card] >> card & 1:
            return card
    return -1


def epaulette_cards(state: State, seat: int) -> int:
    """The cards ``seat``'s side hangs as epaulettes now: the plain cards of its rank (6, or its rung of the
    ladder); on the ladder's last rung the series' queen alone, trump or not (seed 000)."""
    rank = state.epaulette_ranks[seat]
    if rank == QUEEN_RANK and state.queen >= 0:
        return 1 << state.queen
    return RANK_MASK[rank] & ~state.trump_mask()


def _opponents(state: State, seat: int) -> list[int]:
    team_of = state.team_of
    return [
        other for other in range(state.n)
        if other != seat and not state.out_mask >> other & 1 and (team_of is None or team_of[other] != team_of[seat])
    ]


def barred_leads(state: State, seat: int) -> int:
    """no_attack_with_epaulettes: the cards ``seat`` may not lead, an opponent's epaulettes that are not his
    own side's too (docs/aktobe.md, Epaulettes)."""
    barred = 0
    for other in _opponents(state, seat):
        barred |= epaulette_cards(state, other)
    return barred & ~epaulette_cards(state, seat)


def _turn_up(state: State, seat: int) -> bool:
    """With the stock empty and his hand empty a player turns up his hidden card and plays on with it."""
    card = state.hidden[seat]
    if card < 0 or state.hidden_up >> seat & 1:
        return False
    state.hands[seat] = 1 << card
    state.hidden_up |= 1 << seat
    state.announced &= ~(1 << seat)
    state.forgot &= ~(1 << seat)
    return True


def _stock_ran_out(state: State) -> None:
    """The face-up card has been drawn: the card under it is turned up, stays out of play and names the trump
    from now on; a joker means no trumps (RULES.md, Aktobe)."""
    card = state.hidden_trump
    if card < 0:
        return
    state.trump = suit_of(card)
    state.beaters = BEATERS[state.rules.joker_beats][state.trump + 1]


def _announce(state: State, seat: int) -> None:
    if not state.one_card:
        raise IllegalAction('"one card!" is not played at this table')
    if state.stock:
        raise IllegalAction('"one card!" is said only once the stock is empty')
    if popcount(state.hands[seat]) != 1:
        raise IllegalAction(f'seat {seat} holds {popcount(state.hands[seat])} cards, not one')
    if state.announced >> seat & 1:
        raise IllegalAction(f'seat {seat} has already said "one card!"')
    state.announced |= 1 << seat


def _challenge(state: State, seat: int, target: int) -> None:
    if not state.one_card:
        raise IllegalAction('"how many cards?" is not asked at this table')
    if not 0 <= target < state.n:
        raise MalformedRecord(f"no such seat: {target}")
    if target == seat:
        raise IllegalAction("a player does not ask himself how many cards he holds")
    if state.out_mask >> target & 1:
        raise IllegalAction(f"seat {target} is out of the game")
    if state.stock:
        raise IllegalAction('"how many cards?" is asked only once the stock is empty')
    if popcount(state.hands[target]) != 1:
        raise IllegalAction(f"seat {target} holds {popcount(state.hands[target])} cards, not one")
    if state.announced >> target & 1:
        raise IllegalAction(f'seat {target} has said "one card!"')
    givers = _givers(state, target)
    if not givers:
        raise IllegalAction(f"nobody holds a card to give seat {target}")
    for other in givers:
        state.owed.append(owed_entry(other, target))


def _givers(state: State, target: int) -> list[int]:
    """Who gives ``target`` a card when he is caught without "one card!": each other player still in the game
    who holds cards, going round from his left."""
    givers = []
    for step in range(1, state.n):
        other = (target + step) % state.n
        if not state.out_mask >> other & 1 and state.hands[other]:
            givers.append(other)
    return givers


def _give(state: State, seat: int, cards: int) -> None:
    index = _owed_by(state, seat)
    if index < 0:
        if not state.owed:
            raise IllegalAction("no card is owed")
        raise IllegalAction(f"seat {seat} owes no card")
    _check_holds(state, seat, cards, "give")
    if cards & (cards - 1):
        raise IllegalAction("a card is given one at a time")
    _, receiver = owed_pair(state.owed.pop(index))
    _remove_from_hand(state, seat, cards)
    _return_to_hand(state, receiver, cards)
    if not state.owed:
        # Cards have changed hands: every thrower may think again, and a bout that is done ends.
        state.passed = 0
        if state.attack:
            _end_bout_if_done(state)
        else:
            _settle_between_bouts(state)


def _settle_between_bouts(state: State) -> None:
    """Cards given between two bouts may have emptied a hand with the stock empty: that player goes out now,
    as at the end of a bout, and if he was to lead the next player with cards on his left leads instead."""
    hands, n = state.hands, state.n
    if not state.stock:
        for seat in state.emptied + list(range(n)):
            if not hands[seat] and not state.out_mask >> seat & 1:
                state.out.append(seat)
                state.out_bouts.append(state.bouts)
                state.out_mask |= 1 << seat
        state.emptied = []
        if _game_over(state):
            return
    leader = state.attacker
    if not hands[leader]:
        if state.team_of is None:
            leader = _next_with_cards(state, leader)
        else:
            team = state.team_of[leader]
            for step in range(1, n):
                seat = (state.attacker + step) % n
                if hands[seat] and state.team_of[seat] == team:
                    leader = seat
                    break
            else:
                leader = _next_opponent_with_cards(state, state.attacker, team)
    state.attacker = leader
    state.defender = _defender_for(state, leader)
    state.limit = _bout_limit(state)


def _duel(state: State, seat: int, cards: int) -> None:
    if not state.rules.trump_duel:
        raise IllegalAction("the duel for the first lead is not played at this table")
    if not state.duel_open:
        raise IllegalAction("a duel for the first lead is fought only during the game's first bout")
    _check_holds(state, seat, cards, "show")
    if seat == state.attacker:
        raise IllegalAction(f"seat {seat} leads: he does not duel himself")
    card = (cards & -cards).bit_length() - 1
    if cards & (cards - 1) or card != _lowest_trump(state, seat):
        raise IllegalAction("a duel shows one's lowest trump")
    if card >= state.claim:
        raise IllegalAction(f"{card_name(card)} is not lower than the leader's lowest trump")
    loser = state.attacker
    # The lead was not his: the cards go back to whoever played them and the bout starts again.
    hands = state.hands
    for attack_card, by in zip(state.attack, state.attack_by):
        hands[by] |= 1 << attack_card
    for covering in state.cover:
        if covering >= 0:
            hands[state.defender] |= 1 << covering
    _clear_bout(state)
    state.announced = 0
    state.forgot = 0
    state.attacker = seat
    state.defender = _defender_for(state, seat)
    state.limit = _bout_limit(state)
    state.claim = card
    # RULES.md, Aktobe: the one who showed the lower trump "takes the lead and is given one card by the one
    # who led" (seed 004 reads the other way round; RULES.md is the reading we play: docs/aktobe.md).
    state.owed.append(owed_entry(loser, seat))


def _clear_bout(state: State) -> None:
    state.attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok = [], [], [], [], []
    state.open = 0
    state.table_ranks = 0
    state.taken = False
    state.passed = 0
    state.shown = 0
    state.played = [0] * state.n
    state.covered = 0
    state.emptied = []
    state.forced_take = False


def _special_play(state: State, seat: int, action: Action) -> bool:
    """Aktobe's checks before any action and its own actions; True if the action was one of them."""
    kind = action.kind
    if state.owed and kind != GIVE:
        giver, receiver = owed_pair(state.owed[0])
        raise IllegalAction(f"seat {giver} must first give seat {receiver} a card")
    if kind == GIVE:
        _give(state, seat, action.cards)
    elif kind == ANNOUNCE:
        _announce(state, seat)
    elif kind == CHALLENGE:
        _challenge(state, seat, action.target)
    elif kind == DUEL:
        _duel(state, seat, action.cards)
    else:
        return False
    return True


# --- applying an action ---------------------------------------------------------------------------

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
    if state.special:
        # "One card!" forgotten: he acts down to one card, keeps it, and has not said so (everyone saw it).
        due = state.one_card and action.kind != ANNOUNCE and one_card_due(state, seat)
        hand = state.hands[seat]
        if not _special_play(state, seat, action):
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
        _end_bout_if_done(state)
    elif kind == TRANSFER:
        target = _transfer_target(state, seat)
        _add_attack_cards(state, seat, action.cards, state.table_ranks)
        _become_defender(state, target)
    elif kind == SHOW_TRUMP:
        state.shown |= 1 << seat
        _become_defender(state, _transfer_target(state, seat))
    else:
        play(state, seat, action)


def _check_holds(state: State, seat: int, cards: int, verb: str) -> None:
    missing = cards & ~state.hands[seat]
    if missing:
        raise IllegalAction(f"seat {seat} cannot {verb} {' '.join(names(missing))}: not in his hand")


def _remove_from_hand(state: State, seat: int, cards: int) -> None:
    hand = state.hands[seat] & ~cards
    state.hands[seat] = hand
    if state.one_card:
        state.announced &= ~(1 << seat)
        state.forgot &= ~(1 << seat)
    if not hand:
        if state.hidden_cards and not state.stock and _turn_up(state, seat):
            return
        emptied = state.emptied
        if seat in emptied:
            emptied.remove(seat)
        emptied.append(seat)


def _return_to_hand(state: State, seat: int, cards: int) -> None:
    state.hands[seat] |= cards
    if state.one_card:
        state.announced &= ~(1 << seat)
        state.forgot &= ~(1 << seat)
    if seat in state.emptied:
        state.emptied.remove(seat)


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
    _remove_from_hand(state, seat, cards)


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
    _check_holds(state, seat, cards, "attack with")
    if not _one_rank(cards):
        raise IllegalAction("an attack is one card or several cards of one rank")
    count = popcount(cards)
    limit = _lead_limit(state, seat)
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
                state.defender = _defender_for(state, seat)
                state.limit = _bout_limit(state)
            lowest = _lowest_trump(state, seat)
            state.claim = lowest if lowest >= 0 else NO_CLAIM
            state.duel_open = True
        if state.rules.no_attack_with_epaulettes and cards & epaulette_cards(state, seat):
            state.forced_take = True
    _add_attack_cards(state, seat, cards, -1)


def _limit_message(state: State, adding: int, on_table: int, limit: int = -1) -> str:
    limit = state.limit if limit < 0 else limit
    room = limit - on_table
    base = _base_limit(state)
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
    _check_holds(state, seat, cards, "throw in")
    on_table = len(state.attack)
    count = popcount(cards)
    if on_table + count > state.limit and not (state.taken and state.rules.unlimited_throw_in_on_take):
        raise IllegalAction(_limit_message(state, count, on_table))
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
        _end_bout_if_done(state)


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
    _check_holds(state, seat, action.cards, "cover with")
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
    _remove_from_hand(state, seat, 1 << card)
    if not state.open:
        _end_bout_if_done(state)


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
    _end_bout_if_done(state)


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
    _end_bout_if_done(state)


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
    target, room = _transfer_room(state, seat)
    if target < 0:
        raise IllegalAction("nobody can receive a transfer")
    if adding > room:
        total = len(state.attack) + adding
        held = defence_count(state, target)
        if total > _base_limit(state):
            raise IllegalAction(f"a transfer would make {total} attack cards: at most {_base_limit(state)}")
        raise IllegalAction(f"seat {target} holds {held} cards: he cannot defend against {total}")
    return target, ranks


def _transfer(state: State, seat: int, cards: int) -> None:
    _check_holds(state, seat, cards, "transfer with")
    target, ranks = _check_transfer(state, seat, popcount(cards))
    if cards & ~CARDS_OF_RANKS[ranks]:
        rank = RANKS[ranks.bit_length() - 1]
        raise IllegalAction(f"a transfer needs cards of the attacked rank {rank}")
    _add_attack_cards(state, seat, cards, ranks)
    _become_defender(state, target)


def _show_trump(state: State, seat: int, cards: int) -> None:
    if not state.rules.transfer_by_showing_trump:
        raise IllegalAction("transfer by showing a trump is not played at this table")
    _check_holds(state, seat, cards, "show")
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
    state.limit = min(_base_limit(state), defence_count(state, seat))
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
        _return_to_hand(state, by, 1 << card)
    else:
        covering = state.cover[index]
        for column in (attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok):
            del column[index]
        state.played[by] &= ~(1 << card)
        _return_to_hand(state, by, 1 << card)
        if covering >= 0:
            _return_to_hand(state, state.defender, 1 << covering)
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
    _end_bout_if_done(state)


# --- the end of a bout ----------------------------------------------------------------------------

def _end_bout_if_done(state: State) -> None:
    """The bout ends when every attack card is covered (or the defender has taken) and every eligible
    thrower has passed since the last card was played; at once if nobody is eligible."""
    if state.open and not state.taken:
        return
    if throwers(state) & ~state.passed:
        return
    _end_bout(state)


def _end_bout(state: State) -> None:
    hands, n = state.hands, state.n
    leader, defender = state.attacker, state.defender
    table = state.table_mask()
    taken = state.taken
    if taken:
        hands[defender] |= table
        if state.one_card:
            state.announced &= ~(1 << defender)
            state.forgot &= ~(1 << defender)
    else:
        state.discard |= table
        state.discard_count += popcount(table)
        state.discarded_once = True

    stock = state.stock
    if stock:
        # Draw order: the leader first, then clockwise from the final defender's left, the final
        # defender last; a leader who ended as the defender draws last.
        order = [leader] if leader != defender else []
        for step in range(1, n):
            seat = (defender + step) % n
            if seat != leader:
                order.append(seat)
        order.append(defender)
        for seat in order:
            hand = hands[seat]
            need = HAND_SIZE - popcount(hand)
            while need > 0 and stock:
                hand |= 1 << stock.pop()
                need -= 1
            hands[seat] = hand
        if not stock and state.hidden_cards:
            _stock_ran_out(state)

    state.bouts += 1
    if not stock:
        if state.hidden_cards:
            # With the stock empty, a player whose hand is empty turns up his hidden card and plays on.
            for seat in range(n):
                if not hands[seat] and not state.out_mask >> seat & 1:
                    _turn_up(state, seat)
        # Players go out only now, in the order in which they played their last card.
        for seat in state.emptied + list(range(n)):
            if not hands[seat] and not state.out_mask >> seat & 1:
                state.out.append(seat)
                state.out_bouts.append(state.bouts)
                state.out_mask |= 1 << seat

    if _game_over(state):
        return

    if state.team_of is None:
        if taken or not hands[defender]:
            leader = _next_with_cards(state, defender)
        else:
            leader = defender
        state.defender = _next_with_cards(state, leader)
    else:
        # Teams: the lead falls to the defender (beaten) or to the seat on the taker's left; if that
        # player is out his next partner with cards leads, against the opponent he would have attacked.
        team_of = state.team_of
        lead_seat = (defender + 1) % n if taken else defender
        team = team_of[lead_seat]
        leader = lead_seat
        if not hands[lead_seat]:
            for step in range(1, n):
                seat = (lead_seat + step) % n
                if hands[seat] and team_of[seat] == team:
                    leader = seat
                    break
        state.defender = _next_opponent_with_cards(state, lead_seat, team)
    state.attacker = leader
    state.attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok = [], [], [], [], []
    state.open = 0
    state.table_ranks = 0
    state.taken = False
    state.passed = 0
    state.shown = 0
    state.played = [0] * n
    state.covered = 0
    state.emptied = []
    if state.special:
        state.duel_open = False
        state.forced_take = False
    state.limit = _bout_limit(state)


def _game_over(state: State) -> bool:
    n = state.n
    durak: int | None = None
    losing_team: list[int] | None = None
    winner = -1
    if state.teams is None:
        remaining = n - len(state.out)
        if remaining > 1:
            return False
        if remaining == 1:
            durak = next(seat for seat in range(n) if not state.out_mask >> seat & 1)
            winner = state.out[-1]
    else:
        done = [all(state.out_mask >> seat & 1 for seat in team) for team in state.teams]
        if not any(done):
            return False
        if not all(done):
            winning = 0 if done[0] else 1
            losing_team = list(state.teams[1 - winning])
            winner = [seat for seat in state.out if state.team_of and state.team_of[seat] == winning][-1]
    state.finished = True
    decided = durak is not None or losing_team is not None
    state.result = GameResult(
        outcome=DURAK if decided else DRAW,
        durak=durak,
        losing_team=None if losing_team is None else tuple(losing_team),
        out_order=tuple(state.out),
        epaulettes=_epaulettes(state, winner, durak) if decided else None,
    )
    # The table is cleared; attacker and defender keep their values from the final bout.
    state.attack, state.cover, state.attack_by, state.attack_ok, state.cover_ok = [], [], [], [], []
    state.open = 0
    state.table_ranks = 0
    return True


def surrender(state: State, seat: int) -> None:
    """``seat`` gives up (the ``surrender`` action; a clock's fall is recorded as one): the game ends at once,
    the table as it stands, with him as the durak, or his whole team losing in a team game. Whoever already
    went out keeps his place; ``places`` and ``settlement`` then rank and pay as after any durak."""
    team = None if state.teams is None or state.team_of is None else state.teams[state.team_of[seat]]
    state.finished = True
    state.result = GameResult(
        outcome=DURAK,
        durak=seat if team is None else None,
        losing_team=None if team is None else tuple(sorted(team)),
        out_order=tuple(state.out),
    )


def _epaulettes(state: State, winner: int, durak: int | None) -> Epaulettes | None:
    """RULES.md, Epaulettes: every card the winning side's last player to go out played in the final
    bout was an attack, throw-in or transfer card of the epaulette rank (not a cover), and at least one
    of them is not a trump. The rank is his side's (6, or its rung of the epaulette ladder); on the
    ladder's last rung the series' queen is hung alone, trump or not (seed 000)."""
    if winner < 0 or state.covered >> winner & 1:
        return None
    cards = state.played[winner]
    rank = state.epaulette_ranks[winner]
    if not cards:
        return None
    if rank == QUEEN_RANK and state.queen >= 0:
        if cards != 1 << state.queen:
            return None
    else:
        if cards & ~RANK_MASK[rank]:
            return None
        if not cards & ~state.trump_mask():
            return None
    return Epaulettes(seat=durak, by=winner, rank=RANKS[rank], cards=tuple(names(cards)))


def places(state: State) -> list[list[int]]:
    """A finished game's finishing order as groups of seats, best first: players who went out at the
    end of the same bout share a group (they draw each other for ratings); the losers come last as one
    group (the durak, or the losing team's players still holding cards). A draw is a single group."""
    if not state.finished or state.result is None:
        raise IllegalAction("the game is not over")
    if state.result.draw:
        return [list(range(state.n))]
    losers = set(state.result.losers)
    groups: list[list[int]] = []
    last_bout = -1
    for seat, bout in zip(state.out, state.out_bouts):
        if seat in losers:
            continue
        if bout != last_bout:
            groups.append([])
            last_bout = bout
        groups[-1].append(seat)
    winners_left = [seat for seat in range(state.n) if seat not in losers and seat not in state.out]
    if winners_left:
        groups.append(winners_left)
    groups.append(sorted(losers))
    return groups


def settlement(state: State) -> list[int]:
    """Each seat's net chips for a finished game: what it paid in (stake, penalties) against its share
    of the bank. The bank goes in equal shares to the players who are not the durak (not on the losing
    team); whole chips left over go one each to the winners in the order they went out. In a draw each
    player gets back what he paid. Chips are neither made nor lost: the result sums to zero."""
    if not state.finished or state.result is None:
        raise IllegalAction("the game is not over")
    paid = state.paid
    if state.result.draw:
        return [0] * state.n
    losers = set(state.result.losers)
    winners = [seat for seat in state.result.out_order if seat not in losers]
    winners += [seat for seat in range(state.n) if seat not in losers and seat not in winners]
    share, left_over = divmod(state.bank, len(winners))
    net = [-amount for amount in paid]
    for position, seat in enumerate(winners):
        net[seat] += share + (1 if position < left_over else 0)
    return net


def action_name(kind: int) -> str:
    return KIND_NAMES[kind]
