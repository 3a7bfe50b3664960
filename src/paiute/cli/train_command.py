"""``paiute train``: the baselines, trained through the compiled vector env (the ``train`` extra).

The options are declared here, without importing the training code, so that ``paiute --help``
runs on a bare install; :mod:`paiute.training.dmc_command` and
:mod:`paiute.training.ppo_command` run them.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from paiute.cli.common import args_translator
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, translator
from paiute.training.dmc_settings import Settings
from paiute.training.ppo_settings import FULL as PPO

#: The defaults of ``paiute train dmc``.
DMC = Settings()

_EPILOG = N_("""\
Each run writes into its folder (--out): curve.jsonl (a point per evaluation: chips per deal
against the bots on fixed deals, with a {level} interval), curve.png, agent.npz (the network, which
plays in a tournament as paiute.training.agent.load:weights=FOLDER/agent.npz), checkpoint for
--resume, and results.json (the final duplicate tournament against random, greedy and expert).
The same seed and options make the same run, with the actors in this process or on Ray.

examples:
  paiute train dmc --deals 1000000 --warm-start 20000 --seed 0
  paiute train dmc --resume --deals 2000000 --out runs/dmc-seed0
  paiute train dmc --deals 10000000 --warm-start 20000 --actors 8 --backend ray --address auto
  paiute train ppo --steps 1000000 --seed 0
  paiute tournament paiute.training.agent.load:weights=runs/dmc-seed0/agent.npz greedy --players 4 --deals 500
""")


def _require_train_extra() -> None:
    """Refuse in one line where the ``train`` extra is missing."""
    for module in ("numpy", "torch", "gymnasium", "numba", "sb3_contrib"):
        if importlib.util.find_spec(module) is None:
            raise PaiuteError(N_("paiute train needs {module}: pip install 'paiute[train]'"), module=module)


def register(commands: Any, tr: Translator | None = None) -> None:
    tr = tr or translator()
    _ = tr.gettext
    parser = commands.add_parser(
        "train",
        help=_(N_("train a baseline agent (deep Monte Carlo or MaskablePPO) through the vector env")),
        description=_(
            N_(
                "Train an agent against bots through the compiled vector env, with a learning curve, "
                "checkpoints and a final duplicate tournament against random, greedy and expert."
            )
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    methods = parser.add_subparsers(dest="method", metavar=_(N_("METHOD")), required=True)
    dmc = methods.add_parser(
        "dmc",
        help=_(N_("deep Monte Carlo (DouZero-style) on the shared encoding; actors here or on Ray")),
        description=_(
            N_(
                "Deep Monte Carlo: a Q-network over the shared encoding, each action regressed on the "
                "chips its deal paid. Actors play rounds of deals with the current network (a random "
                "legal action with probability --epsilon); the learner trains one pass over each round. "
                "Options left out take their defaults, or with --resume the run's own."
            )
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d = DMC

    def option(name: str, kind: type, metavar: str, text: str, default: object) -> None:
        dmc.add_argument(name, type=kind, metavar=metavar, help=_(text, default=default))

    option("--seed", int, "N", N_("the run's seed (default {default})"), d.seed)
    option("--deals", int, "N", N_("training deals in all (default {default})"), d.deals)
    _add_folder(dmc, tr)
    option("--players", int, "N", N_("seats at a table (default {default})"), d.players)
    option("--preset", str, _(N_("PRESET")), N_("rules preset (default {default})"), d.preset)
    option(
        "--opponents",
        str,
        _(N_("SPECS")),
        N_(
            "the other seats: one bot spec for all, or one per seat separated by commas; 'self' seats "
            "the network itself; specs separated by ';' go to the actors in turn (default {default})"
        ),
        ";".join(d.opponents),
    )
    option("--actors", int, "N", N_("actors playing deals (default {default})"), d.actors)
    dmc.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help=_(N_("local: the actors take turns in this process; ray: a Ray actor each (the cluster extra)")),
    )
    dmc.add_argument(
        "--address",
        metavar=_(N_("ADDRESS")),
        help=_(N_("a Ray cluster's address (default: start a private local one)")),
    )
    option("--tables", int, "N", N_("tables per actor (default {default})"), d.tables)
    option("--round-deals", int, "N", N_("deals per actor per round (default {default})"), d.round_deals)
    option(
        "--hidden", str, "W,W", N_("hidden layer widths (default {default})"), ",".join(map(str, d.hidden))
    )
    option("--lr", float, "X", N_("Adam's step size (default {default})"), d.lr)
    option("--batch", int, "N", N_("minibatch rows (default {default})"), d.batch)
    option("--epsilon", float, "P", N_("chance of a random legal action (default {default})"), d.epsilon)
    option(
        "--eval-every", int, "N", N_("training deals between curve points (default {default})"), d.eval_every
    )
    option("--eval-deals", int, "N", N_("deals per curve point (default {default})"), d.eval_deals)
    option(
        "--warm-start",
        int,
        _(N_("DEALS")),
        N_(
            "first imitate greedy over this many deals of the single env (its move must score above "
            "the others, and score what its deal paid), then train (default {default}: from scratch)"
        ),
        d.warm_deals,
    )
    option(
        "--demo-every",
        int,
        "N",
        N_(
            "with --warm-start, one imitation step on greedy's decisions after every N training steps "
            "(0: none), so that training departs from greedy only where the chips say (default {default})"
        ),
        d.demo_every,
    )
    _add_run_options(dmc, tr, 500, given=False)
    dmc.set_defaults(run=_run_dmc)
    _register_ppo(methods, tr)


def _register_ppo(methods: Any, tr: Translator) -> None:
    _ = tr.gettext
    ppo = methods.add_parser(
        "ppo",
        help=_(N_("MaskablePPO (sb3-contrib) through the vector env")),
        description=_(
            N_(
                "MaskablePPO (sb3-contrib), its policy and value networks of two ReLU layers of 256, "
                "trained through the compiled vector env against bots; the policy is exported to a "
                "network that plays on NumPy alone. Options left out take their defaults, or with "
                "--resume the run's own."
            )
        ),
        epilog=_(_EPILOG, level=tr.number(95) + "%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d = PPO

    def option(name: str, kind: type, metavar: str, text: str, default: object) -> None:
        ppo.add_argument(name, type=kind, metavar=metavar, help=_(text, default=default))

    option("--seed", int, "N", N_("the run's seed (default {default})"), d["seed"])
    option(
        "--steps",
        int,
        "N",
        N_("learner steps, all tables together, rounded up to whole rollouts (default {default})"),
        d["steps"],
    )
    _add_folder(ppo, tr)
    option("--envs", int, "N", N_("tables played at once (default {default})"), d["envs"])
    option("--players", int, "N", N_("seats at a table (default {default})"), d["players"])
    option("--preset", str, _(N_("PRESET")), N_("rules preset (default {default})"), d["preset"])
    option(
        "--opponents",
        str,
        _(N_("SPECS")),
        N_(
            "the bots at the other seats: random, greedy or playout, one for all or one per seat (default {default})"
        ),
        d["opponents"],
    )
    option(
        "--eval-every",
        int,
        "N",
        N_("learner steps between curve points (default {default})"),
        d["eval_every"],
    )
    option("--eval-deals", int, "N", N_("deals per curve point (default {default})"), d["eval_deals"])
    ppo.add_argument(
        "--device",
        default="auto",
        choices=("auto", "cpu", "cuda"),
        help=_(N_("where PyTorch trains: auto takes CUDA when there is a GPU (default %(default)s)")),
    )
    _add_run_options(ppo, tr, int(str(PPO["final_boards"])), given=True)
    ppo.set_defaults(run=_run_ppo)


def _add_folder(parser: argparse.ArgumentParser, tr: Translator) -> None:
    _ = tr.gettext
    parser.add_argument(
        "--out",
        type=Path,
        metavar=_(N_("FOLDER")),
        help=_(N_("the run's folder (default runs/METHOD-seedSEED)")),
    )
    parser.add_argument("--resume", action="store_true", help=_(N_("go on from the folder's checkpoint")))


def _add_run_options(
    parser: argparse.ArgumentParser, tr: Translator, final_boards: int, *, given: bool
) -> None:
    """The options of how a run is carried out, which every method takes; ``given``: an
    option left out is ``None`` (the method fills it in: its own default, or its --quick one)."""
    _ = tr.gettext
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help=_(N_("the learner's CPU threads (default %(default)s)")),
    )
    parser.add_argument(
        "--final-boards",
        type=int,
        default=None if given else final_boards,
        metavar="N",
        help=_(
            N_(
                "boards of the final tournament against each of random, greedy and expert; 0: none (default {default})"
            ),
            default=final_boards,
        ),
    )
    parser.add_argument(
        "--quick", action="store_true", help=_(N_("a tiny run of a few seconds (to try the pipeline)"))
    )
    parser.add_argument(
        "--json", action="store_true", help=_(N_("print the results as JSON on standard output"))
    )


def _run_dmc(args: argparse.Namespace) -> int:
    _require_train_extra()
    from paiute.training import dmc_command

    return dmc_command.run(args, args_translator(args))


def _run_ppo(args: argparse.Namespace) -> int:
    _require_train_extra()
    from paiute.training import ppo_command

    return ppo_command.run(args)
