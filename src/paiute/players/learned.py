"""``learned``: a small value network trained on the deals' results, NumPy only at play time.

For every legal action of its seat's :class:`~paiute.observation.Observation` (R9) the player
builds one row of features (:func:`paiute.players.learned_features.action_features`: the
position, what the action does to the hand, greedy's estimates and greedy's own choice),
scores the rows with a two-layer network ``Q(s, a)`` that estimates the chips the seat ends the
deal with (R8.2), and plays the best (it leaves greedy's choice only for an action whose ``Q``
is higher by more than the network's ``threshold``); ties go to the first legal action, so the
player is deterministic. The weights ship with the package (``data/learned.npz``) and are read once per
process, the first time a decision is made. How they were trained, and how the player fares
against ``random``, ``greedy`` and ``pimc``, is in ``docs/learned.md``
(``examples/train_learned.py`` reproduces the training).

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.players import make_player
>>> player = make_player("learned")
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> while not deal.is_over:
...     _ = deal.apply(player.act(deal.observation(deal.current_seat)))
>>> deal.is_over
True
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from paiute.actions import Action
from paiute.observation import Observation
from paiute.players.base import PlayerError, register

__all__ = ["DEFAULT_WEIGHTS", "LearnedPlayer"]

#: The weights shipped with the package.
DEFAULT_WEIGHTS = Path(__file__).with_name("data") / "learned.npz"

# Networks read so far in this process, by path: each file is read once (tournaments build a
# player per seat and per deal, in worker processes).
_NETWORKS: dict[str, object] = {}


def _network(path: str) -> object:
    network = _NETWORKS.get(path)
    if network is None:
        _require_numpy()
        from paiute.players.learned_features import QNetwork

        try:
            network = _NETWORKS[path] = QNetwork.load(path)
        except (OSError, ValueError, KeyError) as error:
            raise PlayerError(f"learned player: cannot read the weights {path!r}: {error}") from None
    return network


def _require_numpy() -> None:
    """The network runs on NumPy, which ``paiute play``'s own extra (``tui``) does not install."""
    if importlib.util.find_spec("numpy") is None:
        raise PlayerError("the learned player needs NumPy: pip install 'paiute[learned]'")


@register("learned", "a small value network trained on deals against greedy (docs/learned.md); needs numpy")
class LearnedPlayer:
    """Plays the legal action of highest ``Q(s, a)``.

    ``weights``: a ``.npz`` file written by ``examples/train_learned.py`` (default: the
    package's own). ``seed`` only breaks greedy's ties in the features, so that the same seed
    and observation always give the same action.
    """

    name = "learned"

    def __init__(self, *, seed: int | None = None, weights: str | None = None) -> None:
        _require_numpy()  # refused when chosen, not at its first move
        self.seed = 0 if seed is None else seed
        self.weights = str(DEFAULT_WEIGHTS if weights is None else weights)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        if len(actions) == 1:
            return actions[0]
        network = _network(self.weights)
        from paiute.players.learned_features import QNetwork, action_features

        assert isinstance(network, QNetwork)
        legal, rows = action_features(observation, self.seed)
        return legal[network.choose(rows)]
