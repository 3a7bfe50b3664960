"""``paiute train dmc``: train with a progress bar, play the final tournament, print the
results in the reader's language. The run's settings come from
:func:`~paiute.training.dmc_settings.settings_from`, the training from
:func:`paiute.training.dmc.train`."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, localized_digits
from paiute.training.dmc import Progress, check_folder, train
from paiute.training.dmc_settings import Settings, settings_from
from paiute.training.report import Margin, final_tournament, write_results

__all__ = ["margin_text", "run"]


def run(args: argparse.Namespace, tr: Translator) -> int:
    """``paiute train dmc``: train, then the final tournament; 0 on success."""
    try:
        import torch
    except ImportError:
        raise PaiuteError(
            N_("paiute train needs {module}: pip install 'paiute[train]'"), module="PyTorch"
        ) from None
    out = args.out or Path("runs") / f"dmc-seed{args.seed if args.seed is not None else Settings().seed}"
    settings = settings_from(args, out)
    torch.set_num_threads(max(1, args.threads))
    if args.final_boards < 0:
        raise PaiuteError(
            N_("{option} must be 0 or more, not {value}"), option="--final-boards", value=args.final_boards
        )
    final_boards = min(args.final_boards, 8) if args.quick else args.final_boards
    check_folder(out, resume=args.resume)
    _, progress = _train_with_progress(settings, out, args, tr)
    rows: list[Margin] = []
    if final_boards:
        agent = f"paiute.training.agent.load:weights={out / 'agent.npz'}"
        rows = final_tournament(
            agent, boards=final_boards, seed=settings.seed, players=settings.players, preset=settings.preset
        )
    about = {
        "method": "dmc",
        "command": settings.command(final_boards),
        "settings": settings.to_json(),
        "deals": progress.deals,
        "decisions": progress.decisions,
        "cpu_hours": round(progress.cpu_seconds / 3600, 3),
        "hours": round(progress.seconds / 3600, 3),
        "torch": torch.__version__,
    }
    write_results(out, rows, **about)
    if args.json:
        print(json.dumps({**about, "final_tournament": [dataclasses.asdict(r) for r in rows]}, indent=2))
    else:
        print(
            tr.gettext(
                N_("{deals} training deals, {hours} CPU-hours; {folder}"),
                deals=localized_digits(f"{progress.deals:,}", tr),
                hours=localized_digits(f"{progress.cpu_seconds / 3600:.2f}", tr),
                folder=str(out),
            )
        )
        for row in rows:
            print("  " + margin_text(row, tr))
    return 0


def margin_text(margin: Margin, tr: Translator) -> str:
    """``str(margin)`` in the reader's language: ``+0.125 [+0.010, +0.240] vs greedy (500 boards)``."""
    if margin.boards:
        sample = tr.ngettext(
            "{n} board", "{n} boards", margin.boards, n=localized_digits(f"{margin.boards:,}", tr)
        )
    else:
        sample = tr.ngettext(
            "{n} deal", "{n} deals", margin.deals, n=localized_digits(f"{margin.deals:,}", tr)
        )
    return tr.gettext(
        N_("{mean} [{low}, {high}] vs {opponent} ({sample})"),
        mean=localized_digits(f"{margin.mean:+.3f}", tr),
        low=localized_digits(f"{margin.low:+.3f}", tr),
        high=localized_digits(f"{margin.high:+.3f}", tr),
        opponent=margin.opponent,
        sample=sample,
    )


def _train_with_progress(
    settings: Settings, out: Path, args: argparse.Namespace, tr: Translator
) -> tuple[Any, Progress]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    console = Console(stderr=True)
    with Bar(
        TextColumn("dmc"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task("train", total=settings.deals, status="")

        def report(progress: Progress, point: Margin | None) -> None:
            status = f"loss {progress.loss:.3f}"
            if point is not None:
                status += f" · vs greedy {point.mean:+.3f} [{point.low:+.3f}, {point.high:+.3f}]"
                console.print(
                    tr.gettext(
                        N_("{deals} deals: {margin}, loss {loss}"),
                        deals=localized_digits(f"{progress.deals:,}", tr),
                        margin=margin_text(point, tr),
                        loss=localized_digits(f"{progress.loss:.3f}", tr),
                    ),
                    markup=False,
                )
            bar.update(task, completed=min(progress.deals, settings.deals), status=status)

        return train(
            settings, out, backend=args.backend, address=args.address, resume=args.resume, report=report
        )
