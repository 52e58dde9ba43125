"""Forms of the account pages; they validate, and the views hand the cleaned data to accounts.services."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from durak_site.time_zones import known_zones


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), help_text=_("Used only to reset a forgotten password."))
    preferred_language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    class Meta:
        model = User
        fields = ("username", "email", "preferred_language")
        field_classes = {"username": UsernameField}


def _zone_choices() -> list[tuple[str, str]]:
    return [("", str(_("My browser's zone"))), *((zone, zone.replace("_", " ")) for zone in known_zones())]


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        label=_("Time zone"), choices=_zone_choices, required=False,
        help_text=_("Every time on the site is shown in this zone; by default your browser's."),
    )  # fmt: skip

    class Meta:
        model = User
        fields = (
            "display_name", "country", "preferred_language", "time_zone", "sound_muted", "data_export_opt_out",
        )
        help_texts = {"display_name": _("Shown at tables and in standings; your username if left empty.")}
