"""The pages of the API app: the bot API's guide, a person's API tokens and bot account, and the analysis
board that steps through an imported game record or a finished game."""

from __future__ import annotations

import json
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from api import records, selectors, services
from api.models import ApiToken
from games import selectors as game_selectors

MAX_RECORD_BYTES = 1_000_000


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)


@require_safe
def bot_guide(request: HttpRequest) -> HttpResponse:
    return render(request, "api/bot_guide.html", {"server": request.build_absolute_uri("/").rstrip("/")})


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """List the account's tokens; POST makes one and shows its key on this answer only."""
    user = _user(request)
    new_key = None
    if request.method == "POST":
        try:
            made = services.token_create(user=user, name=request.POST.get("name", ""))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            new_key = made.key
    context = {
        "tokens": ApiToken.objects.filter(user=user),
        "new_key": new_key,
        "bot_account": services.is_bot_account(user),
    }
    response = render(request, "api/tokens.html", context)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        services.token_revoke(user=_user(request), token_id=token_id)
    except ValidationError:
        raise Http404 from None
    messages.success(request, _("The token is revoked."))
    return redirect("api-pages:tokens")


@login_required
@require_POST
def bot_account(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm."))
        return redirect("api-pages:tokens")
    try:
        services.bot_account_enable(user=_user(request))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("This account is a bot account now."))
    return redirect("api-pages:tokens")


def _record_from_request(request: HttpRequest) -> tuple[Any, str]:
    """The record the form sent (a file or the text box) as parsed JSON, and its text for the text box."""
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_RECORD_BYTES:
            raise ValueError(_("The file is too large."))
        text = upload.read().decode("utf-8", errors="replace")
    else:
        text = request.POST.get("record", "")
    if len(text) > MAX_RECORD_BYTES:
        raise ValueError(_("The record is too large."))
    try:
        return json.loads(text), text
    except (ValueError, RecursionError) as error:
        raise ValueError(_("This is not JSON: %(error)s") % {"error": error}) from None


def _board_strings() -> dict[str, str]:
    return {
        "deal": _("The deal"), "seat": _("seat"), "move": _("Move"), "trump": _("Trump"), "stock": _("stock"),
        "discard": _("discard"), "table": _("Table"), "result": _("Result"), "draw": _("a draw"),
        "durak": _("durak"), "attacking": _("attacking"), "defending": _("defending"), "out": _("out"),
    }


@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest) -> HttpResponse:
    """Step through a game: a record pasted or uploaded here, or a finished game of the site (?game=ID)."""
    context: dict[str, Any] = {"text": "", "analysis": None, "problem": None, "game": None,
                               "board_strings": _board_strings()}
    if request.method == "POST":
        try:
            data, context["text"] = _record_from_request(request)
        except ValueError as error:
            context["problem"] = str(error)
        else:
            context["analysis"] = records.analyse(data)
    elif request.GET.get("game", "").isdigit():
        game = get_object_or_404(selectors.visible_games(request.user).defer(None), pk=int(request.GET["game"]))
        try:
            record = game_selectors.game_record_json(game=game)
        except ValidationError:
            context["problem"] = _("This game is still being played: its replay opens once the game is over.")
        else:
            context["game"] = game
            context["text"] = json.dumps(record, ensure_ascii=False, indent=1)
            context["analysis"] = records.analyse(record)
            context["names"] = [game_selectors.seat_name(seat) for seat in selectors.game_players(game)]
    status = 400 if context["problem"] or (context["analysis"] and context["analysis"]["exit_status"] == 2) else 200
    return render(request, "api/analysis.html", context, status=status)
