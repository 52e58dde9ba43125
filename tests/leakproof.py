"""Proofs that a reader is never shown a card he may not see, by difference and by a scan (issue 39).

By difference: whatever a reader can fetch of a running game (a page, a socket message, an API answer, a file)
is produced twice, under the deal as it was and under a deal that differs from it only in what that reader
may not see: the cards he has not seen are dealt otherwise among the places he cannot see into (the other
hands, the stock below its face-up card). What he sees must be identical. This proves more than any scan:
a leak in a form nobody thought of (an integer id, a bitmask, a count of hearts) changes the output too.

The swap keeps the game's actions: every card an action names was face up, so it stays where it was, and
the log replays as before (`swapped_deal`). The commitment, salt and seed strings stay as they were (a hash
of the deck that the reader cannot invert; it is checked after the game).

By scan (the second net): `cards_in_text` finds a card in every form a page or message could take it: codes
either way round ("QS", "SQ", "Q♠", "♠Q"), suit symbols raw, JSON-escaped (\\u2660) or as HTML entities,
Russian rank letters (Д♠), words in both languages ("queen of spades", "дама пик"), and integer card ids or
bitmasks in a JSON field that holds cards.
"""

from __future__ import annotations

import contextlib
import difflib
import html
import json
import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from games.engine import played_deal
from games.engine.cards import card_name, names, parse_card
from games.models import Game

SUIT_LETTERS = "SCDH"
SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
# Russian short ranks as the page may print them: валет, дама, король, туз.
RUSSIAN_RANKS = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
# Fields of a JSON answer whose integers would be cards (ids 0 to 53, or a bitmask of them). Not "deck" (the
# rules' deck size) nor "hidden" (Aktobe's count of face-down cards a seat).
CARD_FIELDS = {"card", "cards", "hand", "hands", "attack", "cover", "hidden_trump", "trump_card", "stock_cards",
               "mask", "seen"}  # fmt: skip


def _word_forms() -> dict[str, set[str]]:
    """Each card's name in words, in English and Russian, as the site's own strings put it (games.views)."""
    from games.views import client_strings

    forms: dict[str, set[str]] = {}
    for language in ("en", "ru"):
        with translation.override(language):
            strings = client_strings()
        for rank in RANKS:
            for suit in SUIT_LETTERS:
                label = strings["card_label"] % {
                    "rank": strings["rank_names"][rank],
                    "suit": strings["suit_names"][suit],
                }
                forms.setdefault(label.lower(), set()).add(rank + suit)
    # Russian names of the suits in the genitive as people write them ("дама пик", "туз бубен").
    russian_ranks = {"J": "валет", "Q": "дама", "K": "король", "A": "туз", "6": "шестёрка", "7": "семёрка",
                     "8": "восьмёрка", "9": "девятка", "10": "десятка"}  # fmt: skip
    russian_suits = {"S": "пик", "C": "треф", "D": "бубен", "H": "червей"}
    english_ranks = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    english_suits = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
    for rank in RANKS:
        for suit in SUIT_LETTERS:
            code = rank + suit
            if rank in russian_ranks:
                forms.setdefault(f"{russian_ranks[rank]} {russian_suits[suit]}", set()).add(code)
                forms.setdefault(f"{russian_ranks[rank].replace('ё', 'е')} {russian_suits[suit]}", set()).add(code)
            forms.setdefault(f"{english_ranks.get(rank, rank)} of {english_suits[suit]}", set()).add(code)
    return forms


_FORMS_BY_LAST_WORD: dict[str, dict[str, set[str]]] | None = None


def _forms_by_last_word() -> dict[str, dict[str, set[str]]]:
    """The word forms grouped by their last word (a suit's name): a text that holds a form holds its last word,
    so only the groups whose word the text holds are searched, form by form."""
    global _FORMS_BY_LAST_WORD
    if _FORMS_BY_LAST_WORD is None:
        _FORMS_BY_LAST_WORD = {}
        for words, codes in _word_forms().items():
            _FORMS_BY_LAST_WORD.setdefault(words.split()[-1], {})[words] = codes
    return _FORMS_BY_LAST_WORD


def _code_pattern() -> re.Pattern[str]:
    rank = r"(?P<rank>10|[2-9JQKAВДКТ])"
    suit = r"(?P<suit>[SCDH♠♣♦♥])"
    rank2 = r"(?P<rank2>10|[2-9JQKAВДКТ])"
    suit2 = r"(?P<suit2>[SCDH♠♣♦♥])"
    edge_before = r"(?<![0-9A-Za-zА-Яа-яЁё_])"
    edge_after = r"(?![0-9A-Za-zА-Яа-яЁё_])"
    return re.compile(f"{edge_before}(?:{rank}{suit}|{suit2}{rank2}){edge_after}")


CODE = _code_pattern()
JOKER = re.compile(r"(?<![0-9A-Za-z_])(RJ|BJ)(?![0-9A-Za-z_])")
SYMBOL_LETTER = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
LATIN_RANK = {cyrillic: latin for latin, cyrillic in RUSSIAN_RANKS.items()}


def _unescape(text: str) -> str:
    """The text as a reader's browser would show it: JSON \\u escapes and HTML entities undone."""
    text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda match: chr(int(match.group(1), 16)), text)
    return html.unescape(text)


def _integer_cards(data: Any, into: set[str], key: str = "") -> None:
    """The cards named by integers under a card's field (CARD_FIELDS) anywhere in parsed JSON. The scan runs on
    every message of the leak tests, so a leaf is looked at where it is met rather than in a call of its own."""
    if isinstance(data, dict):
        for name, value in data.items():
            if isinstance(value, (dict, list)):
                _integer_cards(value, into, str(name))
            elif isinstance(value, int) and not isinstance(value, bool) and str(name) in CARD_FIELDS:
                _integer_card(value, into)
    elif isinstance(data, list):
        card_field = key in CARD_FIELDS
        for value in data:
            if isinstance(value, (dict, list)):
                _integer_cards(value, into, key)
            elif card_field and isinstance(value, int) and not isinstance(value, bool):
                _integer_card(value, into)
    elif isinstance(data, int) and not isinstance(data, bool) and key in CARD_FIELDS:
        _integer_card(data, into)


def _integer_card(value: int, into: set[str]) -> None:
    if 0 <= value < 54:
        into.add(card_name(value))
    elif value >= 64:  # a bitmask of cards
        into.update(names(value & ((1 << 54) - 1)))


def cards_in_text(text: str) -> set[str]:
    """Every card the text names, in any of the forms above, as codes ("QS", "10H", "RJ")."""
    groups = _forms_by_last_word()
    shown = _unescape(text)
    found: set[str] = set()
    for match in CODE.finditer(shown):
        rank = match.group("rank") or match.group("rank2")
        suit = match.group("suit") or match.group("suit2")
        rank = LATIN_RANK.get(rank, rank)
        suit = SYMBOL_LETTER.get(suit, suit)
        if match.group("suit2") and suit in SUIT_LETTERS and match.group("suit2") in SUIT_LETTERS:
            # "SQ", "H10": letters either way round; the Cyrillic letters stand only before a symbol.
            if match.group("rank2") in LATIN_RANK:
                continue
        elif match.group("rank") in LATIN_RANK and match.group("suit") in SUIT_LETTERS:
            continue
        found.add(rank + suit)
    found.update(JOKER.findall(shown))
    lowered = shown.lower()
    for last_word, forms in groups.items():
        if last_word in lowered:
            for words, codes in forms.items():
                if words in lowered:
                    found.update(codes)
    with contextlib.suppress(ValueError):
        _integer_cards(json.loads(text), found)
    return found


def cards_in(answer: Any) -> set[str]:
    """`cards_in_text` of a message, an answer's JSON or a page."""
    if isinstance(answer, bytes):
        answer = answer.decode(errors="replace")
    if not isinstance(answer, str):
        answer = json.dumps(answer, ensure_ascii=False)
    return cards_in_text(answer)


# --- by difference ----------------------------------------------------------------------------------------


def seen_by(game: Game, seat: int | None) -> set[int]:
    """The cards the reader at `seat` (None: anyone not seated) has seen in the game so far: his hand, the
    face-up trump card, and every card an action laid face up or showed."""
    from games.snapshots import state_of

    state = state_of(game)
    seen = set(_ids(state.hands[seat])) if seat is not None else set()
    stock = played_deal(game.record).get("stock") or []
    if stock:
        seen.add(parse_card(stock[-1]))
    for raw in game.record.get("actions", [])[len(game.redeals) : game.seq]:
        for field in ("cards",):
            seen.update(parse_card(card) for card in raw.get(field, []))
        for field in ("card", "attack"):
            if field in raw:
                seen.add(parse_card(raw[field]))
    # Aktobe: a hidden card is seen by all once turned up, the card under the trump once the stock ran out.
    for owner, card in enumerate(state.hidden):
        if card >= 0 and state.hidden_up >> owner & 1:
            seen.add(card)
    if state.hidden_trump >= 0 and not state.stock:
        seen.add(state.hidden_trump)
    return seen


def _ids(mask: int) -> list[int]:
    return [card for card in range(54) if mask >> card & 1]


def _dealt(record: Mapping[str, Any]) -> list[str]:
    hidden = [card for card in record.get("hidden") or [] if card]
    under = [record["hidden_trump"]] if record.get("hidden_trump") else []
    return [card for hand in record["hands"] for card in hand] + list(record.get("stock") or []) + hidden + under


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """The names of the cards in the deal that the reader has not seen."""
    dealt = _dealt(played_deal(game.record))
    seen = {card_name(card) for card in seen_by(game, seat)}
    return {card for card in dealt if card not in seen}


def swapped_record(record: Mapping[str, Any], hidden: set[str], rng: random.Random) -> dict[str, Any]:
    """The record with the hidden cards dealt otherwise among the places that held them; at least one hidden
    card changes its holder (another hand, or the stock)."""
    places: list[tuple[Any, int]] = [
        (index, position) for index, hand in enumerate(record["hands"]) for position in range(len(hand))
    ]
    places += [("stock", position) for position in range(len(record.get("stock") or []))]
    # Aktobe: each seat's hidden card and the card under the trump are places too.
    places += [("hidden", seat) for seat, card in enumerate(record.get("hidden") or []) if card]
    if record.get("hidden_trump"):
        places.append(("hidden_trump", 0))

    def card_at(place: tuple[Any, int]) -> str:
        index, position = place
        if index in ("stock", "hidden"):
            return str(record[index][position])
        if index == "hidden_trump":
            return str(record["hidden_trump"])
        return str(record["hands"][index][position])

    movable = [place for place in places if card_at(place) in hidden]
    if len({place[0] for place in movable}) < 2:
        raise ValueError("the hidden cards lie in one place only: no other deal differs in what is hidden")
    for _ in range(100):
        cards = [card_at(place) for place in movable]
        rng.shuffle(cards)
        if any(card != card_at(place) and place[0] != holder_of(record, card) for place, card in zip(movable, cards)):
            break
    swapped: dict[str, Any] = {
        "hands": [list(hand) for hand in record["hands"]],
        "stock": list(record.get("stock") or []),
    }
    if "hidden" in record:
        swapped["hidden"] = list(record["hidden"])
    for (index, position), card in zip(movable, cards):
        if index in ("stock", "hidden"):
            swapped[index][position] = card
        elif index == "hidden_trump":
            swapped["hidden_trump"] = card
        else:
            swapped["hands"][index][position] = card
    return {**record, **swapped}


def holder_of(record: Mapping[str, Any], card: str) -> Any:
    for index, hand in enumerate(record["hands"]):
        if card in hand:
            return index
    if card in (record.get("hidden") or []):
        return "hidden"
    if card == record.get("hidden_trump"):
        return "hidden_trump"
    return "stock"


def forget_caches() -> None:
    """Empty every cache of states, seats and log lines the selectors keep, so an output is made afresh."""
    from games import selectors, snapshots

    snapshots.forget_all()
    selectors._seats_cache.clear()
    with selectors._logs_lock:
        selectors._logs.clear()


@contextlib.contextmanager
def swapped_deal(game: Game, hidden: set[str], rng: random.Random) -> Iterator[dict[str, Any]]:
    """The game's stored deal replaced by `swapped_record` while the block runs, then put back."""
    from games.snapshots import state_of

    original = game.record
    swapped = swapped_record(original, hidden, rng)
    Game.objects.filter(pk=game.pk).update(record=swapped)
    forget_caches()
    try:
        game.refresh_from_db()
        state_of(game)  # the game's actions replay under the other deal
        yield swapped
    finally:
        Game.objects.filter(pk=game.pk).update(record=original)
        game.refresh_from_db()
        forget_caches()


def pin_first_attacker(game: Game) -> None:
    """Write the first attacker into the record: left to the rules, the lowest trump would name him, and a
    swap of hidden cards could move it."""
    from games.snapshots import dealt_state

    if game.record.get("first_attacker") is None:
        attacker = dealt_state(game).attacker
        Game.objects.filter(pk=game.pk).update(record={**game.record, "first_attacker": attacker})
        game.refresh_from_db()
        forget_caches()


CSRF = [
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")'),
    re.compile(r'(csrf[_-]?token["\']?\s*[:=]\s*["\'])[^"\']+(["\'])', re.IGNORECASE),
    re.compile(r'(name="csrf-token" content=")[^"]+(")'),
    re.compile(r"(&quot;X-CSRFToken&quot;: &quot;)[^&]+(&quot;)"),
    re.compile(r'("X-CSRFToken": ")[^"]+(")'),
    re.compile(r'(\["X-CSRFTOKEN"\] = ")[^"]+(")', re.IGNORECASE),
    re.compile(r'("csrf"\s*:\s*")[^"]+(")'),
]


NOW_FIELD = re.compile(r'(type="datetime-local" name="[a-z_]+" value=")[0-9T:-]+(")')


def normalised(output: Any) -> str:
    """An output as text, with what differs between two fetches of the same thing for other reasons than the
    deal (a page's CSRF token) made the same."""
    if isinstance(output, bytes):
        output = output.decode(errors="replace")
    if not isinstance(output, str):
        output = json.dumps(output, ensure_ascii=False, sort_keys=True, indent=1, default=str)
    for pattern in CSRF:
        output = pattern.sub(r"\1<csrf>\2", output)
    # A form's default moment ("registration opens: now") moves on with the clock between the two fetches.
    return NOW_FIELD.sub(r"\1<now>\2", output)


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The outputs (by name) that differ, each with the first lines of its diff."""
    found = []
    for name in sorted(set(before) | set(after)):
        a, b = normalised(before.get(name)), normalised(after.get(name))
        if a != b:
            diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0))[2:8]
            found.append(f"{name}: " + " | ".join(diff))
    return found


def assert_same_under_another_deal(
    game: Game, seat: int | None, produce: Callable[[], Mapping[str, Any]], *, rng: random.Random
) -> int:
    """Produce the reader's outputs under the game's deal and under another that differs only in what he has
    not seen; every output must be identical. Returns how many outputs were compared."""
    return len(outputs_same_under_another_deal(game, seat, produce, rng=rng))


def outputs_same_under_another_deal(
    game: Game, seat: int | None, produce: Callable[[], Mapping[str, Any]], *, rng: random.Random
) -> Mapping[str, Any]:
    """As ``assert_same_under_another_deal``, returning the outputs produced under the game's own deal (for a
    second check of the same outputs without producing them again)."""
    hidden = hidden_from(game, seat)
    before = produce()
    with swapped_deal(game, hidden, rng):
        after = produce()
    found = differences(before, after)
    assert not found, f"the reader at seat {seat} is shown what he may not see:\n" + "\n".join(found)
    return before


# --- every URL of the site --------------------------------------------------------------------------------

# Parts of the site that are not ours to crawl: Django's admin has its own tests, static files are files.
SKIP_PREFIXES = ("admin/", "static/", "media/", "__debug__/")
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def routes(resolvers: list[Any], prefix: str = "") -> Iterator[str]:
    for entry in resolvers:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern) and not route.startswith("^") and "(?P" not in route:
            yield prefix + route


def fill_route(route: str, objects: Mapping[str, Any]) -> str:
    """The route with each parameter filled with the real object it names: the segment before a `pk` says
    which (tables/<pk> is a table, games/<pk> a game); a name without an object gets a value that exists
    nowhere, so that the expected status (404) is checked too."""

    def fill(match: re.Match[str]) -> str:
        name = match.group("name")
        before = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
        key = {"tables": "table_id", "games": "game_id", "tournaments": "tournament_id", "tokens": "token_id",
               "pools": "slug"}.get(before, name) if name in ("pk", "id", "slug") else name  # fmt: skip
        if key in objects:
            return str(objects[key])
        return "999999" if (match.group("converter") or "str") in ("int", "id") else "nothing-here"

    return "/" + PARAMETER.sub(fill, route)


def site_urls(objects: Mapping[str, Any]) -> list[str]:
    every = sorted(set(routes(get_resolver().url_patterns)))
    return [fill_route(route, objects) for route in every if not route.startswith(SKIP_PREFIXES)]
