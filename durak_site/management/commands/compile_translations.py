"""Compile every locale/*/LC_MESSAGES/*.po to .mo with polib, so no system gettext is needed.

The .mo files are committed: a fresh machine serves Russian pages without compiling anything.
Run this after editing a .po file (`make messages` does both steps).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po translation files to .mo (pure Python, no gettext)."

    def handle(self, *args: Any, **options: Any) -> None:
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                catalog = polib.pofile(str(po_path))
                catalog.save_as_mofile(str(po_path.with_suffix(".mo")))
                self.stdout.write(f"{po_path}: {catalog.percent_translated()}% translated")
