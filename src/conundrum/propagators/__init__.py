"""Engine propagators, one module per family."""
