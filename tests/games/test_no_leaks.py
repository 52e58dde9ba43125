"""Over 50 bot games (podkidnoy, perevodnoy with trumps shown, cheating tables, 2 to 6 players, three
decks) every message sent to a seat's group names only cards that seat could see.

The messages are captured where the services hand them to the channel layer, then put into words in
both languages as the consumer does. A seat may see its own hand, the table, the face-up trump card
while it lies under the stock, and every card that lay face up before (played, shown: the log names
them); the deck once the game is over. A spectator may see the same without any hand. The view itself
(not the log) must name nothing but the seat's hand, the table and the face-up card.

Aktobe (issue 8) adds games with jokers and hidden cards: a hidden card face down is in no message, not even
to its owner, and the card under the trump only once the stock has run out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from games import broadcast, services
from games.broadcast import game_group, view_in_event
from games.engine import load_record, play
from games.engine.actions import action_from_json
from games.engine.cards import card_name, names
from games.engine.state import State
from games.models import Game, GameStatus
from games.selectors import log_entries_of
from games.logtext import log_lines
from tests.games.factories import latest_game, person, table
from tests.leakproof import cards_in

ALL_CARD_NAMES = {card_name(card) for card in range(54)}

# (rules, players, games)
VARIANTS: list[tuple[dict[str, Any], int, int]] = [
    ({"preset": "podkidnoy"}, 2, 12),
    ({"preset": "podkidnoy", "deck": 24}, 3, 4),
    ({"preset": "perevodnoy", "transfer_by_showing_trump": True}, 2, 12),
    ({"preset": "perevodnoy", "transfer_by_showing_trump": True, "deck": 24}, 4, 3),
    ({"preset": "podkidnoy", "cheating": True}, 2, 12),
    ({"preset": "perevodnoy", "cheating": True, "deck": 24}, 3, 4),
    ({"preset": "podkidnoy", "throw_in": "neighbours"}, 5, 1),
    ({"preset": "podkidnoy", "teams": "2v2", "deck": 24}, 4, 2),
    ({"preset": "perevodnoy"}, 6, 1),
    ({"preset": "aktobe"}, 2, 6),
    ({"preset": "aktobe", "joker_beats": "same_colour"}, 4, 2),
]


class RecordingLayer:
    """Stands in for the channel layer: keeps every (group, event) the services send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, event: dict[str, Any]) -> None:
        self.sent.append((group, event))


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingLayer]:
    recording = RecordingLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: recording)
    # One event loop for all the sends (async_to_sync would start one per call: most of this test's time).
    loop = asyncio.new_event_loop()
    monkeypatch.setattr(broadcast, "_run", lambda send: loop.run_until_complete(send()))
    from games import tasks

    # The test plays the bots itself, one move at a time.
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    yield recording
    loop.close()


def _cards_named(message: Any) -> set[str]:
    """Every card the message names in any form (tests.leakproof.cards_in: codes either way round, symbols raw
    or escaped, words in both languages, integer ids in a card's field); keys are field names, never cards."""
    return cards_in(message) & ALL_CARD_NAMES


def _table_cards(state: State) -> set[str]:
    return {card_name(card) for card in state.attack} | {card_name(card) for card in state.cover if card >= 0}


def _check_game(game: Game, sent: list[tuple[str, dict[str, Any]]]) -> int:
    """Replay the record alongside the messages (each carries its version) and check each one."""
    record = load_record({**game.record, "actions": []})
    states = [record.initial_state()]
    face_up_history: list[set[str]] = [set()]
    face_up_card = {card_name(record.stock[-1])} if record.stock else set()
    for raw in game.record["actions"]:
        state = states[-1].copy()
        action = action_from_json(raw)
        play(state, raw["seat"], action)
        states.append(state)
        face_up_history.append(face_up_history[-1] | set(names(action.cards)))
    deck = set(game.revealed_deck.split())
    checked = 0
    readers: list[int | None] = [*range(game.players), None]
    # What each reader's socket is sent of each event of the game's group (the consumer's choice).
    received = [
        (reader, view_in_event(event, reader))
        for group, event in sent
        if group == game_group(game.pk)
        for reader in readers
    ]
    for reader, event_payload in received:
        group = f"seat {reader}"
        payload = {**event_payload, "log_entries": log_entries_of(event_payload)}  # the event's blob, unpacked
        seq = min(payload["seq"], len(states) - 1)
        state = states[seq]
        seat = payload["seat"]
        assert seat == reader
        hand = set(names(state.hands[seat])) if seat is not None else set()
        visible_now = hand | _table_cards(state) | (face_up_card if state.stock else set())
        if state.hidden_trump >= 0 and not state.stock:
            visible_now.add(card_name(state.hidden_trump))  # Aktobe: turned up when the stock ran out
        face_down = {card_name(card) for card in (state.face_down(other) for other in range(state.n)) if card >= 0}
        if state.stock and state.hidden_trump >= 0:
            face_down.add(card_name(state.hidden_trump))
        # No message before the game is over names a hidden card still face down, not even to its owner.
        if payload["status"] != GameStatus.FINISHED:
            assert not _cards_named(payload) & face_down, (group, seq, sorted(_cards_named(payload) & face_down))
        # The view part: only what lies before his eyes now. The result is the exception: epaulettes
        # name the cards the winner played in the final bout, which all lay face up (checked below).
        view_now = {key: value for key, value in payload["view"].items() if key != "result"}
        assert _cards_named(view_now) <= visible_now, (group, payload["view"])
        if seat is not None:
            assert payload["view"]["hand"] == names(state.hands[seat])
        allowed = visible_now | face_up_card | face_up_history[seq]
        if payload["status"] == GameStatus.FINISHED and payload["result"] is not None:
            allowed |= deck
        # Everything but the log; then the log's newest line in words, in both languages (each line is
        # checked in the first message that carries it, when it is newest; older ones are the same lines).
        rest = {key: value for key, value in payload.items() if key not in ("view", "log_entries")}
        leaked = _cards_named(rest) | _cards_named(payload["log_entries"]) | _cards_named(payload["view"].get("result"))
        leaked -= allowed
        assert not leaked, (group, seq, sorted(leaked))
        for language in ("en", "ru"):
            lines = log_lines(payload["log_entries"][-1:], payload["names"], language)
            leaked = _cards_named(lines) - allowed
            assert not leaked, (group, seq, language, sorted(leaked))
        checked += 1
    return checked


def _play_bot_game(rules: dict[str, Any], players: int, number: int, committed: Any) -> Game:
    """`committed` runs what the service left for after its commit (the broadcasts) as its call returns,
    as a commit would: pytest-django's django_capture_on_commit_callbacks(execute=True)."""
    owner = person()
    level = ("easy", "medium")[number % 2]
    bot_table = table(owner, seats=players, rules=rules, stake=100 if rules.get("cheating") else 0)
    with committed(execute=True):
        services.table_fill_bots(table=bot_table, level=level)
    game = latest_game(bot_table)
    for _ in range(5000):
        if game.status == GameStatus.FINISHED:
            break
        with committed(execute=True):
            moved = services.game_bot_move(game_id=game.pk, seq=game.seq)
        assert moved is not None, "a bot game stalled"
        game = moved
    assert game.status == GameStatus.FINISHED
    with committed(execute=True):
        services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


@pytest.mark.timeout(900)  # about two minutes on an idle 2-core machine
@pytest.mark.django_db
def test_no_message_to_a_seat_names_a_card_it_could_not_see(
    layer: RecordingLayer, django_capture_on_commit_callbacks: Any
) -> None:
    games_played = 0
    messages_checked = 0
    actions_seen: set[str] = set()
    for rules, players, count in VARIANTS:
        for number in range(count):
            layer.sent.clear()
            game = _play_bot_game(rules, players, number, django_capture_on_commit_callbacks)
            messages_checked += _check_game(game, layer.sent)
            actions_seen |= {raw["type"] for raw in game.record["actions"]}
            games_played += 1
    assert games_played >= 50
    assert messages_checked > games_played * 50
    # The games did transfer and show trumps, so those paths were checked too.
    assert {"attack", "cover", "take", "pass", "throw", "transfer"} <= actions_seen


@pytest.mark.django_db
def test_the_message_proof_fails_when_a_view_names_one_card_of_another_hand_backwards(
    layer: RecordingLayer, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A planted defect: every seat's view carries the lowest card of the next seat's hand, written suit first
    ("SQ", a form the old pattern did not know). The proof above must fail on it."""
    from games import selectors

    original = selectors.view_for_seat

    def leaky(common: dict[str, Any], state: State, seat: int | None, public: Any = None) -> dict[str, Any]:
        view = original(common, state, seat, public)
        if seat is not None and not state.finished:
            other = state.hands[(seat + 1) % state.n]
            if other:
                name = card_name((other & -other).bit_length() - 1)
                view = {**view, "view": {**view["view"], "tip": name[-1] + name[:-1]}}
        return view

    monkeypatch.setattr(selectors, "view_for_seat", leaky)
    monkeypatch.setattr(broadcast, "view_for_seat", leaky)
    layer.sent.clear()
    game = _play_bot_game({"preset": "podkidnoy"}, 2, 0, django_capture_on_commit_callbacks)
    with pytest.raises(AssertionError):
        _check_game(game, layer.sent)
    # The planted card is what failed it: without it the same messages pass.
    unplanted = [(group, _without_tip(event)) for group, event in layer.sent]
    assert _check_game(game, unplanted) > 0


def _without_tip(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _without_tip(value) for key, value in data.items() if key != "tip"}
    if isinstance(data, list):
        return [_without_tip(value) for value in data]
    return data
