"""URLs of notices, under /notices/ (durak_site.urls)."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.notice_list, name="list"),
    path("read/", views.notices_read, name="read"),
]
