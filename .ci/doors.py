"""CI's door test: install the package as a user would, one extra at a time, and use it.

For each door (a bare install, then each extra the README names, alone) this makes a fresh
virtual environment, installs the wheel built from this checkout with that extra, and runs the
commands the README assigns to it on small inputs. Each check either works (exit 0, the expected
text) or is refused in one line on standard error that names the extra to install, exit 2,
never a traceback.

    .venv/bin/python .ci/doors.py                 # every door, two at a time
    .venv/bin/python .ci/doors.py bare web        # some of them
    .venv/bin/python .ci/doors.py --list          # the doors and their checks

It needs ``uv`` (in the ``test`` extra) to make the environments; the installs come from the
package index as a user's would, the wheel from this checkout.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Where this project's machines keep a CPU build of PyTorch (the index's is a CUDA build of
#: several GB); elsewhere the train door installs the index's torch.
LOCAL_WHEELS = Path("/opt/wheels")


def local_torch() -> tuple[str, ...]:
    """The local CPU build of PyTorch to install before the ``train`` extra, if there is one."""
    wheels = sorted(LOCAL_WHEELS.glob("torch-*+cpu-*.whl")) if LOCAL_WHEELS.is_dir() else []
    return (str(wheels[-1]),) if wheels else ()


@dataclass(frozen=True)
class Check:
    """One command of a door: ``argv`` run in the door's environment (``paiute`` and ``python``
    are that environment's), which must work or be refused naming ``refused_by``."""

    name: str
    argv: tuple[str, ...]
    refused_by: str | None = None  # the extra the refusal must name, if it must be refused
    output: str | None = None  # text the output must contain (a regular expression)
    stdin: str = ""  # under a terminal: keys, typed one a second once the screen is drawn
    terminal: bool = False  # run under a pseudo-terminal (script(1))
    status: int = 0  # the exit status that means it worked
    timeout: float = 120.0


@dataclass
class Door:
    """A fresh environment with ``extras`` installed, and what must work in it."""

    name: str
    extras: tuple[str, ...]
    checks: list[Check] = field(default_factory=list)
    before: tuple[str, ...] = ()  # requirements installed first (a CPU torch, say)
    special: tuple[Callable[[Path, Path], str], ...] = ()  # (python, workdir) -> failure or ""


def paiute(*words: str, **kwargs: object) -> Check:
    return Check(" ".join(("paiute", *words)), ("paiute", *words), **kwargs)  # type: ignore[arg-type]


def python(name: str, code: str, **kwargs: object) -> Check:
    return Check(name, ("python", "-c", code), **kwargs)  # type: ignore[arg-type]


def doctest(path: str, needs: str | None = None, timeout: float = 120.0) -> Check:
    flags = ("-o", "ELLIPSIS", "-o", "NORMALIZE_WHITESPACE")
    return Check(
        f"doctest {path}",
        ("python", "-m", "doctest", *flags, str(ROOT / path)),
        refused_by=needs,
        timeout=timeout,
    )


#: A small record: a three-seat match of two deals between greedy bots (the engine alone).
MAKE_RECORD = """
from paiute import Match, Record, RuleSet, SeededChance
from paiute.players import make_player, play_deal
match = Match(RuleSet(), ["Ana", "Bo", "Cy"], chance=SeededChance(7))
bots = [make_player("greedy", seed=seat) for seat in range(3)]
for _ in range(2):
    play_deal(match, bots)
open("match.json", "w").write(Record.from_match(match).dumps())
"""

PLAY_LEARNED = """
from paiute import Match, RuleSet, SeededChance
from paiute.players import make_player, play_deal
match = Match(RuleSet(), ["a", "b"], chance=SeededChance(1))
bots = [make_player("learned", seed=1), make_player("greedy", seed=2)]
for _ in range(3):
    play_deal(match, bots)
print("learned played", len(match.results), "deals")
"""

EVAL_OUTPUT = r"best:      Four/Two, aces over kings \(show 3h 3s Ad Ac Ks Kh\)"


def engine_checks() -> list[Check]:
    """What the README promises on any install: the engine commands."""
    return [
        paiute("--help", output="evaluate holdings"),
        paiute("--version", output=r"paiute \d"),
        paiute("eval", "3h 3s Ad Ac Ks Kh", "--wild", "3", output=EVAL_OUTPUT),
        paiute("eval", "9h Th Jh Qh 3c 2s", "--wild", "3", "--json", output='"straight_flush"'),
        paiute("rules", "--preset", "gamerules", output="R8"),
        paiute("replay", "match.json", output="record is valid"),
        paiute("replay", "match.json", "--json", output='"ok": true'),
        # A record of bots carries no fair-deal proof: exit 1, "nothing was verified".
        paiute("verify", "match.json", output="fair-deal proof", status=1),
        paiute("review", "match.json", "--playouts", "2", output="accuracy"),
        paiute("hint", "match.json", "--deal", "1", "--move", "3", "--playouts", "4", output="Hint"),
        paiute("play", "--plain", "--seed", "1", "--no-save", output="You left the match"),
        # No terminal (or no Textual): the lesson line by line; the end of input leaves it.
        paiute("learn", output="Coach: Welcome"),
        *(paiute(command, "--help", output="usage") for command in COMMANDS),
    ]


COMMANDS = ("play", "learn", "serve", "eval", "replay", "verify", "rules", "tournament", "simulate", "odds")

SIM_COMMANDS = (
    ("odds", "--wild", "any", "--players", "2", "--turns", "2"),
    ("tournament", "greedy", "random", "--deals", "4"),
    ("simulate", "--deals", "10"),
)


def serve_answers_health(python: Path, workdir: Path) -> str:
    """``paiute serve`` starts and ``/api/health`` answers that its database does; "" when it did."""
    command = [str(python.parent / "paiute"), "serve", "--port", "0", "--data-dir", str(workdir / "data")]
    server = subprocess.Popen(
        command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            return f"paiute serve printed {line!r}, not its address"
        with urllib.request.urlopen(found.group(0) + "api/health", timeout=20) as answer:
            body = json.loads(answer.read())
        healthy = answer.status == 200 and body.get("ok") and body.get("database") == "ok"
        return "" if healthy else f"/api/health answered {body!r}"
    except OSError as error:
        return f"/api/health: {error}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def doors() -> list[Door]:
    return [
        Door(
            "bare",
            (),
            [
                *engine_checks(),
                *(paiute(*command, refused_by="sim") for command in SIM_COMMANDS),
                paiute("serve", "--port", "0", refused_by="web"),
                paiute("play", "--seed", "1", "--no-save", refused_by="tui", terminal=True),
                paiute("replay", "match.json", "--watch", refused_by="tui", terminal=True),
                paiute("play", "--plain", "--bots", "learned", "--no-save", refused_by="learned"),
                paiute("train", "dmc", "--quick", refused_by="train"),
            ],
        ),
        Door(
            "tui",
            ("tui",),
            [
                paiute("--help", output="evaluate holdings"),
                # --no-lesson: a fresh data directory would offer the lesson first.
                paiute(
                    "play",
                    "--seed",
                    "1",
                    "--no-save",
                    "--no-lesson",
                    stdin="qyq",
                    terminal=True,
                    output="You left",
                ),
                paiute("learn", stdin="qy", terminal=True),
                paiute("replay", "match.json", "--watch", stdin="q", terminal=True),
                # Textual brings rich, which is all odds and simulate need; ratings need openskill.
                paiute(*SIM_COMMANDS[1], refused_by="sim"),
            ],
        ),
        Door(
            "sim",
            ("sim",),
            [
                paiute("--help", output="evaluate holdings"),
                paiute(*SIM_COMMANDS[0], output="turn"),
                paiute(*SIM_COMMANDS[1], output="random"),
                paiute(*SIM_COMMANDS[2], output="chips conserved"),
                paiute("simulate", "--deals", "10", "--plot", "charts", output="wrote 4 charts"),
                paiute("tournament", "greedy", "random", "--deals", "4", "--json", output='"boards": 4'),
                paiute("serve", "--port", "0", refused_by="web"),
            ],
        ),
        Door(
            "web",
            ("web",),
            [paiute("--help", output="evaluate holdings"), paiute("serve", "--help", output="usage")],
            special=(serve_answers_health,),
        ),
        Door(
            "rl",
            ("rl",),
            [
                paiute("--help", output="evaluate holdings"),
                # gym.make_vec's compiled vector env compiles its kernels on first use.
                doctest("docs/encoding.md", timeout=600),
                python(
                    "PettingZoo api_test",
                    "from pettingzoo.test import api_test\n"
                    "import paiute.envs.pettingzoo as p\n"
                    "api_test(p.env(players=3), num_cycles=200)",
                ),
                python(
                    "gymnasium check_env and make_vec",
                    "import gymnasium as gym, numpy as np\n"
                    "import paiute.envs.gymnasium\n"
                    "from gymnasium.utils.env_checker import check_env\n"
                    "check_env(gym.make('paiute/Paiute-v0', opponents='greedy').unwrapped)\n"
                    "envs = gym.make_vec('paiute/Paiute-v0', num_envs=2)\n"
                    "obs, info = envs.reset(seed=1)\n"
                    "rng = np.random.default_rng(1)\n"
                    "for _ in range(300):\n"
                    "    mask = info['action_mask']\n"
                    "    assert mask.any(axis=1).all(), 'a row of the mask admits no action'\n"
                    "    actions = (rng.random(mask.shape) * mask).argmax(axis=1)\n"
                    "    obs, reward, end, cut, info = envs.step(actions)\n"
                    "print('ok')",
                    output="ok",
                    timeout=600,
                ),
            ],
        ),
        Door(
            "learned",
            ("learned",),
            [
                python("make_player('learned') plays", PLAY_LEARNED, output="learned played 3 deals"),
                paiute("play", "--plain", "--bots", "learned", "--seed", "1", "--no-save", output="You left"),
                paiute("tournament", "learned", "greedy", "--deals", "2", refused_by="sim"),
            ],
        ),
        Door(
            "batch",
            ("batch",),
            [
                python(
                    "batch evaluation",
                    "import doctest, paiute.batch\n"
                    "failed, tried = doctest.testmod(paiute.batch)\n"
                    "assert tried and not failed, (failed, tried)\n"
                    "print('ok', tried)",
                    output="ok",
                ),
            ],
        ),
        Door(
            "search",
            ("search",),
            [
                python("the compiled core is available", "import paiute.compiled as c; assert c.available()"),
                paiute(
                    "play", "--plain", "--bots", "pimc:ms=10", "--seed", "1", "--no-save", output="You left"
                ),
            ],
        ),
        Door("openspiel", ("openspiel",), [doctest("docs/openspiel.md")]),
        Door(
            "cluster",
            ("cluster",),
            [
                python("ray imports", "import ray; print(ray.__version__)"),
                paiute(
                    "tournament", "greedy", "random", "--deals", "2", "--backend", "ray", refused_by="sim"
                ),
            ],
        ),
        Door(
            "sim+cluster",
            ("sim", "cluster"),
            [
                paiute(
                    "tournament",
                    "greedy",
                    "random",
                    "--deals",
                    "4",
                    "--backend",
                    "ray",
                    "--workers",
                    "2",
                    output="random",
                    timeout=300,
                ),
            ],
        ),
        Door(
            "train",
            ("train",),
            [
                Check(
                    "examples/train_learned.py --quick",
                    ("python", str(ROOT / "examples" / "train_learned.py"), "--quick"),
                    timeout=300,
                ),
                Check(
                    "examples/train_policy.py --quick",
                    ("python", str(ROOT / "examples" / "train_policy.py"), "--quick"),
                    timeout=300,
                ),
                # The vector env compiles its kernels on first use.
                paiute(
                    "train",
                    "dmc",
                    "--quick",
                    "--out",
                    "dmc",
                    "--final-boards",
                    "2",
                    output="vs expert",
                    timeout=600,
                ),
            ],
            before=local_torch(),
        ),
    ]


def run_check(check: Check, bin_dir: Path, workdir: Path) -> str:
    """Run one check; "" when it passed, else what went wrong."""
    program = str(bin_dir / check.argv[0])
    argv = [program, *check.argv[1:]]
    env = {**os.environ, "PAIUTE_LANG": "en", "NO_COLOR": "1", "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}
    env.pop("VIRTUAL_ENV", None)
    env["PAIUTE_DATA_DIR"] = str(workdir / "data")
    if check.terminal:
        # script(1) gives the command a terminal and passes the keys written to its stdin.
        line = " ".join(_quote(word) for word in argv)
        argv = ["script", "-qfec", line, "/dev/null"]
        env["TERM"] = "xterm-256color"
    started = time.monotonic()
    # Output goes to files: a full screen writes more than a pipe holds while its keys are typed.
    with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
        process = subprocess.Popen(
            argv, cwd=workdir, env=env, stdin=subprocess.PIPE, stdout=out_file, stderr=err_file, text=True
        )
        try:
            if check.terminal:
                assert process.stdin is not None
                time.sleep(5)  # the full screen draws before it reads keys
                for key in check.stdin:
                    process.stdin.write(key)
                    process.stdin.flush()
                    time.sleep(1)
            process.communicate("" if check.terminal else check.stdin, timeout=check.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            timed_out = True
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    if timed_out:
        return f"timed out after {check.timeout:.0f} s; output ends {_plain(out + err)[-300:]!r}"
    seconds = time.monotonic() - started
    text = _plain(out + err)
    if "Traceback" in text:
        return f"a traceback:\n{text[-1500:]}"
    if check.refused_by is not None:
        lines = [
            line for line in _plain(err if not check.terminal else out + err).splitlines() if line.strip()
        ]
        wanted = f"paiute[{check.refused_by}]"
        if process.returncode == 0:
            return f"exit 0 where a refusal naming {wanted} was expected; output ends {text[-300:]!r}"
        if not any(wanted in line for line in lines[-2:]):
            return f"the refusal does not name {wanted}: {lines[-3:]!r}"
        if not check.terminal and len(lines) != 1:
            return f"the refusal is {len(lines)} lines, not one: {lines!r}"
        return ""
    if process.returncode != check.status:
        return f"exit {process.returncode}, not {check.status}; output ends {text[-800:]!r}"
    if check.output is not None and not re.search(check.output, text):
        return f"output lacks {check.output!r}; it ends {text[-800:]!r}"
    if seconds > check.timeout:
        return f"took {seconds:.0f} s"
    return ""


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _plain(text: str) -> str:
    """Text without terminal control sequences."""
    return re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07]*\x07|[()][A-Za-z0-9]|[=>])", "", text)


def open_door(door: Door, wheel: Path, root: Path) -> tuple[str, list[tuple[str, str, float]]]:
    """Install ``door`` into a fresh environment and run its checks: (install log, results)."""
    venv = root / door.name
    workdir = root / f"{door.name}-work"
    workdir.mkdir()
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        raise SystemExit("the door test needs uv (pip install uv; it is in the test extra)")
    started = time.monotonic()
    subprocess.run([uv, "venv", "-q", "-p", sys.executable, str(venv)], check=True)
    requirement = f"paiute[{','.join(door.extras)}] @ {wheel.as_uri()}" if door.extras else str(wheel)
    install = [uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python")]
    if door.before:
        subprocess.run([*install, *door.before], check=True)
    done = subprocess.run([*install, requirement], capture_output=True, text=True)
    log = f"installed in {time.monotonic() - started:.0f} s"
    if done.returncode != 0:
        return log, [("install", f"uv pip install {requirement!r} failed:\n{done.stderr[-2000:]}", 0.0)]
    bin_dir = venv / "bin"
    subprocess.run([str(bin_dir / "python"), "-c", MAKE_RECORD], cwd=workdir, check=True)
    results = []
    for check in door.checks:
        started = time.monotonic()
        results.append((check.name, run_check(check, bin_dir, workdir), time.monotonic() - started))
    for special in door.special:
        started = time.monotonic()
        name = (special.__doc__ or special.__name__).splitlines()[0]
        results.append((name, special(bin_dir / "python", workdir), time.monotonic() - started))
    return log, results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("doors", nargs="*", help="which doors (default: all)")
    parser.add_argument("--list", action="store_true", help="list the doors and their checks")
    parser.add_argument("--jobs", type=int, default=2, help="doors opened at once (default 2)")
    args = parser.parse_args(argv)
    chosen = [door for door in doors() if not args.doors or door.name in args.doors]
    unknown = set(args.doors) - {door.name for door in doors()}
    if unknown:
        parser.error(f"unknown doors {sorted(unknown)}: choose from {[door.name for door in doors()]}")
    if args.list:
        for door in chosen:
            print(
                f"{door.name} (pip install '.[{','.join(door.extras)}]')"
                if door.extras
                else "bare (pip install .)"
            )
            for check in door.checks:
                print(
                    f"  {check.name}"
                    + (f"  -> refused, naming [{check.refused_by}]" if check.refused_by else "")
                )
        return 0
    started = time.monotonic()
    # Ray's and the training examples' worker processes may still be writing their logs into
    # the scratch folder as it goes; what they leave is not a door's failure.
    with tempfile.TemporaryDirectory(prefix="paiute-doors-", ignore_cleanup_errors=True) as scratch:
        root = Path(scratch)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(root / "wheel"), str(ROOT)],
            check=True,
        )
        wheel = next((root / "wheel").glob("paiute-*.whl"))
        failures = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {door.name: pool.submit(open_door, door, wheel, root) for door in chosen}
            for name, future in futures.items():
                log, results = future.result()
                print(f"door {name}: {log}")
                for check, problem, seconds in results:
                    print(f"  {'FAIL' if problem else 'ok  '} {check} ({seconds:.1f} s)")
                    if problem:
                        failures += 1
                        print("       " + problem.replace("\n", "\n       "))
    print(f"{len(chosen)} doors, {failures} failures, {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
