"""Settings for a developer's machine and `make run`: debug on, a development secret key unless one is given."""

from durak_site.environment import DEVELOPMENT_SECRET_KEY

from .base import *

SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
DEBUG = env.bool("DEBUG", default=True)
# Templates and static files change while the server runs.
WHITENOISE_AUTOREFRESH = True
