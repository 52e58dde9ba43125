"""What the API answers and accepts. Output serializers read model rows and selectors' values; input
serializers check shapes only: the services decide whether an action is allowed."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import BotLevel, User
from api import selectors
from games.bots.review import BUDGETS
from games.models import BotPace, Game, GameStatus, Result, Seat, Table
from ratings.models import PlayerRating, RatingChange, RatingPool


class PlayerRefSerializer(serializers.Serializer):
    """A player as other answers name him."""

    username = serializers.CharField()
    name = serializers.CharField(source="public_name")
    bot = serializers.SerializerMethodField()

    def get_bot(self, user: User) -> bool:
        return bool(user.is_bot or selectors.is_program_bot(user))


class PlayerSerializer(PlayerRefSerializer):
    country = serializers.CharField(source="country.code", allow_blank=True)
    bot_kind = serializers.SerializerMethodField(help_text="'engine' (the site's bots), 'program' (a bot account) or null")
    bot_level = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()

    @extend_schema_field(serializers.ChoiceField(choices=["engine", "program"], allow_null=True))
    def get_bot_kind(self, user: User) -> str | None:
        if user.is_bot:
            return "engine"
        return "program" if selectors.is_program_bot(user) else None


class PoolRefSerializer(serializers.ModelSerializer):
    name = serializers.CharField()

    class Meta:
        model = RatingPool
        fields = ["slug", "name"]


class PoolSerializer(serializers.ModelSerializer):
    name = serializers.CharField()
    players = serializers.IntegerField(source="player_count", read_only=True)
    games = serializers.IntegerField(source="game_count", read_only=True)
    rules = serializers.JSONField()

    class Meta:
        model = RatingPool
        fields = ["slug", "name", "name_en", "name_ru", "rules", "format", "min_players", "max_players", "active",
                  "humans_only", "players", "games"]


class RatingSerializer(serializers.ModelSerializer):
    pool = PoolRefSerializer()
    shown = serializers.CharField(help_text="rounded, with '?' while provisional")
    provisional = serializers.BooleanField()

    class Meta:
        model = PlayerRating
        fields = ["pool", "rating", "shown", "provisional", "games", "peak", "wins", "durak_finishes", "draws",
                  "last_played"]


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer(source="rating.user")
    rating = serializers.FloatField(source="rating.rating")
    shown = serializers.CharField(source="rating.shown")
    games = serializers.IntegerField(source="rating.games")
    wins = serializers.IntegerField(source="rating.wins")
    durak_finishes = serializers.IntegerField(source="rating.durak_finishes")
    last_played = serializers.DateTimeField(source="rating.last_played", allow_null=True)


class EpauletteCountSerializer(serializers.Serializer):
    rank = serializers.CharField()
    hung = serializers.IntegerField()
    received = serializers.IntegerField()


class PlayerDetailSerializer(PlayerSerializer):
    ratings = RatingSerializer(many=True)
    epaulettes = EpauletteCountSerializer(many=True)


class RatingHistorySerializer(serializers.ModelSerializer):
    pool = PoolRefSerializer(source="rated_game.pool")
    game = serializers.IntegerField(source="rated_game.game_id", allow_null=True)
    played_at = serializers.DateTimeField(source="rated_game.played_at")
    shown_before = serializers.IntegerField()
    shown_after = serializers.IntegerField()

    class Meta:
        model = RatingChange
        fields = ["pool", "game", "played_at", "seat", "before", "after", "delta", "shown_before", "shown_after",
                  "provisional"]


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    player = serializers.SerializerMethodField()
    bot_level = serializers.CharField(allow_blank=True, help_text="the level of the site's bot in this seat")

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_player(self, seat: Seat) -> dict[str, Any] | None:
        return PlayerRefSerializer(seat.user).data if seat.user is not None else None


class ResultSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["durak", "draw"])
    durak = serializers.IntegerField(allow_null=True)
    losing_team = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    out_order = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    epaulettes = serializers.JSONField(allow_null=True)
    chips = serializers.ListField(child=serializers.IntegerField())
    surrendered = serializers.IntegerField(allow_null=True)


class RatingChangeSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(source="user")

    class Meta:
        model = RatingChange
        fields = ["seat", "player", "before", "after", "delta", "shown_before", "shown_after", "provisional"]


class GameSerializer(serializers.ModelSerializer):
    """A game without its hidden parts: no hand, no stock order; the deck only once the game is over."""

    table = serializers.IntegerField(source="table_id")
    rated = serializers.BooleanField(source="table.rated")
    seats = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    rating_pool = serializers.SerializerMethodField()
    rules = serializers.JSONField()
    replay_url = serializers.SerializerMethodField(
        help_text="the replay page (every hand face up, move by move), once the game is over; null before"
    )

    class Meta:
        model = Game
        fields = ["id", "table", "status", "rules", "players", "stake", "rated", "seq", "started", "finished",
                  "commitment", "seats", "result", "rating_pool", "replay_url"]

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_replay_url(self, game: Game) -> str | None:
        if game.status != GameStatus.FINISHED:
            return None
        path = reverse("games:game-replay", args=[game.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict[str, Any]]:
        return list(SeatSerializer(selectors.game_players(game), many=True).data)

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, game: Game) -> dict[str, Any] | None:
        if game.status != GameStatus.FINISHED:
            return None
        try:
            result = game.result
        except Result.DoesNotExist:
            return None  # over, not yet finalised
        return dict(ResultSerializer(result.to_json()).data)

    @extend_schema_field(PoolRefSerializer(allow_null=True))
    def get_rating_pool(self, game: Game) -> dict[str, Any] | None:
        rated = selectors.rated_game_of(game)
        return dict(PoolRefSerializer(rated.pool).data) if rated is not None else None


class GameDetailSerializer(GameSerializer):
    deck = serializers.SerializerMethodField(help_text="the deck order, once the game is over")
    salt = serializers.SerializerMethodField(help_text="the commitment's salt, once the game is over")
    rating_changes = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "deck", "salt", "rating_changes"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_deck(self, game: Game) -> str | None:
        return game.revealed_deck or None if game.status == GameStatus.FINISHED else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_salt(self, game: Game) -> str | None:
        return game.salt if game.status == GameStatus.FINISHED and game.revealed_deck else None

    @extend_schema_field(RatingChangeSerializer(many=True))
    def get_rating_changes(self, game: Game) -> list[dict[str, Any]]:
        rated = selectors.rated_game_of(game)
        if rated is None:
            return []
        changes = rated.changes.select_related("user__bot_account").order_by("seat")
        return list(RatingChangeSerializer(changes, many=True).data)


class TableSerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()
    owner = serializers.CharField(source="owner.username")
    has_password = serializers.BooleanField()
    game = serializers.SerializerMethodField(help_text="the id of the table's game, once dealt")
    rules = serializers.JSONField()

    class Meta:
        model = Table
        fields = ["id", "name", "rules", "seat_count", "stake", "private", "has_password", "rated", "turn_seconds",
                  "bot_pace", "clock_base", "clock_increment", "status", "owner", "created", "seats", "game"]

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, table: Table) -> list[dict[str, Any]]:
        return list(SeatSerializer(table.seats.all(), many=True).data)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_game(self, table: Table) -> int | None:
        games = list(table.games.all())
        return max(games, key=lambda game: game.started).pk if games else None


class TableCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    rules = serializers.DictField(
        help_text='the engine\'s rule options (RULES.md), e.g. {"preset": "perevodnoy", "deck": 36}',
    )
    seats = serializers.IntegerField(min_value=2, max_value=8)
    stake = serializers.IntegerField(min_value=0, max_value=1_000_000, default=0)
    private = serializers.BooleanField(default=False)
    password = serializers.CharField(max_length=60, required=False, default="", allow_blank=True, write_only=True)
    rated = serializers.BooleanField(default=False)
    turn_seconds = serializers.IntegerField(min_value=5, max_value=24 * 60 * 60, default=30)
    bot_pace = serializers.ChoiceField(
        choices=BotPace.choices, default=BotPace.SECOND,
        help_text="how soon a bot answers: instant, second (about a second) or slow (2.5 to 4 s)",
    )  # fmt: skip
    clock_base = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="a clock per player: each one's base time in seconds (30 to 3600); null: the per-move timer",
    )  # fmt: skip
    clock_increment = serializers.IntegerField(default=0, help_text="seconds added to a clock after its move (0 to 60)")
    join = serializers.BooleanField(default=True, help_text="sit the creator down at once")


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=7, required=False, allow_null=True, default=None)
    password = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)


class BotSeatSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=BotLevel.choices)
    seat = serializers.IntegerField(min_value=0, max_value=7, required=False, allow_null=True, default=None)
    fill = serializers.BooleanField(default=False, help_text="fill every empty seat with this level")


class ActionSerializer(serializers.Serializer):
    action = serializers.DictField(help_text='the engine\'s action JSON without the seat, e.g. {"type": "take"}')
    seq = serializers.IntegerField(min_value=0, help_text="the version of the view the move answers")


class AnalysisRequestSerializer(serializers.Serializer):
    budget = serializers.ChoiceField(choices=sorted(BUDGETS), default="default", required=False)


class SurrenderSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)


class GameViewSerializer(serializers.Serializer):
    """The protocol's game.view message (docs/protocol.md)."""

    type = serializers.CharField()
    game = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    view = serializers.JSONField()
    players = serializers.JSONField()
    waiting = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.CharField(allow_null=True)
    commitment = serializers.CharField()
    log = serializers.JSONField()
    result = serializers.JSONField(allow_null=True)
    redeals = serializers.JSONField(help_text="the redeals asked so far: seat and suit")
    redeal_open = serializers.BooleanField(help_text="a redeal may still be asked (before the first move)")
    can_redeal = serializers.BooleanField(help_text="the caller's seat may ask for a redeal now")


class MyGameSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="pk")
    table = serializers.IntegerField(source="table_id")
    seat = serializers.IntegerField()
    seq = serializers.IntegerField()
    rules = serializers.JSONField()
    players = serializers.IntegerField()


class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=60)
    prefix = serializers.CharField(read_only=True, help_text="the key's first characters, to tell tokens apart")
    created = serializers.DateTimeField(read_only=True)
    last_used = serializers.DateTimeField(read_only=True, allow_null=True)


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(read_only=True, help_text="shown this once: the server keeps only its hash")


class AccountSerializer(PlayerSerializer):
    bot_account = serializers.SerializerMethodField()
    roles = serializers.SerializerMethodField()

    def get_bot_account(self, user: User) -> bool:
        return selectors.is_program_bot(user)

    def get_roles(self, user: User) -> list[str]:
        roles = ["player"] if not user.is_bot else []
        if user.has_perm("accounts.direct_tournaments"):
            roles.append("tournament_director")
        if user.is_superuser:
            roles.append("admin")
        return roles


class RecordAnalysisSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    index = serializers.IntegerField(allow_null=True, help_text="the first illegal action, if any")
    error = serializers.CharField(allow_null=True)
    finished = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)
    steps = serializers.JSONField(help_text="the state before the first action and after each legal one")
