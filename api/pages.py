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
from api import selectors, services
from api.models import ApiToken
from games import replays
from games import selectors as game_selectors
from games.engine import EngineError
from games.views_replay import replay_strings

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
    """The record the form sent (a file or the text box) as parsed JSON, and its text for the text box.
    ValueError with the problem in the reader's words."""
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_RECORD_BYTES:
            raise ValueError(_("The file is too large: a game record is at most 1 MB."))
        text = upload.read().decode("utf-8", errors="replace")
    else:
        text = request.POST.get("record", "")
    if len(text) > MAX_RECORD_BYTES:
        raise _TextProblem(text[:MAX_RECORD_BYTES], _("The record is too large: a game record is at most 1 MB."))
    if not text.strip():
        raise _TextProblem(text, _("Paste a game record or choose its file."))
    try:
        return json.loads(text), text
    except RecursionError:
        raise _TextProblem(text, _("This is not a game record: the text is not JSON.")) from None
    except ValueError as error:
        raise _TextProblem(text, replays.not_json_in_words(error)) from None


class _TextProblem(ValueError):
    """Text that is not a record: the problem in words, and the text to keep in the text box."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__(problem)
        self.text = text


def _board(data: Any, names: list[str] | None) -> dict[str, Any]:
    """The replay of a record for the board, or its problem in the reader's words."""
    try:
        replayed = replays.replay_steps(data, names)
    except (EngineError, RecursionError) as error:
        return {"problem": replays.malformed_in_words(str(error)) if isinstance(error, EngineError)
                else _("The record is nested too deeply to be read.")}  # fmt: skip
    last = len(replayed.steps) - 1
    result_line = ""
    if replayed.result is not None:
        durak = replayed.result.durak
        seats = names or replays.seat_names(len(replayed.steps[0]["position"]["hands"]))
        if replayed.result.draw:
            result_line = _("A draw: nobody is the durak.")
        elif durak is not None and 0 <= durak < len(seats):
            result_line = _("%(name)s is the durak.") % {"name": seats[durak]}
    players = names or replays.seat_names(len(replayed.steps[0]["position"]["hands"]))
    return {
        "problem": replayed.problem,
        "replay_data": {
            "steps": replayed.steps, "start": last, "analysis": None, "my_seat": None, "result_line": result_line,
            "players": [{"seat": seat, "name": name, "bot": False} for seat, name in enumerate(players)],
            "result": {"durak": replayed.result.durak} if replayed.result else None,
        },  # fmt: skip
    }


@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest) -> HttpResponse:
    """Step through a game: a record pasted or uploaded here, or a finished game of the site (?game=ID). A
    record that cannot be read, or a move the rules refuse, is told in the reader's words; the text stays."""
    context: dict[str, Any] = {"text": "", "problem": None, "game": None, "replay_data": None,
                               "replay_strings": replay_strings()}  # fmt: skip
    if request.method == "POST":
        try:
            data, context["text"] = _record_from_request(request)
        except _TextProblem as error:
            context["text"], context["problem"] = error.text, str(error)
        except ValueError as error:
            context["problem"] = str(error)
        else:
            context.update(_board(data, None))
    elif request.GET.get("game", "").isdigit() and len(request.GET["game"]) <= 12:
        game = get_object_or_404(selectors.visible_games(request.user).defer(None), pk=int(request.GET["game"]))
        try:
            record = game_selectors.game_record_json(game=game)
        except ValidationError:
            context["problem"] = (
                game_selectors.deck_held_text() if game.deck_held
                else _("This game is still being played: its replay opens once the game is over.")
            )  # fmt: skip
        else:
            names = [game_selectors.seat_name(seat) for seat in selectors.game_players(game)]
            context["game"] = game
            context["names"] = names
            context["text"] = json.dumps(record, ensure_ascii=False, indent=1)
            context.update(_board(record, names))
    if context["replay_data"] is not None:
        steps = context["replay_data"]["steps"]
        asked = request.GET.get("move", "")
        if asked.isascii() and asked.isdecimal() and len(asked) <= 6:
            context["replay_data"]["start"] = min(int(asked), len(steps) - 1)
    status = 400 if context["problem"] else 200
    return render(request, "api/analysis.html", context, status=status)
