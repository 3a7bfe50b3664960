"""Training agents through the compiled vector environment (the ``train`` extra).

* :mod:`paiute.training.dmc` — deep Monte Carlo (DouZero-style): a Q-network over the shared
  encoding, trained on the chips each deal pays, by actors in this process or on Ray;
  :mod:`~paiute.training.dmc_settings` is what a run is, :mod:`~paiute.training.dmc_command`
  the command.
* :mod:`paiute.training.ppo` — MaskablePPO (sb3-contrib) through the same environment;
  :mod:`~paiute.training.ppo_settings` is what a run is, :mod:`~paiute.training.ppo_command`
  the command.
* :mod:`paiute.training.agent` — a trained network as a :class:`~paiute.players.Player`, so it
  meets the bots in ``paiute tournament`` by its dotted path.
* :mod:`paiute.training.report` — learning curves and the final duplicate tournament.

``paiute train dmc`` and ``paiute train ppo`` run them (docs/baselines.md).
"""
