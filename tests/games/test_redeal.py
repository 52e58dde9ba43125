"""redeal_five_same_suit at a live table (RULES.md, Deal; issue 8): a player dealt five or more cards of one
suit asks for a redeal before the first move; the deal is voided under everyone's eyes and a new one is dealt
under a new commitment, the voided deck revealed and checkable once the game is over."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from django.apps import apps as django_apps
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.ledger import STARTING_GRANT, ledger_balance
from games import services, snapshots
from games.engine import Rules, deal, redeal_suit, replay_json, verify_commitment
from games.engine.cards import SUITS, names
from games.logtext import suit_name
from games.models import ActionLog, Game, GameStatus
from games.replays import shuffle_check, voided_deal_checks
from games.selectors import game_log_lines, game_record_json, game_view_for
from games.services import GameActionError, tables
from games.snapshots import state_of
from tests.games.factories import latest_game, person, table
from tests.games.test_consumers import _next, _socket, no_turn_timers  # noqa: F401 (a fixture)
from tests.games.test_services import _play_out, no_tasks  # noqa: F401 (a fixture)

RULES = {"preset": "podkidnoy", "redeal_five_same_suit": True}


def _seed_where(wanted: tuple[bool, bool]) -> str:
    """A seed whose 2-player deal lets seat 0, seat 1 ask for a redeal as `wanted` says."""
    rules = Rules.from_dict(RULES)
    for number in itertools.count():
        seed = f"redeal-test-{number}"
        hands = deal(rules, 2, seed=seed).hands
        if tuple(redeal_suit(rules, hand) is not None for hand in hands) == wanted:
            return seed
    raise AssertionError("unreachable")


@pytest.fixture
def dealt_seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The services' shuffles take their seeds from this list: the first deal lets only seat 0 ask for a
    redeal, the second lets nobody."""
    seeds = [_seed_where((True, False)), _seed_where((False, False))]
    monkeypatch.setattr(tables, "shuffle_seed", lambda: seeds.pop(0))
    yield seeds


def _start(stake: int = 0) -> tuple[Game, list]:
    anna, boris = person(), person()
    two = table(anna, rules=RULES, stake=stake)
    services.table_join(table=two, user=anna)
    services.table_join(table=two, user=boris)
    return latest_game(two), [anna, boris]


@pytest.mark.django_db
def test_a_redeal_voids_the_deal_in_everyones_sight_and_the_game_goes_on(dealt_seeds: list[str]) -> None:
    game, (anna, boris) = _start(stake=10)
    first = state_of(game)
    old_hand = names(first.hands[0])
    old_commitment, old_salt = game.commitment, game.salt
    suit = SUITS[redeal_suit(first.rules, first.hands[0])]  # type: ignore[index]

    assert game_view_for(game=game, user=anna)["can_redeal"] is True
    assert game_view_for(game=game, user=boris)["can_redeal"] is False
    assert game_view_for(game=game, user=None)["can_redeal"] is False
    # Refused, nothing changed: his hand does not qualify; a stale version; a stranger.
    for user, seq, code in ((boris, 0, "illegal"), (anna, 3, "stale"), (person(), 0, "forbidden")):
        with pytest.raises(GameActionError) as refused:
            services.game_redeal(game_id=game.pk, user=user, seq=seq)
        assert refused.value.code == code
    game.refresh_from_db()
    assert (game.seq, game.commitment, game.redeals) == (0, old_commitment, [])

    services.game_redeal(game_id=game.pk, user=anna, seq=0)
    game.refresh_from_db()
    assert game.seq == 1 and game.commitment != old_commitment and game.salt != old_salt
    assert [(voided["seat"], voided["suit"]) for voided in game.redeals] == [(0, suit)]
    assert dealt_seeds == []  # the new deal came from the second seed
    new = state_of(game)
    assert names(new.hands[0]) != old_hand
    for user in (anna, boris, None):
        view = game_view_for(game=game, user=user)
        assert view["redeals"] == [{"seat": 0, "suit": suit}]
        assert view["can_redeal"] is False and view["seq"] == 1
        assert view["commitment"] == game.commitment
    # Boris sees that Anna held five of a suit, not which cards: no card of her voided hand is in his view
    # but those he holds himself or sees face up.
    boris_view = game_view_for(game=game, user=boris)
    text = str(boris_view)
    shown = set(boris_view["view"]["hand"]) | {boris_view["view"]["trump_card"]}
    assert not [card for card in old_hand if card not in shown and f"'{card}'" in text]
    # The stakes were charged once.
    assert ledger_balance(user=anna) == ledger_balance(user=boris) == STARTING_GRANT - 10

    # A move meant for the voided deal is stale; the game goes on from the new deal, also when the state
    # is replayed from the record (the version is one ahead of the actions).
    with pytest.raises(GameActionError) as stale:
        services.game_submit_action(game_id=game.pk, user=anna, action={"type": "take"}, seq=0)
    assert stale.value.code == "stale"
    snapshots._cache.clear()
    assert state_of(game).hands == new.hands
    with pytest.raises(GameActionError) as again:
        services.game_redeal(game_id=game.pk, user=anna, seq=1)
    assert again.value.code == "illegal"

    game = _play_out(game)
    snapshots._cache.clear()
    assert state_of(game).finished
    result = services.game_finalise(game_id=game.pk)
    assert result.game.status == GameStatus.FINISHED
    finished = game_view_for(game=Game.objects.get(pk=game.pk), user=boris)
    [voided] = finished["result"]["voided_deals"]
    assert (voided["seat"], voided["suit"], voided["commitment"], voided["salt"]) == (0, suit, old_commitment, old_salt)
    assert verify_commitment(old_commitment, old_salt, voided["deck"])
    assert sorted(voided["deck"].split()[0:12:2]) == sorted(old_hand)
    assert verify_commitment(finished["result"]["commitment"], finished["result"]["salt"], finished["result"]["deck"])


@pytest.mark.django_db
def test_no_redeal_after_the_first_move_or_without_the_option(dealt_seeds: list[str]) -> None:
    game, (anna, boris) = _start()
    state = state_of(game)
    leader = state.attacker
    mover = (anna, boris)[leader]
    card = names(state.hands[leader])[0]
    services.game_submit_action(game_id=game.pk, user=mover, action={"type": "attack", "cards": [card]}, seq=0)
    assert game_view_for(game=Game.objects.get(pk=game.pk), user=anna)["can_redeal"] is False
    with pytest.raises(GameActionError) as refused:
        services.game_redeal(game_id=game.pk, user=anna, seq=1)
    assert refused.value.code == "illegal" and "before the first move" in refused.value.message

    carol, dima = person(), person()
    plain = table(carol, rules={"preset": "podkidnoy"})
    services.table_join(table=plain, user=carol)
    services.table_join(table=plain, user=dima)
    other = latest_game(plain)
    assert game_view_for(game=other, user=carol)["can_redeal"] is False
    with pytest.raises(GameActionError) as off:
        services.game_redeal(game_id=other.pk, user=carol, seq=0)
    assert off.value.code == "illegal" and "redeal_five_same_suit" in off.value.message
    assert Game.objects.get(pk=other.pk).seq == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_redeal_over_the_socket_reaches_both_players(dealt_seeds: list[str]) -> None:
    game, (anna, boris) = await database_sync_to_async(_start)()
    sockets = [await _socket(f"/ws/game/{game.pk}/", anna), await _socket(f"/ws/game/{game.pk}/", boris)]
    for socket in sockets:
        await _next(socket, "game.view", seq=0)
    await sockets[1].send_json_to({"type": "redeal", "seq": 0})
    refused = await _next(sockets[1], "game.error")
    assert refused["code"] == "illegal"
    await sockets[0].send_json_to({"type": "redeal", "seq": "0"})
    assert (await _next(sockets[0], "game.error"))["code"] == "malformed"
    await sockets[0].send_json_to({"type": "redeal", "seq": 0})
    views = [await _next(socket, "game.view", seq=1) for socket in sockets]
    for view in views:
        assert [one["seat"] for one in view["redeals"]] == [0] and view["can_redeal"] is False
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.django_db
def test_a_redeal_is_the_records_action_and_old_games_get_it(dealt_seeds: list[str]) -> None:
    """The redeal is an engine action (issue 40): the record keeps the voided deal, lists the new one in its
    `redeals` and opens its log with the `redeal`; the version is the log's length, the log says it in both
    languages, and the finished game's record replays to its result. Migration 0010 gives a game redealt
    before it (the voided deal only in Game.redeals, the version bumped alone) the same record and log."""
    game, (anna, _) = _start()
    first = state_of(game)
    suit = SUITS[redeal_suit(first.rules, first.hands[0])]  # type: ignore[index]
    services.game_redeal(game_id=game.pk, user=anna, seq=0)
    game.refresh_from_db()
    assert game.record["actions"] == [{"seat": 0, "type": "redeal", "suit": suit}]
    assert game.record["hands"] == [names(hand) for hand in first.hands]
    assert game.record["redeals"][0]["hands"] == [names(hand) for hand in state_of(game).hands]
    assert game.seq == len(game.record["actions"]) == ActionLog.objects.filter(game=game).count() == 1
    [line] = game_log_lines(game=game, language="ru")
    with translation.override("ru"):
        suit_words = suit_name(suit)
    assert "просит пересдать" in line["text"] and suit_words in line["text"]
    assert "asks for a redeal" in game_log_lines(game=game, language="en")[0]["text"]

    game = _play_out(game)
    services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    assert game.seq == len(game.record["actions"]) == ActionLog.objects.filter(game=game).count()
    record = game_record_json(game=game)
    replayed = replay_json(record)
    assert replayed.ok and replayed.state is not None and replayed.state.result == state_of(game).result
    # The voided deal's deck, revealed once the game is over, is the record's first deal, and the game's own
    # deck its last: the replay page's checks say both, and catch a deck that is not the deal it claims.
    voided_deck = game_view_for(game=game, user=anna)["result"]["voided_deals"][0]["deck"].split()
    assert sorted(voided_deck[0:12:2]) == sorted(record["hands"][0])
    check = shuffle_check(commitment=game.commitment, salt=game.salt, deck=game.revealed_deck, record=record)
    [voided] = voided_deal_checks(game.rules, game.players, game.redeals, record)
    assert check["ok"] and check["dealt_as_played"] and voided["ok"] and voided["dealt_as_played"]
    swapped = {**record, "hands": record["redeals"][0]["hands"], "redeals": [{**record["redeals"][0], "hands": record["hands"]}]}
    assert not shuffle_check(commitment=game.commitment, salt=game.salt, deck=game.revealed_deck, record=swapped)["ok"]
    assert not voided_deal_checks(game.rules, game.players, game.redeals, swapped)[0]["ok"]
    page = Client().get(reverse("games:game-replay", args=[game.pk]))
    assert page.status_code == 200 and b"check-bad" not in page.content and b"voided-verdict" in page.content

    # As a game redealt before the migration was stored: its last deal only, the version one ahead of its log.
    stored = {key: value for key, value in game.record.items() if key not in ("hands", "stock", "redeals")}
    old = {**stored, **game.record["redeals"][0], "actions": game.record["actions"][1:]}
    Game.objects.filter(pk=game.pk).update(record=old)
    ActionLog.objects.filter(game=game, seq=0).delete()
    migration = importlib.import_module("games.migrations.0010_redeal_action")
    migration.add_redeal_actions(django_apps, None)
    migration.add_redeal_actions(django_apps, None)  # twice changes nothing more
    migrated = Game.objects.get(pk=game.pk)
    assert migrated.record == game.record
    assert ActionLog.objects.filter(game=game).count() == migrated.seq
    assert list(ActionLog.objects.filter(game=game, seq=0).values_list("seat", "action")) == [
        (0, {"type": "redeal", "suit": suit})
    ]
    migration.remove_redeal_actions(django_apps, None)
    assert Game.objects.get(pk=game.pk).record == old
