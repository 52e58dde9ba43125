"""Template helpers of the requested avoidances: the director's panel (the pairs and the form to add one)
and what the avoidances did to a round, read from its log entry."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.forms import AvoidanceForm
from tournaments.models import AuditAction, AuditEntry, Avoidance, Tournament, TournamentStatus

register = template.Library()


@register.simple_tag
def avoidance_panel(tournament: Tournament) -> dict[str, Any]:
    """The tournament's avoidances, the form that adds one, and whether they apply to its format at all."""
    pairs = Avoidance.objects.filter(tournament=tournament).select_related("first__user", "second__user")
    return {
        "pairs": list(pairs),
        "form": AvoidanceForm(tournament=tournament, auto_id="avoid_%s"),
        "applies": not tournament.is_round_robin,
        "open": tournament.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING),
    }


@register.simple_tag
def round_avoidances(tournament: Tournament, number: int) -> dict[str, Any]:
    """What the avoidances did to round ``number`` (tournaments.services.avoidances.report_details), or {}."""
    entry = (
        AuditEntry.objects.filter(tournament=tournament, action=AuditAction.ROUND_PAIRED, round_number=number)
        .order_by("-at", "-pk").only("details").first()
    )  # fmt: skip
    return dict((entry.details or {}).get("avoidances") or {}) if entry is not None else {}
