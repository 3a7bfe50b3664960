"""Deep Monte Carlo (DouZero-style) through the compiled vector env: ``paiute train dmc``.

A Q-network over the shared encoding (:mod:`paiute.envs.encoding`) scores the 111 action ids;
each deal's actions are regressed on the chips the deal paid the learner's seat (R8.2; 0 for a
dead or cut deal, R8.5), the Monte Carlo return, with no bootstrapping: an action is worth
what deals that took it paid. The seats play the legal action of highest ``Q``, a random legal
one with probability ``epsilon``.

**Actors and the learner.** Actors play; one learner trains. Each actor owns a vector env of
``tables`` tables (:class:`~paiute.envs.vector.PaiuteVectorEnv`: the opponents' turns are
played inside the step, by compiled bots, or by the network itself for a ``self`` seat) and,
each round, plays ``round_deals`` deals with the round's weights and sends back the decisions of
the deals that ended. The learner trains one pass over them, in actor order, then sends the new
weights to every actor. Rounds are synchronous, so the run is one deterministic function of its
seed and settings: with ``backend="ray"`` the actors are Ray actors on other cores or
machines (the ``cluster`` extra) and play the very deals they would play here.

**Segments.** Every ``eval_every`` deals the run evaluates the network (the curve's point:
:func:`paiute.training.report.evaluate_vector` against the bots on fixed seeds), writes
``agent.npz`` (the network as :mod:`paiute.training.agent` plays it) and ``checkpoint.pt``,
and the actors start the next segment on fresh tables seeded from ``(seed, actor, segment)``.
A run resumed from its checkpoint therefore goes on exactly as if it had never stopped.

What a run is, :class:`~paiute.training.dmc_settings.Settings`, and the command that starts
one, :mod:`paiute.training.dmc_command`, are apart from the training here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.actions import NUM_ACTIONS
from paiute.errors import N_, PaiuteError
from paiute.parallel import ray_cluster
from paiute.training.agent import MLP, save_mlp
from paiute.training.dmc_settings import SELF, Settings
from paiute.training.report import EVAL_SEED, Curve, Margin, evaluate_vector, plot_curve

__all__ = ["Actor", "Batch", "Learner", "Progress", "check_folder", "imitate_greedy", "train"]


@dataclass
class Batch:
    """An actor's round: the decisions of the deals that ended (observations as float16)."""

    observations: npt.NDArray[np.float16]
    actions: npt.NDArray[np.int64]
    returns: npt.NDArray[np.float32]
    deals: int
    chips: float
    cpu_seconds: float


def network(inputs: int, hidden: Sequence[int]) -> Any:
    """The Q-network: a ReLU perceptron from the encoding to one value per action id."""
    import torch

    layers: list[Any] = []
    width = inputs
    for size in hidden:
        layers += [torch.nn.Linear(width, size), torch.nn.ReLU()]
        width = size
    layers.append(torch.nn.Linear(width, NUM_ACTIONS))
    return torch.nn.Sequential(*layers)


def to_mlp(model: Any) -> MLP:
    """The network's layers as the NumPy :class:`~paiute.training.agent.MLP` players run."""
    import torch

    return MLP.from_linear(m for m in model if isinstance(m, torch.nn.Linear))


def weights_of(model: Any) -> dict[str, npt.NDArray[np.float32]]:
    """The network's parameters as NumPy arrays (what travels to the actors)."""
    return {key: value.detach().cpu().numpy().copy() for key, value in model.state_dict().items()}


def _first_actors_bots(settings: Settings) -> str | list[str]:
    """The first actor's bots as the vector env takes them, ``greedy`` for a ``self`` seat: the
    opponents of the warm start and of the curve's evaluation."""
    seats = ["greedy" if spec == SELF else spec for spec in settings.opponents[0].split(",")]
    return seats[0] if len(seats) == 1 else seats


def _segment_seed(seed: int, actor: int, segment: int, stream: int) -> int:
    return int(np.random.SeedSequence([seed, actor, segment, stream]).generate_state(1)[0])


class Actor:
    """Plays deals in its vector env with the weights it is sent; see the module."""

    def __init__(self, settings: Settings, index: int) -> None:
        import torch

        torch.set_num_threads(1)  # one core an actor; the same arithmetic wherever it runs
        self.settings = settings
        self.index = index
        specs = settings.opponents[index % len(settings.opponents)].split(",")
        self.opponents: list[Any] = [self._self_seat if spec == SELF else spec for spec in specs]
        self.envs: Any = None
        self.model: Any = None
        self.segment = -1

    def _self_seat(
        self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        return self._greedy_actions(observations, masks)

    def _greedy_actions(
        self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        import torch

        with torch.no_grad():
            q = self.model(torch.from_numpy(np.ascontiguousarray(observations, np.float32))).numpy()
        q[~masks] = -np.inf
        chosen: npt.NDArray[np.int64] = q.argmax(axis=1)
        return chosen

    def _start(self, segment: int) -> None:
        """Fresh tables for ``segment``, seeded from the run's seed, this actor and segment."""
        import gymnasium

        import paiute.envs.gymnasium  # noqa: F401  (registers paiute/Paiute-v0)

        s = self.settings
        if self.envs is None:
            self.envs = gymnasium.make_vec(
                "paiute/Paiute-v0",
                num_envs=s.tables,
                players=s.players,
                preset=s.preset,
                opponents=self.opponents if len(self.opponents) > 1 else self.opponents[0],
            )
        self.observations, info = self.envs.reset(seed=_segment_seed(s.seed, self.index, segment, 0))
        self.masks = info["action_mask"].astype(bool)
        self.rng = np.random.default_rng(_segment_seed(s.seed, self.index, segment, 1))
        self.segment = segment
        self.autoreset = np.zeros(s.tables, bool)  # the next step of these tables deals anew
        self.totals = np.zeros(s.tables)
        self.episode = np.arange(s.tables, dtype=np.int64)  # the deal each table is playing
        self.next_episode = s.tables
        self.pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # decisions of unended deals

    def play(self, weights: dict[str, npt.NDArray[np.float32]], deals: int, segment: int) -> Batch:
        """Play at least ``deals`` deals to their end with ``weights``; their decisions."""
        import torch

        started = time.process_time()
        s = self.settings
        if self.model is None:
            self.model = network(self.envs_size(), s.hidden)
        self.model.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
        if segment != self.segment:
            self._start(segment)
        ended: dict[int, float] = {}
        chips = 0.0
        recorded = self.pending
        while len(ended) < deals:
            actions = self._greedy_actions(self.observations, self.masks)
            explore = self.rng.random(s.tables) < s.epsilon
            for row in np.flatnonzero(explore):
                actions[row] = self.rng.choice(np.flatnonzero(self.masks[row]))
            acting = np.flatnonzero(~self.autoreset)
            if acting.size:
                recorded.append(
                    (
                        self.observations[acting].astype(np.float16),
                        actions[acting].astype(np.int64),
                        self.episode[acting],
                    )
                )
            self.observations, rewards, terminated, truncated, info = self.envs.step(actions)
            self.masks = info["action_mask"].astype(bool)
            self.totals += rewards
            done = terminated | truncated
            for row in np.flatnonzero(done):
                ended[int(self.episode[row])] = float(self.totals[row])
                chips += float(self.totals[row])
                self.totals[row] = 0.0
                self.episode[row] = self.next_episode
                self.next_episode += 1
            self.autoreset = done
        observations = np.concatenate([r[0] for r in recorded]) if recorded else np.zeros((0, 0), np.float16)
        actions_taken = np.concatenate([r[1] for r in recorded]) if recorded else np.zeros(0, np.int64)
        episodes = np.concatenate([r[2] for r in recorded]) if recorded else np.zeros(0, np.int64)
        finished = np.fromiter(ended, np.int64, len(ended))
        closed = np.isin(episodes, finished)
        self.pending = [(observations[~closed], actions_taken[~closed], episodes[~closed])]
        lookup = dict(ended)
        returns = np.fromiter((lookup[int(e)] for e in episodes[closed]), np.float32, int(closed.sum()))
        return Batch(
            observations[closed],
            actions_taken[closed],
            returns,
            len(ended),
            chips,
            time.process_time() - started,
        )

    def envs_size(self) -> int:
        from paiute.envs.encoding import ObservationEncoder, rules_for_seats

        s = self.settings
        return ObservationEncoder(rules_for_seats(s.preset, s.players, {}), s.players).size


class Learner:
    """The network, its optimizer, and one pass of Monte Carlo regression per round."""

    def __init__(self, settings: Settings, inputs: int) -> None:
        import torch

        torch.manual_seed(settings.seed)
        self.settings = settings
        self.model = network(inputs, settings.hidden)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=settings.lr)
        self.demonstrations: Demonstrations | None = None

    def train(self, batches: Sequence[Batch], round_index: int) -> float:
        """One pass over the round's decisions in a seeded order; the mean squared error."""
        import torch

        observations = np.concatenate([b.observations for b in batches])
        actions = torch.from_numpy(np.concatenate([b.actions for b in batches]))
        returns = torch.from_numpy(np.concatenate([b.returns for b in batches]))
        order = np.random.default_rng([self.settings.seed, round_index, 2]).permutation(len(observations))
        losses = []
        demos = np.random.default_rng([self.settings.seed, round_index, 5])
        for steps, start in enumerate(range(0, len(order), self.settings.batch), start=1):
            rows = order[start : start + self.settings.batch]
            x = torch.from_numpy(observations[rows].astype(np.float32))
            q = self.model(x).gather(1, actions[rows, None]).squeeze(1)
            loss = torch.nn.functional.mse_loss(q, returns[rows])
            self.optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 40.0)
            self.optimizer.step()
            losses.append(loss.item())
            if (
                self.demonstrations is not None
                and self.settings.demo_every
                and steps % self.settings.demo_every == 0
            ):
                self.imitate(demos.integers(0, len(self.demonstrations.actions), self.settings.batch))
        return float(np.mean(losses)) if losses else math.nan

    def warm_start(self, demonstrations: Demonstrations, epochs: int) -> float:
        """Start from greedy's play: ``epochs`` passes of :meth:`imitate` over its decisions;
        the demonstrations are kept, to go on imitating during training (``demo_every``)."""
        self.demonstrations = demonstrations
        loss_value = math.nan
        for epoch in range(epochs):
            order = np.random.default_rng([self.settings.seed, epoch, 4]).permutation(
                len(demonstrations.actions)
            )
            for start in range(0, len(order), self.settings.batch):
                loss_value = self.imitate(order[start : start + self.settings.batch])
        return loss_value

    def imitate(self, rows: npt.NDArray[np.int64], margin: float = 0.5) -> float:
        """One step of DQfD's supervised loss on demonstrations ``rows``: greedy's action must
        score ``margin`` above every other legal one, and score the chips its deal paid."""
        import torch

        d = self.demonstrations
        assert d is not None
        actions = torch.from_numpy(d.actions[rows])
        q = self.model(torch.from_numpy(d.observations[rows].astype(np.float32)))
        chosen = q.gather(1, actions[:, None]).squeeze(1)
        bonus = torch.full_like(q, margin).scatter(1, actions[:, None], 0.0)
        best = (q + bonus).masked_fill(~torch.from_numpy(d.masks[rows]), -1e9).max(dim=1).values
        loss = (best - chosen).mean() + torch.nn.functional.mse_loss(
            chosen, torch.from_numpy(d.returns[rows])
        )
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 40.0)
        self.optimizer.step()
        return float(loss.item())


@dataclass
class Demonstrations:
    """Greedy's decisions at the learner's seat (observations as float16), the legal actions
    there, and the chips each decision's deal paid."""

    observations: npt.NDArray[np.float16]
    actions: npt.NDArray[np.int64]
    masks: npt.NDArray[np.bool_]
    returns: npt.NDArray[np.float32]


def imitate_greedy(settings: Settings) -> Demonstrations:
    """``settings.warm_deals`` deals of the single environment with ``greedy`` in the learner's
    seat, against the first actor's bots (``greedy`` for a ``self`` seat), seeded from the run."""
    import gymnasium

    import paiute.envs.gymnasium  # noqa: F401  (registers paiute/Paiute-v0)
    from paiute.players import make_player

    env = gymnasium.make(
        "paiute/Paiute-v0",
        players=settings.players,
        preset=settings.preset,
        opponents=_first_actors_bots(settings),
        observation_object=True,
    )
    teacher = make_player("greedy", seed=settings.seed)
    observations: list[np.ndarray] = []
    actions: list[int] = []
    masks: list[np.ndarray] = []
    returns: list[float] = []
    for deal in range(settings.warm_deals):
        vector, info = env.reset(seed=_segment_seed(settings.seed, deal, 0, 3))
        start, chips, done = len(actions), 0.0, False
        while not done:
            action = teacher.act(info["observation_object"]).id
            observations.append(vector.astype(np.float16))
            actions.append(action)
            masks.append(info["action_mask"].astype(bool))
            vector, reward, terminated, truncated, info = env.step(action)
            chips += float(reward)
            done = terminated or truncated
        returns.extend([chips] * (len(actions) - start))
    env.close()
    return Demonstrations(
        np.array(observations), np.array(actions, np.int64), np.array(masks), np.array(returns, np.float32)
    )


class _RayActors:
    """The actors as Ray actors (one CPU each), called at once, answered in actor order; Ray
    is the private local instance or the cluster :func:`paiute.parallel.ray_cluster` joined."""

    def __init__(self, settings: Settings) -> None:
        import ray

        self.ray = ray
        remote: Any = ray.remote(num_cpus=1)(Actor)
        self.actors = [remote.remote(settings, i) for i in range(settings.actors)]

    def play(self, weights: dict[str, npt.NDArray[np.float32]], deals: int, segment: int) -> list[Batch]:
        shared = self.ray.put(weights)
        return list(self.ray.get([actor.play.remote(shared, deals, segment) for actor in self.actors]))


class _LocalActors:
    def __init__(self, settings: Settings) -> None:
        self.actors = [Actor(settings, i) for i in range(settings.actors)]

    def play(self, weights: dict[str, npt.NDArray[np.float32]], deals: int, segment: int) -> list[Batch]:
        return [actor.play(weights, deals, segment) for actor in self.actors]


@dataclass
class Progress:
    """Where a run stands (kept in its checkpoint)."""

    deals: int = 0
    rounds: int = 0
    segment: int = 0
    decisions: int = 0
    cpu_seconds: float = 0.0
    seconds: float = 0.0
    loss: float = math.nan


def train(
    settings: Settings,
    out: Path,
    *,
    backend: str = "local",
    address: str | None = None,
    resume: bool = False,
    report: Callable[[Progress, Margin | None], None] | None = None,
    on_round: Callable[[int, list[Batch]], None] | None = None,
) -> tuple[Any, Progress]:
    """Train until ``settings.deals`` deals; write the run into ``out`` (see the module).

    ``report(progress, point)`` is called after every round (``point``: the evaluation just
    made, else ``None``); ``on_round(round, batches)`` sees every round's decisions (tests
    compare runs with it)."""
    import torch

    settings.check()
    out.mkdir(parents=True, exist_ok=True)
    checkpoint = out / "checkpoint.pt"
    curve = Curve(out)
    inputs = Actor(settings, 0).envs_size()
    learner = Learner(settings, inputs)
    progress = Progress()
    check_folder(out, resume=resume)
    if resume:
        state = torch.load(checkpoint, weights_only=False)
        saved = Settings.from_json(state["settings"])
        if dataclasses.replace(saved, deals=settings.deals, eval_deals=settings.eval_deals) != settings:
            raise PaiuteError(
                N_(
                    "--resume: {folder} holds a run with other settings (only --deals and --eval-deals may "
                    "change): {settings}"
                ),
                folder=str(out),
                settings=str(saved),
            )
        learner.model.load_state_dict(state["network"])
        learner.optimizer.load_state_dict(state["optimizer"])
        progress = Progress(**state["progress"])
        curve.truncate(progress.deals)
        if settings.warm_deals and settings.demo_every and progress.deals < settings.deals:
            learner.demonstrations = imitate_greedy(settings)  # made again: the same seed, the same deals
    elif settings.warm_deals:
        wall, cpu = time.perf_counter(), time.process_time()
        progress.loss = learner.warm_start(imitate_greedy(settings), settings.warm_epochs)
        progress.cpu_seconds = time.process_time() - cpu
        progress.seconds = time.perf_counter() - wall
        point = _evaluate(learner.model, settings)
        _add_point(curve, progress, point, deals=0, decisions=0, warm_deals=settings.warm_deals)
        if report is not None:
            report(progress, point)
    (out / "settings.json").write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
    with contextlib.ExitStack() as stack:
        actors: _LocalActors | _RayActors
        if backend == "ray":
            stack.enter_context(ray_cluster(address, settings.actors))
            actors = _RayActors(settings)
        else:
            actors = _LocalActors(settings)
        _rounds(settings, out, learner, actors, progress, curve, backend, report, on_round)
    return learner.model, progress


def _rounds(
    settings: Settings,
    out: Path,
    learner: Learner,
    actors: _LocalActors | _RayActors,
    progress: Progress,
    curve: Curve,
    backend: str,
    report: Callable[[Progress, Margin | None], None] | None,
    on_round: Callable[[int, list[Batch]], None] | None,
) -> None:
    """Play and train round after round until the run's deals are played."""
    per_actor = settings.round_deals
    while progress.deals < settings.deals:
        wall, cpu = time.perf_counter(), time.process_time()
        segment_end = (progress.segment + 1) * settings.eval_every
        batches = actors.play(weights_of(learner.model), per_actor, progress.segment)
        if on_round is not None:
            on_round(progress.rounds, batches)
        progress.loss = learner.train(batches, progress.rounds)
        progress.rounds += 1
        progress.deals += sum(b.deals for b in batches)
        progress.decisions += sum(len(b.returns) for b in batches)
        progress.cpu_seconds += (
            time.process_time() - cpu + (sum(b.cpu_seconds for b in batches) if backend == "ray" else 0.0)
        )
        progress.seconds += time.perf_counter() - wall
        point = None
        if progress.deals >= segment_end or progress.deals >= settings.deals:
            point = _evaluate(learner.model, settings)
            progress.segment += 1
            _save(out, learner, settings, progress, point, curve)
        if report is not None:
            report(progress, point)


def check_folder(out: Path, *, resume: bool) -> None:
    """Refuse to start over a run, or to resume where there is none."""
    checkpoint = out / "checkpoint.pt"
    if resume and not checkpoint.exists():
        raise PaiuteError(N_("--resume: {folder} holds no checkpoint.pt to resume from"), folder=str(out))
    if not resume and (checkpoint.exists() or (out / "curve.jsonl").exists()):
        raise PaiuteError(
            N_("{folder} already holds a run: give --resume to go on with it, or another --out"),
            folder=str(out),
        )


def _evaluate(model: Any, settings: Settings) -> Margin:
    """The curve's point: the network against the first actor's bots (greedy for a ``self``
    seat), on the fixed evaluation seeds."""
    return evaluate_vector(
        to_mlp(model).act,
        deals=settings.eval_deals,
        seed=EVAL_SEED,
        players=settings.players,
        preset=settings.preset,
        opponents=_first_actors_bots(settings),
    )


def _add_point(curve: Curve, progress: Progress, point: Margin, **where: int) -> None:
    """One point of the curve: the margin ``point`` where the training stands (``where``:
    its deals and decisions, and what else the point records) and what it has cost so far."""
    curve.add(
        **where,
        mean=point.mean,
        low=point.low,
        high=point.high,
        loss=progress.loss,
        seconds=round(progress.seconds, 1),
        cpu_seconds=round(progress.cpu_seconds, 1),
    )


def _save(
    out: Path, learner: Learner, settings: Settings, progress: Progress, point: Margin, curve: Curve
) -> None:
    """The curve's point, agent.npz and checkpoint.pt, each written whole or not at all."""
    import torch

    _add_point(curve, progress, point, deals=progress.deals, decisions=progress.decisions)
    plot_curve(
        curve.points(),
        out / "curve.png",
        f"deep Monte Carlo, seed {settings.seed}",
        players=settings.players,
        opponents=_first_actors_bots(settings),
    )
    partial = out / "agent.npz.partial.npz"
    save_mlp(partial, to_mlp(learner.model), method="dmc", deals=str(progress.deals))
    os.replace(partial, out / "agent.npz")
    state = {
        "settings": settings.to_json(),
        "network": learner.model.state_dict(),
        "optimizer": learner.optimizer.state_dict(),
        "progress": dataclasses.asdict(progress),
    }
    torch.save(state, out / "checkpoint.pt.partial")
    os.replace(out / "checkpoint.pt.partial", out / "checkpoint.pt")
