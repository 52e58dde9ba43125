"""Pages of the site itself: home, rules, the language switch, the health report and the favicon."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import set_language

from accounts.selectors import bot_accounts
from accounts.services import user_language_set
from durak_site.health import health_report


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: the PNG drawn from static/favicon.svg."""
    return HttpResponsePermanentRedirect(static("favicon.png"))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"bots": bot_accounts()})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html")


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie and redirect back), and for a signed-in user their profile's language."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        user_language_set(user=request.user, language=language)
    return response


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    report = await health_report()
    return JsonResponse(report.as_json(), status=200 if report.ok else 503)
