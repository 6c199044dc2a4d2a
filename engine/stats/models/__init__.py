"""Regression models: Beta regression (Câmara et al. 2022) with cluster-robust errors, average
marginal effects and the squeeze onto (0, 1)."""
