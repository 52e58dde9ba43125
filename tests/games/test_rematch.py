"""Rematches through games.rematch: who may offer, accept and decline, every refusal changing nothing, bots
accepting at once, the next game dealt at the same table with the same rules and seats; the result's rating
change; the lobby's form filled like a finished game's table; the analysis board's ?game=."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import rematch, services
from games.engine import Rules
from games.models import Game, GameStatus, Rematch, RematchStatus, Seat, TableStatus
from games.selectors import game_view_for
from tests.games.factories import latest_game, person, table
from tests.tournaments.factories import bot as tournament_bot
from tests.tournaments.factories import director, enter, tournament
from tournaments import services as tournament_services
from tournaments.models import MatchGame, Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot moves, timers and finalisations are called by the tests themselves."""
    from games import tasks

    for task in (tasks.bot_move, tasks.finalise_game):
        monkeypatch.setattr(task, "delay", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)


def _finished(people: list[User], *, bots: tuple[int, ...] = (), loser: int = 0, **options: Any) -> Game:
    """A game of `people` (bots at the seats `bots`) that `people[loser]` gave up, finalised."""
    seats = len(people) + len(bots)
    options.setdefault("turn_seconds", 900)
    at = table(people[0], seats=seats, **options)
    humans = iter(people)
    for number in range(seats):
        if number in bots:
            services.table_add_bot(table=at, level="easy", seat=number)
        else:
            services.table_join(table=at, user=next(humans), seat=number)
    game = latest_game(at)
    services.game_surrender(game_id=game.pk, user=people[loser])
    services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


def _refused(code: str, call: object, **kwargs: object) -> None:
    before = list(Rematch.objects.values_list("status", "offered_by", "accepted", "declined_by", "new_game"))
    games = Game.objects.count()
    with pytest.raises(rematch.RematchError) as raised:
        call(**kwargs)  # type: ignore[operator]
    assert raised.value.code == code
    assert list(Rematch.objects.values_list("status", "offered_by", "accepted", "declined_by", "new_game")) == before
    assert Game.objects.count() == games


def test_a_rematch_against_a_bot_starts_at_once_at_the_same_table_with_the_same_seats() -> None:
    anna = person("rm-anna")
    old = _finished([anna], bots=(1,), stake=0, rated=False, name="Evening")
    offer = rematch.rematch_offer(game_id=old.pk, user=anna)
    assert offer.status == RematchStatus.STARTED and offer.accepted == [0, 1]
    new = offer.new_game
    assert new is not None and new.pk != old.pk and new.status == GameStatus.PLAYING
    assert new.table_id == old.table_id and new.rules == old.rules and new.players == old.players
    seats = list(Seat.objects.filter(table=new.table).order_by("number").values_list("user_id", "bot_level"))
    assert seats[0] == (anna.pk, "") and seats[1][1] == "easy"
    assert new.table.status == TableStatus.PLAYING
    result = game_view_for(game=old, user=anna)["result"]
    assert result["rematch"]["status"] == "started"
    assert result["rematch"]["url"] == reverse("games:game", args=[new.pk])
    # The next game is a game of its own: its end offers a rematch of its own.
    _refused("not_finished", rematch.rematch_offer, game_id=new.pk, user=anna)


def test_two_people_one_offers_the_other_accepts_and_the_next_game_starts() -> None:
    anna, boris = person("rm-anna2"), person("rm-boris2")
    old = _finished([anna, boris])
    offer = rematch.rematch_offer(game_id=old.pk, user=anna)
    assert (offer.status, offer.offered_by, offer.accepted, offer.new_game) == (RematchStatus.OPEN, 0, [0], None)
    assert Game.objects.filter(table=old.table).count() == 1
    accepted = rematch.rematch_accept(game_id=old.pk, user=boris)
    assert accepted.status == RematchStatus.STARTED and accepted.accepted == [0, 1]
    new = accepted.new_game
    assert new is not None
    users = list(Seat.objects.filter(table=new.table).order_by("number").values_list("user_id", flat=True))
    assert users == [anna.pk, boris.pk]


def test_a_declined_offer_is_closed_and_no_game_is_dealt() -> None:
    anna, boris = person("rm-anna3"), person("rm-boris3")
    old = _finished([anna, boris])
    rematch.rematch_offer(game_id=old.pk, user=anna)
    declined = rematch.rematch_decline(game_id=old.pk, user=boris)
    assert (declined.status, declined.declined_by, declined.new_game) == (RematchStatus.DECLINED, 1, None)
    assert Game.objects.filter(table=old.table).count() == 1
    assert game_view_for(game=old, user=anna)["result"]["rematch"]["declined_by"] == 1
    _refused("no_offer", rematch.rematch_accept, game_id=old.pk, user=anna)
    # He may offer again; it is a new offer, with only his acceptance.
    again = rematch.rematch_offer(game_id=old.pk, user=boris)
    assert (again.status, again.offered_by, again.accepted, again.declined_by) == (RematchStatus.OPEN, 1, [1], None)


def test_every_refusal_changes_nothing() -> None:
    anna, boris, carol = person("rm-anna4"), person("rm-boris4"), person("rm-carol4")
    running_table = table(anna, seats=2, turn_seconds=900)
    services.table_join(table=running_table, user=anna)
    services.table_join(table=running_table, user=boris)
    running = latest_game(running_table)
    _refused("not_finished", rematch.rematch_offer, game_id=running.pk, user=anna)
    _refused("not_finished", rematch.rematch_accept, game_id=running.pk, user=boris)

    old = _finished([anna, boris])
    _refused("no_offer", rematch.rematch_accept, game_id=old.pk, user=boris)
    _refused("no_offer", rematch.rematch_decline, game_id=old.pk, user=boris)
    _refused("forbidden", rematch.rematch_offer, game_id=old.pk, user=carol)  # a spectator
    _refused("forbidden", rematch.rematch_offer, game_id=old.pk, user=None)
    rematch.rematch_offer(game_id=old.pk, user=anna)
    _refused("offered", rematch.rematch_offer, game_id=old.pk, user=anna)
    _refused("offered", rematch.rematch_offer, game_id=old.pk, user=boris)
    _refused("answered", rematch.rematch_accept, game_id=old.pk, user=anna)
    _refused("answered", rematch.rematch_decline, game_id=old.pk, user=anna)
    _refused("forbidden", rematch.rematch_accept, game_id=old.pk, user=carol)
    _refused("forbidden", rematch.rematch_decline, game_id=old.pk, user=carol)
    _refused("forbidden", rematch.rematch_offer, game_id=10**9, user=anna)
    rematch.rematch_accept(game_id=old.pk, user=boris)
    _refused("closed", rematch.rematch_offer, game_id=old.pk, user=anna)
    _refused("closed", rematch.rematch_accept, game_id=old.pk, user=boris)


def test_a_game_that_is_over_but_not_finalised_has_no_rematch_yet() -> None:
    anna, boris = person("rm-anna5"), person("rm-boris5")
    at = table(anna, seats=2, turn_seconds=900)
    services.table_join(table=at, user=anna)
    services.table_join(table=at, user=boris)
    game = latest_game(at)
    services.game_surrender(game_id=game.pk, user=anna)
    _refused("not_finished", rematch.rematch_offer, game_id=game.pk, user=anna)


def test_a_rematch_that_cannot_be_dealt_is_refused_with_the_reason() -> None:
    from accounts.ledger import ledger_balance

    anna, boris = person("rm-anna6"), person("rm-boris6")
    stake = ledger_balance(user=anna)
    old = _finished([anna, boris], stake=stake)  # Anna gives up and loses all her chips
    assert ledger_balance(user=anna) < stake
    rematch.rematch_offer(game_id=old.pk, user=boris)
    _refused("cannot_start", rematch.rematch_accept, game_id=old.pk, user=anna)
    assert Rematch.objects.get(game=old).accepted == [1]
    assert old.table.__class__.objects.get(pk=old.table_id).status == TableStatus.FINISHED


def test_a_tournament_game_has_no_rematch() -> None:
    chief = director()
    anna = person("rm-anna7")
    event = tournament(chief, rounds=1, name="Rematch Cup")
    enter(event, [anna, tournament_bot()])
    tournament_services.tournament_start(tournament=event, by=chief)
    pairing = Pairing.objects.get(tournament=event, bye=False)
    tournament_services.pairing_check_in(pairing=pairing, user=anna)
    match_game = MatchGame.objects.select_related("game").get(pairing=pairing, number=1)
    game = match_game.game
    services.game_surrender(game_id=game.pk, user=anna)
    services.game_finalise(game_id=game.pk)
    _refused("tournament", rematch.rematch_offer, game_id=game.pk, user=anna)
    game.refresh_from_db()
    result = game_view_for(game=game, user=anna)["result"]
    assert result["tournament"]["url"] == reverse("tournaments:detail", args=[event.pk])
    assert result["rematch"] is None
    page = Client()
    page.force_login(anna)
    html = page.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'data-part="tournament-link"' in html and reverse("tournaments:detail", args=[event.pk]) in html
    assert 'data-part="new-game"' not in html


def test_the_refusals_are_in_the_readers_language() -> None:
    error = rematch.RematchError("offered", "a rematch is offered already")
    with translation.override("ru"):
        russian = rematch.rematch_error_message(error)
    with translation.override("en"):
        english = rematch.rematch_error_message(error)
    assert english == "A rematch is already offered; wait for the answers."
    assert russian != english and any("а" <= letter <= "я" for letter in russian.lower())


def test_a_rated_result_carries_every_rating_before_and_after_and_an_unrated_one_none() -> None:
    anna, boris = person("rm-anna8"), person("rm-boris8")
    rated = _finished([anna, boris], rated=True, loser=1)
    changes = game_view_for(game=rated, user=None)["result"]["rating_change"]
    assert [change["seat"] for change in changes] == [0, 1]
    assert changes[0]["delta"] > 0 > changes[1]["delta"]
    for change in changes:
        assert change["after"] - change["before"] == change["delta"]
    unrated = _finished([person("rm-carol8"), person("rm-dan8")], rated=False)
    assert game_view_for(game=unrated, user=None)["result"]["rating_change"] is None


def test_new_game_fills_the_lobby_form_like_the_finished_games_table() -> None:
    anna, boris = person("rm-anna9"), person("rm-boris9")
    old = _finished([anna, boris], rules={"preset": "perevodnoy"}, turn_seconds=120, name="Friday")
    client = Client()
    client.force_login(anna)
    page = client.get(reverse("games:game", args=[old.pk])).content.decode()
    new_game_url = f"{reverse('games:play')}?like={old.pk}#create-heading"
    assert new_game_url.replace("&", "&amp;") in page or new_game_url in page
    form = client.get(f"{reverse('games:play')}?like={old.pk}").context["form"]
    assert form.initial["preset"] == "perevodnoy" and form.initial["turn_seconds"] == 120
    assert form.initial["name"] == "Friday" and form.initial["players"] == 2
    # A private table's options are not shown to someone who may not see it.
    secret = _finished([person("rm-carol9"), person("rm-dan9")], private=True, name="Secret")
    assert Client().get(f"{reverse('games:play')}?like={secret.pk}").context["form"].initial == {}
    for forged in ("²", "9" * 40, "-1", "x"):
        assert client.get(reverse("games:play"), {"like": forged}).context["form"].initial == {}


def test_the_replay_link_opens_a_finished_game_on_the_analysis_board() -> None:
    """The game page's end links to the replay page; the analysis board opens the game as well (?game=)."""
    anna, boris = person("rm-anna10"), person("rm-boris10")
    old = _finished([anna, boris])
    client = Client()
    client.force_login(anna)
    assert reverse("games:game-replay", args=[old.pk]) in client.get(reverse("games:game", args=[old.pk])).content.decode()
    board = client.get(f"{reverse('api-pages:analysis')}?game={old.pk}")
    assert board.status_code == 200 and board.context["replay_data"]["steps"]
    assert 'id="replay-board"' in board.content.decode()
    assert f'href="{reverse("games:game", args=[old.pk])}" data-part="back-to-game"' in board.content.decode()


def test_the_analysis_board_refuses_a_running_game_and_a_private_game_without_access() -> None:
    anna, boris = person("rm-anna11"), person("rm-boris11")
    at = table(anna, seats=2, turn_seconds=900)
    services.table_join(table=at, user=anna)
    services.table_join(table=at, user=boris)
    running = latest_game(at)
    client = Client()
    client.force_login(anna)
    refused = client.get(f"{reverse('api-pages:analysis')}?game={running.pk}")
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "still being played" in text and 'id="replay-board"' not in text
    assert refused.context["replay_data"] is None

    secret = _finished([person("rm-carol11"), person("rm-dan11")], private=True)
    assert client.get(f"{reverse('api-pages:analysis')}?game={secret.pk}").status_code == 404


def test_rematch_rules_follow_under_fool() -> None:
    """next_game_first: under_fool: the player on the durak's left leads the rematch."""
    anna, boris = person("rm-anna12"), person("rm-boris12")
    rules = Rules.from_dict({"preset": "podkidnoy", "next_game_first": "under_fool"}).to_dict()
    old = _finished([anna, boris], rules=rules, loser=0)
    rematch.rematch_offer(game_id=old.pk, user=anna)
    new = rematch.rematch_accept(game_id=old.pk, user=boris).new_game
    assert new is not None and new.record["first_attacker"] == 1
