"""Forms of the account pages; they validate, and the views hand the cleaned data to accounts.services."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), help_text=_("Used only to reset a forgotten password."))
    preferred_language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    class Meta:
        model = User
        fields = ("username", "email", "preferred_language")
        field_classes = {"username": UsernameField}


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "country", "preferred_language", "sound_muted")
        help_texts = {"display_name": _("Shown at tables and in standings; your username if left empty.")}
