"""The modelling language: expressions, global constraints, matrices and the errors a
model reports. Knows nothing of how a model is compiled or solved."""
