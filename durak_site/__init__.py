"""The Django project: settings, URLs, the ASGI application and the Celery app."""

# Loading the Celery app with Django makes @shared_task bind to it, in the server and in workers.
from durak_site.celery import app as celery_app

__all__ = ["celery_app"]
