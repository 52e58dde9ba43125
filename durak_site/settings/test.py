"""Settings for pytest: the backends still come from the environment (CI sets PostgreSQL and Redis)."""

import os
import tempfile
from pathlib import Path

from durak_site.environment import DEVELOPMENT_SECRET_KEY, worker_redis_url

# pytest-xdist runs the suite in several worker processes (gw0, gw1, ...): each takes a Redis database of its
# own, the given one plus its number, so that one worker's Celery worker never takes another's tasks and its
# channel layer (whose prefix names the database) never hears another's games of the same id. The processes
# a test starts inherit the shifted URL and the mark that it was shifted, and shift nothing again.
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("REDIS_URL") and not os.environ.get("DURAK_REDIS_SHIFTED"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], os.environ["PYTEST_XDIST_WORKER"])
    os.environ["DURAK_REDIS_SHIFTED"] = "1"

from .base import *

SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
DEBUG = False
# Bots answer at once: a bot move delayed by its table's pace would run after its test had ended
# (tests/games/test_bot_pace.py turns the pace on).
GAMES_BOT_PACE = env.bool("GAMES_BOT_PACE", default=False)
# The lobby's list after every change, as a test that changes a table expects it (tests/games/test_lobby_sends.py
# turns the once-a-second sending on).
LOBBY_SEND_EVERY_S = env.float("LOBBY_SEND_EVERY_S", default=0.0)

# Hashing with the real algorithm costs ~0.3 s a password; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# One test database per test run (the process id in its name): several engineers may run the tests in
# one working tree at once. For SQLite it is a file, not Django's default in-memory database, so that
# the Daphne and Celery processes that some tests start can open the same test database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _test_database_name = os.path.join(tempfile.gettempdir(), f"durak-test-{os.getpid()}.sqlite3")
else:
    _test_database_name = f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
DATABASES["default"]["TEST"] = {"NAME": _test_database_name}

# Rate-limit counters of one test run are not seen by the next one on the same Redis.
CACHES["default"]["KEY_PREFIX"] = f"durak-test-{os.getpid()}"

# manage.py load_demo writes the demo administrator's password here, not into the project's folder.
DEMO_ADMIN_PASSWORD_FILE = os.path.join(tempfile.gettempdir(), f"durak-test-demo-admin-password-{os.getpid()}")

# The open game data's files (gamedata) of a test run go to a folder of its own, never into the project's var/;
# a test that exports sets its own tmp_path.
GAME_DATA_DIR = Path(tempfile.gettempdir()) / f"durak-test-gamedata-{os.getpid()}"
