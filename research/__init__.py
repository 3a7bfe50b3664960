"""Experiments: one-off measurements of ideas for the bots, and the history of what they found
(``research/README.md``). Not part of the package: they import only its public names, and
their tests (``research/tests``) run in their own job (``.ci/research``), never in the main
suite.

Run one from the repository root as a module, ``python -m research.belief_bound --help``, so
that the experiments can import each other (``research.self_play``, ``research.feed_bound``).
"""
