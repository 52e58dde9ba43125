"""Live tables and their games: a table with seats, the game dealt at it, its action log and its result.

Rows only: every change goes through games.services. A game's state is never stored as such: `record`
holds the deal and the action log (DESIGN.md, "The game record") and the state is rebuilt by replaying
it (games.snapshots caches the result per game and version).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class GameStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class BotPace(models.TextChoices):
    """How soon a bot at the table answers (games.services.bot_countdown): at once, after about a second, or
    slowly, as a thinking person would."""

    INSTANT = "instant", _("Instant")
    SECOND = "second", _("About a second")
    SLOW = "slow", _("Slow (3 seconds or so)")


def table_title(*, name: str, pk: int | None) -> str:
    """A table's name as pages show it (`str(table)`): its own, else its number."""
    return name or f"Table {pk}"


class Table(models.Model):
    name = models.CharField(_("name"), max_length=60, blank=True)
    rules = models.JSONField(_("rules"))  # the engine's Rules.to_dict()
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    stake = models.PositiveIntegerField(_("stake"), default=0)
    private = models.BooleanField(_("private"), default=False)
    # Private tables are reached by a link that carries this token; the password is a second, optional lock.
    link_token = models.CharField(max_length=32, unique=True)
    password_hash = models.CharField(max_length=128, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    turn_seconds = models.PositiveIntegerField(_("seconds a turn"), default=30)
    bot_pace = models.CharField(_("bots' pace"), max_length=10, choices=BotPace.choices, default=BotPace.SECOND)
    # A clock per player (games.clocks): the base time each seat starts with and the increment a move adds.
    # None: the table plays the per-move timer of `turn_seconds` instead.
    clock_base = models.PositiveIntegerField(_("base time in seconds"), null=True, blank=True)
    clock_increment = models.PositiveIntegerField(_("increment in seconds"), default=0)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_tables")
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return table_title(name=self.name, pk=self.pk)

    @property
    def has_password(self) -> bool:
        return bool(self.password_hash)


class Seat(models.Model):
    """A place at a table: empty, a person (`user`), or a bot of a level (`bot_level`, played as `user`,
    the bot's account, so that chips and ratings treat bots and people alike)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    bot_level = models.CharField(max_length=10, blank=True)
    # Open WebSocket connections of the seated person (for "connected" in the players list).
    connections = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False) & Q(bot_level=""),
                name="games_seat_one_seat_a_person",
            ),
            models.CheckConstraint(condition=Q(bot_level="") | Q(user__isnull=False), name="games_seat_bot_has_account"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    rules = models.JSONField()
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.PLAYING)
    # The deal and every action so far, as a game record (DESIGN.md); replayed to get the state.
    record = models.JSONField()
    seq = models.PositiveIntegerField(default=0)  # the version: bumped by every applied action
    stake = models.PositiveIntegerField(default=0)
    seed = models.CharField(max_length=64)
    salt = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    revealed_deck = models.TextField(blank=True)  # the deck order, shown once the game is over
    # A duplicate round's board (tournaments.pairing.duplicate): the round's shuffle dealt with the hands
    # moved this many seats round (games.engine.deal.rotated_order), and, while `deck_held`, the deck and
    # the record wait after the game ends, since another board still plays the same cards (games_reveal).
    rotation = models.PositiveSmallIntegerField(default=0)
    deck_held = models.BooleanField(default=False)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)  # the current turn's timer
    # When the turn timer task that is on its way fires (None: none is). A move schedules no new timer
    # while one fires no later than its deadline: that one finds the game moved on and schedules the
    # timer of the version it finds (games.services), so a game has one timer task a turn time, not one
    # a move.
    timer_at = models.DateTimeField(null=True, blank=True)
    timeouts = models.JSONField(default=list)  # consecutive timeouts per seat
    autopilot = models.JSONField(default=list)  # per seat: played by the autopilot bot after 3 timeouts
    # The seat that gave up or whose clock fell, if one did: the record's last action is then his surrender.
    surrendered = models.PositiveSmallIntegerField(null=True, blank=True)
    # Deals voided by redeal_five_same_suit, oldest first: {"seat", "suit", "seed", "salt", "commitment"}
    # (games.services.game_redeal), kept so that their decks are revealed and checked once the game is over.
    # Each is a `redeal` action of the record, which holds the deals that replaced them in its `redeals`;
    # the record holds `seq` actions (a director's decision bumps `seq` once more, at the end).
    redeals = models.JSONField(default=list, blank=True)
    # Bumped by every change of the game's seats while it is played: once a game has started its seats hold
    # the same people and bots, and only their open sockets' count changes (games.services.seat_connected).
    # A process that read the seats at this version may use them again (games.selectors.game_seats).
    seats_version = models.PositiveIntegerField(default=0)
    # A clock game (games.clocks; empty `clock_ms`: the per-move timer): each seat's remaining time in ms as
    # it stood at `clock_since`, the seats whose clock has run since then, and the increment a move adds.
    # `deadline` is then the moment the first running clock falls.
    clock_ms = models.JSONField(default=list, blank=True)
    clock_running = models.JSONField(default=list, blank=True)
    clock_since = models.DateTimeField(null=True, blank=True)
    clock_increment_ms = models.PositiveIntegerField(default=0)
    flagged = models.PositiveSmallIntegerField(null=True, blank=True)  # the seat whose clock fell, if one did

    class Meta:
        ordering = ["-started"]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def has_clock(self) -> bool:
        return bool(self.clock_ms)


class ActionLog(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()  # the game's version this action answered (0 for the first)
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()  # the engine's action JSON, without the seat
    at = models.DateTimeField(auto_now_add=True)
    by_timer = models.BooleanField(default=False)
    by_autopilot = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="games_actionlog_one_action_a_version")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} seat {self.seat}: {self.action}"


class Result(models.Model):
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    outcome = models.CharField(max_length=10)  # durak or draw
    durak = models.PositiveSmallIntegerField(null=True, blank=True)
    losing_team = models.JSONField(null=True, blank=True)
    out_order = models.JSONField(default=list)
    places = models.JSONField(default=list)  # groups of seats, best first (engine places())
    epaulettes = models.JSONField(null=True, blank=True)
    chips = models.JSONField(default=list)  # net chips per seat
    surrendered = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Result of {self.game}"

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "durak": self.durak,
            "losing_team": self.losing_team,
            "out_order": self.out_order,
            "places": self.places,
            "epaulettes": self.epaulettes,
            "chips": self.chips,
            "surrendered": self.surrendered,
        }


# --- rematches (games.rematch) ---------------------------------------------------------------------


class RematchStatus(models.TextChoices):
    OPEN = "open", _("Offered")
    DECLINED = "declined", _("Declined")
    STARTED = "started", _("Started")


class Rematch(models.Model):
    """A finished game's offer of a rematch at the same table: who offered it, who accepted (bots at once),
    who declined, and the new game once everyone seated accepted. Changed only by games.rematch."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    offered_by = models.PositiveSmallIntegerField()  # a seat of the finished game
    accepted = models.JSONField(default=list)  # seats, the offerer's and the bots' among them
    declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=RematchStatus.choices, default=RematchStatus.OPEN)
    new_game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    changed = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Rematch of {self.game_id} ({self.status})"
