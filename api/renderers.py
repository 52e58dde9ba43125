"""CSV downloads: a view answers `?format=csv` with the text it built (api.records.csv_text)."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, str):
            return data.encode()
        # An error answer (a dict from DRF's handler) as one "detail" column.
        detail = data.get("detail", data) if isinstance(data, dict) else data
        return f"detail\n{str(detail)!r}\n".encode()
