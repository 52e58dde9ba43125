"""The start of a game: ``new_game`` checks a deal and builds the state of a game about to start, and
``lowest_trump_holder`` is who leads it (RULES.md, Deal; ``deal`` shuffles and deals the cards).
"""

from __future__ import annotations

from .cards import BEATERS, QUEEN_RANK, SUIT_MASK, card_name, names, rank_of, suit_of
from .errors import MalformedRecord
from .rules import Rules
from .state import EPAULETTE_RANK, NO_CLAIM, State
from .table import bout_limit, clear_bout, defender_for


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
    hidden = _check_cards(rules, hands, stock, hidden, hidden_trump)
    trump = _trump_of(stock, hidden_trump, trump)
    ranks = _check_series(n, epaulette_ranks, queen)
    if teams is None and rules.teams:
        teams = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
    team_of = _check_teams(rules, n, teams) if teams is not None else None

    state = State.__new__(State)
    state.rules = rules
    state.n = n
    state.hands = list(hands)
    state.stock = list(reversed(stock))
    state.trump = trump
    state.trump_card = stock[-1] if stock else -1
    state.beaters = BEATERS[rules.joker_beats][trump + 1]
    state.teams = teams
    state.team_of = team_of
    state.neighbours = rules.throw_in == "neighbours"
    _start_counts(state, stake, ranks, queen)
    clear_bout(state)
    _start_aktobe(state, bool(stock), hidden, hidden_trump)
    if first_attacker is None:
        first_attacker = lowest_trump_holder(hands, trump)
    elif not 0 <= first_attacker < n:
        raise MalformedRecord(f"no such seat: {first_attacker}")
    state.attacker = first_attacker
    state.defender = defender_for(state, first_attacker)
    state.limit = bout_limit(state)
    return state


def _check_cards(
    rules: Rules, hands: list[int], stock: list[int], hidden: list[int] | None, hidden_trump: int,
) -> list[int]:
    """Checks that every seat has cards and no card is dealt twice; returns each seat's hidden card (-1: none)."""
    n = len(hands)
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
    return hidden


def _trump_of(stock: list[int], hidden_trump: int, trump: int | None) -> int:
    """The trump suit: the face-up stock card's, or with an empty stock the turned-up hidden trump card's or
    the one given; -1 for no trumps."""
    if stock:
        face_up_suit = suit_of(stock[-1])
        if trump is not None and trump != face_up_suit:
            raise MalformedRecord("trump differs from the suit of the face-up stock card")
        return face_up_suit
    if hidden_trump >= 0:
        # The card under the trump has been turned up: it names the trump (a joker: none).
        if trump is not None and trump != suit_of(hidden_trump):
            raise MalformedRecord("trump differs from the suit of the turned-up hidden trump card")
        return suit_of(hidden_trump)
    if trump is None:
        raise MalformedRecord("an empty stock needs 'trump'")
    return trump


def _check_series(n: int, epaulette_ranks: list[int] | None, queen: int) -> list[int]:
    """Each seat's epaulette rank (6 outside a ladder series), checked with the series' queen."""
    ranks = list(epaulette_ranks) if epaulette_ranks is not None else [EPAULETTE_RANK] * n
    if len(ranks) != n or any(not 0 <= rank < 13 for rank in ranks):
        raise MalformedRecord("epaulette ranks must name one rank 2..A for each seat")
    if queen >= 0 and rank_of(queen) != QUEEN_RANK:
        raise MalformedRecord(f"the series' queen must be a queen, not {card_name(queen)}")
    return ranks


def _start_counts(state: State, stake: int, ranks: list[int], queen: int) -> None:
    """Nothing discarded, nobody out, the stakes in the bank; the epaulettes of the series."""
    n = state.n
    state.discard = 0
    state.discard_count = 0
    state.out = []
    state.out_mask = 0
    state.discarded_once = False
    state.finished = False
    state.result = None
    state.stake = stake
    state.bank = stake * n
    state.paid = [stake] * n
    state.epaulette_ranks = ranks
    state.queen = queen
    state.bouts = 0
    state.out_bouts = []


def _start_aktobe(state: State, has_stock: bool, hidden: list[int], hidden_trump: int) -> None:
    """Aktobe's part of a new game: the hidden cards face down, nothing said or owed, the duel not begun."""
    rules = state.rules
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
    state.opening = rules.trump_duel and has_stock and state.trump >= 0
    state.duel_open = False
    state.claim = NO_CLAIM
    state.forced_take = False


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
