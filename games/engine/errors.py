"""The engine's errors: a record or action of the wrong shape versus a well-formed move the rules forbid."""


class EngineError(Exception):
    """Any problem the engine reports; the message says exactly what is wrong."""


class MalformedRecord(EngineError):
    """A record or action of the wrong shape: unknown type, missing field, not a card, no such seat."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now."""
