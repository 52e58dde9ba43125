"""What the entrants' parts of the pages need (tournaments.services.entrants): the director's panel, the
player's check-in button, the registration code's gate, a round's absentees."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import pgettext

from accounts.bot_names import BOT_BENCH
from accounts.models import BotLevel
from tournaments.models import Attendance, Entrant, EntrantStatus, Invitation, Tournament, TournamentStatus
from tournaments.services import entrants

register = template.Library()


@register.simple_tag(takes_context=True)
def entrants_panel(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """The director's entrants panel: bot levels, the open invitations with their links, the private link,
    check-in and each active entrant's presence for the next round."""
    request = context["request"]
    open_round = entrants.presence_round(tournament)
    number = tournament.current_round + 1
    marks = entrants.presence_lines(tournament, number) if tournament.presence_minutes else {}
    active = list(Entrant.objects.select_related("user").filter(tournament=tournament, status=EntrantStatus.ACTIVE))
    code_link = ""
    if tournament.registration_code:
        code_link = request.build_absolute_uri(
            reverse("tournaments:detail", args=[tournament.pk]) + f"?code={tournament.registration_code}"
        )
    invitations = [
        (invitation, request.build_absolute_uri(entrants.invitation_link(invitation)))
        for invitation in Invitation.objects.filter(tournament=tournament, accepted_by__isnull=True)
    ]
    return {
        "levels": [(level, BotLevel(level).label) for level in BOT_BENCH],
        "most_bots": entrants.MOST_BOTS_AT_ONCE,
        "invitations": invitations,
        "code_link": code_link,
        "open": tournament.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING),
        "presence_round": open_round,
        "next_round": number,
        "presence": [(entrant, marks.get(entrant.pk)) for entrant in active if number >= entrant.first_round]
        if tournament.presence_minutes and number <= tournament.rounds_planned else [],
    }


@register.simple_tag(takes_context=True)
def registration_gate(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """Whether the visitor may see the registration form: a private event needs its link's code."""
    from tournaments.views_entrants import remembered_code

    request = context.get("request")
    code = remembered_code(request, tournament) if request is not None else ""
    if not tournament.registration_code:
        return {"allowed": True, "code": ""}
    return {"allowed": entrants.registration_code_ok(tournament, code), "code": code, "wrong": bool(code)}


@register.simple_tag(takes_context=True)
def presence_for(context: dict[str, Any], tournament: Tournament) -> dict[str, Any] | None:
    """The visitor's check-in for the next round: its number and whether he has confirmed; None when there
    is nothing for him to do."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not tournament.presence_minutes:
        return None
    number = entrants.presence_round(tournament)
    if number is None:
        return None
    entrant = Entrant.objects.filter(tournament=tournament, user=user, status=EntrantStatus.ACTIVE).first()
    if entrant is None or entrant.first_round > number:
        return None
    mark = Attendance.objects.filter(entrant=entrant, round_number=number).first()
    return {"round": number, "present": mark is not None and mark.present,
            "marked_absent": mark is not None and not mark.present and mark.by_id is not None}


@register.simple_tag
def absent_in_round(tournament: Tournament, number: int) -> list[Entrant]:
    return entrants.absent_in_round(tournament, number)


@register.simple_tag
def absences(tournament: Tournament) -> dict[int, set[int]]:
    """The rounds each entrant was left out of as absent, by entrant id (the crosstable's "a")."""
    found: dict[int, set[int]] = {}
    rows = Attendance.objects.filter(tournament=tournament, present=False, round_number__lte=tournament.current_round)
    for entrant_id, number in rows.values_list("entrant_id", "round_number"):
        found.setdefault(entrant_id, set()).add(number)
    return found


@register.simple_tag
def absent_mark(found: dict[int, set[int]], entrant_id: int, number: int) -> str:
    """A crosstable cell without a pairing: "a" when he was absent, else a dash."""
    return pgettext("crosstable: absent from the round", "a") if number in found.get(entrant_id, set()) else "–"
