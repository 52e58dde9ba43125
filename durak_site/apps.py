"""The project package as an app, for its management commands and tasks."""

from django.apps import AppConfig


class DurakSiteConfig(AppConfig):
    name = "durak_site"
    verbose_name = "Durak site"
