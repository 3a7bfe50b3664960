"""Duplicate tournaments: seatings, the same packs for every seating, determinism across
workers and backends, statistics, records, interruption, and the ``paiute tournament`` CLI."""

from __future__ import annotations

import json
import re
import sys
import threading
from pathlib import Path

import pytest

from paiute.actions import DRAW_STOCK, Action
from paiute.analysis.tournament import (
    TournamentConfig,
    TournamentError,
    TournamentResult,
    margin,
    play_board,
    run_tournament,
    seatings,
)
from paiute.cli.main import main
from paiute.observation import Observation
from paiute.parallel import ParallelError
from paiute.players import PLAYERS, PlayerError, PlayerInfo
from paiute.record import Record
from paiute.rules import RuleSet

# One stock and no rebuild: random players end a deal within a few dozen turns.
FAST = RuleSet(max_rebuilds=0)
# One rebuild: fewer dead deals (R4.7), more calls, more spread in the chips won.
LIVELY = RuleSet(max_rebuilds=1)
A, B = "random:seed=1", "random"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def by_spec(result: TournamentResult) -> dict[str, dict[str, object]]:
    """Each bot's results without its rating (ratings depend on the order of the deals)."""
    standings = {}
    for bot in result.standings:
        data = bot.to_json()
        del data["rating"]
        standings[bot.spec] = data
    return standings


# -- seatings and boards -----------------------------------------------------------------------


def test_seatings_fill_the_seats_in_turn_and_reseat_every_distinct_way() -> None:
    assert seatings(2, 2) == ((0, 1), (1, 0))
    assert seatings(2, 4)[0] == (0, 1, 0, 1)
    assert len(seatings(2, 4)) == 6  # 4! / (2! 2!)
    assert len(seatings(3, 3)) == 6
    assert len(seatings(5, 5)) == 120
    assert seatings(2, 4, "rotations") == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert seatings(3, 3, "rotations") == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    for mode in ("permutations", "rotations"):  # every bot sits at every seat equally often
        table = seatings(3, 3, mode)
        for seat in range(3):
            assert sorted(seating[seat] for seating in table) == sorted([0, 1, 2] * (len(table) // 3))
    with pytest.raises(TournamentError, match="3 bots need at least 3 seats, not 2"):
        seatings(3, 2)


def test_duplicate_every_seating_plays_the_same_pack_dealer_and_seats() -> None:
    config = TournamentConfig((A, B), ("a", "b"), 4, 9, FAST, records=True)
    board = play_board(config, 3)
    assert len(board.deals) == len(board.records) == 6
    records = [Record.loads(text) for text in board.records]
    for record, deal in zip(records, board.deals, strict=True):
        (dealt,) = record.deals
        assert dealt.deck == board.deck  # the same shuffled and cut pack ...
        assert dealt.dealer == board.dealer  # ... from the same dealer
        assert record.players == tuple("ab"[bot] for bot in deal.seating)
    assert {deal.seating for deal in board.deals} == set(seatings(2, 4))
    # Another board gets another pack; the same board is the same again.
    assert play_board(config, 4).deck != board.deck
    assert play_board(config, 3) == board


def test_swapping_the_bots_gives_mirrored_results() -> None:
    forward = run_tournament([A, B], deals=8, seed=5, workers=1, rules=FAST)
    backward = run_tournament([B, A], deals=8, seed=5, workers=1, rules=FAST)
    assert [bot.spec for bot in backward.standings] == [B, A]
    assert by_spec(forward) == by_spec(backward)
    assert forward.dead_rate == backward.dead_rate


def test_same_seed_same_results_with_one_or_two_workers() -> None:
    one = run_tournament([A, B], deals=8, seed=21, workers=1, rules=FAST)
    two = run_tournament([A, B], deals=8, seed=21, workers=2, rules=FAST)
    assert one.boards == two.boards
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    other = run_tournament([A, B], deals=8, seed=22, workers=1, rules=FAST)
    assert other.boards != one.boards


def test_r8_6_chips_are_conserved_in_every_deal() -> None:
    live = 0
    for rules in (LIVELY, LIVELY.replace(stake=3), LIVELY.replace(payout="scale", unit=2)):
        result = run_tournament([A, B, "random:seed=9"], deals=3, seed=2, workers=1, rules=rules)
        assert result.deals == 3 * 6
        for board in result.boards:
            for deal in board.deals:
                assert sum(deal.chips) + deal.pot == 0
                if deal.dead:  # R8.5: nobody wins; the stakes stay in the pot
                    assert deal.winners == ()
                    assert set(deal.chips) == {-rules.stake if rules.payout == "pot" else 0}
                else:
                    live += 1
                    assert deal.pot == 0
                    assert all(deal.chips[seat] == max(deal.chips) for seat in deal.winners)
        assert sum(bot.chips for bot in result.standings) == -sum(
            deal.pot for board in result.boards for deal in board.deals
        )
    assert live > 0


def test_confidence_interval_shrinks_with_more_boards() -> None:
    short = run_tournament([A, B], deals=5, seed=3, workers=1, rules=LIVELY)
    long = run_tournament([A, B], deals=40, seed=3, workers=2, rules=LIVELY)
    assert long.boards[:5] == short.boards  # a board depends only on the seed and its number
    for few, many in zip(short.standings, long.standings, strict=True):
        assert few.ci95 is not None
        assert many.ci95 is not None
        assert few.ci95[0] <= few.chips_per_deal <= few.ci95[1]
        assert many.ci95[1] - many.ci95[0] < few.ci95[1] - few.ci95[0]
    one = run_tournament([A, B], deals=1, seed=3, workers=1, rules=LIVELY)
    assert all(bot.ci95 is None for bot in one.standings)  # one board: no spread to measure


def test_json_schema() -> None:
    result = run_tournament([A, B, A], deals=2, players=4, seed=4, workers=1, rules=FAST)
    data = json.loads(json.dumps(result.to_json()))
    assert set(data) == {
        "bots",
        "players",
        "seating",
        "seatings",
        "boards",
        "boards_requested",
        "deals",
        "dead_deals",
        "dead_rate",
        "seed",
        "rules",
        "interrupted",
    }
    assert (data["players"], data["seatings"], data["boards"], data["deals"]) == (4, 12, 2, 24)
    assert data["seed"] == 4
    assert data["interrupted"] is False
    assert data["rules"] == {"preset": "pagat", "max_rebuilds": 0}
    assert 0 <= data["dead_rate"] <= 1
    assert data["dead_deals"] == round(data["dead_rate"] * 24)
    assert [bot["bot"] for bot in data["bots"]] == [A, B, f"{A}#2"]  # a repeated bot is told apart
    assert sum(bot["deals"] for bot in data["bots"]) == 24 * 4
    for bot in data["bots"]:
        assert set(bot) == {
            "bot",
            "spec",
            "deals",
            "chips",
            "chips_per_deal",
            "ci95",
            "wins",
            "win_rate",
            "calls",
            "rating",
        }
        assert bot["chips_per_deal"] == bot["chips"] / bot["deals"]
        assert bot["win_rate"] == bot["wins"] / bot["deals"]
        low, high = bot["ci95"]
        assert low <= bot["chips_per_deal"] <= high
        assert list(bot["calls"]) == [
            "paiute",
            "three_three",
            "four_two",
            "straight_flush",
            "royal_flush",
            "five_of_a_kind",
        ]
        assert set(bot["rating"]) == {"mu", "sigma", "ordinal"}
        rating = bot["rating"]
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])


def test_records_file_holds_every_deal_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "out" / "deals.jsonl"
    path.parent.mkdir()  # the folder must exist: it is never made silently (issue 15)
    result = run_tournament([A, B], deals=4, seed=8, workers=2, rules=FAST, records=path)
    assert result.records_path == str(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    deals = [deal for board in result.boards for deal in board.deals]
    assert len(lines) == len(deals) == 8
    for line, deal in zip(lines, deals, strict=True):
        record = Record.loads(line)
        (report,) = record.replay().reports
        assert report.finished
        assert report.dead == deal.dead
        assert report.balances == deal.chips
        assert report.pot == deal.pot
        assert tuple(sorted(report.winners)) == tuple(sorted(deal.winners))
    assert not list(path.parent.glob(".*.tmp"))  # written beside, then moved into place


def test_stop_keeps_the_finished_boards(tmp_path: Path) -> None:
    full = run_tournament([A, B], deals=10, seed=6, workers=1, rules=FAST)
    for workers in (1, 2):
        stop = threading.Event()
        seen: list[tuple[int, int]] = []

        def progress(
            done: int, total: int, stop: threading.Event = stop, seen: list[tuple[int, int]] = seen
        ) -> None:
            seen.append((done, total))
            if done >= 4:  # two boards of two seatings
                stop.set()

        path = tmp_path / f"stopped{workers}.jsonl"
        result = run_tournament(
            [A, B], deals=10, seed=6, workers=workers, rules=FAST, records=path, progress=progress, stop=stop
        )
        assert result.interrupted
        assert result.to_json()["interrupted"] is True
        assert seen[:2] == [(2, 20), (4, 20)]
        assert 2 <= len(result.boards) < 10
        if workers == 1:
            assert [board.index for board in result.boards] == [0, 1]
        for board in result.boards:  # what finished is exactly what the full run played
            assert board == full.boards[board.index]
        assert len(path.read_text(encoding="utf-8").splitlines()) == result.deals


def test_ctrl_c_keeps_the_finished_boards() -> None:
    def progress(done: int, total: int) -> None:
        if done == 6:
            raise KeyboardInterrupt

    result = run_tournament([A, B], deals=10, seed=6, workers=1, rules=FAST, progress=progress)
    assert result.interrupted
    assert [board.index for board in result.boards] == [0, 1, 2]


def test_bad_settings_are_refused_before_anything_runs() -> None:
    with pytest.raises(TournamentError, match="at least two bots"):
        run_tournament([A], deals=1, seed=1)
    with pytest.raises(TournamentError, match="need at least 3 seats"):
        run_tournament([A, B, A], deals=1, players=2, seed=1)
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        run_tournament([A, "nobody"], deals=1, seed=1)
    with pytest.raises(ValueError, match=r"R2\.1 6 players"):
        run_tournament([A, B], deals=1, players=6, seed=1)
    with pytest.raises(ParallelError, match="unknown backend"):
        run_tournament([A, B], deals=1, seed=1, backend="mpi")


class _Stubborn:
    """Always draws from the stock, even holding six cards (R4.2)."""

    name = "stubborn"

    def __init__(self, *, seed: int | None = None) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        return DRAW_STOCK


def test_a_bot_that_breaks_a_rule_stops_the_tournament(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(PLAYERS, "stubborn", PlayerInfo("stubborn", _Stubborn, "test"))
    path = tmp_path / "deals.jsonl"
    with pytest.raises(PlayerError, match="player 'stubborn' at seat"):
        run_tournament(["stubborn", A], deals=3, seed=1, workers=1, rules=FAST, records=path)
    assert list(tmp_path.iterdir()) == []  # no records of a tournament that failed


def test_missing_openskill_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(TournamentError, match=r"pip install 'paiute\[sim\]'"):
        run_tournament([A, B], deals=1, seed=1, workers=1)


@pytest.mark.skipif("greedy" not in PLAYERS, reason="no greedy player registered")
def test_greedy_against_random_at_four_seats() -> None:
    result = run_tournament(["greedy", "random"], deals=2, players=4, seed=1, workers=2)
    assert result.deals == 12
    greedy, random = result.standings
    assert greedy.deals == random.deals == 24  # each sits at two seats of every deal


def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray")
    local = run_tournament([A, B], deals=4, seed=13, workers=2, rules=FAST)
    ray.init(address="local", num_cpus=2, include_dashboard=False)  # never a stale cluster
    try:
        remote = run_tournament([A, B], deals=4, seed=13, rules=FAST, backend="ray")
        assert ray.is_initialized()  # a Ray started by the caller is left running
    finally:
        ray.shutdown()
    assert remote.boards == local.boards
    assert json.dumps(remote.to_json()) == json.dumps(local.to_json())


# -- the command line ----------------------------------------------------------------------------


def test_cli_json_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    argv = ["tournament", A, B, "--deals", "3", "--seed", "5", "--option", "max_rebuilds=0"]
    status, out, err = run(capsys, *argv, "--workers", "1", "--json", "--records", str(path))
    assert status == 0
    assert err == ""
    data = json.loads(out)
    assert data["records"] == str(path)
    assert (data["deals"], data["seed"], data["rules"]) == (6, 5, {"preset": "pagat", "max_rebuilds": 0})
    assert len(path.read_text(encoding="utf-8").splitlines()) == 6
    library = run_tournament([A, B], deals=3, seed=5, workers=1, rules=FAST)
    assert {key: value for key, value in data.items() if key != "records"} == library.to_json()


def test_cli_table_and_no_records_file_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 15: nothing is written unasked (as git or ripgrep would); --records FILE saves.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "150")  # rich's width when not on a terminal
    status, out, _ = run(
        capsys, "tournament", A, B, "--deals", "2", "--seed", "17", "--option", "max_rebuilds=0"
    )
    assert status == 0
    for text in (
        "Duplicate tournament",
        "Chips/seat",
        "Win rate",
        "Rating",
        A,
        "2 boards x 2 seatings",
        "seed 17",
    ):
        assert text in out
    assert "records:" not in out
    assert list(tmp_path.iterdir()) == []
    status, out, _ = run(capsys, "tournament", A, B, "--deals", "2", "--seed", "17", "--records", "r.jsonl")
    assert status == 0
    assert "records: 4 deals saved to r.jsonl" in out
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 4
    status, out, _ = run(capsys, "tournament", A, B, "--deals", "1", "--seed", "18", "--no-records")
    assert status == 0
    assert "records:" not in out
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.jsonl"]


@pytest.mark.parametrize(("bots", "players"), [([A, B], 4), ([A, B, "random:seed=2"], 4), ([A, B], 2)])
def test_cli_table_and_footer_count_the_same_seats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bots: list[str], players: int
) -> None:
    # Two bots at four seats play two seats of every deal each: the column counts those seats,
    # and so does the footer (boards x seatings = deals, deals x seats = seats played).
    monkeypatch.setenv("COLUMNS", "200")
    argv = ["tournament", *bots, "--deals", "2", "--players", str(players), "--seed", "3"]
    status, out, _ = run(capsys, *argv, "--option", "max_rebuilds=0", "--workers", "1")
    assert status == 0
    header = next(line for line in out.splitlines() if "Chips/seat" in line)
    assert header.split()[:2] == ["Bot", "Seats"]
    seats = {
        line.split()[0]: int(line.split()[1])
        for line in out.splitlines()
        if line.strip().startswith("random")
    }
    footer = re.search(
        r"(\d+) boards x (\d+) seatings \(\w+\) = (\d+) deals x (\d+) seats = (\d+) seats played", out
    )
    assert footer is not None
    boards, seatings_, deals, at_table, played = map(int, footer.groups())
    assert (boards, at_table) == (2, players)
    assert deals == boards * seatings_
    assert played == deals * players == sum(seats.values())
    lineup = [index % len(bots) for index in range(players)]
    assert [seats[bot] for bot in bots] == [deals * lineup.count(index) for index in range(len(bots))]


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for phrase in ("--deals N", "boards to play", "--players K", "--workers W", "--seed S", "--json"):
        assert phrase in text
    for phrase in ("--backend {local,ray}", "--records FILE", "paiute-record/1", "95% confidence interval"):
        assert phrase in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "tournament" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["random", "nobody"], "unknown player 'nobody' (levels: easy, medium, hard, expert; players: "),
        (["random", "random:depth=3"], "player 'random' has no option 'depth'"),
        (["random"], "at least two bots"),
        (["random", "random", "random", "--players", "2"], "need at least 3 seats"),
        (["random", "random", "--option", "stake=-1"], "bad value for option stake"),
        (["random", "random", "--address", "auto"], "--address needs --backend ray"),
    ],
)
def test_cli_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "tournament", *argv, "--deals", "1", "--no-records")
    assert status == 2
    assert out == ""
    assert message in err
    assert err.startswith("paiute tournament: error: ")
    assert "Traceback" not in err
    assert err.count("\n") == 1


def test_cli_deals_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "random", "random", "--deals", "0"])
    assert exit_info.value.code == 2
    assert "--deals: expected a whole number of at least 1" in capsys.readouterr().err


def test_margin_is_the_paired_difference_of_the_two_bots_chips_per_deal() -> None:
    """paiute.analysis.tournament.margin: per board, bot 0's chips per seat less bot 1's; with every
    board seating both bots equally often its mean is the difference of the standings."""
    result = run_tournament(["greedy", "random"], deals=6, players=4, seed=8, workers=1, seating="rotations")
    difference, interval = margin(result)
    first, second = result.standings
    assert difference == pytest.approx(first.chips_per_deal - second.chips_per_deal)
    assert interval is not None
    assert interval[0] <= difference <= interval[1]
    flipped, _ = margin(result, bot=1, other=0)
    assert flipped == pytest.approx(-difference)
