"""Step-wise explanations of a model with a unique solution, their independent check, and
the difficulty grade derived from them."""

from conundrum.explain.explainer import Explainer, ExplainError, explain
from conundrum.explain.facts import Fact, Step

__all__ = ["ExplainError", "Explainer", "Fact", "Step", "explain"]
