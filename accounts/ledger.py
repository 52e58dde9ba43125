"""The chip ledger: every change of a balance is a row; a balance is the sum of a user's rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from django.db.models import Sum

from accounts.models import LedgerEntry, User

# Chips a new player starts with, so that stake tables are open to him at once.
STARTING_GRANT: Final = 1000
STARTING_GRANT_NOTE: Final = "starting grant"


def ledger_balance(*, user: User) -> int:
    return int(LedgerEntry.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0)


def ledger_balances(*, user_ids: Iterable[int]) -> dict[int, int]:
    rows = LedgerEntry.objects.filter(user_id__in=list(user_ids)).values("user_id").annotate(total=Sum("amount"))
    return {row["user_id"]: int(row["total"] or 0) for row in rows}
