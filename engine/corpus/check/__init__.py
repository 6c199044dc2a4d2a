"""The agreement checker: findings and their codes, grammar rules per language (grammar/),
expectations, spelling, coverage, and the mechanical fixes a translator can apply."""
