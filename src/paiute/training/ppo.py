"""MaskablePPO (sb3-contrib) through the compiled vector env: the PPO baseline.

``paiute train ppo --seed 0`` trains the learner's seat of ``--envs`` tables against compiled
bots (:func:`paiute.envs.vector.sb3_vec_env`, same-step autoreset; the action masks keep every
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

Only the standard library is imported here; PyTorch, sb3-contrib and NumPy (the ``train``
extra) where the run needs them, so that a bare install can list the command.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paiute.errors import PaiuteError

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from paiute.training.agent import MLP
    from paiute.training.report import Margin

__all__ = ["EVAL_SEED", "Settings", "export_policy", "policy_kwargs", "run", "segment_seed"]

#: The vector env's seed of the learning curve's evaluation deals: the same deals at every point
#: of every run, and the deep Monte Carlo baseline's, so that curves compare.
EVAL_SEED = 7_000_000
#: The final tournament's bots.
FINAL_OPPONENTS = ("random", "greedy", "expert")

#: What a run leaves in its folder; one of them there without --resume is another run's.
RUN_FILES = ("checkpoint.zip", "checkpoint.json", "curve.jsonl", "curve.png", "agent.npz", "results.json")

_INSTALL = "paiute train ppo needs PyTorch and sb3-contrib, the train extra: pip install 'paiute[train]'"


@dataclass(frozen=True)
class Settings:
    """Everything that decides a run's learning (``steps``, ``eval_every`` and
    ``final_boards`` may change when it is resumed; the rest come from its checkpoint)."""

    seed: int
    steps: int
    envs: int
    players: int
    preset: str
    opponents: str
    eval_every: int
    eval_deals: int
    final_boards: int
    quick: bool
    # MaskablePPO's own, not options: a baseline is reproduced by its command line alone.
    n_steps: int
    batch_size: int
    n_epochs: int
    learning_rate: float
    gamma: float
    gae_lambda: float
    clip_range: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float


#: The sizes of a real run.
FULL = {
    "seed": 0,
    "steps": 1_500_000,
    "envs": 64,
    "players": 4,
    "preset": "pagat",
    "opponents": "greedy",
    "eval_every": 100_000,
    "eval_deals": 4_000,
    "final_boards": 500,
    "n_steps": 128,
    "batch_size": 1024,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    # A deal pays its chips only at its end (R8) and is a few dozen steps long: undiscounted.
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
}

#: --quick: every stage once, in seconds (tests and the install checks).
QUICK = {
    **FULL,
    "steps": 512,
    "envs": 8,
    "eval_every": 256,
    "eval_deals": 32,
    "final_boards": 2,
    "n_steps": 32,
    "batch_size": 64,
    "n_epochs": 1,
}

#: Options on the command line (the rest of Settings are fixed by --quick or not).
_OPTIONS = (
    "seed",
    "steps",
    "envs",
    "players",
    "preset",
    "opponents",
    "eval_every",
    "eval_deals",
    "final_boards",
)
#: What a resumed run may change.
_CHANGEABLE = ("steps", "eval_every", "final_boards")


# -- settings ---------------------------------------------------------------------------------------


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (``None``: not given)."""
    return {name: getattr(args, name, None) for name in _OPTIONS if getattr(args, name, None) is not None}


def _settings(given: dict[str, Any], quick: bool) -> Settings:
    values = {**(QUICK if quick else FULL), **given, "quick": quick}
    return Settings(**values)


def _check(settings: Settings) -> None:
    """Refuse values no run can have, in one line each."""
    least = {
        "steps": 1,
        "envs": 1,
        "players": 2,
        "eval_every": 1,
        "eval_deals": 2,
        "final_boards": 0,
        "seed": 0,
    }
    for name, low in least.items():
        value = getattr(settings, name)
        if value < low:
            raise PaiuteError(f"--{name.replace('_', '-')} must be at least {low}, not {value}")
    if not settings.preset.strip() or not settings.opponents.strip():
        raise PaiuteError("--preset and --opponents may not be empty")


def segment_seed(seed: int, steps: int) -> int:
    """The seed of the segment of a run that starts after ``steps`` steps (at 0 the run's own
    seed; table ``i`` of the segment deals from ``segment_seed + i``)."""
    return seed + steps


def _default_out(seed: int) -> Path:
    return Path("runs") / f"ppo-seed{seed}"


def _device(name: str, cuda_available: Callable[[], bool]) -> str:
    name = name.strip().lower()
    if name == "auto":
        return "cuda" if cuda_available() else "cpu"
    if name == "cpu" or name.startswith("cuda"):
        if name.startswith("cuda") and not cuda_available():
            raise PaiuteError(f"--device {name}: PyTorch sees no CUDA device here (use cpu or auto)")
        return name
    raise PaiuteError(f"--device must be cpu, cuda or auto, not {name!r}")


def _command(settings: Settings, out: Path) -> str:
    """The command line that makes this run again."""
    words = ["paiute", "train", "ppo"]
    for name in _OPTIONS:
        words += [f"--{name.replace('_', '-')}", str(getattr(settings, name))]
    words += ["--out", str(out)]
    if settings.quick:
        words.append("--quick")
    return shlex.join(words)


def _prepare_folder(out: Path, resume: bool) -> None:
    if out.exists() and not out.is_dir():
        raise PaiuteError(f"--out {str(out)!r} is a file, not a folder")
    if "," in str(out):
        raise PaiuteError(f"--out {str(out)!r} holds a comma: the agent's player spec could not name it")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PaiuteError(f"cannot make the folder {str(out)!r}: {error.strerror}") from None
    found = [name for name in RUN_FILES if (out / name).exists()]
    if resume:
        missing = [name for name in ("checkpoint.zip", "checkpoint.json") if not (out / name).exists()]
        if missing:
            raise PaiuteError(f"nothing to resume in {str(out)!r}: no {' or '.join(missing)}")
    elif found:
        raise PaiuteError(
            f"{str(out)!r} holds another run ({', '.join(found)}): "
            "add --resume to continue it, or choose another --out"
        )
    if not os.access(out, os.W_OK):
        raise PaiuteError(f"cannot write into {str(out)!r}")


def _resumed_settings(out: Path, given: dict[str, Any], quick: bool) -> tuple[Settings, dict[str, Any]]:
    """The checkpoint's settings with the changeable options given now, and its counters."""
    try:
        saved = json.loads((out / "checkpoint.json").read_text(encoding="utf-8"))
        settings = Settings(**saved["settings"])
        counters = {key: saved[key] for key in ("steps", "deals", "seconds", "cpu_seconds")}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PaiuteError(f"cannot read {str(out / 'checkpoint.json')!r}: {error}") from None
    if quick != settings.quick:
        raise PaiuteError(
            f"{str(out)!r} is a --quick run: add --quick"
            if settings.quick
            else f"{str(out)!r} is not a --quick run: leave out --quick"
        )
    for name, value in given.items():
        if name not in _CHANGEABLE and value != getattr(settings, name):
            raise PaiuteError(
                f"--{name.replace('_', '-')} {value} differs from the run in {str(out)!r} "
                f"({getattr(settings, name)}): only --steps, --eval-every and --final-boards may change"
            )
    return replace(settings, **{name: given[name] for name in _CHANGEABLE if name in given}), counters


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
    with torch.no_grad():
        return MLP(
            [
                (layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy())
                for layer in linear
            ]
        )


# -- the run ----------------------------------------------------------------------------------------


def _import_training() -> None:
    """Refuse in one line, naming the extra, where the training libraries are missing."""
    try:
        import gymnasium  # noqa: F401
        import numpy  # noqa: F401
        import rich  # noqa: F401
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        raise PaiuteError(_INSTALL) from None


def run(args: argparse.Namespace) -> int:
    """``paiute train ppo``: train, evaluate, checkpoint, then the final tournament."""
    given = _given(args)
    quick = bool(getattr(args, "quick", False))
    resume = bool(getattr(args, "resume", False))
    if not resume:
        _check(_settings(given, quick))
    out_option = getattr(args, "out", None)
    out = Path(out_option) if out_option is not None else _default_out(given.get("seed", FULL["seed"]))
    _import_training()
    import torch

    device = _device(str(getattr(args, "device", "auto")), torch.cuda.is_available)
    threads = getattr(args, "threads", 1)
    if threads is not None:
        if threads < 1:
            raise PaiuteError(f"--threads must be at least 1, not {threads}")
        torch.set_num_threads(threads)
    _prepare_folder(out, resume)
    counters = {"steps": 0, "deals": 0, "seconds": 0.0, "cpu_seconds": 0.0}
    if resume:
        settings, counters = _resumed_settings(out, given, quick)
        _check(settings)
    else:
        settings = _settings(given, quick)
    results = _Run(settings, out, device, counters, resume).train_and_judge()
    if getattr(args, "json", False):
        print(json.dumps(results, indent=2, sort_keys=True))
    else:
        _print_table(results)
    return 0


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

        from paiute.envs.vector import sb3_vec_env

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
        from paiute.training.report import evaluate_vector, plot_curve

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
        from paiute.training.report import final_tournament

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

        from paiute.training.report import write_results

        settings = self.settings
        last = self.curve.points()[-1]
        about = {
            "method": "ppo",
            "algorithm": "MaskablePPO",
            "command": _command(settings, self.out)
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


def _print_table(results: dict[str, Any]) -> None:
    """A few lines for the person who ran it: the run, then a row per bot."""
    last = results["curve"]["last"]
    print(
        f"MaskablePPO seed {results['seed']}: {results['steps']:,} steps, {results['deals']:,} training deals, "
        f"{results['cpu_hours']:.3f} CPU-hours"
    )
    print(
        f"curve: {last['mean']:+.3f} [{last['low']:+.3f}, {last['high']:+.3f}] chips per deal against "
        f"{results['curve']['opponents']} ({results['curve']['eval_deals']:,} deals)"
    )
    rows = results["final_tournament"]
    if not rows:
        print("final tournament: skipped (--final-boards 0)")
        return
    print(f"final tournament ({rows[0]['boards']:,} boards each, duplicate): margin per deal, 95% interval")
    for row in rows:
        low, high = row["low"], row["high"]
        interval = f"[{low:+.3f}, {high:+.3f}]" if math.isfinite(low) and math.isfinite(high) else "[-, -]"
        print(f"  vs {row['opponent']:<8} {row['mean']:+.3f} {interval}")
    print(f"agent: {results['tournament']['agent']}")
