"""Pages of API lists: `?page=N&page_size=M` (50 by default, 200 at most)."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
