"""The modelling layer: expressions, globals, the Model and its compilation."""
