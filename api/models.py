"""API tokens and bot accounts.

A token is stored only as the SHA-256 of its key, so the database never holds a usable key: the key is
shown once, when it is made, and a list of tokens shows each one's name and first characters only.

A bot account is a person's account that a program plays (like lichess's bot accounts): it joins tables and
moves through the same services and checks as a person, and games with it at the table are not rated in
pools for people only (ratings.services).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    # The first characters of the key, enough to tell a user's tokens apart; never enough to use one.
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class BotAccount(models.Model):
    """The mark of an account played by a program; made once, never removed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot_account"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return f"bot account {self.user_id}"
