"""The open game data page (/data/) and its files' downloads."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from gamedata import selectors
from gamedata.services import file_name_of, previous_month


@require_safe
def data_index(request: HttpRequest) -> HttpResponse:
    exports = selectors.monthly_exports()
    example = exports[0].file_name if exports else file_name_of(previous_month(timezone.now()))
    return render(request, "gamedata/index.html", {"exports": exports, "example_file": example})


@require_safe
def data_file(request: HttpRequest, file_name: str) -> FileResponse:
    found = selectors.export_file(file_name=file_name)
    if found is None:
        raise Http404("no such file")
    export, path = found
    response = FileResponse(path.open("rb"), as_attachment=True, filename=export.file_name,
                            content_type="application/gzip")
    response["X-Content-SHA256"] = export.sha256
    return response
