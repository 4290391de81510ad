"""The compiler from the language (`conundrum.lang`) to the engine: normalising,
linear forms, auxiliary variables, reification and posting of propagators."""
