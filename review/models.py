"""A finished game's analysis (games.bots.review) as stored: one row per game and budget, its progress while a
task computes it, the result's JSON, and each seat's accuracy with the account that played the seat."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class GameAnalysis(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="analyses")
    budget = models.CharField(max_length=16)  # a key of games.bots.review.BUDGETS
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)  # games.bots.review.JudgedGame.to_json()
    accuracy = models.JSONField(default=list, blank=True)  # per seat, 0 to 100, None for a seat without a choice
    error = models.CharField(max_length=300, blank=True)  # why it failed (never a card: the record is finished)
    # None: queued by a tournament that analyses every game (counted against nobody's daily allowance).
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="analyses_requested"
    )
    automatic = models.BooleanField(default=False)
    # The run that holds the analysis (review.services.analysis_run): a second run of the task while it is held
    # and not stale does nothing.
    run_token = models.CharField(max_length=32, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [models.UniqueConstraint(fields=["game", "budget"], name="review_one_analysis_a_game_and_budget")]
        indexes = [models.Index(fields=["requested_by", "created"], name="review_requested_recently")]

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.budget}, {self.status})"


class SeatAccuracy(models.Model):
    """One seat's accuracy in a done analysis, with the account that played it (for profiles and fair play)."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="analysed_seats"
    )
    accuracy = models.FloatField(null=True, blank=True)  # None: the seat had no decision with a choice

    class Meta:
        ordering = ["analysis", "seat"]
        constraints = [models.UniqueConstraint(fields=["analysis", "seat"], name="review_one_accuracy_a_seat")]
        indexes = [models.Index(fields=["user", "analysis"], name="review_accuracy_of_user")]

    def __str__(self) -> str:
        return f"{self.analysis_id} seat {self.seat}: {self.accuracy}"
