"""Train the ``learned`` player's value network on the CPU, with NumPy only (docs/learned.md).

Every deal, training and behaviour cloning alike, is played through the public PettingZoo
environment (:func:`paiute.envs.pettingzoo.env` with ``observation_object=True``):
``reset(seed)``, then ``last()``/``step(action_id)`` for every seat, the learner and the
``greedy`` seats each acting on the Observation the env gives the seat to act in its
``infos`` (R9), the learner's reward the env's (its chips won or lost, stake included, R8.2;
0 for a dead or cut deal, R8.5). Two methods, from the same warm start, with the same
features and the same number of deals:

* ``dmc`` — deep Monte Carlo, as in DouZero: ``Q(s, a)`` (paiute.players.learned_features) is
  regressed on the seat's reward for every action the seat took; the seat plays the action
  of highest ``Q``, a random legal one with probability ``epsilon``.
* ``pg`` — policy gradient (REINFORCE with a batch-mean baseline): the network's outputs are
  the logits of a softmax over the legal actions (a masked policy: only legal actions get a
  logit); the seat samples from it and each action's log-probability is raised by how much
  better than the batch mean the deal ended.

The warm start is behaviour cloning of ``greedy`` (cross-entropy on greedy's choices in greedy
self-play). Each training deal seats the learner at two of four seats (``A B A B``) against
two ``greedy`` bots. After every iteration the greedy (argmax) policy plays a fixed duplicate
tournament against ``greedy`` (``paiute.analysis.tournament.run_tournament``, seating rotations): the
training curve is its margin, in chips per deal, with a 95% interval.

    python examples/train_learned.py --quick            # a few seconds: the pipeline only
    python examples/train_learned.py                    # both methods (about 12 CPU-minutes)
    python examples/train_learned.py --methods dmc --iterations 12 --out my.npz

Writes the best network of the chosen method (``--out``, default ``learned.npz`` in the
working directory), the curve as JSON (``--curve``, default ``learned_curve.json`` there) and
an SVG plot (``--plot``). Only ``--write-shipped`` replaces the network the package ships,
``src/paiute/players/data/learned.npz`` (what ``make_player("learned")`` plays). Run with one
thread (``OMP_NUM_THREADS=1``); 2 cores are more than enough.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from paiute.analysis.tournament import margin, run_tournament
from paiute.envs.pettingzoo import env
from paiute.players import make_player
from paiute.players.learned import DEFAULT_WEIGHTS
from paiute.players.learned_features import QNetwork, action_features

PLAYERS = 4
LEARNER_SEATS = (0, 2)  # A B A B: the learner at two seats, greedy at the others


@dataclass
class Decision:
    """One decision of a learner seat: every legal action's features and the one taken."""

    rows: np.ndarray
    chosen: int
    seat: int


@dataclass
class Adam:
    """Adam over a list of arrays (updated in place)."""

    params: list[np.ndarray]
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    step: int = 0
    m: list[np.ndarray] = field(default_factory=list)
    v: list[np.ndarray] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]

    def update(self, grads: list[np.ndarray]) -> None:
        self.step += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            mhat = m / (1 - self.beta1**self.step)
            vhat = v / (1 - self.beta2**self.step)
            p -= self.lr * mhat / (np.sqrt(vhat) + 1e-8)


def forward_backward(params: list[np.ndarray], x: np.ndarray, dout_fn) -> tuple[float, list[np.ndarray]]:  # type: ignore[no-untyped-def]
    """The network of QNetwork (two ReLU layers), forward then backward; ``dout_fn(out)``
    gives the loss and its gradient with respect to the outputs."""
    w1, b1, w2, b2, w3, b3 = params
    z1 = x @ w1 + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2 + b2
    h2 = np.maximum(z2, 0)
    out = (h2 @ w3 + b3).reshape(-1)
    loss, dout = dout_fn(out)
    dout = dout.reshape(-1, 1).astype(np.float32)
    gw3 = h2.T @ dout
    gb3 = dout.sum(0)
    dh2 = dout @ w3.T * (z2 > 0)
    gw2 = h1.T @ dh2
    gb2 = dh2.sum(0)
    dh1 = dh2 @ w2.T * (z1 > 0)
    gw1 = x.T @ dh1
    gb1 = dh1.sum(0)
    return loss, [gw1, gb1, gw2, gb2, gw3, gb3]


def segment_softmax(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Softmax of ``values`` within each segment beginning at ``starts`` (one per decision)."""
    top = np.maximum.reduceat(values, starts)
    counts = np.diff(np.append(starts, len(values)))
    shifted = np.exp(values - np.repeat(top, counts))
    return shifted / np.repeat(np.add.reduceat(shifted, starts), counts)


def stack(decisions: list[Decision]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All rows, each decision's first row, and the chosen row's index."""
    sizes = np.array([len(d.rows) for d in decisions])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([d.chosen for d in decisions])
    return np.concatenate([d.rows for d in decisions]), starts, chosen


def training_table() -> AECEnv:
    """The environment every training deal is played in: PettingZoo's AEC env at 4 seats,
    default rules, each decision's ``infos`` carrying the seat's own Observation (R9), which
    the features (and the greedy seats) read."""
    return env(players=PLAYERS, observation_object=True)


def play_deal(
    table: AECEnv, seed: int, network: QNetwork | None, mode: str, rng: np.random.Generator, epsilon: float
) -> tuple[list[Decision], dict[int, float]]:
    """One training deal through the environment (``reset(seed)``, then ``step`` for every
    seat: the learner at LEARNER_SEATS, ``greedy`` at the others, each acting on its
    ``infos["observation_object"]``). ``network=None`` plays greedy's choices (the behaviour
    cloning data). Returns the learner seats' decisions and every seat's reward: its chips
    won or lost, stake included (R8.2), 0 for a dead or cut deal (R8.5)."""
    table.reset(seed=seed)
    bots = {
        seat: make_player("greedy", seed=seed * 31 + seat)
        for seat in range(PLAYERS)
        if seat not in LEARNER_SEATS
    }
    seats = {agent: index for index, agent in enumerate(table.possible_agents)}
    collected = dict.fromkeys(range(PLAYERS), 0.0)
    decisions: list[Decision] = []
    for agent in table.agent_iter():
        _, reward, termination, truncation, info = table.last(observe=False)
        seat = seats[agent]
        collected[seat] += reward
        if termination or truncation:
            table.step(None)
            continue
        observation = info["observation_object"]
        if seat in bots:
            table.step(bots[seat].act(observation).id)
            continue
        actions = observation.legal_actions
        if len(actions) == 1:
            table.step(actions[0].id)
            continue
        legal, rows = action_features(observation, seed)
        if network is None:
            index = int(rows[:, -1].argmax())  # greedy's choice
        elif mode == "pg":
            logits = network(rows)
            p = np.exp(logits - logits.max())
            index = int(rng.choice(len(legal), p=p / p.sum()))
        elif rng.random() < epsilon:
            index = int(rng.integers(len(legal)))
        else:
            index = network.choose(rows)
        decisions.append(Decision(rows, index, seat))
        table.step(legal[index].id)
    return decisions, collected


def params_of(network: QNetwork) -> list[np.ndarray]:
    return [np.array(w, dtype=np.float32) for w in network.weights]


def fit_bc(
    params: list[np.ndarray], decisions: list[Decision], epochs: int, rng: np.random.Generator
) -> float:
    """Behaviour cloning: cross-entropy of the softmax over legal actions on greedy's choice."""
    opt = Adam(params, lr=3e-3)
    loss = 0.0
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(decisions)), max(1, len(decisions) // 256)):
            x, starts, chosen = stack([decisions[i] for i in batch])

            def dout(
                out: np.ndarray, starts: np.ndarray = starts, chosen: np.ndarray = chosen
            ) -> tuple[float, np.ndarray]:
                p = segment_softmax(out, starts)
                grad = p.copy()
                grad[chosen] -= 1.0
                return float(-np.log(p[chosen] + 1e-9).mean()), grad / len(starts)

            loss, grads = forward_backward(params, x, dout)
            opt.update(grads)
    return loss


def fit_dmc(
    params: list[np.ndarray], opt: Adam, x: np.ndarray, y: np.ndarray, epochs: int, rng: np.random.Generator
) -> float:
    """Deep Monte Carlo: mean squared error of Q(s, a) on the deal's chips."""
    loss = 0.0
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(y)), max(1, len(y) // 512)):

            def dout(out: np.ndarray, target: np.ndarray = y[batch]) -> tuple[float, np.ndarray]:
                diff = out - target
                return float((diff * diff).mean()), 2 * diff / len(diff)

            loss, grads = forward_backward(params, x[batch], dout)
            opt.update(grads)
    return loss


def fit_pg(params: list[np.ndarray], opt: Adam, decisions: list[Decision], returns: np.ndarray) -> float:
    """REINFORCE with the batch mean as baseline, one pass in minibatches."""
    advantage = returns - returns.mean()
    loss = 0.0
    order = np.arange(len(decisions))
    for batch in np.array_split(order, max(1, len(decisions) // 512)):
        x, starts, chosen = stack([decisions[i] for i in batch])
        adv = advantage[batch]

        def dout(
            out: np.ndarray, starts: np.ndarray = starts, chosen: np.ndarray = chosen, adv: np.ndarray = adv
        ) -> tuple[float, np.ndarray]:
            p = segment_softmax(out, starts)
            counts = np.diff(np.append(starts, len(out)))
            grad = p * np.repeat(adv, counts)
            grad[chosen] -= adv
            return float(-(adv * np.log(p[chosen] + 1e-9)).mean()), grad / len(starts)

        loss, grads = forward_backward(params, x, dout)
        opt.update(grads)
    return loss


def evaluate(
    network: QNetwork, boards: int, seed: int, workdir: Path, tag: str
) -> tuple[float, float, float]:
    """The argmax policy against greedy: a duplicate tournament (4 seats, rotations)."""
    path = workdir / f"{tag}.npz"  # a new file each time: the player reads a path once
    network.save(path)
    result = run_tournament(
        [f"learned:weights={path}", "greedy"],
        deals=boards,
        players=PLAYERS,
        seed=seed,
        workers=1,
        seating="rotations",
    )
    difference, interval = margin(result)
    low, high = interval if interval is not None else (math.nan, math.nan)
    return difference, low, high


def train(
    method: str, args: argparse.Namespace, warm: QNetwork, workdir: Path, progress: Progress
) -> dict[str, object]:
    rng = np.random.default_rng(args.seed + (1 if method == "pg" else 0))
    table = training_table()
    params = params_of(warm)
    opt = Adam(params, lr=args.lr if method == "dmc" or args.pg_lr is None else args.pg_lr)
    buffer_x: list[np.ndarray] = []
    buffer_y: list[np.ndarray] = []
    curve: list[dict[str, object]] = []
    best_network, best_margin = warm, -math.inf
    network = warm
    mid, low, high = evaluate(network, args.eval_boards, args.eval_seed, workdir, f"{method}-0")
    curve.append({"iteration": 0, "deals": 0, "margin": mid, "low": low, "high": high, "cpu_s": 0.0})
    best_network, best_margin = warm, mid
    started = time.process_time()
    task = progress.add_task(f"{method}", total=args.iterations)
    deal_seed = args.seed * 1_000_000 + (500_000 if method == "pg" else 0)
    for iteration in range(1, args.iterations + 1):
        decisions: list[Decision] = []
        returns: list[float] = []
        for _ in range(args.deals):
            deal_seed += 1
            played, chips = play_deal(table, deal_seed, network, method, rng, args.epsilon)
            decisions += played
            returns += [float(chips[d.seat]) for d in played]
        y = np.array(returns, dtype=np.float32)
        if method == "dmc":
            buffer_x.append(np.stack([d.rows[d.chosen] for d in decisions]))
            buffer_y.append(y)
            buffer_x, buffer_y = buffer_x[-args.buffer :], buffer_y[-args.buffer :]
            loss = fit_dmc(params, opt, np.concatenate(buffer_x), np.concatenate(buffer_y), args.epochs, rng)
        else:
            loss = fit_pg(params, opt, decisions, y)
        network = QNetwork(tuple(p.copy() for p in params), args.threshold if method == "dmc" else 0.0)
        mid, low, high = evaluate(network, args.eval_boards, args.eval_seed, workdir, f"{method}-{iteration}")
        cpu = time.process_time() - started
        curve.append(
            {
                "iteration": iteration,
                "deals": iteration * args.deals,
                "margin": mid,
                "low": low,
                "high": high,
                "cpu_s": cpu,
                "loss": loss,
            }
        )
        # Kept as it grows, so an interrupted run still has its curve.
        partial = args.curve.with_name(f"{args.curve.stem}.{method}.partial.json")
        partial.write_text(json.dumps(curve, indent=1))
        if mid > best_margin or args.keep == "last":
            best_network, best_margin = network, mid
        progress.update(
            task, advance=1, description=f"{method} it {iteration}: {mid:+.3f} [{low:+.3f}, {high:+.3f}]"
        )
        progress.console.log(
            f"{method} iteration {iteration}: loss {loss:.4f}, margin vs greedy {mid:+.3f} [{low:+.3f}, {high:+.3f}], {cpu:.0f} CPU-s"
        )
    return {"curve": curve, "best": best_network, "best_margin": best_margin}


def svg_plot(curves: dict[str, list[dict[str, object]]], path: Path) -> None:
    """The training curves (margin against greedy, with the 95% band) as a small SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for method, curve in curves.items():
        deals = [float(str(p["deals"])) for p in curve]
        ax.plot(deals, [p["margin"] for p in curve], marker="o", label=method)
        ax.fill_between(deals, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.2)  # type: ignore[arg-type]
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("training deals")
    ax.set_ylabel("margin against greedy (chips/deal)")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few deals of everything: the pipeline only")
    parser.add_argument("--methods", default="dmc,pg", help="comma-separated: dmc, pg (default both)")
    parser.add_argument(
        "--ship", default=None, help="the method whose best network is written (default: the better)"
    )
    parser.add_argument("--bc-deals", type=int, default=600)
    parser.add_argument("--bc-epochs", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--deals", type=int, default=1500, help="training deals per iteration")
    parser.add_argument("--epochs", type=int, default=2, help="DMC passes over the buffer per iteration")
    parser.add_argument("--buffer", type=int, default=4, help="DMC: iterations of data kept")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--pg-lr", type=float, default=None, help="pg's learning rate (default --lr)")
    parser.add_argument(
        "--threshold",
        type=float,
        default=0.0,
        help="DMC: leave greedy's choice only for an action whose Q is higher by more than this",
    )
    parser.add_argument(
        "--keep",
        choices=("best", "last"),
        default="best",
        help="the network written: the iteration of the best margin (default), or the last one "
        "(no choice made on the evaluation's boards, so its margin there is not biased upwards)",
    )
    parser.add_argument("--eval-boards", type=int, default=300)
    parser.add_argument("--eval-seed", type=int, default=2026)
    parser.add_argument("--seed", type=int, default=1)
    written = parser.add_mutually_exclusive_group()
    written.add_argument(
        "--out", type=Path, default=Path("learned.npz"), help="the network's file (default learned.npz)"
    )
    written.add_argument(
        "--write-shipped",
        action="store_true",
        help=f"replace the network the package ships, {DEFAULT_WEIGHTS}, instead of writing --out",
    )
    parser.add_argument(
        "--curve",
        type=Path,
        default=Path("learned_curve.json"),
        help="the curves' JSON (default learned_curve.json)",
    )
    parser.add_argument("--plot", type=Path, default=None, help="an SVG of the curves")
    args = parser.parse_args(argv)
    if args.write_shipped:
        args.out = DEFAULT_WEIGHTS
    if args.quick:
        args.bc_deals, args.bc_epochs, args.iterations, args.deals, args.eval_boards = 3, 1, 1, 2, 2
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if not methods or any(m not in ("dmc", "pg") for m in methods):
        print(f"train_learned: --methods takes dmc and/or pg, not {args.methods!r}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    started = time.process_time()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns) as progress, tempfile.TemporaryDirectory(prefix="paiute-learned-") as tmp:
        workdir = Path(tmp)
        table = training_table()
        task = progress.add_task("behaviour cloning: greedy's deals", total=args.bc_deals)
        decisions: list[Decision] = []
        for index in range(args.bc_deals):
            decisions += play_deal(table, index, None, "bc", rng, 0.0)[0]
            progress.advance(task)
        params = params_of(QNetwork.initial(seed=args.seed))
        bc_loss = fit_bc(params, decisions, args.bc_epochs, rng)
        warm = QNetwork(tuple(params))
        progress.console.log(f"behaviour cloning: {len(decisions)} decisions, loss {bc_loss:.4f}")
        results = {method: train(method, args, warm, workdir, progress) for method in methods}
    ship = args.ship or max(methods, key=lambda m: float(str(results[m]["best_margin"])))
    best = results[ship]["best"]
    assert isinstance(best, QNetwork)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    best.save(args.out, method=ship, margin=float(str(results[ship]["best_margin"])))
    curves = {m: results[m]["curve"] for m in methods}
    args.curve.write_text(
        json.dumps(
            {
                "args": {k: str(v) for k, v in vars(args).items()},
                "curves": curves,
                "shipped": ship,
                "cpu_s": time.process_time() - started,
            },
            indent=1,
        )
    )
    if args.plot is not None:
        svg_plot(curves, args.plot)  # type: ignore[arg-type]
    print(
        f"wrote {args.out} ({ship}, {args.out.stat().st_size} bytes) and {args.curve}; {time.process_time() - started:.0f} CPU-s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
