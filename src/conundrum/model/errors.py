"""The user-facing error."""


class ModelError(ValueError):
    """A mistake in a model, reported when the model is built, with what to write instead."""
