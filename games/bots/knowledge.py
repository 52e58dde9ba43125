"""What one seat may know of a game, and nothing more: the observation every bot decides from.

A seat sees its own hand, the table, everyone's card counts, the stock count, the trump and the face-up
trump card while it lies under the stock. Every card that has ever lain face up has had a publicly known
place since, so the history a seat needs is one set of cards, ``seen``; every other card not in its own
hand is *unseen*: in some opponent's hand or in the stock (in Aktobe also face down).

``Observation`` holds exactly that, and the bots' ``choose(observation, rng)`` sees nothing else, so a bot
cannot peek. ``Observation.sample`` deals the unseen cards at random into the places they could be and
returns a playable engine ``State``; ``Observation.filled`` does the same deterministically. An observation
is built from the state and the log (``observe``), from a seat's view and the log alone
(``observation_from_view``, replayed on a ``PublicGame`` whose unseen cards are stand-ins), or from the
state alone (``registry_policy``'s ``Memory``): docs/architecture.md, "Bots".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from games.engine.actions import (
    ATTACK, COVER, DUEL, GIVE, SHOW_TRUMP, THROW, TRANSFER, Action, action_from_json,
)
from games.engine.cards import SUIT_MASK, cards_in, deck_mask, parse_card, parse_suit, popcount
from games.engine.errors import IllegalAction
from games.engine.legal import legal_actions
from games.engine.play import play
from games.engine.rules import Rules
from games.engine.start import new_game
from games.engine.state import NO_CLAIM, State

ObservationPolicy = Callable[["Observation", random.Random], Action]
EnginePolicy = Callable[[State, int, random.Random], Action]

# Every data attribute of the engine's State, read from the class so that a field the engine adds later is
# compared too (the compiled class has no __slots__ to read).
STATE_FIELDS: tuple[str, ...] = tuple(
    name for name in dir(State) if not name.startswith("_") and not callable(getattr(State, name))
)
# The fields of a state that hold hidden cards; an observation's ``public`` state blanks them (``claim`` is
# the lowest trump the first leader held: his to know).
HIDDEN_FIELDS = ("hands", "stock", "hidden", "hidden_trump", "claim")


class GameStep:
    """One action of the game as everyone saw it: the public state just before it (hands hold only their seen
    cards, the stock is empty and ``stock_count`` says how many cards it held), how many cards each seat held
    then (``counts``), who acted, and what."""

    __slots__ = ("public", "stock_count", "seat", "action", "counts")

    def __init__(self, public: State, stock_count: int, seat: int, action: Action,
                 counts: tuple[int, ...] = ()) -> None:
        self.public = public
        self.stock_count = stock_count
        self.seat = seat
        self.action = action
        self.counts = counts  # how many cards each seat held just before the action


INFERENCE_PLAYERS = 2  # the game's steps are remembered heads-up, on plain tables (no cheating, not Aktobe)


def infers(state: State) -> bool:
    """Whether this game's steps are remembered as evidence of the hands (``GameMemory``)."""
    return state.n == INFERENCE_PLAYERS and not state.special and not state.rules.cheating


class GameMemory:
    """The game's actions as public steps, for the observations of a game played action by action:
    ``remember(state, seat, action, seen)`` before each action is played, ``history`` for ``observe`` (the
    search's whole-game inference, games.bots.inference). Only heads-up plain games are remembered
    (``infers``)."""

    __slots__ = ("history",)

    def __init__(self) -> None:
        self.history: list[GameStep] = []

    def remember(self, state: State, seat: int, action: Action, seen: int) -> None:
        if not infers(state):
            return
        public = state.copy()
        seen |= state.discard | state.table_mask()
        if state.trump_card >= 0:
            seen |= 1 << state.trump_card  # the face-up card: who drew it last is public
        public.hands = [hand & seen for hand in state.hands]
        public.stock = []
        public.claim = NO_CLAIM
        self.history.append(GameStep(public, len(state.stock), seat, action,
                                     tuple(popcount(hand) for hand in state.hands)))


def game_in_log(initial: State, log: Iterable[LogEntry]) -> GameMemory:
    """The ``GameMemory`` of the game dealt as ``initial`` (which is left as it is) after the actions of
    ``log``: for a live table, whose service keeps the deal and the action log. Public facts only."""
    memory = GameMemory()
    if not infers(initial):
        return memory
    state = initial.copy()
    seen = 0
    for seat, action in parse_log(log):
        memory.remember(state, seat, action, seen)
        play(state, seat, action)
        seen |= action.cards
    return memory


class Observation:
    """Everything seat ``seat`` may know now.

    ``public`` is the game's state with every hidden card removed: the other seats' hands hold only their
    known cards and the stock is empty (``stock_count`` says how many cards it holds). It carries the
    table, whose bout it is, who passed or showed a trump, the discard and who is out, and it is not meant
    to be played on: ``sample`` and ``filled`` return states that are."""

    __slots__ = ("seat", "rules", "players", "trump", "face_up", "hand", "counts", "known", "discard",
                 "unseen", "stock_count", "legal", "public", "hidden_down", "trump_under", "history")

    def __init__(
        self, seat: int, public: State, counts: tuple[int, ...], stock_count: int, seen: int,
        legal: tuple[Action, ...], in_play: int, hidden_down: int = 0, trump_under: bool = False,
        history: Sequence[GameStep] = (),
    ) -> None:
        self.seat = seat
        self.rules = public.rules
        self.players = public.n
        self.trump = public.trump
        self.public = public
        self.hand = public.hands[seat]
        self.counts = counts
        self.stock_count = stock_count
        self.known = tuple(hand & seen for hand in public.hands)
        self.discard = public.discard
        # The face-up trump card is public while it lies at the bottom of the stock.
        self.face_up = public.trump_card if stock_count and public.trump_card >= 0 else -1
        placed = self.hand | public.discard | public.table_mask()
        for other, known in enumerate(self.known):
            if other != seat:
                placed |= known
        if self.face_up >= 0:
            placed |= 1 << self.face_up
        self.unseen = in_play & ~placed
        self.legal = legal
        # Aktobe: the seats whose hidden card lies face down (his own too), and whether a card lies face down
        # under the trump card; each is a place an unseen card may be in.
        self.hidden_down = hidden_down
        self.trump_under = trump_under
        if public.hidden_trump >= 0:
            placed |= 1 << public.hidden_trump
            self.unseen = in_play & ~placed
        expected = sum(count - popcount(known) for other, (count, known) in enumerate(zip(counts, self.known))
                       if other != seat) + stock_count - (1 if self.face_up >= 0 else 0)
        expected += popcount(hidden_down) + (1 if trump_under else 0)
        if popcount(self.unseen) != expected:
            raise ValueError(f"inconsistent observation: {popcount(self.unseen)} unseen cards for {expected} places")
        # Every step of the game so far (heads-up plain games: ``GameMemory.history``), for the search's
        # whole-game inference (``inference.Posterior``); public facts only.
        self.history = tuple(history)

    def key(self) -> tuple[Any, ...]:
        """Every fact of the observation as plain values, for comparing two observations."""
        public = _public_facts(self.public)
        legal = tuple(sorted((action.kind, action.cards, action.target) for action in self.legal))
        history = tuple(
            (_public_facts(step.public), step.public.hands, step.stock_count, step.seat, step.action.kind,
             step.action.cards, step.action.target, step.counts)
            for step in self.history
        )  # fmt: skip
        return (self.seat, self.hand, self.counts, self.known, self.discard, self.unseen, self.stock_count,
                self.face_up, legal, public, self.hidden_down, self.trump_under, history)

    def others(self) -> list[int]:
        return [seat for seat in range(self.players) if seat != self.seat]

    def possible(self, seat: int) -> int:
        """The cards ``seat`` may hold: his known cards, and any unseen card if he holds unknown ones."""
        if seat == self.seat:
            return self.hand
        known = self.known[seat]
        return known | self.unseen if self.counts[seat] > popcount(known) else known

    def sample(self, rng: random.Random) -> State:
        """A playable state consistent with this observation: the unseen cards dealt at random into the
        other hands (up to their counts) and the stock (above the face-up card, which stays at its bottom)."""
        pool = list(cards_in(self.unseen))
        rng.shuffle(pool)
        return self._deal(pool)

    def filled(self) -> State:
        """A playable state consistent with this observation, the unseen cards dealt in a fixed order. For
        bots that read only public facts of a state: what lands in the other hands means nothing."""
        return self._deal(list(cards_in(self.unseen)))

    def deal_in(self, pool: list[int]) -> State:
        """The state with the unseen cards ``pool`` dealt in its order: the other hands first (seat by seat, up
        to their counts), then the stock, its top last."""
        return self._deal(pool)

    def _deal(self, pool: list[int]) -> State:
        state = self.public.copy()
        hands = state.hands
        start = 0
        for seat in range(self.players):
            if seat == self.seat:
                continue
            need = self.counts[seat] - popcount(hands[seat])
            hand = hands[seat]
            for card in pool[start:start + need]:
                hand |= 1 << card
            hands[seat] = hand
            start += need
        if self.hidden_down or self.trump_under:
            hidden = state.hidden = state.hidden[:]
            for seat in range(self.players):
                if self.hidden_down >> seat & 1:
                    hidden[seat] = pool[start]
                    start += 1
            if self.trump_under:
                state.hidden_trump = pool[start]
                start += 1
        stock = pool[start:]
        if self.face_up >= 0:
            stock.insert(0, self.face_up)  # the stock's top is its last card; the face-up card is drawn last
        state.stock = stock
        return state


def _public_facts(state: State) -> tuple[object, ...]:
    """Every field of ``state`` but the hidden ones, as plain values."""
    return tuple(_plain(getattr(state, name)) for name in STATE_FIELDS if name not in HIDDEN_FIELDS)


def _plain(value: object) -> object:
    if isinstance(value, list):
        return tuple(_plain(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, _plain(item)) for key, item in value.items()))
    if isinstance(value, Rules):
        return tuple(sorted(value.to_dict().items()))
    return value


def observe(state: State, seat: int, seen: int, history: Sequence[GameStep] = ()) -> Observation:
    """What ``seat`` may know of ``state``, given ``seen``, the cards that have been face up so far (see
    ``seen_in_log``), and the game's public steps (``GameMemory.history``, heads-up plain games). The table,
    the discard and the face-up card count as seen whatever ``seen`` says."""
    seen |= state.discard | state.table_mask() | shown_cards(state)
    if state.trump_card >= 0:
        seen |= 1 << state.trump_card
    if state.hidden_trump >= 0 and not state.stock:
        seen |= 1 << state.hidden_trump  # turned up when the stock ran out
    public = state.copy()
    public.hands = [hand if other == seat else hand & seen for other, hand in enumerate(state.hands)]
    public.stock = []
    counts = tuple(popcount(hand) for hand in state.hands)
    # The whole deck in a game dealt by the engine; a record that starts mid-game leaves some cards out of
    # play, and says so publicly.
    in_play = state.discard | state.table_mask()
    for hand in state.hands:
        in_play |= hand
    for card in state.stock:
        in_play |= 1 << card
    hidden_down = 0
    if state.hidden_cards:
        in_play |= state.hidden_mask()
        if state.hidden_trump >= 0:
            in_play |= 1 << state.hidden_trump
        for other in range(state.n):
            if state.face_down(other) >= 0:
                hidden_down |= 1 << other
        # Nobody knows a face-down card; a turned-up one only its owner (it is in his hand).
        own = state.hidden[seat]
        known = own >= 0 and state.hidden_up >> seat & 1 and state.hands[seat] >> own & 1
        public.hidden = [own if other == seat and known else -1 for other in range(state.n)]
        public.hidden_trump = state.hidden_trump if not state.stock else -1
    public.claim = NO_CLAIM
    trump_under = state.hidden_trump >= 0 and bool(state.stock)
    return Observation(seat, public, counts, len(state.stock), seen, tuple(legal_actions(state, seat)), in_play,
                       hidden_down, trump_under, history)


def shown_cards(state: State) -> int:
    """The trumps shown to transfer in the current bout (each shower showed the trump of the attacked rank)."""
    if not state.shown or not state.attack or state.trump < 0:
        return 0
    # Only the trump of the attacked rank can be shown, and all attack cards share one rank until a cover.
    return 1 << ((state.attack[0] >> 2) * 4 + state.trump)


LogEntry = tuple[int, Action] | Mapping[str, Any]


def parse_log(log: Iterable[LogEntry]) -> list[tuple[int, Action]]:
    """An action log as ``(seat, Action)`` pairs; entries may be pairs or DESIGN.md's JSON actions."""
    parsed: list[tuple[int, Action]] = []
    for entry in log:
        if isinstance(entry, tuple):
            parsed.append(entry)
        else:
            parsed.append((int(entry["seat"]), action_from_json(entry)))
    return parsed


def seen_in_log(log: Iterable[LogEntry]) -> int:
    """The cards that the actions of a log laid face up or showed: every card a log names was seen."""
    seen = 0
    for _seat, action in parse_log(log):
        seen |= action.cards
    return seen


class Memory:
    """The cards seen in one game, gathered from successive looks at its state (for callers without a log).

    Each look adds the table, the discard, the face-up card and the shown trumps. A look at a state that
    cannot follow the previous one (a card seen before is back in the stock, fewer discarded cards)
    starts the memory afresh."""

    __slots__ = ("seen", "discard_count", "stock_count")

    def __init__(self) -> None:
        self.seen = 0
        self.discard_count = 0
        self.stock_count = 1 << 30

    def update(self, state: State) -> int:
        if state.discard_count < self.discard_count or len(state.stock) > self.stock_count:
            self.seen = 0
        self.discard_count = state.discard_count
        self.stock_count = len(state.stock)
        seen = self.seen | state.discard | state.table_mask() | shown_cards(state)
        if state.trump_card >= 0:
            seen |= 1 << state.trump_card
        if state.hidden_trump >= 0 and not state.stock:
            seen |= 1 << state.hidden_trump
        self.seen = seen
        return seen


# One memory per game being played through registry policies, keyed by the state object's id. The entry
# keeps the state alive, so its id cannot be reused by another object while the entry exists.
_MEMORIES: dict[int, tuple[State, Memory]] = {}
_MEMORY_LIMIT = 256


def memory_for(state: State) -> Memory:
    entry = _MEMORIES.get(id(state))
    if entry is not None and entry[0] is state:
        return entry[1]
    if len(_MEMORIES) >= _MEMORY_LIMIT:
        # Forget the oldest games (dicts keep insertion order); a game still running merely restarts its memory.
        for key in list(_MEMORIES)[: _MEMORY_LIMIT // 2]:
            del _MEMORIES[key]
    memory = Memory()
    _MEMORIES[id(state)] = (state, memory)
    return memory


def registry_policy(choose: ObservationPolicy) -> EnginePolicy:
    """The engine's policy signature ``(state, seat, rng) -> Action`` for a bot that decides from an
    ``Observation``: the state is used only to build the seat's observation."""

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        if state.finished:
            raise IllegalAction("the game is over")
        return choose(observe(state, seat, memory_for(state).update(state)), rng)

    policy.__name__ = getattr(choose, "__name__", "policy")
    return policy


class PublicGame:
    """A game replayed from its public course only: the rules, the public facts of the deal and the action
    log. Hands and stock hold stand-in cards for every card that has not been seen; a card a player lays
    down is first swapped into his hand from wherever its stand-in lies (another hand, the stock, a hidden
    card face down; never a seen card), so every seen card is where it really is and every count is right,
    while nothing about an unseen card is known. The engine itself plays the replay, so draws, bouts,
    transfers, accusations and who goes out follow the rules exactly.

    Aktobe: the hidden cards are stand-ins too, and so is the card under the trump until it is turned up
    (``hidden_trump``, public once the stock is empty, must then be given). Which card a player turned up is
    his secret, so the replay forgets it (the rule that he must cover with it is his own legal moves' concern),
    and so is the lowest trump the first leader held: a duel shown later is taken as the public fact it is."""

    def __init__(
        self, rules: Rules, players: int, *, trump: int, face_up: int | None, first_attacker: int,
        teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None, stake: int = 0,
        hidden_trump: int | None = None,
    ) -> None:
        deck = list(cards_in(deck_mask(rules.deck)))
        for known in (face_up, hidden_trump):
            if known is not None:
                deck.remove(known)
        dealt = 6 * players
        hands = [0] * players
        for index, card in enumerate(deck[:dealt]):
            hands[index % players] |= 1 << card
        rest = deck[dealt:]
        hidden: list[int] | None = None
        under = -1
        if rules.hidden_cards:
            hidden, rest = rest[:players], rest[players:]
            under = hidden_trump if hidden_trump is not None else rest.pop()
        stock = rest
        if face_up is not None:
            stock.append(face_up)  # a record lists the stock top first, the face-up card last
        self.state = new_game(
            rules, hands, stock, trump=trump if face_up is None else None, first_attacker=first_attacker, teams=teams,
            stake=stake, hidden=hidden, hidden_trump=under,
        )
        self.seen = 1 << face_up if face_up is not None else 0
        self.memory = GameMemory()

    def apply(self, seat: int, action: Action) -> None:
        """Replay one action of the log; IllegalAction if the log cannot be a game of these rules."""
        state = self.state
        kind = action.kind
        if kind in (ATTACK, COVER, THROW, TRANSFER, SHOW_TRUMP, GIVE, DUEL):
            self._bring(seat, action.cards)
        opening = state.opening
        if kind == DUEL:
            self._no_lower_trump(seat, action.card)
            state.claim = NO_CLAIM
        self.memory.remember(state, seat, action, self.seen)
        play(state, seat, action)
        if opening and not state.opening:
            state.claim = NO_CLAIM  # the first leader's lowest trump is his to know
        for other in range(state.n):
            if state.hidden_up >> other & 1:
                state.hidden[other] = -1
        self.seen |= action.cards

    def _swap(self, card: int, stand_in: int) -> None:
        """Put ``stand_in`` where ``card`` lies now (a hand, a hidden card face down, under the trump, the stock)."""
        state = self.state
        hands = state.hands
        for other in range(state.n):
            if hands[other] >> card & 1:
                hands[other] = hands[other] & ~(1 << card) | 1 << stand_in
                return
        for other in range(state.n):
            if state.face_down(other) == card:
                state.hidden[other] = stand_in
                return
        if state.hidden_trump == card and state.stock:
            state.hidden_trump = stand_in
            return
        if card not in state.stock:
            raise IllegalAction(f"{card} is out of play")
        state.stock[state.stock.index(card)] = stand_in

    def _bring(self, seat: int, cards: int) -> None:
        """Put ``cards`` into ``seat``'s stand-in hand, each swapped for one of his unseen stand-ins."""
        state = self.state
        hands = state.hands
        for card in cards_in(cards & ~hands[seat]):
            if self.seen >> card & 1:
                raise IllegalAction(f"seat {seat} cannot hold a card already seen elsewhere")
            spare = hands[seat] & ~self.seen & ~cards
            if not spare:
                raise IllegalAction(f"seat {seat} holds no card that could be this one")
            stand_in = (spare & -spare).bit_length() - 1
            try:
                self._swap(card, stand_in)
            except IllegalAction:
                raise IllegalAction(f"seat {seat} cannot hold a card that is out of play") from None
            hands[seat] = hands[seat] & ~(1 << stand_in) | 1 << card

    def _no_lower_trump(self, seat: int, card: int) -> None:
        """A duel shows the seat's lowest trump: any unseen stand-in trump lower than it in his hand trades
        places with an unseen card that is not one."""
        state = self.state
        if state.trump < 0:
            return
        lower = state.hands[seat] & SUIT_MASK[state.trump] & ((1 << card) - 1) & ~self.seen
        mine = state.hands[seat]
        for stand_in in cards_in(lower):
            candidates = _unseen_elsewhere(state, seat) & ~self.seen & ~(SUIT_MASK[state.trump] & ((1 << card) - 1))
            if not candidates:
                raise IllegalAction(f"seat {seat} holds a lower trump than {card}")
            other = (candidates & -candidates).bit_length() - 1
            self._swap(other, stand_in)
            mine = mine & ~(1 << stand_in) | 1 << other
            state.hands[seat] = mine

    def observation(self, seat: int, hand: int, hidden_card: int = -1) -> Observation:
        """The observation of ``seat``, who holds ``hand``: his stand-ins are swapped for his real cards.
        ``hidden_card`` is his hidden card if he has turned it up (he alone knows which card it was)."""
        if popcount(hand) != popcount(self.state.hands[seat]):
            raise ValueError(f"seat {seat} holds {popcount(self.state.hands[seat])} cards, not {popcount(hand)}")
        saved = self.state
        self.state = saved.copy()
        try:
            self._bring(seat, hand)
            if hidden_card >= 0 and self.state.hidden_up >> seat & 1:
                self.state.hidden[seat] = hidden_card
            return observe(self.state, seat, self.seen, self.memory.history)
        finally:
            self.state = saved


def _unseen_elsewhere(state: State, seat: int) -> int:
    """The cards that lie where ``seat`` cannot see: other hands, the hidden cards face down, the stock."""
    mask = state.hidden_mask()
    for other in range(state.n):
        if other != seat:
            mask |= state.hands[other]
    for card in state.stock:
        mask |= 1 << card
    if state.stock and state.trump_card >= 0:
        mask &= ~(1 << state.trump_card)
    return mask


def observation_from_view(
    view: Mapping[str, Any], log: Sequence[LogEntry], *, face_up: str | None = None, stake: int = 0,
) -> Observation:
    """The observation of the seat whose ``seat_view`` this is, from the view and the game's action log.

    ``face_up`` is the card that lay face up under the stock at the deal; it may be left out while the
    view still shows it. The first action of the log names the first attacker (or, before any action,
    the view's attacker)."""
    rules = Rules.from_dict(view["rules"])
    actions = parse_log(log)
    if face_up is None:
        face_up = view.get("trump_card")
    players = int(view["players"])
    if face_up is None and rules.deck > 6 * players:
        raise ValueError("the face-up card of the deal is needed once the view no longer shows it")
    trump = parse_suit(view["trump"]) if view["trump"] is not None else -1
    teams = view.get("teams")
    hidden_trump = view.get("hidden_trump")  # Aktobe: public once the stock has run out
    game = PublicGame(
        rules, players, trump=trump, hidden_trump=parse_card(hidden_trump) if hidden_trump else None,
        face_up=parse_card(face_up) if face_up is not None else None,
        first_attacker=actions[0][0] if actions else int(view["attacker"]),
        teams=(tuple(teams[0]), tuple(teams[1])) if teams else None, stake=stake,
    )
    for seat, action in actions:
        game.apply(seat, action)
    hand = 0
    for name in view["hand"]:
        hand |= 1 << parse_card(name)
    hidden_card = view.get("hidden_card")
    return game.observation(int(view["seat"]), hand, parse_card(hidden_card) if hidden_card else -1)
