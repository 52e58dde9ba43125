"""Reads of the open game data for its page and its downloads."""

from __future__ import annotations

from pathlib import Path

from gamedata.models import MonthlyExport
from gamedata.services import data_dir


def monthly_exports() -> list[MonthlyExport]:
    """Every published month, newest first."""
    return list(MonthlyExport.objects.order_by("-month"))


def export_file(*, file_name: str) -> tuple[MonthlyExport, Path] | None:
    """The export of that name and its file; None for a name no row lists or a file gone from the disk. The
    path is made from the row's name, never from what was asked."""
    export = MonthlyExport.objects.filter(file_name=file_name).first()
    if export is None or Path(export.file_name).name != export.file_name:
        return None
    path = data_dir() / export.file_name
    return (export, path) if path.is_file() else None
