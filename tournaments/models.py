"""Championships: a tournament, its entrants, rounds, pairings with their games, standings and audit log.

Rows only: every change goes through tournaments.services; pairing and tie-breaks are the pure
tournaments/pairing package. A pairing (a board of a round) seats two entrants heads-up (a player or a
team each) or three to six at a table; it plays ``games_per_pairing`` games (MatchGame, each a
games.Game once dealt) and its match result is stored per entrant (PairingEntrant.points).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.clocks import clock_text
from ratings.elo import INITIAL_RATING


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round-robin", _("Round robin")
    DOUBLE_ROUND_ROBIN = "double-round-robin", _("Double round robin")


class Seating(models.TextChoices):
    HEADS_UP = "heads-up", _("Heads-up")
    TABLES = "tables", _("Tables of 3 to 6")
    TEAMS = "teams", _("Teams")


class NoShow(models.TextChoices):
    FORFEIT = "forfeit", _("He forfeits")
    BOT = "bot", _("A bot plays for him")


class DuplicateScoring(models.TextChoices):
    """How a duplicate tournament (issue 37) ranks: by points with the duplicate total as the first
    tie-break, or by the duplicate total itself."""

    TIEBREAK = "tiebreak", _("Points, the duplicate total breaking ties")
    TOTAL = "total", _("The duplicate total")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="directed_tournaments",
        verbose_name=_("director"),
    )  # fmt: skip
    # The engine's Rules.to_dict(); a rated tournament plays its pool's rule set.
    rules = models.JSONField(_("rules"))
    rating_pool = models.ForeignKey(
        "ratings.RatingPool", on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments",
        verbose_name=_("rating pool"),
    )  # fmt: skip
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    # Swiss: the rounds the director planned; round robin: set from the Berger table at the start.
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=5)
    seating = models.CharField(_("seating"), max_length=10, choices=Seating.choices, default=Seating.HEADS_UP)
    table_size = models.PositiveSmallIntegerField(_("players at a table"), default=2)
    team_size = models.PositiveSmallIntegerField(_("players in a team"), default=1)
    games_per_pairing = models.PositiveSmallIntegerField(_("games per pairing"), default=1)
    points_win = models.FloatField(_("points for a win"), default=1.0)
    points_draw = models.FloatField(_("points for a draw"), default=0.5)
    # Tables: points by place, first place first; the durak always scores 0. Empty: k-1, k-2, ..., 1.
    place_points = models.JSONField(_("points by place"), default=list, blank=True)
    tiebreaks = models.JSONField(_("tie-break order"), default=list)  # TieBreak values, most significant first
    registration_opens = models.DateTimeField(_("registration opens"))
    registration_closes = models.DateTimeField(_("registration closes"))
    starts_at = models.DateTimeField(_("starts at"))
    round_interval = models.PositiveIntegerField(_("seconds between rounds"), default=60)
    turn_seconds = models.PositiveIntegerField(_("seconds a turn"), default=30)
    # A clock per player for every game of the tournament (games.clocks); None: the per-move timer.
    clock_base = models.PositiveIntegerField(_("base time in seconds"), null=True, blank=True)
    clock_increment = models.PositiveIntegerField(_("increment in seconds"), default=0)
    grace_seconds = models.PositiveIntegerField(_("seconds to take one's seat"), default=300)
    capacity = models.PositiveIntegerField(_("most entrants"), null=True, blank=True)
    bots_allowed = models.BooleanField(_("bots may enter"), default=True)
    no_show = models.CharField(_("a player who does not come"), max_length=10, choices=NoShow.choices,
                               default=NoShow.FORFEIT)
    # False: the director confirms each next round.
    auto_advance = models.BooleanField(_("next round starts by itself"), default=True)
    # Duplicate rounds (tournaments.pairing.duplicate): every board of a round plays the same deals, seats
    # rotated, and each game is also scored against the other holders of the same hand.
    duplicate = models.BooleanField(_("duplicate deals"), default=False)
    duplicate_scoring = models.CharField(
        _("duplicate scoring"), max_length=10, choices=DuplicateScoring.choices, default=DuplicateScoring.TIEBREAK
    )
    # Every finished game is analysed (review.services.analysis_request_automatic), counted against nobody.
    analyse_games = models.BooleanField(_("analyse every game automatically"), default=False)
    # Stages: this tournament is the final of ``qualifier``; its best ``qualify_count`` go through.
    qualifier = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="finals", verbose_name=_("qualifier")
    )
    qualify_count = models.PositiveSmallIntegerField(_("entrants who qualify"), default=0)
    status = models.CharField(max_length=15, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION)
    paused = models.BooleanField(_("paused"), default=False)
    current_round = models.PositiveSmallIntegerField(default=0)  # the latest round paired (0: none yet)
    # A result is waiting for the standings to be recomputed (large tournaments: services.standings._standings_changed).
    standings_pending = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Entrants (tournaments.services.entrants): people register only with this code (a private event's
    # link) when it is set; players confirm their presence this many minutes before each round (0: off).
    registration_code = models.CharField(_("registration code"), max_length=32, blank=True)
    presence_minutes = models.PositiveSmallIntegerField(_("check-in minutes before each round"), default=0)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def clock_setting(self) -> str | None:
        """The clock its games are played with, as players write it ("3+2"); None: the per-move timer."""
        return clock_text(self.clock_base, self.clock_increment) if self.clock_base is not None else None

    @property
    def rated(self) -> bool:
        return self.rating_pool_id is not None

    @property
    def is_round_robin(self) -> bool:
        return self.format != Format.SWISS

    @property
    def players_per_game(self) -> int:
        if self.seating == Seating.TABLES:
            return self.table_size
        return 2 * self.team_size


class EntrantStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    # A team a player entered with partners who have not all accepted yet: not paired, not counted.
    PENDING = "pending", _("Waiting for the partners to accept")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    DISQUALIFIED = "disqualified", _("Disqualified")


class Entrant(models.Model):
    """A player, or a team whose captain is ``user``; ``number`` is the entrant's id in the tournament
    (``e<number>`` in exports and for the pairing package)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    number = models.PositiveIntegerField()
    team_name = models.CharField(_("team name"), max_length=60, blank=True)
    rating = models.FloatField(default=INITIAL_RATING)  # the seeding rating, taken at registration and start
    status = models.CharField(max_length=15, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE)
    # The last round he was paired in before he withdrew or was disqualified.
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    first_round = models.PositiveSmallIntegerField(default=1)  # a late entry is paired from this round on
    registered = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_entrant_unique_number"),
            models.UniqueConstraint(fields=["tournament", "user"], name="tournaments_entrant_one_entry"),
        ]

    def __str__(self) -> str:
        return self.team_name or f"e{self.number}"

    @property
    def key(self) -> str:
        """The entrant's id for the pairing package and the exports."""
        return f"e{self.number}"

    @property
    def active(self) -> bool:
        return self.status == EntrantStatus.ACTIVE


class TeamMember(models.Model):
    """A member of a team entrant, in seat order (the captain first); one team a player per tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_members")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_teams")
    position = models.PositiveSmallIntegerField()
    # A partner named by the player who entered the team is in it once he accepts (the captain, and
    # whoever a director enters, from the start).
    accepted = models.BooleanField(default=True)

    class Meta:
        ordering = ["entrant", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournaments_member_one_team"),
            models.UniqueConstraint(fields=["entrant", "position"], name="tournaments_member_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} member {self.position}"


class RoundStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    PAIRED = "paired", _("Being played")
    CLOSED = "closed", _("Closed")


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.SCHEDULED)
    # When it is paired; None: waiting for the director to confirm it.
    starts_at = models.DateTimeField(null=True, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    seat_deadline = models.DateTimeField(null=True, blank=True)  # the grace period for no-shows ends
    closed_at = models.DateTimeField(null=True, blank=True)
    # A duplicate tournament's deals for this round, drawn when it is paired: deal id -> {"seed", "salt",
    # "commitment"} (tournaments.services.duplicate). The seed is secret until the round is closed; the
    # commitment, SHA-256 of the salt and the shuffle's order, is public from the pairing on.
    deals = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class PairingStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting for the players")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class ResultKind(models.TextChoices):
    PLAYED = "played", _("Played")
    BYE = "bye", _("Bye")
    FORFEIT = "forfeit", _("Forfeit")
    OVERRIDE = "override", _("Set by the director")


class Pairing(models.Model):
    """A board of a round: its entrants in seat order (PairingEntrant.position 0 attacks first in the
    first game), or one entrant's bye."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField()
    bye = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=PairingStatus.choices, default=PairingStatus.WAITING)
    result_kind = models.CharField(max_length=10, choices=ResultKind.choices, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change of the pairing's result (a match scored, a forfeit, a director's decision). A
    # director's form carries the version it showed, and a decision on a version that is no longer current
    # is refused: two directors deciding the same pairing at once, the second is told, not obeyed.
    version = models.PositiveIntegerField(default=0)
    # What decided the board when the round was paired, for its director: {"bracket": score or None, "facts":
    # [{"code", "article", "who", "other", ...}]} (tournaments.services.explanations); {} when nothing is known.
    explanation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "board"]
        constraints = [models.UniqueConstraint(fields=["round", "board"], name="tournaments_pairing_unique_board")]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"

    @property
    def forfeit(self) -> bool:
        return self.result_kind == ResultKind.FORFEIT


class PairingEntrant(models.Model):
    """One entrant of a pairing: his seat, whether he came, and his match result once there is one."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="pairing_seats")
    position = models.PositiveSmallIntegerField()
    checked_in = models.DateTimeField(null=True, blank=True)
    # A bot played his games for him (NoShow.BOT) because he did not come in time.
    substituted = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)  # he did not play and lost for it
    points = models.FloatField(null=True, blank=True)  # match points, once the pairing is finished
    game_points = models.FloatField(default=0.0)  # heads-up: games won (a draw a half); tables: place points
    durak_finishes = models.PositiveSmallIntegerField(default=0)
    epaulettes_hung = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["pairing", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "entrant"], name="tournaments_seat_one_entrant"),
            models.UniqueConstraint(fields=["pairing", "position"], name="tournaments_seat_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} seat {self.position}"


class MatchGameStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class MatchGame(models.Model):
    """One game of a pairing. ``seats`` names the pairing position of each seat of the game (a team's
    members fill several); ``outcome`` holds, per pairing position, the game's points, durak finishes
    and epaulettes hung once the game is over (tournaments.scoring.GameOutcome)."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="match_game")
    seats = models.JSONField()
    first_attacker = models.PositiveSmallIntegerField()  # the seat that leads the first bout
    status = models.CharField(max_length=10, choices=MatchGameStatus.choices, default=MatchGameStatus.PLAYING)
    outcome = models.JSONField(null=True, blank=True)  # {"points": [...], "durak": [...], "epaulettes": [...]}
    overridden = models.BooleanField(default=False)
    # A duplicate round's game: its deal's id (Round.deals), the rotation of the deal at this board (seat s
    # holds hand (s + rotation) % players), and once over, per seat, its place (0 the best) and the cards
    # left in its hand: {"places": [...], "cards": [...]} (tournaments.pairing.duplicate.Holding).
    deal = models.CharField(max_length=20, blank=True)
    rotation = models.PositiveSmallIntegerField(null=True, blank=True)
    finish = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["pairing", "number"]
        constraints = [models.UniqueConstraint(fields=["pairing", "number"], name="tournaments_game_unique_number")]

    def __str__(self) -> str:
        return f"{self.pairing} game {self.number}"


class StandingRow(models.Model):
    """The standings as last computed (after every match result): one row an entrant."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standing_rows")
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing")
    rank = models.PositiveIntegerField()
    points = models.FloatField()
    tiebreaks = models.JSONField(default=dict)

    class Meta:
        ordering = ["tournament", "rank", "entrant__number"]
        indexes = [models.Index(fields=["tournament", "rank"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entrant}"


class AuditAction(models.TextChoices):
    CREATED = "created", _("Tournament created")
    STARTED = "started", _("Tournament started")
    CANCELLED = "cancelled", _("Tournament cancelled")
    FINISHED = "finished", _("Tournament finished")
    REGISTERED = "registered", _("Registered")
    LATE_ENTRY = "late_entry", _("Late entry")
    UNREGISTERED = "unregistered", _("Registration withdrawn")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    DISQUALIFIED = "disqualified", _("Disqualified")
    REINSTATED = "reinstated", _("Reinstated")
    ROUND_PAIRED = "round_paired", _("Round paired")
    ROUND_REPAIRED = "round_repaired", _("Round paired again")
    ROUND_CLOSED = "round_closed", _("Round closed")
    ROUND_CONFIRMED = "round_confirmed", _("Round confirmed")
    NO_SHOW = "no_show", _("No-show")
    SUBSTITUTED = "substituted", _("A bot played for a no-show")
    FORFEIT = "forfeit", _("Forfeit")
    RESULT_SET = "result_set", _("Result set")
    GAME_RESULT_SET = "game_result_set", _("Game result set")
    PAUSED = "paused", _("Paused")
    RESUMED = "resumed", _("Resumed")
    DISPUTE_FILED = "dispute_filed", _("Dispute filed")
    DISPUTE_RESOLVED = "dispute_resolved", _("Dispute resolved")
    QUALIFIED = "qualified", _("Qualified from the previous stage")
    TEAM_ACCEPTED = "team_accepted", _("Accepted a place in a team")
    TEAM_DECLINED = "team_declined", _("Declined a place in a team")
    AVOIDANCE_ADDED = "avoidance_added", _("Avoidance added")
    AVOIDANCE_REMOVED = "avoidance_removed", _("Avoidance removed")
    INVITED = "invited", _("Invited")
    INVITATION_ACCEPTED = "invitation_used", _("Invitation accepted")
    CODE_CHANGED = "code_changed", _("Registration code changed")
    PRESENCE_SET = "presence_set", _("Check-in window changed")
    PRESENT = "present", _("Checked in")
    ABSENT = "absent", _("Absent")
    GAME_DECIDED = "game_decided", _("Game stopped and decided")


class AuditEntry(models.Model):
    """One act in the tournament's public log: who (None: the schedule), when, what, why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # What it concerned, in words that need no translation (entrant ids and names, points, boards).
    subject = models.CharField(max_length=300, blank=True)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "-at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.subject}"


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    UPHELD = "upheld", _("Upheld")
    DISMISSED = "dismissed", _("Dismissed")


class Dispute(models.Model):
    """A complaint about a game (cheating, a disconnection, a wrong result) for the director to decide."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="disputes")
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="disputes")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(_("what happened"))
    status = models.CharField(max_length=10, choices=DisputeStatus.choices, default=DisputeStatus.OPEN)
    resolution = models.TextField(blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open") | Q(resolved__isnull=False), name="tournaments_dispute_resolved_when_closed"
            )
        ]

    def __str__(self) -> str:
        return f"{self.pairing}: {self.get_status_display()}"


class Avoidance(models.Model):
    """Two entrants who must not meet (the same club, a family): FIDE's requested avoidance, a constraint of
    the Swiss and the tables pairing (tournaments.pairing.avoidances). ``first`` has the lower number."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="avoidances")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    reason = models.TextField(_("reason"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "first__number", "second__number"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="tournaments_avoidance_unique_pair"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="tournaments_avoidance_two_entrants"),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class Invitation(models.Model):
    """A player the director invited by name (a CSV import): the link with ``token`` creates his account and
    enters him; it works once (``accepted_by``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    name = models.CharField(_("name"), max_length=40)
    email = models.EmailField(_("e-mail"), blank=True)
    rating = models.FloatField(_("rating"), null=True, blank=True)  # the seeding rating the director gave
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "created", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class Attendance(models.Model):
    """An entrant's presence for a round (the interface's "check-in"; not PairingEntrant.checked_in, which is
    taking one's seat in a dealt game): confirmed by himself (``by`` None), set by a director (``by``), or
    recorded absent when the round was paired without him (``by`` None, ``present`` False)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="attendances")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="attendances")
    round_number = models.PositiveSmallIntegerField()
    present = models.BooleanField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "round_number", "entrant"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round_number"], name="tournaments_attendance_once_a_round")
        ]

    def __str__(self) -> str:
        return f"{self.entrant} round {self.round_number}: {'present' if self.present else 'absent'}"
