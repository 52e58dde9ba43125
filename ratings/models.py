"""Rating pools, each player's rating per pool, and per rated game every player's rating before and after.

Rows only: every change goes through ratings.services; the maths is the pure ratings/elo.py. Ratings are
unrounded floats (see the rounding policy in ratings/elo.py): rounded only when shown.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.engine import EngineError, Rules
from ratings import elo


class PoolFormat(models.TextChoices):
    HEADS_UP = "heads_up", _("Heads-up")
    MULTI = "multi", _("Multi-player (3-6)")
    TEAMS_2V2 = "teams_2v2", _("Teams 2v2")


# The number of players each format allows: (fewest, most).
FORMAT_PLAYERS: dict[str, tuple[int, int]] = {
    PoolFormat.HEADS_UP: (2, 2),
    PoolFormat.MULTI: (3, 6),
    PoolFormat.TEAMS_2V2: (4, 4),
}


def pool_rules_problems(rules: Any, game_format: str, min_players: int, max_players: int) -> list[str]:
    """Why a pool with these settings is not a valid pool (empty when it is): the rule set must build,
    cheating is never on in rated games (RULES.md, "Rated games"), and the format fits the rules."""
    try:
        built = Rules.from_dict(rules)
    except (EngineError, TypeError, ValueError) as error:
        return [str(_("The rule set is not valid: %(error)s") % {"error": error})]
    problems = []
    if built.cheating:
        problems.append(str(_("Cheating is never on in rated games.")))
    fewest, most = FORMAT_PLAYERS.get(game_format, (2, 6))
    if not fewest <= min_players <= max_players <= most:
        problems.append(
            str(_("This format takes %(fewest)s to %(most)s players.") % {"fewest": fewest, "most": most})
        )
    if max_players > built.max_players:
        problems.append(
            str(_("A %(deck)s-card game takes at most %(most)s players.") % {"deck": built.deck, "most": built.max_players})
        )
    if game_format == PoolFormat.TEAMS_2V2 and built.teams != "2v2":
        problems.append(str(_("A 2v2 pool needs the rule teams set to 2v2.")))
    if game_format != PoolFormat.TEAMS_2V2 and built.teams is not None:
        problems.append(str(_("Only a 2v2 pool plays in teams.")))
    return problems


class RatingPool(models.Model):
    """One rule set and format with its own ratings, like lichess's ratings per variant."""

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name_en = models.CharField(_("name in English"), max_length=80)
    name_ru = models.CharField(_("name in Russian"), max_length=80)
    # The engine's Rules.to_dict(); normalised by clean(), so {"preset": "perevodnoy"} may be typed in.
    rules = models.JSONField(_("rules"))
    format = models.CharField(_("format"), max_length=12, choices=PoolFormat.choices)
    min_players = models.PositiveSmallIntegerField(_("fewest players"))
    max_players = models.PositiveSmallIntegerField(_("most players"))
    active = models.BooleanField(_("active"), default=True, help_text=_("Only active pools rate new games."))
    humans_only = models.BooleanField(
        _("humans only"), default=False, help_text=_("Games with a bot account at the table are not rated here.")
    )
    position = models.PositiveSmallIntegerField(_("position in lists"), default=0)
    # The sequence number of the pool's latest rated game: the pool's row is locked while a game is rated.
    last_sequence = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")
        constraints = [
            models.CheckConstraint(
                condition=Q(min_players__gte=2) & Q(min_players__lte=models.F("max_players")),
                name="ratings_pool_players_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.name_ru if (get_language() or "").startswith("ru") and self.name_ru else self.name_en

    def clean(self) -> None:
        problems = pool_rules_problems(self.rules, self.format, self.min_players or 0, self.max_players or 0)
        if problems:
            raise ValidationError(problems)
        self.rules = Rules.from_dict(self.rules).to_dict()


class PlayerRating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="player_ratings")
    rating = models.FloatField(_("rating"), default=elo.INITIAL_RATING)
    games = models.PositiveIntegerField(_("games"), default=0)
    peak = models.FloatField(_("peak"), default=elo.INITIAL_RATING)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    durak_finishes = models.PositiveIntegerField(_("durak finishes"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    last_played = models.DateTimeField(_("last played"), null=True, blank=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="ratings_player_one_rating_a_pool")]
        indexes = [models.Index(fields=["pool", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool_id}: {self.rating:.1f}"

    def as_elo(self) -> elo.EloRating:
        return elo.EloRating(self.rating, self.games, self.peak)

    @property
    def shown(self) -> str:
        """The rating as shown: rounded, with "?" while provisional."""
        return elo.format_rating(self.as_elo())

    @property
    def provisional(self) -> bool:
        return elo.is_provisional(self.as_elo())


class RatedGame(models.Model):
    """A game that counted for a pool's ratings; `sequence` is the order the pool's games were rated in."""

    pool = models.ForeignKey(RatingPool, on_delete=models.PROTECT, related_name="rated_games")
    # "game:<id>" for a live game; anything unique for imported or synthetic games. Unique: rated once.
    game_key = models.CharField(max_length=100, unique=True)
    game = models.OneToOneField(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="rated_game"
    )
    played_at = models.DateTimeField(_("played"))
    sequence = models.PositiveBigIntegerField()
    # ratings.elo.Outcome as JSON: {"places": [[seat, ...], ...], "teams": [[seat, ...], ...]}.
    outcome = models.JSONField()
    epaulettes = models.JSONField(null=True, blank=True)  # the result's epaulettes, if any
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pool", "sequence"]
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        constraints = [
            models.UniqueConstraint(fields=["pool", "sequence"], name="ratings_game_one_sequence_a_pool"),
        ]
        indexes = [models.Index(fields=["pool", "-played_at"])]

    def __str__(self) -> str:
        return f"{self.game_key} ({self.pool_id} #{self.sequence})"

    def elo_outcome(self) -> elo.Outcome:
        return elo.Outcome(
            places=tuple(tuple(group) for group in self.outcome["places"]),
            teams=tuple(tuple(team) for team in self.outcome.get("teams") or ()),
        )


class RatingChange(models.Model):
    """One player's rating before and after one rated game."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    k = models.FloatField()
    # The rating after the game is still provisional (fewer than 30 rated games in the pool).
    provisional = models.BooleanField(default=False)

    class Meta:
        ordering = ["rated_game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["rated_game", "seat"], name="ratings_change_one_a_seat"),
            models.UniqueConstraint(fields=["rated_game", "user"], name="ratings_change_one_a_player"),
        ]
        indexes = [models.Index(fields=["user", "rated_game"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.before:.1f} -> {self.after:.1f}"

    @property
    def shown_before(self) -> int:
        return elo.display_rating(self.before)

    @property
    def shown_after(self) -> int:
        return elo.display_rating(self.after)

    @property
    def shown_delta(self) -> int:
        """The difference of the shown ratings, so that the numbers a player sees add up (ratings/elo.py)."""
        return self.shown_after - self.shown_before


class EpauletteRole(models.TextChoices):
    HUNG = "hung", _("Hung")
    RECEIVED = "received", _("Received")


class EpauletteRecord(models.Model):
    """Epaulettes of a rated game, one row a player: the winner hung them, the durak (or each player of
    the losing team) received them; counted by rank in the players' records."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="epaulette_records")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="epaulette_records")
    role = models.CharField(max_length=10, choices=EpauletteRole.choices)
    rank = models.CharField(max_length=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rated_game", "user", "role"], name="ratings_epaulette_once"),
        ]
        indexes = [models.Index(fields=["user", "role"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} {self.rank}"
