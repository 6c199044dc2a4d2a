"""Hypothesis tests: K&M paired analysis, counterfactual pairs, person-level and paired tests,
multiple-comparison corrections, bootstrap intervals and the one "no test possible" rule."""
