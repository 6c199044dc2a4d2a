"""The start screen: the corpora the user can open, translate or audit."""
