"""MaskablePPO (sb3-contrib) through the compiled vector env: the PPO baseline.

``paiute train ppo --seed 0`` trains the learner's seat of ``--envs`` tables against compiled
bots (:func:`paiute.envs.sb3.sb3_vec_env`, same-step autoreset; the action masks keep every
action legal, R4). Every ``--eval-every`` steps it exports the policy network to
:class:`~paiute.training.agent.MLP`, measures its masked argmax on the same evaluation deals
every time (:func:`~paiute.training.report.evaluate_vector`), adds the point to the learning
curve and saves a checkpoint, between PPO's update and the next rollout. At the end it writes
``agent.npz`` and plays the final duplicate tournament of
``paiute.training.agent.load:weights=<out>/agent.npz`` against each bot.

The same seed and options make the same run. After each checkpoint the run starts a new
segment: every generator reseeded from the seed and the steps done (:func:`segment_seed`) and
every table dealt a new deal, exactly what ``--resume`` does from that checkpoint, so a run
stopped and resumed goes on as if it had never stopped.

The folder ``--out`` holds ``curve.jsonl`` and ``curve.png`` (:mod:`paiute.training.report`),
``checkpoint.zip`` (SB3's model: weights and optimizer state), ``checkpoint.json`` (the run's
settings and counters at that checkpoint, what ``--resume`` reads), ``agent.npz`` and
``results.json``.

The policy is SB3's ``MlpPolicy`` with ReLU and separate 256-256 policy and value networks, so
that ``mlp_extractor.policy_net`` then ``action_net`` is exactly a ReLU perceptron: the exported
network plays the same masked argmax as the model's deterministic ``predict`` (:func:`export_policy`).

What a run is, :class:`~paiute.training.ppo_settings.Settings`, and the command that starts
one, :mod:`paiute.training.ppo_command`, are apart from the training here. Only the standard
library is imported here; PyTorch, sb3-contrib and NumPy (the ``train`` extra) where the run
needs them, once the command has checked that they are installed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paiute.errors import PaiuteError
from paiute.training.ppo_settings import Settings

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from paiute.training.agent import MLP
    from paiute.training.report import Margin

__all__ = ["export_policy", "policy_kwargs", "segment_seed", "train_and_judge"]


def segment_seed(seed: int, steps: int) -> int:
    """The seed of the segment of a run that starts after ``steps`` steps (at 0 the run's own
    seed; table ``i`` of the segment deals from ``segment_seed + i``)."""
    return seed + steps


# -- the network ------------------------------------------------------------------------------------


def policy_kwargs() -> dict[str, Any]:
    """MlpPolicy's shape: ReLU, separate 256-256 policy and value networks (exportable to MLP)."""
    import torch

    return {"activation_fn": torch.nn.ReLU, "net_arch": {"pi": [256, 256], "vf": [256, 256]}}


def export_policy(model: MaskablePPO) -> MLP:
    """The model's policy as an :class:`~paiute.training.agent.MLP`: its scores are the
    policy's logits, so the legal action of highest score is the deterministic ``predict``'s."""
    import torch
    from stable_baselines3.common.torch_layers import FlattenExtractor

    from paiute.training.agent import MLP

    policy = model.policy
    if not isinstance(policy.features_extractor, FlattenExtractor):
        raise PaiuteError("only MlpPolicy's flat observations can be exported")
    modules = [*policy.mlp_extractor.policy_net, policy.action_net]
    linear = [module for module in modules if isinstance(module, torch.nn.Linear)]
    expected = [torch.nn.Linear, torch.nn.ReLU] * (len(linear) - 1) + [torch.nn.Linear]
    if [type(module) for module in modules] != expected:
        raise PaiuteError("the policy network is not Linear and ReLU layers in turn: it cannot be exported")
    return MLP.from_linear(linear)


# -- the run ----------------------------------------------------------------------------------------


def train_and_judge(
    settings: Settings, out: Path, device: str, counters: dict[str, Any], resume: bool
) -> dict[str, Any]:
    """Train the run in ``out`` (from ``counters``, the checkpoint's, when it is resumed), then
    play its final tournament; what it wrote in results.json."""
    return _Run(settings, out, device, counters, resume).train_and_judge()


class _Run:
    """One training run in its folder: the model, its env, the curve and the counters."""

    def __init__(
        self, settings: Settings, out: Path, device: str, counters: dict[str, Any], resume: bool
    ) -> None:
        from paiute.training.report import Curve

        self.settings = settings
        self.out = out
        self.device = device
        self.resume = resume
        self.deals = int(counters["deals"])
        self.wall_start = time.monotonic() - float(counters["seconds"])
        self.cpu_start = time.process_time() - float(counters["cpu_seconds"])
        self.curve = Curve(out)
        self.next_eval = 0
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        self.last_shown = 0.0
        self.model: Any = None

    # The counters of this run, resumed ones included.
    def seconds(self) -> float:
        return time.monotonic() - self.wall_start

    def cpu_seconds(self) -> float:
        return time.process_time() - self.cpu_start

    def train_and_judge(self) -> dict[str, Any]:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        settings = self.settings
        envs = self._make_envs()
        try:
            self.model = self._make_model(envs)
            steps_done = int(self.model.num_timesteps)
            if self.resume:
                self.curve.truncate(self.deals)
            every = settings.eval_every
            self.next_eval = 0 if not self.curve.points() else (steps_done // every + 1) * every
            console = Console(stderr=True)
            with Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[status]}"),
                TimeElapsedColumn(),
                console=console,
            ) as progress:
                self.progress = progress
                self.task = progress.add_task("steps", total=settings.steps, completed=steps_done, status="")
                console.print(
                    f"MaskablePPO seed {settings.seed}: {settings.envs} tables of {settings.players} seats, "
                    f"{settings.preset}, against {settings.opponents}; {self.device}; "
                    + (f"resumed at {steps_done:,} steps" if self.resume else "from scratch")
                    + f"; {self.out}",
                    highlight=False,
                    soft_wrap=True,
                )
                if self.next_eval == 0:
                    self._evaluate()
                    self.next_eval = every
                if steps_done < settings.steps:
                    self.model.learn(
                        total_timesteps=settings.steps - steps_done,
                        callback=self._callback(),
                        reset_num_timesteps=not self.resume,
                    )
                if self.curve.points()[-1]["steps"] != self.model.num_timesteps:
                    self._evaluate()
                    self._checkpoint()
                agent = self._export()
                training_seconds, training_cpu = self.seconds(), self.cpu_seconds()
                tournament_start, tournament_cpu = time.monotonic(), time.process_time()
                rows = self._final_tournament(agent, progress)
                tournament = {
                    "seed": settings.seed,
                    "boards": settings.final_boards,
                    "agent": agent,
                    "seconds": round(time.monotonic() - tournament_start, 1),
                    "cpu_seconds": round(time.process_time() - tournament_cpu, 1),
                }
        finally:
            envs.close()
        return self._results(rows, training_seconds, training_cpu, tournament)

    def _make_envs(self) -> Any:
        import gymnasium
        from gymnasium.vector import AutoresetMode

        import paiute.envs.gymnasium  # noqa: F401  (registers paiute/Paiute-v0)
        from paiute.envs import GYMNASIUM_ID

        settings = self.settings
        return gymnasium.make_vec(
            GYMNASIUM_ID,
            num_envs=settings.envs,
            vectorization_mode="vector_entry_point",
            players=settings.players,
            preset=settings.preset,
            opponents=settings.opponents,
            autoreset_mode=AutoresetMode.SAME_STEP,
            illegal="raise",  # the masks make every action legal; a broken mask stops the run
        )

    def _make_model(self, envs: Any) -> Any:
        from sb3_contrib import MaskablePPO

        from paiute.envs.sb3 import sb3_vec_env

        settings = self.settings
        venv = sb3_vec_env(envs)
        if self.resume:
            model = MaskablePPO.load(self.out / "checkpoint.zip", env=venv, device=self.device)
            # The segment that starts at the checkpoint, as the run that never stopped starts it.
            model.set_random_seed(segment_seed(settings.seed, int(model.num_timesteps)))
            return model
        return MaskablePPO(
            "MlpPolicy",
            venv,
            n_steps=settings.n_steps,
            batch_size=settings.batch_size,
            n_epochs=settings.n_epochs,
            learning_rate=settings.learning_rate,
            gamma=settings.gamma,
            gae_lambda=settings.gae_lambda,
            clip_range=settings.clip_range,
            ent_coef=settings.ent_coef,
            vf_coef=settings.vf_coef,
            max_grad_norm=settings.max_grad_norm,
            policy_kwargs=policy_kwargs(),
            seed=settings.seed,
            device=self.device,
            verbose=0,
        )

    def on_step(self, local: dict[str, Any]) -> bool:
        """After each step of all tables: count the deals that ended, show the progress."""
        import numpy as np

        self.deals += int(np.count_nonzero(local["dones"]))
        now = time.monotonic()
        if self.progress is not None and self.task is not None and now - self.last_shown > 0.5:
            self.last_shown = now
            self.progress.update(self.task, completed=min(int(self.model.num_timesteps), self.settings.steps))
        return True

    def on_rollout_start(self) -> None:
        """Between PPO's update and the next rollout: once --eval-every steps have passed, a
        point of the curve and a checkpoint, of a network trained on exactly the steps counted."""
        steps = int(self.model.num_timesteps)
        if steps >= self.next_eval:
            self._evaluate()
            self._checkpoint()
            every = self.settings.eval_every
            self.next_eval = (steps // every + 1) * every
            self._new_segment(steps)

    def _new_segment(self, steps: int) -> None:
        """Reseed every generator and deal every table a new deal, as a run resumed from this
        checkpoint does (SB3 keeps no generator state in its checkpoint, the tables' deals in
        progress cannot be saved): so a resumed run goes on exactly as if it had never stopped.
        The deals in progress are dropped, their steps already in the rollout just learnt from."""
        import numpy as np

        model = self.model
        model.set_random_seed(segment_seed(self.settings.seed, steps))
        model._last_obs = model.env.reset()
        model._last_episode_starts = np.ones((model.env.num_envs,), dtype=bool)

    def _callback(self) -> BaseCallback:
        from stable_baselines3.common.callbacks import BaseCallback

        run = self

        class Hooks(BaseCallback):
            def _on_step(self) -> bool:
                return run.on_step(self.locals)

            def _on_rollout_start(self) -> None:
                run.on_rollout_start()

        return Hooks()

    def _evaluate(self) -> None:
        from paiute.training.report import EVAL_SEED, evaluate_vector, plot_curve

        settings = self.settings
        margin = evaluate_vector(
            export_policy(self.model).act,
            deals=settings.eval_deals,
            seed=EVAL_SEED,
            players=settings.players,
            preset=settings.preset,
            opponents=settings.opponents,
        )
        steps = int(self.model.num_timesteps)
        point = {
            "deals": self.deals,
            "steps": steps,
            "mean": margin.mean,
            "low": margin.low,
            "high": margin.high,
            "seconds": round(self.seconds(), 2),
            "cpu_seconds": round(self.cpu_seconds(), 2),
        }
        self.curve.add(**point)
        plot_curve(
            self.curve.points(),
            self.out / "curve.png",
            f"MaskablePPO, seed {settings.seed}: {settings.players} seats, {settings.preset}, "
            f"against {settings.opponents}",
            players=settings.players,
            opponents=settings.opponents,
        )
        status = f"{margin.mean:+.3f} [{margin.low:+.3f}, {margin.high:+.3f}]"
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, completed=min(steps, settings.steps), status=status)
            self.progress.console.print(
                f"{steps:>11,} steps {self.deals:>10,} deals  {status} chips/deal vs {settings.opponents} "
                f"({settings.eval_deals:,} deals)  {self.seconds():,.0f} s",
                highlight=False,
                soft_wrap=True,
            )

    def _checkpoint(self) -> None:
        """SB3's model and the counters beside it, each written whole, then moved in place."""
        partial = self.out / "checkpoint.partial.zip"
        self.model.save(partial)
        os.replace(partial, self.out / "checkpoint.zip")
        state = {
            "settings": asdict(self.settings),
            "steps": int(self.model.num_timesteps),
            "deals": self.deals,
            "seconds": self.seconds(),
            "cpu_seconds": self.cpu_seconds(),
        }
        partial_json = self.out / "checkpoint.partial.json"
        partial_json.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(partial_json, self.out / "checkpoint.json")

    def _export(self) -> str:
        """Write agent.npz; its player spec for the tournament."""
        from paiute.training.agent import read_mlp, save_mlp

        settings = self.settings
        path = self.out / "agent.npz"
        save_mlp(
            path,
            export_policy(self.model),
            algorithm="MaskablePPO",
            seed=str(settings.seed),
            steps=str(self.model.num_timesteps),
            deals=str(self.deals),
            players=str(settings.players),
            preset=settings.preset,
            opponents=settings.opponents,
        )
        read_mlp.cache_clear()  # a run resumed in this process reads the new network, not the old
        return f"paiute.training.agent.load:weights={path}"

    def _final_tournament(self, agent: str, progress: Progress) -> list[Margin]:
        from paiute.training.report import FINAL_OPPONENTS, final_tournament

        settings = self.settings
        if settings.final_boards == 0:
            return []
        tasks = {
            opponent: progress.add_task(f"vs {opponent}", total=settings.final_boards, status="")
            for opponent in FINAL_OPPONENTS
        }

        def report(opponent: str, done: int, total: int) -> None:
            progress.update(tasks[opponent], completed=done, total=total)

        return final_tournament(
            agent,
            boards=settings.final_boards,
            seed=settings.seed,  # the same boards as every other method's run of this seed
            opponents=FINAL_OPPONENTS,
            players=settings.players,
            preset=settings.preset,
            workers=1,
            progress=report,
        )

    def _results(
        self, rows: Sequence[Margin], seconds: float, cpu_seconds: float, tournament: dict[str, Any]
    ) -> dict[str, Any]:
        import numpy
        import sb3_contrib
        import stable_baselines3
        import torch

        from paiute.training.report import EVAL_SEED, write_results

        settings = self.settings
        last = self.curve.points()[-1]
        about = {
            "method": "ppo",
            "algorithm": "MaskablePPO",
            "command": settings.command(self.out)
            + (f" --threads {torch.get_num_threads()}" if torch.get_num_threads() != 1 else ""),
            "seed": settings.seed,
            "steps": int(self.model.num_timesteps),
            "deals": self.deals,
            "seconds": round(seconds, 1),
            "cpu_seconds": round(cpu_seconds, 1),
            "cpu_hours": round(cpu_seconds / 3600, 3),
            "hours": round(seconds / 3600, 3),
            "device": self.device,
            "settings": asdict(settings),
            "curve": {
                "last": last,
                "points": len(self.curve.points()),
                "eval_seed": EVAL_SEED,
                "eval_deals": settings.eval_deals,
                "opponents": settings.opponents,
            },
            "tournament": tournament,
            "versions": {
                "python": sys.version.split()[0],
                "numpy": numpy.__version__,
                "torch": torch.__version__,
                "stable_baselines3": stable_baselines3.__version__,
                "sb3_contrib": sb3_contrib.__version__,
                "torch_threads": torch.get_num_threads(),
            },
        }
        path = write_results(self.out, rows, **about)
        results: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return results
