"""Counterfactual pairs (Goldfarb-Tarrant et al. 2023) and K&M name-group comparisons: which
person terms pair up, the pair tables, and the checks that a pair varies one variable only."""
