"""Logging filters of the site's console handler (settings.LOGGING)."""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    """A refused request (a 4xx answer: 403 permission denied, 400 bad request) is one line, not a traceback:
    Django logs such a refusal with its exception's traceback (django.request), which is noise in the log of a
    site where anonymous readers are refused every day. The line still names the status and the path."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True
