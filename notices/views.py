"""A person's notices: the list (newest first, unread marked; the page marks what it showed read once it
has loaded), and marking them read. Views call notices.services; the words come from notices.selectors."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from notices import selectors, services


@login_required
@require_GET
def notice_list(request: HttpRequest) -> HttpResponse:
    notices = selectors.notices_of(user=cast(User, request.user))
    newest = max((notice.id for notice in notices), default=0)
    unread = any(notice.unread for notice in notices)
    return render(request, "notices/list.html", {"notices": notices, "newest": newest, "any_unread": unread})


@login_required
@require_POST
def notices_read(request: HttpRequest) -> HttpResponse:
    """Mark his notices read up to the newest the page showed (``upto``). The list page posts it itself
    once loaded (htmx: answered 204); the button without script is answered with the list again."""
    try:
        services.notices_mark_read(user=cast(User, request.user), upto=request.POST.get("upto"))
    except ValidationError as error:
        if request.headers.get("HX-Request"):
            return HttpResponse(" ".join(error.messages), status=400, content_type="text/plain; charset=utf-8")
        messages.error(request, " ".join(error.messages))
        return redirect("notices:list")
    if request.headers.get("HX-Request"):
        return HttpResponse(status=204)
    return redirect("notices:list")
