"""Account pages: sign-up, log-in and out, profile, password change and reset."""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.selectors import user_roles
from accounts.services import (
    user_data_export_opt_out_set, user_profile_update, user_sessions_revoke, user_sign_up, user_sound_muted_set,
    user_time_zone_set,
)

# The values the mute switch posts (static/games/sound.js); anything else is refused.
SOUND_MUTED_VALUES = {"true": True, "false": False}


def _remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Pages follow the language cookie before the browser's Accept-Language (LocaleMiddleware)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
    )
    return response


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None, initial={"preferred_language": get_language()})
    if request.method == "POST" and form.is_valid():
        user = user_sign_up(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            preferred_language=form.cleaned_data["preferred_language"],
        )
        login(request, user, backend="accounts.backends.HumanOnlyBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
        return _remember_language(redirect("accounts:profile"), user.preferred_language)
    return render(request, "accounts/sign_up.html", {"form": form})


class LogInView(auth_views.LoginView):
    template_name = "accounts/log_in.html"
    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        return _remember_language(response, form.get_user().preferred_language)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The profile page; with htmx, the form alone is posted and redrawn in place."""
    user = cast(User, request.user)  # login_required: never anonymous here
    # Read before validation: a ModelForm writes the posted values onto its instance while validating.
    language_before, zone_before = user.preferred_language, user.time_zone
    form = ProfileForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        user_profile_update(
            user=user,
            display_name=form.cleaned_data["display_name"],
            country=form.cleaned_data["country"],
            preferred_language=form.cleaned_data["preferred_language"],
            sound_muted=form.cleaned_data["sound_muted"],
        )
        user_time_zone_set(user=user, time_zone=form.cleaned_data["time_zone"])
        user_data_export_opt_out_set(user=user, opt_out=form.cleaned_data["data_export_opt_out"])
        if not _is_htmx(request):
            messages.success(request, _("Profile saved."))
            return _remember_language(redirect("accounts:profile"), user.preferred_language)
        response = render(request, "accounts/_profile_form.html", {"form": ProfileForm(instance=user), "saved": True})
        if user.preferred_language != language_before or user.time_zone != zone_before:
            # The whole page, not just the form, must now be drawn in the new language (or zone).
            response["HX-Refresh"] = "true"
        return _remember_language(response, user.preferred_language)
    if _is_htmx(request):
        return render(request, "accounts/_profile_form.html", {"form": form, "saved": False})
    return render(
        request, "accounts/profile.html", {"form": form, "profile_user": user, "roles": user_roles(user=user)}
    )


@login_required
@require_http_methods(["POST"])
def sessions_revoke(request: HttpRequest) -> HttpResponse:
    """Log out on every other browser and device; this one stays logged in."""
    user = user_sessions_revoke(user=cast(User, request.user))
    update_session_auth_hash(request, user)
    messages.success(request, _("You are logged out on every other browser and device."))
    return redirect("accounts:profile")


@require_http_methods(["POST"])
def sound_muted(request: HttpRequest) -> JsonResponse:
    """The game page's mute switch for the account: POST muted=true|false (with the CSRF token), answered in
    JSON, {"muted": bool} or {"error": text in the reader's language}. A logged-out reader keeps his in the
    browser, so he is refused here rather than sent to the log-in page."""
    if not request.user.is_authenticated or request.user.is_bot:
        return JsonResponse({"error": _("Log in to keep the sound setting on your account.")}, status=403)
    muted = SOUND_MUTED_VALUES.get(request.POST.get("muted", ""))
    if muted is None:
        return JsonResponse({"error": _("The sound setting must be “true” or “false”.")}, status=400)
    user = user_sound_muted_set(user=request.user, muted=muted)
    return JsonResponse({"muted": user.sound_muted})


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password-change-done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
