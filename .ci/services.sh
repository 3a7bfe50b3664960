#!/usr/bin/env bash
# System services the tests use, from Debian's packages: Chromium for the browser tests
# (never a browser download), a font with Bengali glyphs for the pages in Bengali,
# PostgreSQL for the multi-process server tests, and nginx (with openssl for a throwaway
# certificate) for the production setup of docs/hosting.md (tests/server/test_hosting.py).
# Prints the PostgreSQL URL to use on its last line.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
# Bengali glyphs and conjuncts for the pages in Bengali (Noto Sans Bengali; screenshots, tests).
fc-list :lang=bn family 2>/dev/null | grep -q . || missing+=(fonts-noto-core)
# nginx is in /usr/sbin, which may not be on a user's PATH.
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
    as_root apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${missing[@]}" >/dev/null
fi
if [[ " ${missing[*]} " == *" nginx "* ]]; then
    # The test runs its own nginx as the current user on free ports; the package's service,
    # which the install starts on a host with systemd, is stopped and left disabled.
    as_root systemctl disable --now nginx >/dev/null 2>&1 || as_root service nginx stop >/dev/null 2>&1 || true
fi

version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
    as_root pg_createcluster "$version" main >/dev/null
fi
pg_lsclusters -h | grep -q "^$version main .* online" || as_root pg_ctlcluster "$version" main start
as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='paiute'\"" | grep -q 1 \
    || as_root su postgres -c "psql -qc \"CREATE ROLE paiute LOGIN PASSWORD 'paiute' CREATEDB\""
as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='paiute_test'\"" | grep -q 1 \
    || as_root su postgres -c "createdb -O paiute paiute_test"
echo "postgresql://paiute:paiute@127.0.0.1:5432/paiute_test"
