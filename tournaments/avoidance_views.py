"""The director's avoidances: add a pair of entrants who must not meet, or take one back, each with a reason.

Like the other acts of the director's page (tournaments.views.direct_act): a refusal is shown as a message in
the reader's language and changes nothing, and the page is shown again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.forms import AvoidanceForm
from tournaments.models import Avoidance
from tournaments.services import avoidances
from tournaments.views import _error_text, _tournament, _user


def _back(tournament_id: int) -> HttpResponse:
    return redirect(reverse("tournaments:direct", args=[tournament_id]) + "#avoidances")


@login_required
@require_POST
def avoidance_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    user = _user(request)
    if not services.can_direct(user=user, tournament=tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    form = AvoidanceForm(request.POST, tournament=tournament)
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else str(error))
        return _back(tournament.pk)
    try:
        avoidances.avoidance_add(tournament=tournament, first=form.cleaned_data["first"],
                                 second=form.cleaned_data["second"], by=user, reason=form.cleaned_data["reason"])  # fmt: skip
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("The two will not be paired together from the next round on."))
    return _back(tournament.pk)


@login_required
@require_POST
def avoidance_remove(request: HttpRequest, tournament_id: int, avoidance_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    user = _user(request)
    if not services.can_direct(user=user, tournament=tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    avoidance = get_object_or_404(Avoidance, pk=avoidance_id, tournament=tournament)
    try:
        avoidances.avoidance_remove(avoidance=avoidance, by=user, reason=request.POST.get("reason", ""))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("The avoidance is removed: the two may be paired again."))
    return _back(tournament.pk)
