"""Agents as a researcher writes them, made by the dotted paths of their factories.

``agents_for_tests.seeded_random:seed=5`` is the ``random`` bot behind a factory of its own
(so a tournament of it must give what ``random:seed=5`` gives); ``spy`` keeps what it was
shown; the others each fail in one of the ways the registry refuses in one line
(tests/test_dotted_players.py). The folder of this file is put on the Python path by those
tests (``PYTHONPATH`` for the ``paiute`` command).
"""

from __future__ import annotations

from paiute.actions import Action
from paiute.observation import Observation
from paiute.players import Player, make_player

#: Every observation a :class:`Spy` was shown in this process, with the seat it plays.
SEEN: list[tuple[int, Observation]] = []

#: Not a factory: a dotted path to it is refused.
NOT_CALLABLE = 42


class SeededRandom:
    """The ``random`` bot under a name of its own; ``loud`` and ``weight`` are kept, to show
    that the options arrive converted by their annotations."""

    name = "seeded-random"

    def __init__(self, seed: int | None, loud: bool, weight: float) -> None:
        self.seed, self.loud, self.weight = seed, loud, weight
        self._random = make_player("random", seed=seed)

    def act(self, observation: Observation) -> Action:
        return self._random.act(observation)


def seeded_random(*, seed: int | None = None, loud: bool = False, weight: float = 1.0) -> SeededRandom:
    """Make the random bot, repeatable with ``seed``."""
    return SeededRandom(seed, loud, weight)


class Spy:
    """Plays ``random``'s moves and keeps every observation it is shown (in :data:`SEEN`)."""

    name = "spy"

    def __init__(self, seed: int | None) -> None:
        self._random = make_player("random", seed=seed)

    def act(self, observation: Observation) -> Action:
        assert observation.seat is not None
        SEEN.append((observation.seat, observation))
        return self._random.act(observation)


def spy(*, seed: int | None = None) -> Spy:
    return Spy(seed)


def broken(*, seed: int | None = None) -> Player:
    """A factory that fails, as one whose weights file is missing does."""
    raise RuntimeError("no weights file at /nowhere/agent.pt")


def not_a_player() -> object:
    """A factory that returns something else than a player."""
    return 42


def picky(*, depth: int = 1) -> Player:
    """A factory that refuses an option's value with a TypeError of its own."""
    if depth > 3:
        raise TypeError(f"depth must be at most 3, got {depth}")
    return seeded_random()


def needs_depth(*, depth: int) -> Player:
    """A factory with an option that must be given."""
    return seeded_random(seed=depth)
