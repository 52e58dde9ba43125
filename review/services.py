"""Game review's writes: asking for a finished game's analysis (once per game and budget, within a daily
allowance), a tournament's automatic analysis of its games, and running one (the task's body), which holds the
analysis's row so that a second run, at once or later, stores nothing twice.

The analysis itself is the pure core games.bots.review; this module stores what it returns.
"""

from __future__ import annotations

import datetime
import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.bots import review as core
from games.models import Game, GameStatus
from games import selectors as game_selectors
from games.selectors import game_record_json
from review import selectors
from review.broadcast import analysis_changed
from review.models import AnalysisStatus, GameAnalysis, SeatAccuracy

logger = logging.getLogger(__name__)

# The task's hard time limit (review.tasks): a run still "running" this long after it started was killed, and
# the next run takes the analysis over.
ANALYSIS_TIME_LIMIT_S = 30 * 60
# Progress is written and sent at most this often (and at the last decision).
PROGRESS_EVERY_S = 0.5


class AnalysisRefused(ValidationError):
    """A request the reader is told no, in his language, with the HTTP status a view answers it with."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message, code=str(status))
        self.status = status


def _check_game(game: Game, budget: str) -> None:
    if budget not in core.BUDGETS:
        raise AnalysisRefused(_("Unknown analysis depth."), status=400)
    if game.status != GameStatus.FINISHED:
        raise AnalysisRefused(_("A game is analysed once it is over: this one is still being played."), status=409)
    if game.deck_held:
        raise AnalysisRefused(game_selectors.deck_held_text(), status=409)
    if not core.analysable(game.rules, game.players):
        raise AnalysisRefused(_("The analysis does not cover this variant or number of players."), status=409)


def _queue(analysis: GameAnalysis) -> None:
    from review import tasks

    analysis_id = analysis.pk
    transaction.on_commit(lambda: tasks.analyse_game.delay(analysis_id))


def _stored_or_queued(game: Game, budget: str, **defaults: Any) -> GameAnalysis:
    """The game's analysis at this budget: the stored one, or a new row (``defaults``) whose task is queued
    after the commit. The unique row makes two requests at once store one and queue one."""
    analysis, created = GameAnalysis.objects.get_or_create(
        game=game, budget=budget,
        defaults={**defaults, "progress_total": core.decisions_to_analyse(game.record.get("actions", []))},
    )  # fmt: skip
    if created:
        _queue(analysis)
    return analysis


def analysis_request(*, user: User, game: Game, budget: str = "default") -> GameAnalysis:
    """The analysis of ``game`` at ``budget``, asked for by ``user``: the stored one when there is one (a failed
    one is queued again only when staff ask: its failure would mostly repeat), else a new one queued, counted against his daily allowance (ANALYSES_PER_DAY). Only a
    player of the game, a director of its tournament or staff may ask; only a finished game the analysis covers.
    Two requests at once store one analysis and queue one task (the row is unique per game and budget)."""
    if not selectors.can_review(user=user, game=game):
        raise AnalysisRefused(_("Only the game's players, its tournament's directors and staff may ask for its analysis."),
                              status=403)
    _check_game(game, budget)
    with transaction.atomic():
        existing = GameAnalysis.objects.select_for_update().filter(game=game, budget=budget).first()
        if existing is not None:
            if existing.status == AnalysisStatus.FAILED and user.is_staff:
                existing.status, existing.error, existing.progress_done = AnalysisStatus.QUEUED, "", 0
                existing.save(update_fields=["status", "error", "progress_done"])
                _queue(existing)
            return existing
        # One person's requests one at a time, so that two at once cannot both take the last of his allowance.
        User.objects.select_for_update().filter(pk=user.pk).first()
        allowed = settings.ANALYSES_PER_DAY
        since = timezone.now() - datetime.timedelta(days=1)
        if selectors.analyses_requested_since(user=user, since=since) >= allowed:
            raise AnalysisRefused(
                ngettext(
                    "You may ask for %(count)d new analysis a day; try again tomorrow.",
                    "You may ask for %(count)d new analyses a day; try again tomorrow.",
                    allowed,
                ) % {"count": allowed},
                status=429,
            )
        return _stored_or_queued(game, budget, requested_by=user)


def analysis_request_automatic(*, game_id: int, budget: str = "default") -> GameAnalysis | None:
    """Queue the analysis of a tournament's finished game (tournaments.services.tournament_game_finished, when
    the tournament analyses every game): counted against nobody; None when the game is not one the analysis
    covers. Runs in the game's finalisation, so what it queues leaves after the commit."""
    game = Game.objects.get(pk=game_id)
    if game.status != GameStatus.FINISHED or game.deck_held or not core.analysable(game.rules, game.players):
        return None
    return _stored_or_queued(game, budget, automatic=True)


class _Progress:
    """The analysis's progress callback: writes the count and tells the sockets, at most every
    PROGRESS_EVERY_S and at the last decision, and only while this run holds the analysis."""

    def __init__(self, analysis: GameAnalysis, token: str) -> None:
        self.analysis = analysis
        self.token = token
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < PROGRESS_EVERY_S:
            return
        self.last = now
        held = GameAnalysis.objects.filter(
            pk=self.analysis.pk, run_token=self.token, status=AnalysisStatus.RUNNING
        ).update(progress_done=done, progress_total=total)
        if held:
            self.analysis.progress_done, self.analysis.progress_total = done, total
            analysis_changed(self.analysis.game_id, selectors.progress_message(self.analysis))


def _take(analysis_id: int, token: str) -> tuple[GameAnalysis, dict[str, object]] | None:
    """Hold the analysis for this run, under its row lock: None when it is done, failed, missing, or held by
    another run that has not outlived the time limit."""
    now = timezone.now()
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().select_related("game").filter(pk=analysis_id).first()
        if analysis is None or analysis.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
            return None
        held_since = analysis.started
        if analysis.status == AnalysisStatus.RUNNING and held_since is not None and (
            now - held_since < datetime.timedelta(seconds=ANALYSIS_TIME_LIMIT_S)
        ):
            return None
        record = game_record_json(game=analysis.game)
        analysis.status, analysis.run_token, analysis.started = AnalysisStatus.RUNNING, token, now
        analysis.progress_done = 0
        analysis.progress_total = core.decisions_to_analyse(record["actions"])
        analysis.save(update_fields=["status", "run_token", "started", "progress_done", "progress_total"])
    return analysis, record


def _finish(analysis_id: int, token: str, result: core.JudgedGame | None, error: str) -> GameAnalysis | None:
    """Store the run's result (or its failure) if this run still holds the analysis."""
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().select_related("game").get(pk=analysis_id)
        if analysis.status != AnalysisStatus.RUNNING or analysis.run_token != token:
            return None
        analysis.finished = timezone.now()
        if result is None:
            analysis.status, analysis.error = AnalysisStatus.FAILED, error[:300]
            analysis.save(update_fields=["status", "error", "finished"])
        else:
            analysis.status, analysis.result = AnalysisStatus.DONE, result.to_json()
            analysis.accuracy = result.accuracy()
            analysis.progress_done = analysis.progress_total
            analysis.save(update_fields=["status", "result", "accuracy", "progress_done", "finished"])
            players = selectors.game_players(game=analysis.game)
            SeatAccuracy.objects.bulk_create(
                SeatAccuracy(analysis=analysis, seat=seat, user_id=players.get(seat), accuracy=accuracy)
                for seat, accuracy in enumerate(analysis.accuracy)
            )
        message = selectors.progress_message(analysis)
        game_id = analysis.game_id
        transaction.on_commit(lambda: analysis_changed(game_id, message))
    return analysis


def analysis_run(*, analysis_id: int) -> GameAnalysis | None:
    """Compute and store an analysis (review.tasks.analyse_game): the stored analysis when this run stored it,
    None when there was nothing to do (done already, failed, or another run holds it). The search runs outside
    any transaction; its result is stored only if this run still holds the row."""
    token = uuid.uuid4().hex
    taken = _take(analysis_id, token)
    if taken is None:
        return None
    analysis, record = taken
    analysis_changed(analysis.game_id, selectors.progress_message(analysis))
    try:
        result = core.analyse_record(
            record, budget=analysis.budget, seed=analysis.game_id, progress=_Progress(analysis, token),
            ended_early=True,  # the game is over (only finished games are taken), by its last action or otherwise
        )
    except Exception as error:  # stored as failed (a time limit too), so that the page stops waiting
        logger.exception("analysis %s of game %s failed", analysis.pk, analysis.game_id)
        return _finish(analysis_id, token, None, f"{type(error).__name__}: {error}")
    return _finish(analysis_id, token, result, "")
