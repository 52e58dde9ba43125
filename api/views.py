"""The REST API's endpoints (/api/v1/): thin, every change goes through a service, the same ones the pages
and the game socket call, with the same checks.

Nothing here answers a running game's record, stock or hands: a game's record is served only once the
game is over (games.selectors.game_record_json refuses otherwise), and a running game is seen through the
protocol's views, which give a seat its own hand and nobody anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from api import records, selectors, serializers, services
from api.filters import GameFilter, PlayerFilter, TableFilter
from api.models import ApiToken
from api.renderers import CSVRenderer
from games import selectors as game_selectors
from games import services as game_services
from games.bots.review import BUDGETS
from games.engine import EngineError, Rules
from games.models import Game, Seat, Table
from ratings import selectors as rating_selectors
from ratings.models import RatingChange, RatingPool
from review import selectors as review_selectors
from review import services as review_services

REFUSED = OpenApiResponse(description="refused: the message says why")  # its body: api.schema.ERROR_SCHEMA


def _user(request: Request) -> User:
    return cast(User, request.user)


def _language(request: Request) -> str:
    wanted = request.query_params.get("lang", "")
    return wanted if wanted in dict(settings.LANGUAGES) else game_selectors.user_language(_user(request))


# --- tables -------------------------------------------------------------------------------------


def _with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    seats = Seat.objects.select_related("user__bot_account").order_by("number")
    return tables.select_related("owner").prefetch_related(Prefetch("seats", queryset=seats), "games")


def _tables(user: Any) -> QuerySet[Table]:
    return _with_seats(selectors.visible_tables(user)).order_by("-created", "-pk")


def _table_for(request: Request, table_id: int, link_token: str = "") -> Table:
    """A table the caller may see; a private one also through its link token."""
    table = _tables(request.user).filter(pk=table_id).first()
    if table is None and link_token:
        table = Table.objects.filter(pk=table_id, link_token=link_token).first()
    if table is None:
        raise Http404
    return table


def _table_answer(table: Table, code: int = status.HTTP_200_OK) -> Response:
    """The table as it is after the caller's change (he could reach it, so he may see it)."""
    fresh = _with_seats(Table.objects.filter(pk=table.pk)).get()
    return Response(serializers.TableSerializer(fresh).data, status=code)


class TableList(generics.ListCreateAPIView):
    """Tables the caller may see (public ones, and his own private ones), newest first; POST opens one."""

    serializer_class = serializers.TableSerializer
    filterset_class = TableFilter

    def get_queryset(self) -> QuerySet[Table]:
        return _tables(self.request.user)

    @extend_schema(request=serializers.TableCreateSerializer, responses={201: serializers.TableSerializer, 400: REFUSED})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = serializers.TableCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        try:
            rules = Rules.from_dict(data["rules"])
        except (EngineError, TypeError, ValueError) as error:
            raise ValidationError({"rules": str(error)}) from None
        # One transaction: a creator who cannot sit down (too few chips for the stake) leaves no table behind.
        with transaction.atomic():
            table = game_services.table_create(
                owner=_user(request), rules=rules, seats=data["seats"], stake=data["stake"],
                private=data["private"], password=data["password"], rated=data["rated"],
                turn_seconds=data["turn_seconds"], name=data["name"], bot_pace=data["bot_pace"],
                clock_base=data["clock_base"], clock_increment=data["clock_increment"],
            )  # fmt: skip
            if data["join"]:
                game_services.table_join(table=table, user=_user(request))
        return _table_answer(table, status.HTTP_201_CREATED)


class TableDetail(generics.RetrieveAPIView):
    serializer_class = serializers.TableSerializer

    def get_queryset(self) -> QuerySet[Table]:
        return _tables(self.request.user)


class _TableWrite(APIView):
    permission_classes = [permissions.IsAuthenticated]


class TableJoin(_TableWrite):
    @extend_schema(request=serializers.JoinSerializer, responses={200: serializers.TableSerializer, 400: REFUSED},
                   parameters=[OpenApiParameter("link_token", str, description="a private table's link token")])
    def post(self, request: Request, pk: int) -> Response:
        given = serializers.JoinSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        table = _table_for(request, pk, request.query_params.get("link_token", ""))
        game_services.table_join(
            table=table, user=_user(request), seat=given.validated_data["seat"], password=given.validated_data["password"]
        )
        return _table_answer(table)


class TableLeave(_TableWrite):
    @extend_schema(request=None, responses={200: serializers.TableSerializer, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        table = _table_for(request, pk)
        game_services.table_leave(table=table, user=_user(request))
        return _table_answer(table)


class TableBots(_TableWrite):
    @extend_schema(request=serializers.BotSeatSerializer,
                   responses={200: serializers.TableSerializer, 400: REFUSED, 403: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        """Seat the site's bots (the table's owner only); the game starts when every seat is taken."""
        given = serializers.BotSeatSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        table = _table_for(request, pk)
        if table.owner_id != request.user.pk:
            return Response({"detail": "only the table's owner seats bots"}, status=status.HTTP_403_FORBIDDEN)
        data = given.validated_data
        if data["fill"]:
            game_services.table_fill_bots(table=table, level=data["level"])
        else:
            game_services.table_add_bot(table=table, level=data["level"], seat=data["seat"])
        return _table_answer(table)


class TableStart(_TableWrite):
    @extend_schema(request=None, responses={200: serializers.TableSerializer, 400: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        table = _table_for(request, pk)
        game_services.game_start(table=table, by=_user(request))
        return _table_answer(table)


# --- games --------------------------------------------------------------------------------------


class GameList(generics.ListAPIView):
    """Games the caller may see, newest first: summaries without any hidden card."""

    serializer_class = serializers.GameSerializer
    filterset_class = GameFilter

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.visible_games(self.request.user).order_by("-started", "-pk")


class GameDetail(generics.RetrieveAPIView):
    """A game; once it is over, also its revealed deck and salt (check the commitment) and rating changes."""

    serializer_class = serializers.GameDetailSerializer

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.visible_games(self.request.user)


def _visible_game(request: Request, game_id: int) -> Game:
    return get_object_or_404(selectors.visible_games(request.user).defer(None), pk=game_id)


class GameRecord(APIView):
    """A finished game's record (DESIGN.md, "The game record") with its commitment, salt and revealed deck;
    `?format=csv` gives its moves as rows. Refused (409) while the game is played."""

    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="csv: the moves as rows")],
                   responses={
        (200, "application/json"): OpenApiTypes.OBJECT,
        (200, "text/csv"): OpenApiTypes.STR,
        409: REFUSED,
    })  # fmt: skip
    def get(self, request: Request, pk: int, format: str | None = None) -> Response:
        game = _visible_game(request, pk)
        try:
            record = game_selectors.game_record_json(game=game)
        except ValidationError:
            if game.deck_held:
                return Response({"detail": game_selectors.deck_held_text()}, status=status.HTTP_409_CONFLICT)
            return Response({"detail": "the record of a game is available once the game is over"},
                            status=status.HTTP_409_CONFLICT)
        response = Response(record)
        if request.accepted_renderer.format == "csv":
            names = [game_selectors.seat_name(seat) for seat in selectors.game_players(game)]
            response = Response(records.csv_text(records.record_rows(record, names), records.RECORD_CSV_FIELDS))
            response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.csv"'
        else:
            response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.json"'
        return response


class GameView(APIView):
    """The protocol's game.view for the caller: his seat's view if he plays in the game, else the public one."""

    @extend_schema(responses={200: serializers.GameViewSerializer},
                   parameters=[OpenApiParameter("lang", str, enum=["en", "ru"], description="language of the log")])
    def get(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        user = _user(request) if request.user.is_authenticated else None
        return Response(game_selectors.game_view_for(game=game, user=user, language=_language(request)))


class GameAction(APIView):
    """Make a move in a game the caller plays in: the same service and checks as the game socket."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=serializers.ActionSerializer,
                   responses={200: serializers.GameViewSerializer, 400: REFUSED, 403: REFUSED, 409: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        given = serializers.ActionSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        game = _visible_game(request, pk)
        game_services.game_submit_action(
            game_id=game.pk, user=_user(request), action=given.validated_data["action"], seq=given.validated_data["seq"]
        )
        return _view_after(request, game)


def _view_after(request: Request, game: Game) -> Response:
    """The caller's game.view once his request is applied."""
    fresh = Game.objects.select_related("table").get(pk=game.pk)
    return Response(game_selectors.game_view_for(game=fresh, user=_user(request), language=_language(request)))


def _seat_request(request: Request, pk: int, service: Callable[..., object]) -> Response:
    """A request of the seat's own that carries only the version (`seq`, optional): surrender, redeal."""
    given = serializers.SurrenderSerializer(data=request.data)
    given.is_valid(raise_exception=True)
    game = _visible_game(request, pk)
    service(game_id=game.pk, user=_user(request), seq=given.validated_data["seq"])
    return _view_after(request, game)


class GameSurrender(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=serializers.SurrenderSerializer,
                   responses={200: serializers.GameViewSerializer, 403: REFUSED, 409: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        return _seat_request(request, pk, game_services.game_surrender)


class GameRedeal(APIView):
    """Ask for a redeal before the first move (tables with redeal_five_same_suit; the view's can_redeal)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=serializers.SurrenderSerializer,
                   responses={200: serializers.GameViewSerializer, 400: REFUSED, 403: REFUSED, 409: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        return _seat_request(request, pk, game_services.game_redeal)


class GameAnalysis(APIView):
    """A finished game's analysis (review/): GET the stored one (`?budget=`, "default" or "deep"), POST to ask
    for it (queued once per game and budget; a new one counts against the caller's daily allowance). Only the
    game's players, its tournament's directors and staff; never a running game (409)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("budget", str, enum=sorted(BUDGETS), description="the analysis's depth")],
                   responses={200: OpenApiTypes.OBJECT, 403: REFUSED, 404: REFUSED, 409: REFUSED})
    def get(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        if not review_selectors.can_review(user=_user(request), game=game):
            return Response({"detail": _("Only the game's players, its tournament's directors and staff may read its analysis.")},
                            status=status.HTTP_403_FORBIDDEN)
        if not review_selectors.is_reviewable_game(game):
            return Response({"detail": _("A game is analysed once it is over: this one is still being played.")},
                            status=status.HTTP_409_CONFLICT)
        budget = request.query_params.get("budget") or "default"
        analysis = review_selectors.analysis_of(game=game, budget=budget) if budget in BUDGETS else None
        if analysis is None:
            return Response({"detail": _("This game has not been analysed.")}, status=status.HTTP_404_NOT_FOUND)
        return Response(review_selectors.analysis_json(analysis))

    @extend_schema(request=serializers.AnalysisRequestSerializer,
                   responses={200: OpenApiTypes.OBJECT, 400: REFUSED, 403: REFUSED, 409: REFUSED, 429: REFUSED})
    def post(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        body = serializers.AnalysisRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            analysis = review_services.analysis_request(user=_user(request), game=game, budget=body.validated_data["budget"])
        except review_services.AnalysisRefused as refused:
            return Response({"detail": " ".join(refused.messages)}, status=refused.status)
        return Response(review_selectors.analysis_json(analysis))


# --- players and ratings ------------------------------------------------------------------------


class PlayerList(generics.ListAPIView):
    serializer_class = serializers.PlayerSerializer
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[User]:
        return selectors.players()


class PlayerDetail(APIView):
    """A player with his rating in every pool he played and his epaulettes by rank."""

    @extend_schema(responses={200: serializers.PlayerDetailSerializer})
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(selectors.players(), username=username)
        record = rating_selectors.player_record(user=player)
        data = dict(serializers.PlayerSerializer(player).data)
        data["ratings"] = serializers.RatingSerializer(record.pools, many=True).data
        data["epaulettes"] = [
            {"rank": rank, "hung": hung, "received": received} for rank, hung, received in record.epaulettes
        ]
        return Response(data)


class PlayerHistory(generics.ListAPIView):
    """A player's rating after each of his rated games, newest first; `?pool=<slug>` for one pool."""

    serializer_class = serializers.RatingHistorySerializer

    @extend_schema(parameters=[OpenApiParameter("pool", str, description="a rating pool's slug")])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return RatingChange.objects.none()
        player = get_object_or_404(selectors.players(), username=self.kwargs["username"])
        history = selectors.rating_history(user=player)
        pool = self.request.query_params.get("pool")
        if pool:
            history = history.filter(rated_game__pool__slug=pool)
        return history


class PoolList(generics.ListAPIView):
    serializer_class = serializers.PoolSerializer
    pagination_class = None

    queryset = RatingPool.objects.none()  # for the schema; the list is the selector's

    def get_queryset(self) -> Any:
        return rating_selectors.pool_list()


class PoolDetail(APIView):
    @extend_schema(responses={200: serializers.PoolSerializer})
    def get(self, request: Request, slug: str) -> Response:
        pool = next((pool for pool in rating_selectors.pool_list(include_inactive=True) if pool.slug == slug), None)
        if pool is None:
            raise Http404
        return Response(serializers.PoolSerializer(pool).data)


class PoolLeaderboard(APIView):
    """The pool's best ratings: players with `min_games` games or more who played within `days` days."""

    @extend_schema(
        parameters=[
            OpenApiParameter("min_games", int, description="fewest games (default 5)"),
            OpenApiParameter("days", int, description="played within this many days (default 90; 0: ever)"),
        ],
        responses={200: serializers.LeaderboardRowSerializer(many=True)},
    )
    def get(self, request: Request, slug: str) -> Response:
        pool = get_object_or_404(RatingPool, slug=slug)
        min_games = _bounded(request.query_params.get("min_games"), rating_selectors.LEADERBOARD_MIN_GAMES, 1, 10_000)
        days = _bounded(request.query_params.get("days"), rating_selectors.LEADERBOARD_ACTIVE_DAYS or 0, 0, 3650)
        rows = rating_selectors.leaderboard(pool=pool, min_games=min_games, active_days=days or None)
        return Response(serializers.LeaderboardRowSerializer(rows, many=True).data)


def _bounded(raw: str | None, default: int, low: int, high: int) -> int:
    if raw is None or raw.strip() == "":
        return default
    try:
        return min(max(int(raw), low), high)
    except ValueError:
        raise ValidationError({"detail": f"{raw!r} is not a whole number"}) from None


# --- the caller's account, tokens and bot account -----------------------------------------------


class Account(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: serializers.AccountSerializer})
    def get(self, request: Request) -> Response:
        user = User.objects.select_related("bot_account").get(pk=request.user.pk)
        return Response(serializers.AccountSerializer(user).data)


class AccountBot(APIView):
    """Mark the caller's account as a bot account, for good: a program plays it through the bot API, and its
    games are never rated in pools for people only. Refused for accounts with a role and while seated."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: serializers.AccountSerializer, 400: REFUSED})
    def post(self, request: Request) -> Response:
        services.bot_account_enable(user=_user(request))
        user = User.objects.select_related("bot_account").get(pk=request.user.pk)
        return Response(serializers.AccountSerializer(user).data)


class AccountGames(generics.ListAPIView):
    """The running games in which the caller holds a seat: where a bot connects to play."""

    serializer_class = serializers.MyGameSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):
            return Game.objects.none()
        return selectors.playing_games_of(_user(self.request))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        games = page if page is not None else list(self.get_queryset())
        for game in games:
            game.seat = next(
                seat.number for seat in game.table.seats.all() if seat.user_id == request.user.pk and not seat.bot_level
            )
        data = serializers.MyGameSerializer(games, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)


class TokenList(generics.ListCreateAPIView):
    """The caller's API tokens (names and first characters only); POST makes one and shows its key once."""

    serializer_class = serializers.TokenSerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def get_queryset(self) -> QuerySet[ApiToken]:
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user)

    @extend_schema(request=serializers.TokenSerializer, responses={201: serializers.NewTokenSerializer, 400: REFUSED})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = serializers.TokenSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        made = services.token_create(user=_user(request), name=given.validated_data["name"])
        answer = dict(serializers.TokenSerializer(made.token).data)
        answer["key"] = made.key
        response = Response(answer, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class TokenDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None, 404: REFUSED})
    def delete(self, request: Request, pk: int) -> Response:
        if not ApiToken.objects.filter(user=request.user, pk=pk).exists():
            raise Http404
        services.token_revoke(user=_user(request), token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- records ------------------------------------------------------------------------------------


class RecordAnalysis(APIView):
    """Replay a game record (DESIGN.md, "The game record") for analysis: the engine validates it, and the
    answer holds the state before the first action and after each one, up to the first illegal action."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: serializers.RecordAnalysisSerializer})
    def post(self, request: Request) -> Response:
        analysis = records.analyse(request.data)
        analysis.pop("exit_status")
        return Response(analysis)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE"])
@permission_classes([permissions.AllowAny])
def not_found(request: Request) -> Response:
    return Response({"detail": "no such API address"}, status=status.HTTP_404_NOT_FOUND)
