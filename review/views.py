"""Game review's pages: asking for a finished game's analysis (a form's POST, answered with a redirect back or,
for htmx, the analysis's fragment) and the stored analysis as JSON. Views call review.services and
review.selectors only."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import User
from games.bots.review import BUDGETS
from games.models import Game
from review import selectors, services


def _budget(request: HttpRequest) -> str:
    return (request.POST.get("budget") or request.GET.get("budget") or "default").strip()


def _back(request: HttpRequest, game: Game) -> str:
    wanted = request.POST.get("next") or request.headers.get("Referer") or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return wanted
    return f"/play/game/{game.pk}/"


@login_required
@require_POST
def analysis_request(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the game's analysis; refusals in the reader's language (htmx: the fragment with the refusal, since
    htmx swaps only a 2xx answer; otherwise a message on the page it came from)."""
    game = get_object_or_404(Game, pk=game_id)
    htmx = request.headers.get("HX-Request") == "true"
    try:
        analysis = services.analysis_request(user=cast(User, request.user), game=game, budget=_budget(request))
    except services.AnalysisRefused as refused:
        text = " ".join(refused.messages)
        if htmx:
            # htmx swaps only a 2xx answer: the refusal is the fragment, its status in a header.
            response = render(request, "review/_analysis.html", {"game": game, "analysis": None, "refusal": text})
            response["X-Refused-Status"] = str(refused.status)
            return response
        messages.error(request, text)
        return redirect(_back(request, game))
    if htmx:
        return render(request, "review/_analysis.html", {"game": game, "analysis": analysis})
    messages.success(request, _("The analysis of this game is on its way; this page shows it when it is done."))
    return redirect(_back(request, game))


@require_safe
def analysis_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The stored analysis (``?budget=``, default "default") for a reader who may read it: 403 for others, 409
    while the game is played (never analysed then), 404 when none is stored."""
    game = get_object_or_404(Game, pk=game_id)
    user = request.user if request.user.is_authenticated else None
    if not selectors.can_review(user=user, game=game):
        return JsonResponse({"detail": _("Only the game's players, its tournament's directors and staff may read its analysis.")},
                            status=403)
    if not selectors.is_reviewable_game(game):
        return JsonResponse({"detail": _("A game is analysed once it is over: this one is still being played.")},
                            status=409)
    budget = _budget(request)
    if budget not in BUDGETS:
        return JsonResponse({"detail": _("Unknown analysis depth.")}, status=400)
    analysis = selectors.analysis_of(game=game, budget=budget)
    if analysis is None:
        return JsonResponse({"detail": _("This game has not been analysed.")}, status=404)
    return JsonResponse(selectors.analysis_json(analysis), json_dumps_params={"ensure_ascii": False})
