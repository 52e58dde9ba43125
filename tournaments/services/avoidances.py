"""Requested avoidances: the director names two entrants who must not meet (the same club, a family) and
takes such a pair back, each with a reason in the public log; the pairing of the next rounds keeps them
apart (tournaments.pairing.avoidances), and the round's log entry says when they moved somebody.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tournaments import pairing as pure
from tournaments.models import AuditAction, Avoidance, Entrant, Tournament, TournamentStatus
from tournaments.services._common import _audit, _changed, _locked, _require_director, _require_reason, _subject

OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


def _pair_subject(first: Entrant, second: Entrant) -> str:
    return f"{_subject(first)} / {_subject(second)}"


@transaction.atomic
def avoidance_add(*, tournament: Tournament, first: Entrant, second: Entrant, by: User, reason: str) -> Avoidance:
    """The two entrants of ``tournament`` must not be paired (heads-up) or seated at one table from the next
    round on, while the round can be paired without it."""
    reason = _require_reason(reason)
    tournament = _locked(tournament)
    _require_director(by, tournament)
    if tournament.status not in OPEN:
        raise ValidationError(_("The tournament is over: there is nothing left to pair."))
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise ValidationError(_("Both entrants must be entrants of this tournament."))
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different entrants: nobody is paired against himself."))
    if tournament.is_round_robin:
        raise ValidationError(_("A round robin pairs everyone with everyone: avoidances apply to Swiss events only."))
    first, second = sorted((first, second), key=lambda entrant: entrant.number)
    if Avoidance.objects.filter(first=first, second=second).exists():
        raise ValidationError(_("These two already avoid each other."))
    try:
        with transaction.atomic():
            avoidance = Avoidance.objects.create(tournament=tournament, first=first, second=second, reason=reason)
    except IntegrityError:
        raise ValidationError(_("These two already avoid each other.")) from None
    _audit(tournament, AuditAction.AVOIDANCE_ADDED, actor=by, round_number=tournament.current_round or None,
           subject=_pair_subject(first, second), reason=reason)  # fmt: skip
    _changed(tournament)
    return avoidance


@transaction.atomic
def avoidance_remove(*, avoidance: Avoidance, by: User, reason: str) -> None:
    """The two may be paired again from the next round on."""
    reason = _require_reason(reason)
    tournament = _locked(avoidance.tournament_id)
    _require_director(by, tournament)
    avoidance = (
        Avoidance.objects.select_related("first__user", "second__user")
        .select_for_update(of=("self",))
        .get(pk=avoidance.pk)
    )
    subject = _pair_subject(avoidance.first, avoidance.second)
    avoidance.delete()
    _audit(tournament, AuditAction.AVOIDANCE_REMOVED, actor=by, round_number=tournament.current_round or None,
           subject=subject, reason=reason)  # fmt: skip
    _changed(tournament)


def avoidance_keys(*, tournament: Tournament) -> pure.Avoidances:
    """The tournament's avoidances as the pure core takes them: pairs of entrant keys."""
    rows = Avoidance.objects.filter(tournament=tournament).values_list("first__number", "second__number")
    return pure.avoidances((f"e{first}", f"e{second}") for first, second in rows)


def report_details(report: pure.AvoidanceReport, by_key: Mapping[str, Entrant]) -> dict[str, Any]:
    """What the avoidances did to a round, for its log entry's ``details`` (names, not keys: an entrant's
    name needs no translation; the sentences around them are written in the reader's language)."""

    def name(key: str) -> str:
        entrant = by_key.get(key)
        return _subject(entrant) if entrant is not None else key

    if not report:
        return {}
    return {
        "avoidances": {
            "kept_apart": [[name(a), name(b)] for a, b in report.kept_apart],
            "broken": [[name(a), name(b)] for a, b in report.broken],
            "floated": [name(key) for key in report.floated],
        }
    }
