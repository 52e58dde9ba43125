"""The tournaments part of the REST API: tournaments, entrants, rounds with their pairings, standings with
tie-breaks (JSON, CSV), the whole export and the public audit log; writes for players (register, withdraw)
and directors (create, enter others, start, set a pairing's result, score a forfeit).

Every write goes through tournaments.services with the same checks and audit entries as the pages; a caller
who may not direct the tournament is refused with 403 before the service is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from api.renderers import CSVRenderer
from api.serializers import PlayerRefSerializer, PoolRefSerializer
from ratings.models import RatingPool
from tournaments import labels as tournament_labels
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import (
    AuditEntry, DuplicateScoring, Entrant, EntrantStatus, Format, NoShow, Pairing, Round, Seating, Tournament, TournamentStatus,
)

REFUSED = OpenApiResponse(description="refused: the message says why")


def _user(request: Request) -> User:
    return cast(User, request.user)


def _number(value: float | None) -> float | int | None:
    return tournament_labels.number(value)


# --- serializers --------------------------------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer):
    director = serializers.CharField(source="director.username")
    rating_pool = PoolRefSerializer(allow_null=True)
    entrants = serializers.IntegerField(source="entrant_count", read_only=True)
    rules = serializers.JSONField()
    place_points = serializers.JSONField()
    tiebreaks = serializers.JSONField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "description", "director", "status", "paused", "format", "seating", "table_size",
                  "team_size", "rules", "rating_pool", "rounds_planned", "current_round", "games_per_pairing",
                  "points_win", "points_draw", "place_points", "tiebreaks", "registration_opens",
                  "registration_closes", "starts_at", "started", "finished", "round_interval", "turn_seconds",
                  "clock_base", "clock_increment", "grace_seconds", "capacity", "bots_allowed", "no_show", "auto_advance", "entrants",
                  "duplicate", "duplicate_scoring"]


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, default="", allow_blank=True)
    starts_at = serializers.DateTimeField()
    rules = serializers.DictField(required=False, allow_null=True, default=None,
                                  help_text="the engine's rule options; left out with a rating pool")
    rating_pool = serializers.SlugField(required=False, allow_null=True, default=None, help_text="a pool's slug")
    format = serializers.ChoiceField(choices=Format.choices, default=Format.SWISS)
    rounds = serializers.IntegerField(min_value=1, max_value=50, default=5)
    seating = serializers.ChoiceField(choices=Seating.choices, default=Seating.HEADS_UP)
    table_size = serializers.IntegerField(min_value=3, max_value=6, default=4)
    team_size = serializers.IntegerField(min_value=2, max_value=3, default=2)
    games_per_pairing = serializers.IntegerField(min_value=1, max_value=20, default=1)
    points_win = serializers.FloatField(min_value=0, max_value=100, default=1.0)
    points_draw = serializers.FloatField(min_value=0, max_value=100, default=0.5)
    place_points = serializers.ListField(child=serializers.FloatField(min_value=0, max_value=100), default=list,
                                         max_length=6)
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=40), required=False, allow_null=True,
                                      default=None, max_length=10)
    registration_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True, default=None)
    round_interval = serializers.IntegerField(min_value=0, max_value=7 * 24 * 3600, default=60)
    turn_seconds = serializers.IntegerField(min_value=5, max_value=24 * 3600, default=30)
    clock_base = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="a clock per player: each one's base time in seconds (30 to 3600); null: the per-move timer",
    )  # fmt: skip
    clock_increment = serializers.IntegerField(default=0, help_text="seconds added to a clock after its move (0 to 60)")
    grace_seconds = serializers.IntegerField(min_value=0, max_value=7 * 24 * 3600, default=300)
    capacity = serializers.IntegerField(min_value=2, max_value=100_000, required=False, allow_null=True, default=None)
    bots_allowed = serializers.BooleanField(default=True)
    no_show = serializers.ChoiceField(choices=NoShow.choices, default=NoShow.FORFEIT)
    auto_advance = serializers.BooleanField(default=True)
    duplicate = serializers.BooleanField(default=False, help_text="every board of a round plays the same deals, seats rotated")
    duplicate_scoring = serializers.ChoiceField(choices=DuplicateScoring.choices, default=DuplicateScoring.TIEBREAK)


class EntrantSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="key", help_text="the entrant's id in the tournament: e<number>")
    name = serializers.SerializerMethodField()
    player = PlayerRefSerializer(source="user")

    class Meta:
        model = Entrant
        fields = ["id", "number", "name", "player", "team_name", "rating", "status", "left_after_round",
                  "first_round", "registered"]

    def get_name(self, entrant: Entrant) -> str:
        return tournament_labels.entrant_label(entrant)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = serializers.CharField(source="entrant.key")
    name = serializers.CharField()
    rating = serializers.FloatField(source="entrant.rating")
    status = serializers.CharField(source="entrant.status")
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField(allow_null=True))
    members = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_members(self, line: Any) -> list[str]:
        return [member.username for member in line.members]


class PairingSeatSerializer(serializers.Serializer):
    entrant = serializers.CharField(source="entrant.key")
    name = serializers.CharField()
    position = serializers.IntegerField()
    points = serializers.FloatField(allow_null=True)
    game_points = serializers.FloatField()
    forfeited = serializers.BooleanField()
    substituted = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class PairingSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pairing.pk")
    board = serializers.IntegerField(source="pairing.board")
    bye = serializers.BooleanField(source="pairing.bye")
    status = serializers.CharField(source="pairing.status")
    result_kind = serializers.CharField(source="pairing.result_kind")
    version = serializers.IntegerField(source="pairing.version",
                                       help_text="bumped by every change of the result; send it with a decision")
    seats = PairingSeatSerializer(many=True)
    games = serializers.SerializerMethodField(help_text="the ids of the pairing's games, in order")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_games(self, line: Any) -> list[int]:
        return [match_game.game_id for match_game in line.games]


class RoundSerializer(serializers.ModelSerializer):
    pairings = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "status", "starts_at", "paired_at", "seat_deadline", "closed_at", "pairings"]

    @extend_schema_field(PairingSerializer(many=True))
    def get_pairings(self, round_: Round) -> list[dict[str, Any]]:
        lines = tournament_selectors.round_pairings(tournament=round_.tournament, number=round_.number)
        return list(PairingSerializer(lines, many=True).data)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    details = serializers.JSONField()

    class Meta:
        model = AuditEntry
        fields = ["at", "actor", "action", "round_number", "subject", "reason", "details"]


class RegisterSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, allow_blank=True, default="",
                                     help_text="a director enters someone else (a bot too); left out: the caller")
    partners = serializers.ListField(child=serializers.CharField(), default=list, max_length=2,
                                     help_text="usernames of a team's other members")
    team_name = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class ResultSerializer(serializers.Serializer):
    points = serializers.ListField(child=serializers.FloatField(min_value=0, max_value=1000), min_length=1,
                                   max_length=6, help_text="match points per seat of the pairing, in seat order")
    reason = serializers.CharField(help_text="logged with the decision")
    version = serializers.IntegerField(
        min_value=0, required=False, allow_null=True, default=None,
        help_text="the pairing's version the decision was taken on: refused (400) if the pairing changed since",
    )


class ForfeitSerializer(serializers.Serializer):
    entrants = serializers.ListField(child=serializers.CharField(), min_length=1, max_length=6,
                                     help_text="ids (e<number>) of the entrants who forfeit")
    reason = serializers.CharField()
    version = serializers.IntegerField(
        min_value=0, required=False, allow_null=True, default=None,
        help_text="the pairing's version the decision was taken on: refused (400) if the pairing changed since",
    )


# --- views --------------------------------------------------------------------------------------


def _tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entrant_count=Count("entrants", filter=Q(entrants__status=EntrantStatus.ACTIVE))
    ).select_related("rating_pool", "director").order_by("-starts_at", "-pk")


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(_tournaments(), pk=pk)


def _directs(request: Request, tournament: Tournament) -> bool:
    return tournament_services.can_direct(user=_user(request), tournament=tournament)


NOT_DIRECTOR = {"detail": "only the tournament's director may do that"}


class TournamentList(generics.ListCreateAPIView):
    """Tournaments, latest start first (`?status=`); POST creates one (tournament directors only)."""

    serializer_class = TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        tournaments = _tournaments()
        wanted = self.request.query_params.get("status")
        if wanted in TournamentStatus.values:
            tournaments = tournaments.filter(status=wanted)
        elif wanted:
            raise ValidationError({"status": f"one of {', '.join(TournamentStatus.values)}"})
        return tournaments

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=TournamentStatus.values)])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not tournament_services.can_create(user=_user(request)):
            return Response({"detail": "only a tournament director may create a tournament"},
                            status=status.HTTP_403_FORBIDDEN)
        given = TournamentCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        pool_slug = data.pop("rating_pool")
        pool = get_object_or_404(RatingPool, slug=pool_slug) if pool_slug else None
        tournament = tournament_services.tournament_create(director=_user(request), rating_pool=pool, **data)
        return Response(TournamentSerializer(_tournament(tournament.pk)).data, status=status.HTTP_201_CREATED)


class TournamentDetail(generics.RetrieveAPIView):
    serializer_class = TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        return _tournaments()


class TournamentEntrants(generics.ListAPIView):
    serializer_class = EntrantSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Entrant]:
        if getattr(self, "swagger_fake_view", False):
            return Entrant.objects.none()
        tournament = _tournament(self.kwargs["pk"])
        return Entrant.objects.filter(tournament=tournament).select_related("user__bot_account").order_by("number")


class TournamentRounds(APIView):
    """The rounds paired so far, each with its pairings: entrants in seat order, match points, game ids."""

    @extend_schema(responses={200: RoundSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        rounds = tournament_selectors.rounds(tournament=tournament)
        for round_ in rounds:
            round_.tournament = tournament
        return Response(RoundSerializer(rounds, many=True).data)


class TournamentStandings(APIView):
    """The standings with the tournament's tie-breaks, best first; `?format=csv` downloads them."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={(200, "application/json"): StandingSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request, pk: int, format: str | None = None) -> Response:
        tournament = _tournament(pk)
        if request.accepted_renderer.format == "csv":
            response = Response(tournament_selectors.standings_csv(tournament=tournament))
            response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
            return response
        lines = tournament_selectors.standings(tournament=tournament)
        data = StandingSerializer(lines, many=True).data
        for row in data:
            row["points"] = _number(row["points"])
            row["tiebreaks"] = {name: _number(value) for name, value in row["tiebreaks"].items()}
        response = Response(data)
        response["Content-Disposition"] = f'inline; filename="tournament-{tournament.pk}-standings.json"'
        return response


class TournamentExport(APIView):
    """The whole tournament as DESIGN.md's simulation output: entrants, every round's pairings with their
    points, the standings with every tie-break; anyone can check the pairings and recompute the standings."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        response = Response(tournament_selectors.tournament_export(tournament=tournament))
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
        return response


class TournamentAudit(generics.ListAPIView):
    """The tournament's public log: every act of its directors and its schedule, with the reason, newest first."""

    serializer_class = AuditEntrySerializer

    def get_queryset(self) -> QuerySet[AuditEntry]:
        if getattr(self, "swagger_fake_view", False):
            return AuditEntry.objects.none()
        tournament = _tournament(self.kwargs["pk"])
        return AuditEntry.objects.filter(tournament=tournament).select_related("actor").order_by("-at", "-pk")


class _Write(APIView):
    permission_classes = [permissions.IsAuthenticated]


class TournamentRegister(_Write):
    """Enter the caller (with partners: a team); a director enters anyone, bots too, and late entries."""

    @extend_schema(request=RegisterSerializer, responses={201: EntrantSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        given = RegisterSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        caller = _user(request)
        user = get_object_or_404(User, username=data["username"]) if data["username"] else caller
        if user.pk != caller.pk and not _directs(request, tournament):
            return Response(NOT_DIRECTOR, status=status.HTTP_403_FORBIDDEN)
        partners = [get_object_or_404(User, username=name) for name in data["partners"]]
        entrant = tournament_services.tournament_register(
            tournament=tournament, user=user, partners=partners, team_name=data["team_name"],
            by=caller if user.pk != caller.pk else None, reason=data["reason"],
        )  # fmt: skip
        return Response(EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)


class TeamAnswer(_Write):
    """A partner named by a team's captain accepts (the team is entered once every partner has) or declines
    (the team's entry is withdrawn) his place."""

    answer = "accept"

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        if self.answer == "accept":
            entrant = tournament_services.team_accept(tournament=tournament, user=_user(request))
            return Response({"detail": "accepted", "entrant": entrant.key, "status": entrant.status})
        tournament_services.team_decline(tournament=tournament, user=_user(request))
        return Response({"detail": "declined"})


class TournamentWithdraw(_Write):
    """The caller withdraws from the tournament (before the start his entry is removed)."""

    @extend_schema(request=WithdrawSerializer, responses={200: OpenApiTypes.OBJECT, 400: REFUSED, 404: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        given = WithdrawSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entrant = get_object_or_404(Entrant, tournament=tournament, user=request.user)
        tournament_services.entrant_withdraw(entrant=entrant, by=_user(request), reason=given.validated_data["reason"])
        return Response({"detail": "withdrawn"})


class TournamentStart(_Write):
    """Start now (the director), instead of at `starts_at`: round 1 is paired and seated."""

    @extend_schema(request=None, responses={200: TournamentSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        if not _directs(request, tournament):
            return Response(NOT_DIRECTOR, status=status.HTTP_403_FORBIDDEN)
        tournament_services.tournament_start(tournament=tournament, by=_user(request))
        return Response(TournamentSerializer(_tournament(pk)).data)


def _adjudicate(
    request: Request, pk: int, pairing_id: int, serializer: type[serializers.Serializer],
    act: Callable[[Pairing, dict[str, Any]], None],
) -> Response:
    """A director's decision on a pairing: the pairing (404), the director (403), the body checked by
    ``serializer`` (400), then ``act`` with the pairing and the checked body; the answer is the pairing as it
    now stands."""
    tournament = _tournament(pk)
    pairing = get_object_or_404(Pairing, pk=pairing_id, tournament=tournament)
    if not _directs(request, tournament):
        return Response(NOT_DIRECTOR, status=status.HTTP_403_FORBIDDEN)
    given = serializer(data=request.data)
    given.is_valid(raise_exception=True)
    act(pairing, given.validated_data)
    return Response(_pairing_answer(tournament, pairing))


class PairingResult(_Write):
    """Adjudicate: set a pairing's match points (the director, with a reason for the audit log)."""

    @extend_schema(request=ResultSerializer, responses={200: PairingSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        def set_result(pairing: Pairing, given: dict[str, Any]) -> None:
            tournament_services.pairing_set_result(
                pairing=pairing, points=given["points"], by=_user(request), reason=given["reason"],
                seen_version=given["version"],
            )

        return _adjudicate(request, pk, pairing_id, ResultSerializer, set_result)


class PairingForfeit(_Write):
    """Adjudicate: score a pairing as forfeited by some of its entrants (all of them: a double forfeit)."""

    @extend_schema(request=ForfeitSerializer, responses={200: PairingSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        def forfeit(pairing: Pairing, given: dict[str, Any]) -> None:
            keys = set(given["entrants"])
            forfeiting = [seat.entrant for seat in pairing.seats.select_related("entrant") if seat.entrant.key in keys]
            if len(forfeiting) != len(keys):
                raise ValidationError({"entrants": "name entrants of this pairing"})
            tournament_services.pairing_forfeit(
                pairing=pairing, forfeiting=forfeiting, by=_user(request), reason=given["reason"],
                seen_version=given["version"],
            )

        return _adjudicate(request, pk, pairing_id, ForfeitSerializer, forfeit)


def _pairing_answer(tournament: Tournament, pairing: Pairing) -> dict[str, Any]:
    number = Round.objects.values_list("number", flat=True).get(pk=pairing.round_id)
    lines = tournament_selectors.round_pairings(tournament=tournament, number=number)
    line = next(line for line in lines if line.pairing.pk == pairing.pk)
    return dict(PairingSerializer(line).data)
