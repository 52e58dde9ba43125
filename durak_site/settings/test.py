"""Settings for pytest: the backends still come from the environment (CI sets PostgreSQL and Redis)."""

from durak_site.environment import DEVELOPMENT_SECRET_KEY

from .base import *

SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
DEBUG = False

# Hashing with the real algorithm costs ~0.3 s a password; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not Django's default in-memory database, so that the Daphne and Celery processes
    # that some tests start can open the same test database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".pytest-db.sqlite3")}
