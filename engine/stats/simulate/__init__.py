"""Simulation: synthetic EEC-shaped corpora and scorers with known bias, and the calibration and
power studies that run on them."""
