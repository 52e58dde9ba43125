"""Settings modules: base (shared), local (the default on a developer's machine), test, production."""
