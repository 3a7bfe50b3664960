"""Tests of the experiments in ``research/``: that each runs and reports, never a margin."""
