#!/usr/bin/env bash
# Build benchmarks/.build/phe_driver: phe_driver.c linked with the C sources of phevaluator's
# sdist (the same version as the one installed in .venv-bench), at -O3 as the extension is.
# Idempotent: does nothing if the driver is already built for that version.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
BUILD="$HERE/.build"
PY="$ROOT/.venv-bench/bin/python"
mkdir -p "$BUILD"
VERSION="$("$PY" -c 'import importlib.metadata as m; print(m.version("phevaluator"))')"
STAMP="$BUILD/phe_driver.version"
if [ -x "$BUILD/phe_driver" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSION" ] \
    && [ "$BUILD/phe_driver" -nt "$HERE/phe_driver.c" ]; then
    echo "== phe_driver already built for phevaluator $VERSION"
    exit 0
fi
command -v gcc >/dev/null || { echo "!! gcc not found" >&2; exit 1; }
SDIST_DIR="$BUILD/sdist"
rm -rf "$SDIST_DIR" && mkdir -p "$SDIST_DIR"
echo "== fetching the phevaluator $VERSION sdist"
"$PY" -m pip download --quiet --no-deps --no-binary :all: "phevaluator==$VERSION" -d "$SDIST_DIR"
tar -xzf "$SDIST_DIR"/phevaluator-"$VERSION".tar.gz -C "$SDIST_DIR"
SRC="$SDIST_DIR/phevaluator-$VERSION"
if [ -d "$SRC/_pheval_csrc" ]; then CSRC="$SRC/_pheval_csrc"; else CSRC="$SRC/../cpp"; fi
[ -f "$CSRC/src/evaluator6.c" ] || { echo "!! the sdist ships no C core sources" >&2; exit 1; }
echo "== compiling phe_driver (gcc -O3) against $CSRC"
# Only what evaluate_6cards needs: no Omaha tables.
gcc -O3 -DNDEBUG -std=gnu11 -I"$CSRC/include" -I"$CSRC/src" \
    "$HERE/phe_driver.c" \
    "$CSRC/src/evaluator6.c" "$CSRC/src/hash.c" "$CSRC/src/hashtable.c" \
    "$CSRC/src/hashtable6.c" "$CSRC/src/dptables.c" "$CSRC/src/tables_bitwise.c" \
    -o "$BUILD/phe_driver" -ldl
echo "$VERSION" > "$STAMP"
echo "== built $BUILD/phe_driver"
