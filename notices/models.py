"""A notice: what happened (its kind and parameters, ids and numbers, never words), for whom, and whether
he has read it. The words are written when it is read, in the reader's language (notices.selectors)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import pgettext_lazy


class NoticeKind(models.TextChoices):
    PAIRING = "pairing", pgettext_lazy("notice", "Your pairing")
    REMINDER = "reminder", pgettext_lazy("notice", "Take your seat")
    DISPUTE = "dispute", pgettext_lazy("notice", "A dispute")
    NO_SHOW = "no_show", pgettext_lazy("notice", "A no-show")


class Notice(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=12, choices=NoticeKind.choices)
    # What the notice is about, e.g. "pairing:17": with the user, unique, so that a hook or task run twice
    # tells him once.
    key = models.CharField(max_length=80)
    params = models.JSONField(default=dict)
    url = models.CharField(max_length=300, blank=True)  # where it leads: a path of this site
    created = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notices_one_per_user_and_key")]
        indexes = [models.Index(fields=["user", "read_at"], name="notices_unread")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} for {self.user_id}"
