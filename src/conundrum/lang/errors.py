"""The user-facing errors."""


class ModelError(ValueError):
    """A mistake in a model, reported when the model is built, with what to write instead."""


class WorkerError(RuntimeError):
    """A parallel search failed in a worker (an exception there, or workers that keep
    dying); every worker has been stopped. The message carries the worker's traceback."""
