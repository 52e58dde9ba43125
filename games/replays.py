"""A finished game (or any record) as the replay page draws it: every position from the deal to the end with
every hand face up, each move in words, the shuffle's check, and a bad record's problem in the reader's words.

The engine replays the record once on the server (games.engine: load_record, play) and the page only steps
through the positions it is given: it never applies a rule itself (STYLE.md 12). A game has at most a few
hundred actions, so the positions are shipped whole (a few hundred bytes each).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import EngineError, IllegalAction, MalformedRecord, load_record, verify_commitment
from games.engine.cards import card_name, names
from games.engine.deal import deal, deck_text
from games.engine.rules import Rules
from games.engine.result import GameResult
from games.engine.state import State
from games.engine.views import public_view
from games.logtext import card_text, log_lines

# A record pasted into the analysis board replays at most this many actions (a real game has a few hundred).
MAX_ACTIONS = 5000
# The public view's parts a position needs on the page (the rest, such as the rule set, is the same throughout).
_VIEW_KEYS = (
    "table", "trump", "trump_card", "discard", "attacker", "defender", "taken", "throwers", "passed", "out",
    "finished", "limit", "shown_trump", "hidden_trump",
)  # fmt: skip


def position_json(state: State) -> dict[str, Any]:
    """A position of a game that is over: the public view's parts, every hand and the stock in its order
    (top first; its last card is the face-up trump while the stock lasts)."""
    view = public_view(state)
    shown = {key: view[key] for key in _VIEW_KEYS if key in view}
    shown["hands"] = [names(hand) for hand in state.hands]
    if state.rules.hidden_cards:
        # Aktobe: each seat's hidden card while it lies face down, and the card under the face-up trump.
        face_down = [state.face_down(seat) for seat in range(state.n)]
        shown["face_down"] = [card_name(card) if card >= 0 else None for card in face_down]
        shown["under_trump"] = card_name(state.hidden_trump) if state.stock and state.hidden_trump >= 0 else None
    # The state keeps the stock bottom first, so that a draw pops from the end.
    shown["stock"] = [card_name(card) for card in reversed(state.stock)]
    return shown


@dataclass(frozen=True)
class Replayed:
    """The positions of a record (``steps[n]``: after ``n`` actions) and, when an action was refused, its
    index and the reason in the reader's words (``problem``)."""

    steps: list[dict[str, Any]]
    problem: str | None
    problem_index: int | None
    finished: bool
    result: GameResult | None


def seat_names(players: int) -> list[str]:
    return [_("Seat %(n)s") % {"n": seat + 1} for seat in range(players)]


def replay_steps(data: object, names_of_seats: Sequence[str] | None = None, language: str | None = None) -> Replayed:
    """Replay a record (parsed JSON) into positions, each move's line as the game log writes it.
    MalformedRecord is raised for a record that cannot be read at all; a refused action ends the replay there
    with its problem in words."""
    record = load_record(data)
    if len(record.actions) > MAX_ACTIONS:
        raise MalformedRecord(f"a record holds at most {MAX_ACTIONS} actions")
    language = language or translation.get_language() or "en"
    players = len(record.hands)
    seat_words = list(names_of_seats) if names_of_seats else seat_names(players)
    raw_actions = data["actions"] if isinstance(data, dict) and isinstance(data.get("actions"), list) else []
    entries: list[dict[str, Any]] = [
        {"seq": index, "seat": seat, "action": {"seat": seat, **action.to_json()},
         "timer": bool(isinstance(raw, dict) and raw.get("timer")),
         "autopilot": bool(isinstance(raw, dict) and raw.get("autopilot"))}
        for index, ((seat, action), raw) in enumerate(zip(record.actions, raw_actions))
    ]  # fmt: skip
    lines = log_lines(entries, seat_words, language)
    state = record.initial_state()
    steps: list[dict[str, Any]] = [{"n": 0, "seat": None, "action": None, "line": None, "position": position_json(state)}]
    for index, (seat, _action) in enumerate(record.actions):
        try:
            state = record.play_on(state, index)
        except IllegalAction as error:
            with translation.override(language):
                problem = illegal_in_words(index, str(error), entries[index]["action"], seat_words)
            return Replayed(steps=steps, problem=problem, problem_index=index, finished=False, result=None)
        steps.append({
            "n": index + 1, "seat": seat, "action": entries[index]["action"], "line": lines[index]["text"],
            "position": position_json(state),
        })
    return Replayed(steps=steps, problem=None, problem_index=None, finished=state.finished, result=state.result)


# --- a refused record in the reader's words ----------------------------------------------------------

_CARD = r"(?:10|[2-9JQKA])[SCDH]|RJ|BJ"


def _cards_in_words(text: str) -> str:
    return " ".join(card_text(name) if re.fullmatch(_CARD, name) else name for name in text.split())


def _seat_words(seat: str, seat_words: Sequence[str]) -> str:
    number = int(seat)
    return seat_words[number] if 0 <= number < len(seat_words) else seat


def _card_words(card: str, seat_words: Sequence[str]) -> str:
    return card_text(card)


def _cards_words(cards: str, seat_words: Sequence[str]) -> str:
    return _cards_in_words(cards)


# The engine's refusals a replay says in the reader's words, tried in order: a pattern found in the engine's
# reason, the sentence (marked here, translated when said) and, for each group of the pattern, the sentence's
# field and how it is said (a seat by its name, cards as the table writes them).
_REFUSALS: tuple[tuple[re.Pattern[str], str, tuple[tuple[str, Callable[[str, Sequence[str]], str]], ...]], ...] = (
    (re.compile(r"seat (\d+) cannot \w+(?: with)? (.+): not in his hand"),
     gettext_noop("Move %(n)s is not allowed: %(who)s does not hold %(cards)s."),
     (("who", _seat_words), ("cards", _cards_words))),
    (re.compile(r"only the defender \(seat (\d+)\) (covers|takes|transfers)"),
     gettext_noop("Move %(n)s is not allowed: only the defender, %(who)s, may cover, take or transfer."),
     (("who", _seat_words),)),
    (re.compile(r"seat (\d+) leads this bout, not seat (\d+)"),
     gettext_noop("Move %(n)s is not allowed: %(leader)s leads this bout, not %(who)s."),
     (("leader", _seat_words), ("who", _seat_words))),
    (re.compile(rf"throw-in ({_CARD}(?: {_CARD})*): no card of that rank"),
     gettext_noop("Move %(n)s is not allowed: no card of the rank of %(cards)s is on the table."),
     (("cards", _cards_words),)),
    (re.compile(rf"({_CARD}) is not an attack card on the table"),
     gettext_noop("Move %(n)s is not allowed: %(card)s is not an attack card on the table."),
     (("card", _card_words),)),
    (re.compile(rf"({_CARD}) is already covered"),
     gettext_noop("Move %(n)s is not allowed: %(card)s is already covered."),
     (("card", _card_words),)),
    (re.compile(r"seat (\d+) is out of the game"),
     gettext_noop("Move %(n)s is not allowed: %(who)s is already out of the game."),
     (("who", _seat_words),)),
    (re.compile("the game is over"),
     gettext_noop("Move %(n)s is not allowed: the game is already over."), ()),
    (re.compile("nothing to take"),
     gettext_noop("Move %(n)s is not allowed: every attack card is covered, there is nothing to take."), ()),
    (re.compile("cannot pass while attack cards are uncovered"),
     gettext_noop("Move %(n)s is not allowed: nobody may pass while an attack card is uncovered."), ()),
)


def illegal_in_words(index: int, reason: str, action: dict[str, Any], seat_words: Sequence[str]) -> str:
    """Move ``index + 1`` refused by the rules, said in the active language: the engine's reason (English, for
    programs) is read for the common cases (a cover that does not beat, and ``_REFUSALS``); any other is told
    as the move in words and "not allowed"."""
    move = index + 1
    # A cover that does not beat is the whole of the reason after the seat's prefix.
    matched = re.fullmatch(rf"cover ({_CARD}) does not beat ({_CARD})", reason.split(": ", 1)[-1])
    if matched:
        return _("Move %(n)s is not allowed: %(card)s does not beat %(attack)s.") % {
            "n": move, "card": card_text(matched[1]), "attack": card_text(matched[2]),
        }  # fmt: skip
    for pattern, sentence, fields in _REFUSALS:
        found = pattern.search(reason)
        if found:
            said = {name: say(found[group], seat_words) for group, (name, say) in enumerate(fields, start=1)}
            return _(sentence) % {"n": move, **said}
    seat = action.get("seat")
    line = log_lines(
        [{"seq": index, "seat": seat, "action": action}], list(seat_words), translation.get_language() or "en"
    )[0]["text"]
    return _("Move %(n)s is not allowed by the rules: %(move)s.") % {"n": move, "move": line}


def malformed_in_words(reason: str) -> str:
    """A record that cannot be read, said in the active language for the common cases; otherwise a sentence
    that names the record format, with the engine's own words (English) after it."""
    matched = re.match(r"action (\d+): (.*)", reason)
    if matched:
        return _("Move %(n)s is not written as the record format asks (a seat, a type and its cards): %(detail)s") % {
            "n": int(matched[1]) + 1, "detail": matched[2],
        }  # fmt: skip
    matched = re.search(r"not a card: '([^']*)'", reason)
    if matched:
        return _("“%(text)s” is not a card: write cards as 6S, 10H, QD, AC.") % {"text": matched[1]}
    matched = re.search(rf"card listed twice: ({_CARD})", reason)
    if matched:
        return _("%(card)s is dealt twice.") % {"card": card_text(matched[1])}
    matched = re.search(rf"({_CARD}) is not in this deck", reason)
    if matched:
        return _("%(card)s is not in this deck.") % {"card": card_text(matched[1])}
    matched = re.search(r"a (\d+)-card game takes 2 to (\d+) players", reason)
    if matched:
        return _("A %(deck)s-card game takes 2 to %(most)s players.") % {"deck": matched[1], "most": matched[2]}
    if reason == "a record must be a JSON object":
        return _("A game record is a JSON object with rules, players, hands, stock and actions.")
    matched = re.match(r"hands must be a list of (\d+) hands", reason)
    if matched:
        return _("“hands” must list one hand for each of the %(n)s players.") % {"n": matched[1]}
    if reason.startswith("a record holds at most"):
        return _("The record is too long: at most %(n)s moves.") % {"n": MAX_ACTIONS}
    return _("This is not a valid game record: %(detail)s") % {"detail": reason}


def not_json_in_words(error: ValueError) -> str:
    """Text that is not JSON, said with where it goes wrong (the parser's own words are Python's)."""
    if isinstance(error, json.JSONDecodeError):
        return _("This is not a game record: the text is not JSON (line %(line)s, column %(column)s).") % {
            "line": error.lineno, "column": error.colno,
        }  # fmt: skip
    return _("This is not a game record: the text is not JSON.")


# --- the shuffle's check ----------------------------------------------------------------------------


def shuffle_check(
    *, commitment: str, salt: str, deck: str, record: dict[str, Any] | None = None, number: int | None = None
) -> dict[str, Any]:
    """Whether the revealed deck (and salt) give the published commitment, and, given the record, whether that
    deck is the one whose hands and stock were played: the record's deal `number` (0 its own, 1 the first of its
    `redeals`...; None the deal played, the last). ``deck`` is the order as text, first dealt first."""
    matches = bool(deck) and bool(salt) and verify_commitment(commitment, salt, deck)
    dealt_as_played = _deck_gives_record(deck, record, number) if record is not None and deck else None
    return {
        "commitment": commitment, "salt": salt, "deck": deck.split(), "matches": matches,
        "computed": hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest(),
        "dealt_as_played": dealt_as_played, "ok": matches and dealt_as_played is not False,
    }  # fmt: skip


def _deck_gives_record(deck: str, record: dict[str, Any], number: int | None) -> bool:
    """The revealed order dealt again (six each, one at a time round the table; the rest the stock) gives the
    hands and stock of the record's deal `number`: the deck revealed is the deck played."""
    players = int(record.get("players", 0))
    order = deck.split()
    dealt = players * 6
    try:
        rules = Rules.from_dict(record.get("rules", {}))
        deals = [record, *record.get("redeals", [])]
        played = deals[-1 if number is None else number]
    except (EngineError, ValueError, TypeError, IndexError):
        return False
    hands = [sorted(order[seat:dealt:players]) for seat in range(players)]
    if rules.hidden_cards:
        stock = order[dealt + players : -1]
    else:
        stock = order[dealt:]
    return hands == [sorted(hand) for hand in played.get("hands", [])] and stock == list(played.get("stock", []))


def voided_deal_checks(
    rules: dict[str, Any], players: int, redeals: Sequence[dict[str, Any]], record: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Each deal a redeal voided, revealed now, with its own commitment's check and, given the record, whether
    it is the record's deal of that number (the record keeps every deal, the voided ones first)."""
    parsed = Rules.from_dict(rules)
    checks = []
    for number, voided in enumerate(redeals):
        order = deck_text(deal(parsed, players, seed=voided["seed"], salt=voided["salt"]).order)
        checks.append(shuffle_check(commitment=voided["commitment"], salt=voided["salt"], deck=order, record=record,
                                    number=number))  # fmt: skip
    return checks
