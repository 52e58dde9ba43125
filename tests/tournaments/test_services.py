"""tournaments.services on a real database: a tournament of bots from registration to its winner, with the
games dealt and played through games.services and scored through the finalisation hook."""

from __future__ import annotations

import datetime
import io
from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from games.models import Game
from tests.tournaments.factories import bots, director, enter, person, play_games, tournament
from tournaments import services
from tournaments.models import (
    AuditAction, AuditEntry, Entrant, MatchGame, Pairing, PairingEntrant, PairingStatus, ResultKind, Round, RoundStatus,
    StandingRow, Tournament, TournamentStatus,
)

pytestmark = pytest.mark.django_db


def _next_round(event_id: int) -> None:
    """What the start_round task does once the interval is over."""
    event = Tournament.objects.get(pk=event_id)
    services.round_start_due(tournament=event, number=event.current_round + 1,
                             now=timezone.now() + datetime.timedelta(days=1))


def test_a_swiss_of_bots_is_played_to_its_winner() -> None:
    chief = director()
    event = tournament(chief, rounds=3, games_per_pairing=2, round_interval=0)
    enter(event, bots(5))
    services.tournament_start(tournament=event, by=chief)
    event.refresh_from_db()
    assert event.status == TournamentStatus.RUNNING and event.current_round == 1
    for number in range(1, 4):
        round_ = Round.objects.get(tournament=event, number=number)
        assert round_.status == RoundStatus.PAIRED
        # Five entrants: two boards and a bye, the bye scored at once; the bots' games dealt at once.
        assert Pairing.objects.filter(round=round_).count() == 3
        assert Pairing.objects.get(round=round_, bye=True).status == PairingStatus.FINISHED
        play_games(event)
        round_.refresh_from_db()
        assert round_.status == RoundStatus.CLOSED
        if number < 3:
            _next_round(event.pk)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED
    # Nobody met anyone twice, nobody had two byes.
    met: Counter[tuple[int, ...]] = Counter()
    byes: Counter[tuple[int, ...]] = Counter()
    for pairing in Pairing.objects.filter(tournament=event).prefetch_related("seats"):
        keys = tuple(sorted(seat.entrant_id for seat in pairing.seats.all()))
        (byes if pairing.bye else met)[keys] += 1
    assert max(met.values()) == 1 and max(byes.values()) == 1
    # Two games a pairing, the first attack alternating; every game scored.
    for pairing in Pairing.objects.filter(tournament=event, bye=False):
        games = list(MatchGame.objects.filter(pairing=pairing).order_by("number").select_related("game"))
        assert [game.game.record["first_attacker"] for game in games] == [0, 1]
        assert all(game.outcome is not None for game in games)
        seats = list(pairing.seats.order_by("position"))
        assert sum(seat.game_points for seat in seats) == 2
        assert sorted(seat.points or 0.0 for seat in seats) in ([0.0, 1.0], [0.5, 0.5])
    rows = list(StandingRow.objects.filter(tournament=event).order_by("rank"))
    assert len(rows) == 5 and rows[0].rank == 1
    assert sum(row.points for row in rows) == 3 * 2 + 3  # two matches and a bye a round
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.FINISHED).count() == 1


def test_registration_rules() -> None:
    chief = director()
    anna, boris = person(), person()
    event = tournament(chief, capacity=2, bots_allowed=False)
    services.tournament_register(tournament=event, user=anna)
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=event, user=anna)
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=event, user=bots(1)[0], by=chief)
    services.tournament_register(tournament=event, user=boris)
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=event, user=person())
    # Withdrawing before the start removes the entry; the log keeps it.
    services.entrant_withdraw(entrant=Entrant.objects.get(user=anna), by=anna)
    assert not Entrant.objects.filter(user=anna).exists()
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.UNREGISTERED).exists()
    closed = tournament(chief, registration_closes=timezone.now() - datetime.timedelta(minutes=1),
                        registration_opens=timezone.now() - datetime.timedelta(hours=1))
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=closed, user=anna)


def test_too_few_entrants_cancel_the_start() -> None:
    event = tournament(starts_at=timezone.now() - datetime.timedelta(seconds=1))
    enter(event, bots(1))
    services.tournament_start(tournament=event)
    event.refresh_from_db()
    assert event.status == TournamentStatus.CANCELLED


def _started(chief: User, players: list[User], **options: Any) -> Tournament:
    event = tournament(chief, **options)
    enter(event, players)
    services.tournament_start(tournament=event, by=chief)
    event.refresh_from_db()
    return event


def test_a_directors_override_recomputes_the_standings_and_the_ratings() -> None:
    from ratings.models import PlayerRating, RatedGame, RatingPool

    chief = director()
    pool = RatingPool.objects.get(slug="podkidnoy-36-heads-up")
    players = bots(2)
    event = _started(chief, players, rounds=1, rating_pool=pool)
    play_games(event)
    match_game = MatchGame.objects.get(pairing__tournament=event)
    rated = RatedGame.objects.get(game=match_game.game)
    winner_seat = rated.outcome["places"][0][0] if len(rated.outcome["places"]) > 1 else 0
    loser_seat = 1 - winner_seat
    table = Game.objects.get(pk=match_game.game_id).table
    user_at = {seat: User.objects.get(seats__table=table, seats__number=seat) for seat in (0, 1)}
    ratings_before = {seat: PlayerRating.objects.get(pool=pool, user=user_at[seat]).rating for seat in (0, 1)}

    services.match_game_set_result(match_game=match_game, places=[[loser_seat], [winner_seat]], by=chief,
                                   reason="The winner was seen cheating")

    rated.refresh_from_db()
    assert rated.outcome["places"] == [[loser_seat], [winner_seat]]
    after = {seat: PlayerRating.objects.get(pool=pool, user=user_at[seat]).rating for seat in (0, 1)}
    assert after[loser_seat] > 1500 > after[winner_seat]
    if ratings_before[winner_seat] != 1500:  # not a draw before: the ratings swapped
        assert after[loser_seat] == ratings_before[winner_seat]
    standings = {row.entrant.user_id: row for row in StandingRow.objects.filter(tournament=event).select_related("entrant")}
    assert standings[user_at[loser_seat].pk].points == 1 and standings[user_at[loser_seat].pk].rank == 1
    assert standings[user_at[winner_seat].pk].points == 0
    entry = AuditEntry.objects.get(tournament=event, action=AuditAction.GAME_RESULT_SET)
    assert entry.actor == chief and entry.reason == "The winner was seen cheating"
    with pytest.raises(ValidationError):
        services.match_game_set_result(match_game=match_game, places=[[0]], by=chief, reason="x")
    with pytest.raises(ValidationError):
        services.match_game_set_result(match_game=match_game, places=[[0], [1]], by=person(), reason="x")


def test_a_no_show_forfeits_after_the_grace_period() -> None:
    chief = director()
    anna = person()
    [machine] = bots(1)
    event = tournament(chief, rounds=1, grace_seconds=60)
    services.tournament_register(tournament=event, user=anna)
    enter(event, [machine])
    services.tournament_start(tournament=event, by=chief)
    pairing = Pairing.objects.get(tournament=event)
    assert pairing.status == PairingStatus.WAITING  # the bot is in, Anna is not
    assert not MatchGame.objects.exists()
    round_ = pairing.round
    # Before the deadline nothing happens.
    assert services.round_enforce_seat_deadline(tournament=event, number=1) == 0
    assert round_.seat_deadline is not None
    later = round_.seat_deadline + datetime.timedelta(seconds=1)
    assert services.round_enforce_seat_deadline(tournament=event, number=1, now=later) == 1
    assert services.round_enforce_seat_deadline(tournament=event, number=1, now=later) == 0
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED and pairing.result_kind == ResultKind.FORFEIT
    points = {seat.entrant.user_id: (seat.points, seat.forfeited) for seat in pairing.seats.select_related("entrant")}
    assert points == {anna.pk: (0.0, True), machine.pk: (1.0, False)}
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.NO_SHOW, subject__contains=anna.username).exists()
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED


def test_a_bot_plays_for_a_no_show_when_the_tournament_says_so() -> None:
    from tournaments.models import NoShow

    chief = director()
    anna = person()
    event = tournament(chief, rounds=1, no_show=NoShow.BOT)
    services.tournament_register(tournament=event, user=anna)
    enter(event, bots(1))
    services.tournament_start(tournament=event, by=chief)
    deadline = Round.objects.get(tournament=event, number=1).seat_deadline
    assert deadline is not None
    services.round_enforce_seat_deadline(tournament=event, number=1, now=deadline + datetime.timedelta(seconds=1))
    match_game = MatchGame.objects.get(pairing__tournament=event)
    users = list(match_game.game.table.seats.order_by("number").values_list("user__is_bot", flat=True))
    assert users == [True, True]
    assert PairingEntrant.objects.get(entrant__user=anna).substituted
    play_games(event)
    assert PairingEntrant.objects.get(entrant__user=anna).points is not None


def test_players_take_their_seats_and_the_game_is_dealt_when_both_are_there() -> None:
    chief = director()
    anna, boris = person(), person()
    event = tournament(chief, rounds=1)
    for player in (anna, boris):
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    pairing = Pairing.objects.get(tournament=event)
    assert services.pairing_check_in(pairing=pairing, user=anna) is None
    with pytest.raises(ValidationError):
        services.pairing_check_in(pairing=pairing, user=person())
    match_game = services.pairing_check_in(pairing=pairing, user=boris)
    assert match_game is not None
    seated = set(match_game.game.table.seats.values_list("user_id", flat=True))
    assert seated == {anna.pk, boris.pk}
    assert services.pairing_check_in(pairing=pairing, user=anna) == match_game


def test_tables_score_by_place_and_the_durak_scores_nothing() -> None:
    from tournaments.models import Seating

    chief = director()
    event = _started(chief, bots(7), rounds=2, seating=Seating.TABLES, table_size=4, round_interval=0)
    sizes = sorted(Pairing.objects.get(round__number=1, tournament=event, board=board).seats.count() for board in (1, 2))
    assert sizes == [3, 4]
    play_games(event)
    for pairing in Pairing.objects.filter(tournament=event):
        seats = list(pairing.seats.all())
        size = len(seats)
        assert sum(seat.points or 0.0 for seat in seats) == sum(range(size))  # k-1 + ... + 1 + 0
        assert sum(seat.durak_finishes for seat in seats) <= 1
    _next_round(event.pk)
    play_games(event)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED


def test_teams_sit_apart_and_score_as_one() -> None:
    from tournaments.models import Seating, TeamMember

    chief = director()
    event = tournament(chief, rounds=1, seating=Seating.TEAMS, team_size=2)
    players = bots(8)
    for index in range(0, 8, 2):
        services.tournament_register(tournament=event, user=players[index], partners=[players[index + 1]], by=chief,
                                     team_name=f"Team {index // 2 + 1}")
    services.tournament_start(tournament=event, by=chief)
    match_game = MatchGame.objects.filter(pairing__tournament=event).first()
    assert match_game is not None and match_game.seats == [0, 1, 0, 1]
    assert match_game.game.rules["teams"] == "2v2"
    team_of = dict(TeamMember.objects.filter(tournament=event).values_list("user_id", "entrant_id"))
    seated = list(match_game.game.table.seats.order_by("number").values_list("user_id", flat=True))
    assert team_of[seated[0]] == team_of[seated[2]] != team_of[seated[1]] == team_of[seated[3]]
    play_games(event)
    for pairing in Pairing.objects.filter(tournament=event):
        assert sorted(seat.points or 0.0 for seat in pairing.seats.all()) in ([0.0, 1.0], [0.5, 0.5])


def test_a_round_is_dealt_with_one_lobby_message(django_capture_on_commit_callbacks: Any) -> None:
    from games import services as game_services

    chief = director()
    event = tournament(chief, rounds=1)
    for player in bots(8):
        services.tournament_register(tournament=event, user=player, by=chief)
    with django_capture_on_commit_callbacks() as callbacks:
        services.tournament_start(tournament=event, by=chief)
    assert MatchGame.objects.filter(pairing__tournament=event).count() == 4
    assert callbacks.count(game_services.send_lobby) == 1


def test_partners_a_player_names_play_only_once_they_accept() -> None:
    """A player who enters a team names his partners; each is asked, the team is paired only once all have
    accepted, one who declines withdraws the entry, and a team still waiting at the start does not play."""
    from tournaments.models import EntrantStatus, Seating, TeamMember

    chief = director()
    event = tournament(chief, rounds=1, seating=Seating.TEAMS, team_size=2)
    anna, boris, vera, gleb, dima, egor = (person(name) for name in ("anna", "boris", "vera", "gleb", "dima", "egor"))
    ours = services.tournament_register(tournament=event, user=anna, partners=[boris], team_name="Ours")
    assert ours.status == EntrantStatus.PENDING
    assert list(TeamMember.objects.filter(entrant=ours).values_list("user__username", "accepted")) == [
        ("anna", True), ("boris", False)]
    # Only the partner answers, and only once.
    for someone in (anna, vera):
        with pytest.raises(ValidationError):
            services.team_accept(tournament=event, user=someone)
    with pytest.raises(ValidationError):  # named in a team, he cannot be entered elsewhere meanwhile
        services.tournament_register(tournament=event, user=vera, partners=[boris], team_name="Theirs")
    assert services.team_accept(tournament=event, user=boris).status == EntrantStatus.ACTIVE
    with pytest.raises(ValidationError):
        services.team_accept(tournament=event, user=boris)

    declined = services.tournament_register(tournament=event, user=vera, partners=[gleb], team_name="Declined")
    services.team_decline(tournament=event, user=gleb)
    assert not Entrant.objects.filter(pk=declined.pk).exists()
    assert AuditEntry.objects.filter(tournament=event, action=AuditAction.TEAM_DECLINED, actor=gleb).exists()
    # A director's entry needs nobody's answer; a team still waiting at the start is dropped.
    services.tournament_register(tournament=event, user=vera, partners=[gleb], team_name="Entered", by=chief)
    waiting = services.tournament_register(tournament=event, user=dima, partners=[egor], team_name="Late")
    services.tournament_start(tournament=event, by=chief)
    assert not Entrant.objects.filter(pk=waiting.pk).exists()
    assert sorted(Entrant.objects.filter(tournament=event).values_list("team_name", flat=True)) == ["Entered", "Ours"]
    assert Pairing.objects.filter(tournament=event, bye=False).count() == 1
    with pytest.raises(ValidationError):
        services.team_accept(tournament=event, user=egor)


def test_a_double_round_robin_follows_the_berger_table() -> None:
    from tournaments.models import Format

    chief = director()
    event = _started(chief, bots(4), format=Format.DOUBLE_ROUND_ROBIN, round_interval=0)
    assert event.rounds_planned == 6
    for number in range(1, 7):
        play_games(event)
        if number < 6:
            _next_round(event.pk)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED
    met = Counter(
        tuple(sorted(pairing.seats.values_list("entrant_id", flat=True))) for pairing in Pairing.objects.filter(tournament=event)
    )
    assert len(met) == 6 and set(met.values()) == {2}


def test_a_swiss_qualifier_sends_its_best_to_a_round_robin_final() -> None:
    from tournaments.models import Format

    chief = director()
    qualifier = tournament(chief, rounds=2, round_interval=0)
    final = tournament(chief, format=Format.ROUND_ROBIN, qualifier=qualifier, qualify_count=3,
                       starts_at=timezone.now() + datetime.timedelta(minutes=1))
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=final, user=person())
    enter(qualifier, bots(6))
    services.tournament_start(tournament=qualifier, by=chief)
    play_games(qualifier)
    _next_round(qualifier.pk)
    play_games(qualifier)
    qualifier.refresh_from_db()
    assert qualifier.status == TournamentStatus.FINISHED
    best = list(StandingRow.objects.filter(tournament=qualifier).order_by("rank", "entrant__number")
                .values_list("entrant__user_id", flat=True)[:3])
    assert sorted(Entrant.objects.filter(tournament=final).values_list("user_id", flat=True)) == sorted(best)


def test_the_demo_brings_a_championship_of_bots_and_the_next_one_open() -> None:
    from django.core.management import call_command

    from tournaments.demo import BOTS_SWISS, OPEN_SWISS

    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())  # safe to repeat: the same two tournaments
    bots_swiss = Tournament.objects.get(name=BOTS_SWISS)
    open_swiss = Tournament.objects.get(name=OPEN_SWISS)
    assert bots_swiss.entrants.count() == 12 and all(entrant.user.is_bot for entrant in bots_swiss.entrants.all())
    # It starts at once (the sweep or its timed task) and plays itself.
    services.tournaments_sweep(now=timezone.now() + datetime.timedelta(seconds=10))
    bots_swiss.refresh_from_db()
    assert bots_swiss.status == TournamentStatus.RUNNING
    assert MatchGame.objects.filter(pairing__tournament=bots_swiss).count() == 6
    # A newcomer can register for the next one.
    newcomer = person()
    services.tournament_register(tournament=open_swiss, user=newcomer)
    # Once the championship is over, the next load_demo brings a new edition.
    Tournament.objects.filter(pk=bots_swiss.pk).update(status=TournamentStatus.FINISHED)
    call_command("load_demo", stdout=io.StringIO())
    assert Tournament.objects.filter(name=f"{BOTS_SWISS} #2", status=TournamentStatus.REGISTRATION).exists()


def test_at_a_table_the_others_play_on_without_a_no_show() -> None:
    from tournaments.models import Seating
    from tournaments.selectors import tournament_export

    chief = director()
    anna = person()
    event = tournament(chief, rounds=1, seating=Seating.TABLES, table_size=3)
    services.tournament_register(tournament=event, user=anna)
    enter(event, bots(2))
    services.tournament_start(tournament=event, by=chief)
    deadline = Round.objects.get(tournament=event, number=1).seat_deadline
    assert deadline is not None
    services.round_enforce_seat_deadline(tournament=event, number=1, now=deadline + datetime.timedelta(seconds=1))
    match_game = MatchGame.objects.get(pairing__tournament=event)
    assert len(match_game.seats) == 2 and match_game.game.players == 2
    play_games(event)
    seats = {seat.entrant.user_id: seat for seat in PairingEntrant.objects.filter(pairing__tournament=event)
             .select_related("entrant")}  # fmt: skip
    assert (seats[anna.pk].points, seats[anna.pk].forfeited) == (0.0, True)
    assert sorted(seat.points or 0.0 for user, seat in seats.items() if user != anna.pk) in ([0.0, 1.0], [0.5, 0.5])
    pairing = tournament_export(tournament=event)["rounds"][0]["pairings"][0]
    anna_key = Entrant.objects.get(user=anna).key
    assert pairing["absent"] == [anna_key] and "forfeit" not in pairing


def test_withdrawing_before_sitting_down_forfeits_and_the_round_closes() -> None:
    chief = director()
    anna, boris = person(), person()
    event = tournament(chief, rounds=1)
    for player in (anna, boris):
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    services.entrant_withdraw(entrant=Entrant.objects.get(user=anna), by=anna)
    pairing = Pairing.objects.get(tournament=event)
    assert pairing.result_kind == ResultKind.FORFEIT
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED
    winner = StandingRow.objects.get(tournament=event, rank=1)
    assert winner.entrant.user == boris and winner.points == 1


def test_a_late_entry_is_paired_when_the_round_is_paired_again_and_the_director_acts_are_logged() -> None:
    from tournaments.models import Dispute, DisputeStatus, EntrantStatus

    chief = director()
    players = [person() for _ in range(4)]
    event = tournament(chief, rounds=2)
    for player in players:
        services.tournament_register(tournament=event, user=player)
    services.tournament_start(tournament=event, by=chief)
    late = person()
    with pytest.raises(ValidationError):
        services.tournament_register(tournament=event, user=late)  # registration is closed for him
    services.tournament_register(tournament=event, user=late, by=chief, reason="Arrived late")
    assert Entrant.objects.get(user=late).first_round == 2
    with pytest.raises(ValidationError):
        services.round_repair(tournament=event, by=chief, reason="")  # a reason is required
    services.round_repair(tournament=event, by=chief, reason="Pair the late entry in")
    first = Pairing.objects.filter(tournament=event, round__number=1)
    assert first.count() == 3 and first.filter(bye=True).count() == 1
    assert Entrant.objects.get(user=late).first_round == 1
    # Disqualified: his waiting pairing is lost by forfeit; reinstated: he plays the next round.
    victim = Entrant.objects.get(user=players[0])
    services.entrant_disqualify(entrant=victim, by=chief, reason="Abusive chat")
    victim.refresh_from_db()
    assert victim.status == EntrantStatus.DISQUALIFIED and victim.left_after_round == 1
    seat = PairingEntrant.objects.get(entrant=victim, pairing__round__number=1)
    if not seat.pairing.bye:
        assert seat.forfeited and seat.pairing.result_kind == ResultKind.FORFEIT
    services.entrant_reinstate(entrant=victim, by=chief, reason="Apologised")
    victim.refresh_from_db()
    assert victim.status == EntrantStatus.ACTIVE
    # A dispute is filed by a player of the pairing and decided by the director.
    pairing = Pairing.objects.filter(tournament=event, round__number=1, bye=False, seats__entrant__user=players[1]).get()
    with pytest.raises(ValidationError):
        services.dispute_file(pairing=pairing, user=person(), text="I saw it")
    dispute = services.dispute_file(pairing=pairing, user=players[1], text="My opponent never came")
    services.dispute_resolve(dispute=dispute, by=chief, upheld=False, resolution="He did, the log shows it")
    assert Dispute.objects.get(pk=dispute.pk).status == DisputeStatus.DISMISSED
    with pytest.raises(ValidationError):
        services.dispute_resolve(dispute=dispute, by=chief, upheld=True, resolution="again")
    logged = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {AuditAction.LATE_ENTRY, AuditAction.ROUND_REPAIRED, AuditAction.DISQUALIFIED, AuditAction.REINSTATED,
            AuditAction.DISPUTE_FILED, AuditAction.DISPUTE_RESOLVED} <= logged  # fmt: skip
    assert AuditEntry.objects.get(tournament=event, action=AuditAction.DISQUALIFIED).reason == "Abusive chat"


@pytest.mark.parametrize("dutch", [True, False])
def test_dutch_pairing_setting_pairs_the_swiss_by_the_exact_engine(
    dutch: bool, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``TOURNAMENT_DUTCH_PAIRING`` on: every round of a heads-up Swiss is what ``pair_dutch`` pairs from the
    stored history (the last round as the last); off, the Dutch engine is not asked."""
    from tournaments.pairing import entrants_after
    from tournaments.pairing.dutch import DutchOptions, pair_dutch
    from tournaments.services import rounds
    from tournaments.services.standings import _results_by_round

    settings.TOURNAMENT_DUTCH_PAIRING = dutch
    asked: list[int] = []
    real = rounds.pair_dutch_reasons

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rounds, "pair_dutch_reasons", spy)
    chief = director()
    event = tournament(chief, rounds=3, round_interval=0)
    enter(event, bots(7))
    services.tournament_start(tournament=event, by=chief)
    for number in range(1, 4):
        event.refresh_from_db()
        entrants = list(Entrant.objects.filter(tournament=event))
        values = entrants_after({e.key: e.rating for e in entrants}, _results_by_round(event, upto=number - 1))
        expected = pair_dutch(values, options=DutchOptions(last_round=number == 3))
        stored = {
            frozenset(f"e{seat.entrant.number}" for seat in pairing.seats.select_related("entrant"))
            for pairing in Pairing.objects.filter(tournament=event, round__number=number)
        }
        if dutch:
            assert stored == {frozenset(board.entrants) for board in expected}
            # Each board keeps what decided it: its bracket and the rule that gave the first attack.
            for pairing in Pairing.objects.filter(tournament=event, round__number=number, bye=False):
                codes = [fact["code"] for fact in pairing.explanation["facts"]]
                assert codes[0] in ("bracket", "bracket_mdp", "bracket_remainder")
                assert sum(code.startswith("E.") for code in codes) == 1
        play_games(event)
        if number < 3:
            _next_round(event.pk)
    assert len(asked) == (3 if dutch else 0)
