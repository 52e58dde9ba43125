"""The director's avoidances: add a pair of entrants who must not meet, or take one back, each with a reason.

Like the other acts of the director's page (tournaments.views.direct_act): a refusal is shown as a message in
the reader's language and changes nothing, and the page is shown again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from tournaments.forms import AvoidanceForm
from tournaments.models import Avoidance, Tournament
from tournaments.services import avoidances
from tournaments.views import _told, director_only


def _back(tournament_id: int) -> HttpResponse:
    return redirect(reverse("tournaments:direct", args=[tournament_id]) + "#avoidances")


@login_required
@require_POST
@director_only
def avoidance_add(request: HttpRequest, tournament: Tournament, user: User) -> HttpResponse:
    form = AvoidanceForm(request.POST, tournament=tournament)
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else str(error))
        return _back(tournament.pk)
    first, second, reason = form.cleaned_data["first"], form.cleaned_data["second"], form.cleaned_data["reason"]
    _told(
        request,
        lambda: avoidances.avoidance_add(tournament=tournament, first=first, second=second, by=user, reason=reason),
        _("The two will not be paired together from the next round on."),
    )
    return _back(tournament.pk)


@login_required
@require_POST
@director_only
def avoidance_remove(request: HttpRequest, tournament: Tournament, user: User, avoidance_id: int) -> HttpResponse:
    avoidance = get_object_or_404(Avoidance, pk=avoidance_id, tournament=tournament)
    _told(
        request,
        lambda: avoidances.avoidance_remove(avoidance=avoidance, by=user, reason=request.POST.get("reason", "")),
        _("The avoidance is removed: the two may be paired again."),
    )
    return _back(tournament.pk)
