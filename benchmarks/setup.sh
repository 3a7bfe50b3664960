#!/usr/bin/env bash
# Create the two benchmark virtual environments (idempotent; safe to run again).
#
#   .venv-bench  : paiute (editable) + the `bench` extra: numpy, psutil, treys, phevaluator,
#                  open_spiel, rlcard. benchmarks/run.py runs in this one.
#   .venv-pz126  : pettingzoo 1.26.1 (the last release with classic/gin_rummy_v4) + rlcard,
#                  used only for the PettingZoo row, in a subprocess of run.py.
#
# Also builds benchmarks/.build/phe_driver (a small C driver timing phevaluator's C core)
# if phevaluator's source distribution can be fetched with pip and gcc is available.
#
# Usage: bash benchmarks/setup.sh            (PYTHON=python3.11 to choose the interpreter)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"

make_venv() {
    local dir="$1"
    if [ ! -x "$dir/bin/python" ]; then
        echo "== creating $dir"
        "$PY" -m venv "$dir"
        "$dir/bin/python" -m pip install --quiet --upgrade pip
    else
        echo "== $dir exists"
    fi
}

# 1. The main benchmark venv.
make_venv .venv-bench
if ! .venv-bench/bin/python -c 'import paiute, numpy, psutil, treys, phevaluator, pyspiel, rlcard' 2>/dev/null; then
    echo "== installing paiute[bench] into .venv-bench"
    .venv-bench/bin/python -m pip install --quiet -e '.[bench]'
else
    echo "== .venv-bench already has paiute[bench]"
fi

# 2. The PettingZoo 1.26.1 venv (gin_rummy_v4 was removed in 1.27).
make_venv .venv-pz126
if ! .venv-pz126/bin/python -c 'from pettingzoo.classic import gin_rummy_v4' 2>/dev/null; then
    echo "== installing pettingzoo[classic]==1.26.1 into .venv-pz126"
    .venv-pz126/bin/python -m pip install --quiet 'pettingzoo[classic]==1.26.1' || {
        echo "== pettingzoo[classic] failed; trying the minimal set (pettingzoo + rlcard)"
        .venv-pz126/bin/python -m pip install --quiet 'pettingzoo==1.26.1' 'rlcard>=1.0.5'
    }
    .venv-pz126/bin/python -c 'from pettingzoo.classic import gin_rummy_v4' \
        || { echo "!! gin_rummy_v4 does not import in .venv-pz126" >&2; }
else
    echo "== .venv-pz126 already has gin_rummy_v4"
fi

# 3. phevaluator's C core, measured in isolation by a C driver built from its sdist.
bash "$ROOT/benchmarks/build_phe_driver.sh" || echo "!! could not build the phevaluator C driver (run.py reports it as missing)"
echo "== done"
