"""ratings.services on a real database: pools, a rated game through games' finish hook, exactly-once
rating (twice, and at once from several threads on PostgreSQL), and recomputation equal to incremental."""

from __future__ import annotations

import datetime
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import close_old_connections

from games import services as game_services
from games import tasks
from games.engine import Rules
from ratings import elo
from ratings.models import EpauletteRecord, PlayerRating, PoolFormat, RatedGame, RatingChange, RatingPool
from ratings.services import pool_for_rules, rating_apply_game, ratings_recompute
from tests.ratings.helpers import START, finished_game, person, synthetic_games

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Games are driven step by step here: scheduled bot moves, timers and finalisations do nothing."""
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda args, countdown: None)
    yield


def pool(slug: str) -> RatingPool:
    return RatingPool.objects.get(slug=slug)


def snapshot() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    ratings = list(
        PlayerRating.objects.order_by("pool_id", "user_id").values_list(
            "pool_id", "user_id", "rating", "games", "peak", "wins", "durak_finishes", "draws", "last_played"
        )
    )
    changes = list(
        RatingChange.objects.order_by("rated_game_id", "seat").values_list(
            "rated_game_id", "seat", "user_id", "before", "after", "delta", "k", "provisional"
        )
    )
    return ratings, changes


def test_the_migration_creates_the_four_pools_of_issue_6() -> None:
    pools = {one.slug: one for one in RatingPool.objects.all()}
    assert set(pools) >= {"podkidnoy-36-heads-up", "perevodnoy-36-heads-up", "podkidnoy-36-multi", "podkidnoy-36-2v2"}
    for one in pools.values():
        one.full_clean()  # every stored rule set builds, has cheating off and fits its format
    assert pool_for_rules(rules=Rules(), players=2) == pools["podkidnoy-36-heads-up"]
    assert pool_for_rules(rules={"preset": "perevodnoy"}, players=2) == pools["perevodnoy-36-heads-up"]
    assert pool_for_rules(rules=Rules(), players=5) == pools["podkidnoy-36-multi"]
    assert pool_for_rules(rules=Rules(teams="2v2"), players=4) == pools["podkidnoy-36-2v2"]
    assert pool_for_rules(rules=Rules(cheating=True), players=2) is None
    assert pool_for_rules(rules=Rules(throw_in="neighbours"), players=2) is None
    assert pool_for_rules(rules=Rules(deck=52), players=2) is None
    assert pool_for_rules(rules={"deck": "many"}, players=2) is None
    pools["podkidnoy-36-heads-up"].active = False
    pools["podkidnoy-36-heads-up"].save()
    assert pool_for_rules(rules=Rules(), players=2) is None


def test_a_pool_with_cheating_or_a_format_that_does_not_fit_is_refused() -> None:
    cheating = RatingPool(slug="c", name_en="C", name_ru="C", rules={"cheating": True}, format=PoolFormat.HEADS_UP,
                          min_players=2, max_players=2)
    with pytest.raises(ValidationError, match="Cheating"):
        cheating.full_clean()
    wrong = RatingPool(slug="w", name_en="W", name_ru="W", rules={}, format=PoolFormat.TEAMS_2V2, min_players=4,
                       max_players=4)
    with pytest.raises(ValidationError, match="2v2"):
        wrong.full_clean()
    too_many = RatingPool(slug="t", name_en="T", name_ru="T", rules={"deck": 24}, format=PoolFormat.MULTI,
                          min_players=3, max_players=6)
    with pytest.raises(ValidationError, match="at most 4"):
        too_many.full_clean()
    short = RatingPool(slug="p24", name_en="P24", name_ru="П24", rules={"preset": "perevodnoy", "deck": 24},
                       format=PoolFormat.HEADS_UP, min_players=2, max_players=2)
    short.full_clean()
    assert short.rules == Rules(transfer=True, deck=24).to_dict()  # normalised to the full rule set


@pytest.mark.django_db(transaction=True)
def test_a_rated_game_through_the_finish_hook_updates_both_players_once() -> None:
    anna, boris = person(), person()
    game, result = finished_game([anna, boris])
    rated = RatedGame.objects.get()
    assert rated.game == game and rated.game_key == f"game:{game.pk}" and rated.pool.slug == "podkidnoy-36-heads-up"
    assert rated.outcome["places"] == result.places
    changes = list(rated.changes.order_by("seat"))
    assert [change.user for change in changes] == [anna, boris]
    loser_seat = result.places[-1][0]
    for change in changes:
        # Two new players at 1500 with K = 40: the winner gains 40 * (1 - 0.5), the durak loses as much.
        assert change.before == 1500.0 and change.k == 40.0 and change.provisional
        assert change.delta == (-20.0 if change.seat == loser_seat else 20.0)
    ratings = {row.user_id: row for row in PlayerRating.objects.all()}
    loser, winner = (anna, boris) if loser_seat == 0 else (boris, anna)
    assert (ratings[winner.pk].rating, ratings[winner.pk].wins, ratings[winner.pk].games) == (1520.0, 1, 1)
    assert (ratings[loser.pk].rating, ratings[loser.pk].durak_finishes, ratings[loser.pk].peak) == (1480.0, 1, 1500.0)
    assert ratings[winner.pk].last_played == game.finished
    epaulettes = result.epaulettes
    assert EpauletteRecord.objects.count() == (2 if epaulettes else 0)

    # Finalising again (the task may run twice) and rating the result again change nothing.
    from games import services as game_services
    from ratings.services import rating_rate_result

    before = snapshot()
    game_services.game_finalise(game_id=game.pk)
    again = rating_rate_result(result=result)
    assert again is not None and [change.pk for change in again] == [change.pk for change in changes]
    assert snapshot() == before and RatedGame.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_unrated_cheating_and_bot_games_are_left_alone_where_the_pool_says_so(caplog: pytest.LogCaptureFixture) -> None:
    anna, boris = person(), person()
    finished_game([anna, boris], rated=False, loser=0)
    finished_game([anna, boris], rules={"preset": "podkidnoy", "cheating": True}, loser=1)
    assert not RatedGame.objects.exists()
    assert "not rated (the table is unrated)" in caplog.text and "no active pool" in caplog.text

    heads_up = pool("podkidnoy-36-heads-up")
    heads_up.humans_only = True
    heads_up.save()
    finished_game([anna], bots=[1], loser=0)
    assert not RatedGame.objects.exists() and "for people only" in caplog.text

    # One bot account at two seats of a three-player table (a reserved game seats a bot account wherever it is
    # named) cannot be rated against itself.
    robot = game_services.bot_account_for("easy")
    reserved = game_services.game_start_reserved(
        owner=anna, rules=Rules.from_dict({"preset": "podkidnoy"}), players=[anna, robot, robot], rated=True
    )
    game_services.game_surrender(game_id=reserved.pk, user=anna)
    game_services.game_finalise(game_id=reserved.pk)
    assert not RatedGame.objects.exists() and "one account held two seats" in caplog.text
    # Two bots a table seats are two accounts of the level's bench (accounts.bot_names): rated, each apart.
    game, _ = finished_game([anna], bots=[1, 2], loser=0)
    changed = RatedGame.objects.get(game=game).changes.filter(seat__in=[1, 2]).values_list("user", flat=True)
    assert len(set(changed)) == 2

    heads_up.humans_only = False
    heads_up.save()
    game, _ = finished_game([anna], bots=[1], loser=0)
    bot_change = RatedGame.objects.get(game=game).changes.get(seat=1)
    assert bot_change.user.is_bot and bot_change.delta == 20.0


@pytest.mark.django_db(transaction=True)
def test_a_2v2_game_moves_each_member_by_the_teams_change() -> None:
    players = [person() for _ in range(4)]
    game, result = finished_game(players, rules={"preset": "podkidnoy", "teams": "2v2"}, loser=1)
    rated = RatedGame.objects.get(game=game)
    assert rated.pool.slug == "podkidnoy-36-2v2" and rated.outcome["teams"] == [[0, 2], [1, 3]]
    deltas = dict(rated.changes.values_list("seat", "delta"))
    assert deltas == {0: 20.0, 2: 20.0, 1: -20.0, 3: -20.0}
    assert result.places[-1] == [1, 3]


def test_rating_the_same_game_twice_returns_the_stored_changes() -> None:
    anna, boris = person(), person()
    heads_up = pool("podkidnoy-36-heads-up")
    first = rating_apply_game(pool=heads_up, game_key="import:1", players=[anna, boris], outcome=elo.heads_up(1.0),
                              played_at=START)
    second = rating_apply_game(pool=heads_up, game_key="import:1", players=[anna, boris], outcome=elo.heads_up(0.0),
                               played_at=START)
    assert [change.pk for change in second] == [change.pk for change in first]
    assert PlayerRating.objects.get(user=anna).rating == 1520.0
    assert RatedGame.objects.get().sequence == 1
    with pytest.raises(ValueError, match="twice"):
        rating_apply_game(pool=heads_up, game_key="import:2", players=[anna, anna], outcome=elo.heads_up(1.0),
                          played_at=START)
    with pytest.raises(ValueError):
        rating_apply_game(pool=heads_up, game_key="import:3", players=[anna, boris],
                          outcome=elo.Outcome(places=((0,),)), played_at=START)
    assert RatedGame.objects.count() == 1  # a refused game leaves nothing behind


@pytest.mark.django_db(transaction=True)
def test_concurrent_rating_applies_each_game_exactly_once(real_services: None) -> None:
    """Eight threads on PostgreSQL: four rate one game, four rate games that share players with it."""
    people = [person() for _ in range(4)]
    heads_up = pool("podkidnoy-36-heads-up")
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def rate(key: str, pair: tuple[int, int]) -> None:
        try:
            barrier.wait(10)
            rating_apply_game(pool=heads_up, game_key=key, players=[people[pair[0]], people[pair[1]]],
                              outcome=elo.heads_up(1.0), played_at=START)
        except BaseException as error:  # noqa: B036 - reported to the main thread
            errors.append(error)
        finally:
            close_old_connections()

    jobs = [("same", (0, 1))] * 4 + [("other-1", (1, 2)), ("other-2", (2, 3)), ("other-3", (3, 0)), ("other-4", (0, 2))]
    threads = [threading.Thread(target=rate, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert RatedGame.objects.count() == 5 and RatingChange.objects.count() == 10
    assert sorted(RatedGame.objects.values_list("sequence", flat=True)) == [1, 2, 3, 4, 5]
    assert sum(PlayerRating.objects.values_list("games", flat=True)) == 10
    # Whatever order the threads were served in, it is the sequence order, and a replay agrees.
    before = snapshot()
    summary = ratings_recompute(pool=heads_up)
    assert (summary.changes_rewritten, summary.ratings_rewritten) == (0, 0)
    assert snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_concurrent_finalisation_rates_the_game_once(real_services: None) -> None:
    from games import services as game_services
    from tests.ratings.helpers import latest_game, table

    anna, boris = person(), person()
    at = table(anna, rated=True)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = latest_game(at)
    game_services.game_surrender(game_id=game.pk, user=boris)
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def finalise() -> None:
        try:
            barrier.wait(10)
            game_services.game_finalise(game_id=game.pk)
        except BaseException as error:  # noqa: B036 - reported to the main thread
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=finalise) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert RatedGame.objects.count() == 1
    assert dict(PlayerRating.objects.values_list("user_id", "rating")) == {anna.pk: 1520.0, boris.pk: 1480.0}


def test_recompute_gives_exactly_the_incremental_ratings() -> None:
    people = [person() for _ in range(14)]
    for number, one in enumerate(people[:3]):
        one.is_bot, one.bot_engine, one.bot_level = True, "easy", "easy"
        one.username = f"robot{number}"
        one.save()
    heads_up, multi, teams = pool("podkidnoy-36-heads-up"), pool("podkidnoy-36-multi"), pool("podkidnoy-36-2v2")
    played = {
        heads_up.pk: synthetic_games(heads_up, people, 120, seed=1),
        multi.pk: synthetic_games(multi, people, 50, seed=2, seats=(3, 6)),
        teams.pk: synthetic_games(teams, people, 30, seed=3, seats=(4, 4), teams=True),
    }
    incremental = snapshot()

    # The pure replay of the same games gives the stored ratings, bit for bit.
    for pool_id, games in played.items():
        standings = elo.recompute(elo.EloGame(players=ids, outcome=outcome) for ids, outcome in games)
        stored = {row.user_id: row.as_elo() for row in PlayerRating.objects.filter(pool_id=pool_id)}
        assert stored == standings

    summary = ratings_recompute()
    assert (summary.games, summary.changes_rewritten, summary.ratings_rewritten) == (200, 0, 0)
    assert snapshot() == incremental

    # Spoil the stored numbers; a recomputation of one pool restores exactly what incremental rating gave.
    RatingChange.objects.filter(rated_game__pool=multi).update(after=0.0, delta=0.0)
    PlayerRating.objects.filter(pool=multi).update(rating=1.0, games=0, wins=0)
    PlayerRating.objects.filter(pool=multi, user=people[0]).delete()
    progress: list[tuple[str, int, int]] = []
    summary = ratings_recompute(pool=multi, progress=lambda one, done, total: progress.append((one.slug, done, total)))
    assert summary.games == 50 and summary.changes_rewritten == RatingChange.objects.filter(rated_game__pool=multi).count()
    assert progress[-1] == ("podkidnoy-36-multi", 50, 50)
    assert snapshot() == incremental

    # The stored order is the rating order: new games after a recomputation continue from it.
    synthetic_games(heads_up, people, 5, seed=4, prefix="later")
    later = snapshot()
    ratings_recompute()
    assert snapshot() == later


def test_the_command_recomputes_and_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    people = [person() for _ in range(4)]
    heads_up = pool("podkidnoy-36-heads-up")
    synthetic_games(heads_up, people, 12, seed=5)
    call_command("ratings_recompute", "--pool", heads_up.slug)
    out = capsys.readouterr().out
    assert "podkidnoy-36-heads-up: 12/12 games" in out
    assert "Recomputed 12 games of 1 pools for 4 players" in out and "rewritten: 0 rating changes, 0 ratings" in out
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no pool"):
        call_command("ratings_recompute", "--pool", "nonsense")


def test_epaulettes_are_recorded_for_the_winner_and_the_losers() -> None:
    people = [person() for _ in range(4)]
    heads_up, teams = pool("podkidnoy-36-heads-up"), pool("podkidnoy-36-2v2")
    rating_apply_game(pool=heads_up, game_key="e:1", players=people[:2], outcome=elo.heads_up(1.0), played_at=START,
                      epaulettes={"seat": 1, "by": 0, "rank": "6", "cards": ["6H"]})
    rating_apply_game(pool=teams, game_key="e:2", players=people, played_at=START + datetime.timedelta(days=1),
                      outcome=elo.Outcome(places=((1, 3), (0, 2)), teams=((0, 2), (1, 3))),
                      epaulettes={"seat": None, "by": 3, "rank": "6", "cards": ["6S", "6D"]})
    rows = sorted(EpauletteRecord.objects.values_list("user_id", "role", "rank"))
    ids = [one.pk for one in people]
    assert rows == sorted([(ids[0], "hung", "6"), (ids[1], "received", "6"), (ids[3], "hung", "6"),
                           (ids[0], "received", "6"), (ids[2], "received", "6")])
