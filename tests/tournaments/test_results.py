"""The director's results (tournaments.services.results, games.decisions): a board's outcome by a click, with
the result before and after in the log, and a game still being played stopped and decided: its result, its
record, the standings, the ratings, the log, and one message to every reader of the game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.test import Client, override_settings
from django.utils import translation

from accounts.models import User
from durak_site.inprocess_tasks import in_process_runner
from games.engine.records import replay_json
from games.models import Game, GameStatus, Result
from games.selectors import game_record_json, game_view_of_seat
from tests.games.test_consumers import _next, _socket
from tests.leakproof import cards_in, hidden_from
from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments import services
from tournaments.models import (
    AuditAction, AuditEntry, MatchGame, MatchGameStatus, Pairing, PairingStatus, ResultKind, StandingRow, Tournament,
)
from tournaments.services import results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """The services' messages are matched in English, whatever a test before left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def tasks_settled() -> Iterator[None]:
    """No timer of an earlier test left on the in-process runner, nor one of this test afterwards (a task
    writing meanwhile would lock SQLite under the socket's threads)."""
    runner = in_process_runner()
    runner.cancel_scheduled()
    assert runner.wait_until_idle(timeout_s=30)
    with override_settings(TASKS_IN_PROCESS=True):
        yield
        runner.cancel_scheduled()
        assert runner.wait_until_idle(timeout_s=30)


def _started(chief: User, players: list[User], **options: Any) -> Tournament:
    event = tournament(chief, **options)
    enter(event, players)
    services.tournament_start(tournament=event, by=chief)
    event.refresh_from_db()
    return event


def _points(pairing: Pairing) -> list[float | None]:
    return [seat.points for seat in pairing.seats.order_by("position")]


def _played_heads_up(chief: User) -> tuple[Tournament, Pairing]:
    event = _started(chief, bots(2), rounds=1)
    play_games(event)
    return event, Pairing.objects.get(tournament=event)


@pytest.mark.parametrize(
    ("outcome", "points", "kind"),
    [
        (results.FIRST, [1.0, 0.0], ResultKind.OVERRIDE),
        (results.SECOND, [0.0, 1.0], ResultKind.OVERRIDE),
        (results.DRAW, [0.5, 0.5], ResultKind.OVERRIDE),
        (results.FORFEIT_FIRST, [0.0, 1.0], ResultKind.FORFEIT),
        (results.FORFEIT_SECOND, [1.0, 0.0], ResultKind.FORFEIT),
        (results.DOUBLE_FORFEIT, [0.0, 0.0], ResultKind.FORFEIT),
    ],
)
def test_each_outcome_a_director_clicks_is_recorded_with_the_result_before_and_after(
    outcome: str, points: list[float], kind: str
) -> None:
    chief = director()
    event, pairing = _played_heads_up(chief)
    before = _points(pairing)
    results.pairing_decide(pairing=pairing, outcome=outcome, by=chief, reason="Agreed at the table",
                           seen_version=pairing.version)
    pairing.refresh_from_db()
    assert _points(pairing) == points and pairing.result_kind == kind
    entry = AuditEntry.objects.filter(tournament=event, actor=chief).latest("pk")
    assert entry.reason == "Agreed at the table"
    assert entry.details["before"] == before and entry.details["after"] == points
    standings = {row.entrant_id: row.points for row in StandingRow.objects.filter(tournament=event)}
    assert sorted(standings.values()) == sorted(points)


def test_a_stale_version_or_a_wrong_outcome_or_no_reason_is_refused_and_changes_nothing() -> None:
    chief = director()
    event, pairing = _played_heads_up(chief)
    before = _points(pairing)
    entries = AuditEntry.objects.count()
    with pytest.raises(ValidationError, match="changed after you looked"):
        results.pairing_decide(pairing=pairing, outcome=results.DRAW, by=chief, reason="x",
                               seen_version=pairing.version - 1)
    with pytest.raises(ValidationError):
        results.pairing_decide(pairing=pairing, outcome=results.PLACES, by=chief, reason="x", seen_version=pairing.version)
    with pytest.raises(ValidationError):
        results.pairing_decide(pairing=pairing, outcome="1 / 0", by=chief, reason="x", seen_version=pairing.version)
    with pytest.raises(ValidationError):
        results.pairing_decide(pairing=pairing, outcome=results.DRAW, by=chief, reason="  ", seen_version=pairing.version)
    with pytest.raises(ValidationError):
        results.pairing_decide(pairing=pairing, outcome=results.DRAW, by=person(), reason="x", seen_version=pairing.version)
    pairing.refresh_from_db()
    assert _points(pairing) == before and AuditEntry.objects.count() == entries


def test_a_tables_places_are_chosen_and_shared_places_share_their_points() -> None:
    chief = director()
    event = _started(chief, bots(4), rounds=1, seating="tables", table_size=4)
    play_games(event)
    pairing = Pairing.objects.get(tournament=event)
    with pytest.raises(ValidationError):
        results.pairing_decide(pairing=pairing, outcome=results.FIRST, by=chief, reason="x", seen_version=pairing.version)
    with pytest.raises(ValidationError, match="place"):
        results.pairing_decide(pairing=pairing, outcome=results.PLACES, places={0: 1, 1: 2, 2: 3}, by=chief,
                               reason="x", seen_version=pairing.version)
    results.pairing_decide(pairing=pairing, outcome=results.PLACES, places={0: 4, 1: 1, 2: 2, 3: 2}, by=chief,
                           reason="Recounted", seen_version=pairing.version)
    pairing.refresh_from_db()
    # 4 seats score 3, 2, 1, 0 by place: two sharing second share 2 and 1.
    assert _points(pairing) == [0.0, 3.0, 1.5, 1.5]


def _running_heads_up(chief: User, **options: Any) -> tuple[Tournament, MatchGame, list[User]]:
    """A one-round heads-up tournament of two people whose game is being played."""
    players = [person(), person()]
    event = _started(chief, players, rounds=1, **options)
    pairing = Pairing.objects.get(tournament=event)
    for player in players:
        services.pairing_check_in(pairing=pairing, user=player)
    match_game = MatchGame.objects.select_related("game").get(pairing=pairing)
    assert match_game.game.status == GameStatus.PLAYING
    return event, match_game, players


def _user_at(game: Game, seat: int) -> User:
    return User.objects.get(seats__table_id=game.table_id, seats__number=seat)


def test_a_running_game_awarded_by_the_director_is_finished_recorded_scored_rated_and_logged() -> None:
    from ratings.models import PlayerRating, RatedGame, RatingPool

    chief = director()
    pool = RatingPool.objects.get(slug="podkidnoy-36-heads-up")
    event, match_game, players = _running_heads_up(chief, rating_pool=pool)
    game = match_game.game
    pairing = match_game.pairing
    position_of_seat_1 = match_game.seats[1]
    results.match_game_decide(match_game=match_game, decision=results.AWARD, winner=position_of_seat_1, by=chief,
                              reason="Seat 0 left the hall", seen_version=pairing.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    result = Result.objects.get(game=game)
    assert result.places == [[1], [0]] and result.outcome == "durak" and result.durak == 0
    record = game_record_json(game=game)
    assert record["decision"]["by"] == "director" and record["decision"]["kind"] == "award"
    assert record["decision"]["reason"] == "Seat 0 left the hall" and record["decision"]["places"] == [[1], [0]]
    # The record stays a record DESIGN.md's replay reads: the decision is an optional field beside the deal.
    replayed = replay_json(json.loads(json.dumps(record))).to_json()
    assert replayed["ok"] and not replayed["finished"]
    match_game.refresh_from_db()
    assert match_game.status == MatchGameStatus.FINISHED and match_game.overridden
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED
    winner, loser = _user_at(game, 1), _user_at(game, 0)
    standings = {row.entrant.user_id: row.points for row in StandingRow.objects.filter(tournament=event).select_related("entrant")}
    assert standings == {winner.pk: 1.0, loser.pk: 0.0}
    rated = RatedGame.objects.get(game=game)
    assert rated.outcome["places"] == [[1], [0]]
    assert PlayerRating.objects.get(pool=pool, user=winner).rating > 1500 > PlayerRating.objects.get(pool=pool, user=loser).rating
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.GAME_DECIDED)
    assert entry.actor == chief and entry.reason == "Seat 0 left the hall"
    assert entry.details["decision"] == "award" and entry.details["game"] == game.pk
    event.refresh_from_db()
    assert event.status == "finished"


def test_a_running_game_scored_a_draw_gives_half_each_and_a_second_decision_is_refused() -> None:
    chief = director()
    event, match_game, players = _running_heads_up(chief)
    pairing = match_game.pairing
    results.match_game_decide(match_game=match_game, decision=results.DRAW, by=chief, reason="Both agreed",
                              seen_version=pairing.version)
    assert Result.objects.get(game=match_game.game).outcome == "draw"
    assert _points(Pairing.objects.get(pk=pairing.pk)) == [0.5, 0.5]
    pairing.refresh_from_db()
    entries = AuditEntry.objects.count()
    with pytest.raises(ValidationError, match="just ended"):
        results.match_game_decide(match_game=match_game, decision=results.AWARD, winner=0, by=chief, reason="again",
                                  seen_version=pairing.version)
    assert AuditEntry.objects.count() == entries


def test_a_decision_on_a_stale_version_or_by_a_player_is_refused_and_the_game_goes_on() -> None:
    chief = director()
    event, match_game, players = _running_heads_up(chief)
    game, pairing = match_game.game, match_game.pairing
    with pytest.raises(ValidationError, match="changed after you looked"):
        results.match_game_decide(match_game=match_game, decision=results.DRAW, by=chief, reason="x",
                                  seen_version=pairing.version + 1)
    with pytest.raises(ValidationError, match="moved on"):
        results.match_game_decide(match_game=match_game, decision=results.DRAW, by=chief, reason="x",
                                  seen_version=pairing.version, seen_seq=game.seq + 3)
    with pytest.raises(ValidationError):
        results.match_game_decide(match_game=match_game, decision=results.DRAW, by=players[0], reason="x",
                                  seen_version=pairing.version)
    with pytest.raises(ValidationError):
        results.match_game_decide(match_game=match_game, decision=results.AWARD, winner=7, by=chief, reason="x",
                                  seen_version=pairing.version)
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and "decision" not in game.record
    assert not AuditEntry.objects.filter(action=AuditAction.GAME_DECIDED).exists()


def test_a_game_ordered_replayed_is_dealt_again_and_only_the_replay_counts() -> None:
    chief = director()
    event, match_game, players = _running_heads_up(chief)
    old = match_game.game
    replay = results.match_game_decide(match_game=match_game, decision=results.REPLAY, by=chief,
                                       reason="A card fell on the floor", seen_version=match_game.pairing.version)
    old.refresh_from_db()
    new = replay.game
    assert old.status == GameStatus.FINISHED and new.status == GameStatus.PLAYING and new.pk != old.pk
    assert new.commitment != old.commitment
    assert [_user_at(new, seat) for seat in (0, 1)] == [_user_at(old, seat) for seat in (0, 1)]
    assert game_record_json(game=old)["decision"]["replayed_by"] == new.pk
    match_game.refresh_from_db()
    assert match_game.game_id == new.pk and match_game.status == MatchGameStatus.PLAYING
    assert not StandingRow.objects.filter(tournament=event, points__gt=0).exists()
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.GAME_DECIDED)
    assert entry.details["replayed_by"] == new.pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_reader_of_the_game_is_told_the_decision_at_once_and_no_card(tasks_settled: None) -> None:
    chief = await database_sync_to_async(director)()
    event, match_game, players = await database_sync_to_async(_running_heads_up)(chief)
    game = match_game.game
    seat_of = {player.pk: seat for seat in (0, 1) for player in [await database_sync_to_async(_user_at)(game, seat)]}
    readers = [await _socket(f"/ws/game/{game.pk}/", player) for player in players]
    readers.append(await _socket(f"/ws/game/{game.pk}/", await database_sync_to_async(person)()))
    for reader in readers:
        await _next(reader, "game.view")
    hidden = {seat: await database_sync_to_async(hidden_from)(game, seat) for seat in (0, 1, None)}
    version = await database_sync_to_async(lambda: match_game.pairing.version)()
    await database_sync_to_async(results.match_game_decide)(
        match_game=match_game, decision=results.AWARD, winner=match_game.seats[0], by=chief,
        reason="Seat 1 lost the connection", seen_version=version,
    )
    told = [await _next(reader, "game.decision") for reader in readers]
    assert told[0] == told[1] == told[2]
    assert told[0]["game"] == game.pk and told[0]["decision"]["kind"] == "award"
    assert told[0]["decision"]["places"] == [[0], [1]] and told[0]["decision"]["reason"] == "Seat 1 lost the connection"
    for reader, player in zip(readers, [*players, None], strict=True):
        seat = seat_of[player.pk] if player is not None else None
        assert not cards_in(told[0]) & hidden[seat]
        await reader.disconnect()


def test_the_game_page_and_the_log_say_what_the_director_decided() -> None:
    chief = director()
    event, match_game, players = _running_heads_up(chief)
    results.match_game_decide(match_game=match_game, decision=results.DRAW, by=chief, reason="Both agreed",
                              seen_version=match_game.pairing.version)
    message = game_view_of_seat(game_id=match_game.game_id, seat=0, language="en")
    assert message["result"]["decision"]["kind"] == "draw" and message["result"]["decision"]["reason"] == "Both agreed"
    client = Client()
    client.force_login(players[0])
    assert client.get(f"/play/game/{match_game.game_id}/").status_code == 200
    page = client.get(f"/tournaments/{event.pk}/log/").content.decode()
    assert "Game stopped and decided" in page and "Both agreed" in page


def _act(client: Client, url: str, data: dict[str, Any]) -> str:
    """The message the director's page shows after the act."""
    answer = client.post(url, {**data, "next": "/"}, follow=True)
    assert answer.status_code == 200
    return " ".join(str(message) for message in answer.context["messages"])


def test_a_board_result_from_the_page_needs_its_confirmation_and_a_forged_form_changes_nothing() -> None:
    chief = director()
    event, pairing = _played_heads_up(chief)
    client = Client()
    client.force_login(chief)
    url = f"/tournaments/{event.pk}/direct/board/{pairing.pk}/result/"
    before = _points(pairing)
    base = {"outcome": "draw", "reason": "Agreed", "version": pairing.version}
    assert "Confirm the decision" in _act(client, url, base)  # no confirm=yes: the dialog was skipped
    assert "outcomes offered" in _act(client, url, {**base, "confirm": "yes", "outcome": "1 / 0"})
    assert "incomplete" in _act(client, url, {**base, "confirm": "yes", "version": "x"})
    assert "Say why" in _act(client, url, {**base, "confirm": "yes", "reason": ""})
    pairing.refresh_from_db()
    assert _points(pairing) == before
    assert "recorded" in _act(client, url, {**base, "confirm": "yes"})
    pairing.refresh_from_db()
    assert _points(pairing) == [0.5, 0.5]
    # The same form again names a version that is no longer current: refused.
    assert "changed after you looked" in _act(client, url, {**base, "confirm": "yes", "outcome": "first"})
    # A pairing of another tournament is not found here; a player may not act at all.
    other, other_pairing = _played_heads_up(director())
    assert client.post(f"/tournaments/{event.pk}/direct/board/{other_pairing.pk}/result/", {**base, "confirm": "yes"}).status_code == 404
    client.force_login(person())
    assert client.post(url, {**base, "confirm": "yes"}).status_code == 403
    pairing.refresh_from_db()
    assert _points(pairing) == [0.5, 0.5]


def test_a_game_is_stopped_from_the_page_only_when_confirmed_and_the_page_lists_it_as_playing() -> None:
    chief = director()
    event, match_game, players = _running_heads_up(chief)
    client = Client()
    client.force_login(chief)
    page = client.get(f"/tournaments/{event.pk}/direct/").content.decode()
    assert 'id="still-playing"' in page and f'href="/play/game/{match_game.game_id}/"' in page
    assert f"/direct/game/{match_game.pk}/decide/" in page and 'data-danger' in page
    url = f"/tournaments/{event.pk}/direct/game/{match_game.pk}/decide/"
    base = {"decision": f"award:{match_game.seats[0]}", "reason": "Left the hall", "version": match_game.pairing.version}
    assert "Confirm the decision" in _act(client, url, base)
    assert "award it, a draw, or a replay" in _act(client, url, {**base, "confirm": "yes", "decision": "resign"})
    assert "incomplete" in _act(client, url, {**base, "confirm": "yes", "decision": "award:x"})
    match_game.game.refresh_from_db()
    assert match_game.game.status == GameStatus.PLAYING
    assert "players are told" in _act(client, url, {**base, "confirm": "yes"})
    match_game.game.refresh_from_db()
    assert match_game.game.status == GameStatus.FINISHED
    # The same form sent again: the board moved on (the match is scored), so it is refused.
    assert "changed after you looked" in _act(client, url, {**base, "confirm": "yes"})
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.GAME_DECIDED).count() == 1
    log = client.get(f"/tournaments/{event.pk}/log/").content.decode()
    assert "Game stopped and decided" in log and "awarded" in log and "Left the hall" in log and "→ 1–0" in log


def test_the_log_writes_a_changed_result_before_and_after_in_words() -> None:
    from tournaments.templatetags.results_tags import result_change

    assert result_change({"before": [1.0, 0.0], "after": [0.5, 0.5]}) == "1–0 → ½–½"
    assert result_change({"before": None, "after": [0.0, 1.0]}) == "→ 0–1"
    assert result_change({"before": {"points": [1.5, 0.5]}, "after": {"points": [0.0, 2.0]}}) == "1½–½ → 0–2"
    assert result_change({"dispute": 3}) == ""


def test_a_running_game_at_a_table_is_decided_by_the_places_the_director_chooses() -> None:
    chief = director()
    event = _started(chief, bots(3), rounds=1, seating="tables", table_size=3)
    match_game = MatchGame.objects.select_related("game", "pairing").get(pairing__tournament=event)
    assert match_game.game.status == GameStatus.PLAYING
    version = match_game.pairing.version
    with pytest.raises(ValidationError, match="not as a draw"):
        results.match_game_decide(match_game=match_game, decision=results.DRAW, by=chief, reason="x", seen_version=version)
    with pytest.raises(ValidationError, match="finish last"):
        results.match_game_decide(match_game=match_game, decision=results.AWARD, places={0: 1, 1: 1, 2: 1}, by=chief,
                                  reason="x", seen_version=version)
    results.match_game_decide(match_game=match_game, decision=results.AWARD, places={0: 2, 1: 1, 2: 3}, by=chief,
                              reason="The lights went out", seen_version=version)
    seat_of = {position: seat for seat, position in enumerate(match_game.seats)}
    assert Result.objects.get(game=match_game.game).places == [[seat_of[1]], [seat_of[0]], [seat_of[2]]]
    # 3 seats score 2, 1, 0 by place.
    assert _points(Pairing.objects.get(pk=match_game.pairing_id)) == [1.0, 2.0, 0.0]


def test_a_finished_table_games_result_is_changed_by_choosing_places_not_by_typing_them() -> None:
    chief = director()
    event = _started(chief, bots(3), rounds=1, seating="tables", table_size=3, games_per_pairing=2)
    play_games(event)
    pairing = Pairing.objects.get(tournament=event)
    game = pairing.games.order_by("number").first()
    assert game is not None and game.status == "finished"
    client = Client()
    client.force_login(chief)
    page = client.get(f"/tournaments/{event.pk}/direct/?round=1").content.decode()
    assert 'placeholder="0 / 1 / 2"' not in page
    for seat in range(3):
        assert f'name="seat-place-{seat}"' in page
    url = f"/tournaments/{event.pk}/direct/game_result/"
    # Seat 2 first, seats 0 and 1 sharing second place.
    base = {"game": game.pk, "reason": "Recounted", "version": pairing.version, "confirm": "yes",
            "seat-place-0": "2", "seat-place-1": "2", "seat-place-2": "1"}  # fmt: skip
    assert "place" in _act(client, url, {**base, "seat-place-1": "x"})
    game.refresh_from_db()
    assert not game.overridden
    assert "result is set" in _act(client, url, base)
    game.refresh_from_db()
    assert game.overridden
    by_position = game.outcome["points"]
    points_of_seat = [by_position[position] for position in game.seats]
    # 3 seats score 2, 1, 0 by place: the two sharing second share 1 and 0.
    assert points_of_seat == [0.5, 0.5, 2.0]
    # The page now starts each select from the place the seat holds.
    page = client.get(f"/tournaments/{event.pk}/direct/?round=1").content.decode()
    picks = page[page.index('name="seat-place-2"') :]
    assert picks.index('value="1" selected') < picks.index("</select>")
