"""Duplicate rounds (issue 37) through the services: every board of a round dealt the same deck, seats rotated
and the lead following the hand; each hand held by players of every side or rotation; the duplicate scores
recomputed from the exported JSON alone (independently of tournaments.pairing.duplicate); the decks held back
while a board of the round still plays."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import Rules, deal, verify_commitment
from games.models import GameStatus
from games.selectors import game_record_json, view_common
from games.snapshots import state_of
from tests.tournaments.factories import bots, director, enter, finish_game, tournament
from tournaments import duplicate_selectors, selectors, services
from tournaments.models import DuplicateScoring, MatchGame, Round, RoundStatus, Seating, Tournament
from tournaments.simulation import SimulationOptions, simulate

pytestmark = pytest.mark.django_db


# --- what a simulated event shows -----------------------------------------------------------------


def _dealing(event: Tournament) -> dict[str, Any]:
    """Per round and deal, what the database says of its boards (read before the simulation rolls back)."""
    rules = Rules.from_dict(event.rules)
    found: dict[str, Any] = {"deals": defaultdict(list), "rounds": {}}
    for round_ in Round.objects.filter(tournament=event):
        found["rounds"][round_.number] = dict(round_.deals)
    for match_game in MatchGame.objects.filter(pairing__tournament=event).select_related("game", "pairing__round"):
        game = match_game.game
        players = game.players
        entrants = {seat.position: seat.entrant for seat in match_game.pairing.seats.select_related("entrant")}
        seeds = [(-entrants[position].rating, entrants[position].number) for position in match_game.seats]
        base = deal(rules, players, seed=game.seed, salt="base")
        found["deals"][match_game.deal].append({
            "seed": game.seed, "rotation": match_game.rotation, "game_rotation": game.rotation,
            "hands": game.record["hands"], "stock": game.record["stock"],
            "base_hands": base.hands, "first_attacker": match_game.first_attacker, "players": players,
            "round_seed": found["rounds"][match_game.pairing.round.number][match_game.deal]["seed"],
            "deck_held": game.deck_held, "revealed": game.revealed_deck,
            "board": match_game.pairing.board, "top_seat": seeds.index(min(seeds)),
        })  # fmt: skip
    return found


def _check_dealing(found: dict[str, Any], sides: int) -> None:
    from games.engine.cards import card_name, cards_in

    assert found["deals"]
    for identifier, boards in found["deals"].items():
        # Every board of the round played this deal from the round's one shuffle.
        assert len({board["seed"] for board in boards}) == 1
        assert boards[0]["seed"] == boards[0]["round_seed"]
        assert len({tuple(board["stock"]) for board in boards}) == 1
        # Going down the boards, each board's top seed (by seeding rating, then number) holds hand 0, 1, ...,
        # k-1 in turn, so that each hand is held by top seeds and by the others alike.
        boards.sort(key=lambda board: board["board"])
        top_hands = [(board["top_seat"] + board["rotation"]) % sides for board in boards]
        assert top_hands == [index % sides for index in range(len(boards))], (identifier, top_hands)
        others = {(seat + board["rotation"]) % sides for board in boards for seat in range(sides) if seat != board["top_seat"]}
        assert set(top_hands) == others == set(range(sides))
        lead_hands = set()
        for board in boards:
            players, rotation = board["players"], board["rotation"]
            assert board["game_rotation"] == rotation
            for seat in range(players):
                dealt = sorted(board["hands"][seat])
                expected = sorted(card_name(card) for card in cards_in(board["base_hands"][(seat + rotation) % players]))
                assert dealt == expected
            lead_hands.add((board["first_attacker"] + rotation) % players)
            # The round is over: its decks are shown.
            assert not board["deck_held"] and board["revealed"]
        assert len(lead_hands) == 1, "the lead follows the hand, not the board"


def _independent_scores(exported: dict[str, Any]) -> tuple[dict[tuple[int, int, int], list[float]], dict[str, float]]:
    """The duplicate score of every game and seat, and each entrant's total, from the JSON alone."""
    holders: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)  # (deal, hand) -> (place, cards)
    games = []
    for round_ in exported["rounds"]:
        for board, pairing in enumerate(round_["pairings"]):
            for game in pairing.get("games", []):
                games.append((round_["number"], board, game))
                for seat, hand in enumerate(game["hands"]):
                    holders[(game["deal"], hand)].append((game["places"][seat], game["cards_left"][seat]))
    scores: dict[tuple[int, int, int], list[float]] = {}
    totals: dict[str, float] = defaultdict(float)
    for number, board, game in games:
        seat_scores = []
        for seat, hand in enumerate(game["hands"]):
            mine = (game["places"][seat], game["cards_left"][seat])
            others = list(holders[(game["deal"], hand)])
            others.remove(mine)
            if not others:
                value = 0.5
            else:
                beaten = sum(1 if mine < other else 0.5 if mine == other else 0 for other in others)
                value = beaten / len(others)
            seat_scores.append(value)
            totals[game["entrants"][seat]] += value
        scores[(number, board, game["number"])] = seat_scores
    return scores, dict(totals)


def _check_scores(exported: dict[str, Any]) -> None:
    scores, totals = _independent_scores(exported)
    assert scores
    for round_ in exported["rounds"]:
        for board, pairing in enumerate(round_["pairings"]):
            for game in pairing.get("games", []):
                assert game["duplicate"] == pytest.approx(scores[(round_["number"], board, game["number"])])
    for line in exported["standings"]:
        assert line["tiebreaks"]["duplicate"] == pytest.approx(totals.get(line["entrant"], 0.0))


def _simulated(options: SimulationOptions) -> tuple[dict[str, Any], dict[str, Any]]:
    found: dict[str, Any] = {}
    exported = simulate(options, inspect=lambda event: found.update(_dealing(event)))
    return exported, found


def test_a_simulated_16_player_duplicate_swiss() -> None:
    exported, found = _simulated(SimulationOptions(players=16, rounds=5, seed=3, duplicate=True))
    assert exported["duplicate"] == {"scoring": DuplicateScoring.TIEBREAK}
    for round_ in exported["rounds"]:
        assert len({game["deal"] for pairing in round_["pairings"] for game in pairing["games"]}) == 1
        assert len(round_["deals"]) == 1
        # The round is closed: its deal's commitment can be checked against the shuffle it reveals.
        for shown in round_["deals"].values():
            assert verify_commitment(shown["commitment"], shown["salt"], shown["deck"])
    _check_dealing(found, sides=2)
    _check_scores(exported)
    # Points first, the duplicate total breaking ties.
    lines = exported["standings"]
    for better, worse in zip(lines, lines[1:]):
        assert (better["points"], better["tiebreaks"]["duplicate"]) >= (worse["points"], worse["tiebreaks"]["duplicate"])


def test_a_simulated_18_player_duplicate_swiss_at_tables_of_3_ranked_by_the_duplicate_total() -> None:
    exported, found = _simulated(SimulationOptions(
        players=18, rounds=4, seed=5, seating=Seating.TABLES, table_size=3, duplicate=True,
        duplicate_scoring=DuplicateScoring.TOTAL,
    ))  # fmt: skip
    for round_ in exported["rounds"]:
        assert all(len(pairing["entrants"]) == 3 for pairing in round_["pairings"])
        assert {game["deal"] for pairing in round_["pairings"] for game in pairing["games"]} == {f"{round_['number']}.1.3"}
    _check_dealing(found, sides=3)
    _check_scores(exported)
    totals = [line["tiebreaks"]["duplicate"] for line in exported["standings"]]
    assert totals == sorted(totals, reverse=True)


def test_the_command_writes_a_duplicate_event(tmp_path: Any) -> None:
    from django.core.management import CommandError, call_command

    out = tmp_path / "dup.json"
    call_command("simulate_tournament", "--players", "4", "--rounds", "1", "--duplicate", "--json", str(out))
    exported = json.loads(out.read_text())
    assert exported["duplicate"]["scoring"] == "tiebreak" and exported["rounds"][0]["pairings"][0]["games"]
    with pytest.raises(CommandError):
        call_command("simulate_tournament", "--players", "4", "--duplicate", "--fast", "--json", str(out))


def test_the_csv_carries_the_duplicate_totals() -> None:
    event = _running_duplicate(bots(4))
    for match_game in MatchGame.objects.filter(pairing__tournament=event):
        finish_game(match_game.game)
    text = selectors.standings_csv(tournament=Tournament.objects.get(pk=event.pk))
    header = text.splitlines()[0].split(",")
    assert header[6] == "duplicate"
    totals = [Fraction(line.split(",")[6]) for line in text.splitlines()[1:]]
    assert sum(totals) == 2  # two hands, each compared once each way: 1 between its two holders


# --- the option -------------------------------------------------------------------------------------


def test_teams_and_redeals_do_not_play_duplicate() -> None:
    with pytest.raises(ValidationError, match="not in teams"):
        tournament(seating=Seating.TEAMS, team_size=2, duplicate=True)
    with pytest.raises(ValidationError, match="redeal"):
        tournament(rules={"preset": "podkidnoy", "redeal_five_same_suit": True}, duplicate=True)
    with pytest.raises(ValidationError, match="duplicate scoring"):
        tournament(duplicate=True, duplicate_scoring="luck")


# --- nothing of the deck before the round ends ----------------------------------------------------------


def _running_duplicate(players: list[Any]) -> Tournament:
    event = tournament(duplicate=True, turn_seconds=3600, starts_at=timezone.now())
    enter(event, players)
    services.tournament_start(tournament=event, by=event.director)
    event.refresh_from_db()
    assert event.status == "running"
    return event


def test_a_finished_board_shows_nothing_of_its_deck_while_another_board_plays() -> None:
    players = bots(4)
    event = _running_duplicate(players)
    done, playing = [match_game.game for match_game in MatchGame.objects.filter(pairing__tournament=event).order_by("pairing__board")]
    assert done.seed == playing.seed
    # The two boards' top seeds (the higher seeding ratings) hold the two hands of the deal.
    tops = []
    for game in (done, playing):
        match_game = game.match_game
        seeds = [(-seat.entrant.rating, seat.entrant.number) for seat in match_game.pairing.seats.order_by("position")]
        tops.append((seeds.index(min(seeds)) + game.rotation) % 2)
    assert tops == [0, 1]
    finish_game(done)
    done.refresh_from_db()
    assert done.status == GameStatus.FINISHED and done.deck_held and done.revealed_deck == ""
    assert Round.objects.get(tournament=event, number=1).status == RoundStatus.PAIRED
    # Its record and replay wait, and say why, in both languages.
    with pytest.raises(ValidationError, match="when the round ends"):
        game_record_json(game=done)
    client = APIClient()
    download = client.get(reverse("games:game-record", args=[done.pk]))
    assert download.status_code == 403 and "round ends" in download.content.decode()
    replay = client.get(reverse("games:game-replay", args=[done.pk]))
    assert replay.status_code == 403 and "round ends" in replay.content.decode()
    assert done.salt not in replay.content.decode()
    detail = client.get(f"/api/v1/games/{done.pk}/")
    assert detail.status_code == 200 and detail.json()["deck"] is None and detail.json()["salt"] is None
    record = client.get(f"/api/v1/games/{done.pk}/record/")
    assert record.status_code == 409 and "round ends" in record.json()["detail"]
    # The result message that every reader of the finished game receives.
    from games.selectors import game_result, game_seats

    message = view_common(game=done, seats=game_seats(done), state=state_of(done), result=game_result(done))
    assert message["result"]["deck"] == "" and message["result"]["salt"] == "" and message["result"]["deck_held"]
    # Neither the deal's seed nor a game's salt nor the deck shows in the tournament's export.
    exported = selectors.tournament_export(tournament=event)
    body = json.dumps(exported)
    for secret in (done.seed, done.salt, playing.salt):
        assert secret not in body
    # A round being played: its deal's commitment, no game's hands or places yet.
    assert all("games" not in pairing for pairing in exported["rounds"][0]["pairings"])
    assert list(exported["rounds"][0]["deals"]) == ["1.1.2"]
    assert set(exported["rounds"][0]["deals"]["1.1.2"]) == {"commitment"}
    # Once the last board is over the round closes and every deck is shown.
    finish_game(playing)
    done.refresh_from_db()
    assert not done.deck_held and done.revealed_deck
    assert game_record_json(game=done)["deck"] == done.revealed_deck
    assert client.get(f"/api/v1/games/{done.pk}/").json()["salt"] == done.salt


def test_the_held_text_is_translated() -> None:
    from django.utils import translation

    from games.selectors import deck_held_text

    with translation.override("ru"):
        russian = deck_held_text()
    assert russian != deck_held_text() and "раунд" in russian


def test_a_director_sees_the_option() -> None:
    boss = director()
    event = tournament(by=boss, duplicate=True)
    client = APIClient()
    client.force_login(boss)
    page = client.get(reverse("tournaments:detail", args=[event.pk]))
    assert page.status_code == 200 and "Duplicate deals" in page.content.decode()
    create = client.get(reverse("tournaments:create"))
    assert create.status_code == 200 and 'name="duplicate"' in create.content.decode()


def test_the_round_page_shows_how_every_holder_of_each_hand_did() -> None:
    event = _running_duplicate(bots(4))
    games = [match_game.game for match_game in MatchGame.objects.filter(pairing__tournament=event).order_by("pairing__board")]
    client = APIClient()
    url = reverse("tournaments:round", args=[event.pk, 1])
    finish_game(games[0])
    page = client.get(url).content.decode()
    assert "(deal 1.1.2)" in page and "Cards left" not in page  # the round is being played: commitments only
    finish_game(games[1])
    page = client.get(url).content.decode()
    assert "Hand 1" in page and "Hand 2" in page and page.count('<tr><td><a href="') == 4
    lines = duplicate_selectors.round_deals(tournament=event, round_=Round.objects.get(tournament=event, number=1))
    assert [len(holders) for _, holders in lines[0].hands] == [2, 2]
    for _, holders in lines[0].hands:
        assert sum(holder.score for holder in holders) == 1


def test_the_first_attack_history_is_who_led_the_hand() -> None:
    from tournaments.services.standings import _results_by_round

    event = _running_duplicate(bots(4))
    for match_game in MatchGame.objects.filter(pairing__tournament=event):
        finish_game(match_game.game)
    event.refresh_from_db()
    leaders = set()
    for match_game in MatchGame.objects.filter(pairing__tournament=event).select_related("pairing"):
        seat = match_game.first_attacker
        leaders.add(match_game.pairing.seats.get(position=match_game.seats[seat]).entrant.key)
    results = _results_by_round(event, upto=1)[0]
    assert {result.first for result in results} == leaders
    assert {pairing["first"] for pairing in selectors.tournament_export(tournament=event)["rounds"][0]["pairings"]} == leaders


def test_the_create_form_makes_a_duplicate_tournament_and_refuses_it_in_teams() -> None:
    from django.test import Client

    from tests.tournaments.test_create_form import _form

    client = Client()
    client.force_login(director())
    client.post(reverse("tournaments:create"), _form(name="Same cards", duplicate="on", duplicate_scoring="total"))
    made = Tournament.objects.get(name="Same cards")
    assert made.duplicate and made.duplicate_scoring == DuplicateScoring.TOTAL
    client.post(reverse("tournaments:create"), _form(name="Plain cards"))
    assert not Tournament.objects.get(name="Plain cards").duplicate
    response = client.post(reverse("tournaments:create"), _form(name="Team cards", seating="teams", duplicate="on"))
    assert response.status_code == 400 and not Tournament.objects.filter(name="Team cards").exists()
    assert "not in teams" in response.content.decode()


def test_a_replayed_board_is_a_deal_of_its_own_and_its_stopped_game_is_revealed_with_the_round() -> None:
    from games.engine import verify_commitment
    from tournaments.services import results

    event = _running_duplicate(bots(6))
    boards = list(MatchGame.objects.filter(pairing__tournament=event).select_related("game", "pairing").order_by("pairing__board"))
    stopped = boards[0].game
    round_seed = stopped.seed
    replay = results.match_game_decide(match_game=boards[0], decision=results.REPLAY, by=event.director,
                                       reason="The server fell over", seen_version=boards[0].pairing.version)  # fmt: skip
    fresh = replay.game
    # A fresh deck, not the round's (its players have seen part of it), shown when it ends like any game's.
    assert fresh.seed != round_seed and fresh.rotation == 0 and not fresh.deck_held
    assert replay.deal == f"1.1.2/{fresh.pk}" and replay.rotation == 0
    assert replay.first_attacker == 0
    # The stopped game held the round's deck, which the other boards still play: it stays held.
    stopped.refresh_from_db()
    assert stopped.status == GameStatus.FINISHED and stopped.deck_held and stopped.revealed_deck == ""
    finish_game(fresh)
    stopped.refresh_from_db()
    assert stopped.deck_held
    for match_game in boards[1:]:
        finish_game(match_game.game)
    assert Round.objects.get(tournament=event, number=1).status == RoundStatus.CLOSED
    # The round is over: the stopped game's deck is shown too, and checks against its commitment.
    stopped.refresh_from_db()
    assert not stopped.deck_held and stopped.revealed_deck
    assert verify_commitment(stopped.commitment, stopped.salt, stopped.revealed_deck)
    # The replay is compared with nobody: each of its hands scores the middle; the other two boards of the
    # round's deal are compared with each other; the export recomputes.
    exported = selectors.tournament_export(tournament=Tournament.objects.get(pk=event.pk))
    games = {game["deal"]: game for pairing in exported["rounds"][0]["pairings"] for game in pairing.get("games", [])}
    assert set(games) == {"1.1.2", f"1.1.2/{fresh.pk}"}
    assert games[f"1.1.2/{fresh.pk}"]["duplicate"] == [0.5, 0.5]
    assert list(exported["rounds"][0]["deals"]) == ["1.1.2"]
    _check_scores(exported)
    deal_lines = duplicate_selectors.round_deals(tournament=event, round_=Round.objects.get(tournament=event, number=1))
    assert [len(holders) for _, holders in deal_lines[0].hands] == [2, 2]


def test_the_round_page_lists_a_replayed_board_scored_alone() -> None:
    from django.utils import translation

    from tournaments.services import results

    event = _running_duplicate(bots(6))
    boards = list(MatchGame.objects.filter(pairing__tournament=event).select_related("game", "pairing").order_by("pairing__board"))
    replay = results.match_game_decide(match_game=boards[1], decision=results.REPLAY, by=event.director,
                                       reason="A seat lost its connection", seen_version=boards[1].pairing.version)  # fmt: skip
    fresh = replay.game
    client = APIClient()
    url = reverse("tournaments:round", args=[event.pk, 1])
    for game in [boards[0].game, fresh]:
        finish_game(game)
    # While the round plays, the replay is listed with its commitment; nobody's hand is shown yet.
    fresh.refresh_from_db()
    assert fresh.revealed_deck
    page = client.get(url).content.decode()
    assert f"replayed on a deck of its own (deal 1.1.2/{fresh.pk})" in page and fresh.commitment in page
    assert "Cards left" not in page and fresh.revealed_deck not in page
    finish_game(boards[2].game)
    round_ = Round.objects.get(tournament=event, number=1)
    assert round_.status == RoundStatus.CLOSED
    fresh.refresh_from_db()
    lines = duplicate_selectors.round_deals(tournament=event, round_=round_)
    # The round's deal, held by the two boards that played it, then the replayed board, on a deal of its own.
    assert [line.deal for line in lines] == ["1.1.2", f"1.1.2/{fresh.pk}"]
    assert not lines[0].replay and [len(holders) for _, holders in lines[0].hands] == [2, 2]
    assert {holder.board for _, holders in lines[0].hands for holder in holders} == {1, 3}
    replayed = lines[1]
    assert replayed.replay and replayed.board == 2 and (replayed.game, replayed.players) == (1, 2)
    assert replayed.commitment == fresh.commitment and replayed.deck == fresh.revealed_deck != ""
    assert verify_commitment(replayed.commitment, replayed.salt, replayed.deck)
    holders = [holder for _, hand_holders in replayed.hands for holder in hand_holders]
    assert [(holder.board, holder.score) for holder in holders] == [(2, 0.5), (2, 0.5)]
    page = client.get(url).content.decode()
    assert f"Board 2, game 1: replayed on a deck of its own (deal 1.1.2/{fresh.pk})" in page
    assert "it is scored alone" in page and page.count('<tr><td><a href="') == 6
    client.cookies["django_language"] = "ru"
    # The page's request activates Russian in this thread; the override puts back the language it found.
    with translation.override(translation.get_language()):
        page = client.get(url).content.decode()
    assert f"Стол 2, партия 1: переиграна с новой колодой (сдача 1.1.2/{fresh.pk})" in page
    assert "оценивается отдельно" in page
