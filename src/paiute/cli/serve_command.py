"""``paiute serve``: the multiplayer web server (tables, bots, live play in the browser)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

from paiute.cli.common import check_output_dir
from paiute.errors import N_, PaiuteError
from paiute.i18n import Translator, choose_language, translator

__all__ = ["database_url", "register", "run"]

# The defaults of paiute.server.limits.Limits, repeated here so that --help needs no FastAPI;
# a test keeps them in step.
LIMIT_DEFAULTS: dict[str, float] = {
    "address_rate": 30.0,
    "open_tables": 10,
    "seats_per_address": 4,
    "logins_per_minute": 10,
    "header_seconds": 10.0,
    "max_connections": 2000,
}

#: The default of paiute.server.runtime.Settings.abandon_minutes (a test keeps them in step).
ABANDON_MINUTES = 30

#: The defaults of paiute.server.db.DatabaseTimeouts, in seconds (a test keeps them in step).
DB_TIMEOUTS: dict[str, float] = {"connect": 5.0, "statement": 5.0, "lock": 3.0}

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DATABASE_FILE = "server.sqlite3"
#: The largest WebSocket frame the server reads at all (messages over 4096 bytes are refused
#: with an error; frames over this close the connection).
WS_MAX_SIZE = 65536

_EPILOG = N_("""\
Open the printed address in a browser: create a table (rules, seats, bots for the empty
seats, a turn clock, public or private by invitation link), share the link, play. Every
accepted action is written to the database before anyone is told of it: stop the server at
any moment (even kill -9) and start it again, and every table carries on where it was.

The database is an SQLite file in the user's data directory (or $PAIUTE_DATA_DIR, or
--data-dir) unless --db names another: sqlite:///PATH, or postgresql://USER:PASS@HOST/NAME,
which several server processes may share. The schema is created or updated on start.

The JSON API is described at /docs (OpenAPI at /openapi.json); the WebSocket protocol in
docs/web-protocol.md.

examples:
  paiute serve                                   http://127.0.0.1:8000/, SQLite in the data dir
  paiute serve --host 0.0.0.0 --port 8080        reachable from other machines
  paiute serve --db sqlite:///games.db --bot-delay 0
  paiute serve --db postgresql://paiute:secret@localhost/paiute --port 8001
  paiute serve --port 0                          any free port (the address is printed)
""")


def register(commands: Any, tr: Translator | None = None) -> None:
    """``paiute serve``: its --help in ``tr``'s language (the web pages choose their own)."""
    _ = (tr or translator()).gettext
    parser = commands.add_parser(
        "serve",
        help=_(N_("run the multiplayer web server")),
        description=_(
            N_(
                "Run the Paiute web server: a lobby of tables, play in the browser against "
                "people and bots, live over WebSockets, with fair-deal proofs (R10.2) and game records."
            )
        ),
        epilog=_(_EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    def seconds(flag: str, default: float, help_text: str) -> None:
        """A flag that is a number of seconds."""
        parser.add_argument(flag, type=float, default=default, metavar=_(N_("SECONDS")), help=help_text)

    def count(flag: str, default: float, help_text: str) -> None:
        """A flag that is a whole number of things (tables, seats, log-ins, connections)."""
        parser.add_argument(flag, type=int, default=default, metavar="N", help=help_text)

    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar=_(N_("HOST")),
        help=_(N_("address to listen on (default {host})"), host=DEFAULT_HOST),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        metavar=_(N_("PORT")),
        help=_(N_("port to listen on, 0 for any free one (default {port})"), port=str(DEFAULT_PORT)),
    )
    parser.add_argument(
        "--db",
        metavar=_(N_("URL")),
        help=_(N_("database URL: sqlite:///PATH or postgresql://... (default: SQLite)")),
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar=_(N_("DIR")),
        help=_(N_("where the default SQLite database lives (default: user data dir)")),
    )
    seconds("--bot-delay", 0.6, _(N_("pause before each bot action, so people can follow (default 0.6)")))
    seconds("--deal-pause", 3.0, _(N_("pause between the end of a deal and the next (default 3)")))
    seconds(
        "--away-grace",
        30.0,
        _(N_("how long a seat whose player went waits before the bot plays it (default 30)")),
    )
    parser.add_argument(
        "--abandon-after",
        type=int,
        default=ABANDON_MINUTES,
        metavar=_(N_("MINUTES")),
        help=_(
            N_("a table no person has been at for this many minutes ends; 0 never ends one (default {n})"),
            n=str(ABANDON_MINUTES),
        ),
    )
    parser.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        metavar=_(N_("PER_SECOND")),
        help=_(
            N_(
                "messages a second one WebSocket connection, or one token's requests, may send "
                "(default 20, in bursts of a few times that); 0 for no limit (load tests)"
            )
        ),
    )
    parser.add_argument(
        "--address-rate",
        type=float,
        default=LIMIT_DEFAULTS["address_rate"],
        metavar=_(N_("PER_SECOND")),
        help=_(
            N_(
                "requests (HTTP and WebSocket) a second one client address may make, in bursts "
                "of ten times that (default {rate}); 0 for no limit"
            ),
            rate="30",
        ),
    )
    count(
        "--max-tables-per-address",
        LIMIT_DEFAULTS["open_tables"],
        _(N_("open tables one client address may have created (default {n})"), n="10"),
    )
    count(
        "--max-seats-per-address",
        LIMIT_DEFAULTS["seats_per_address"],
        _(N_("seats one client address may take at one table (default {n})"), n="4"),
    )
    count(
        "--logins-per-minute",
        LIMIT_DEFAULTS["logins_per_minute"],
        _(
            N_(
                "account log-ins and sign-ups one client address may try a minute (default {n}); 0 for no limit"
            ),
            n="10",
        ),
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar=_(N_("ADDRESS")),
        help=_(
            N_(
                "a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed (its IP "
                "address or network; repeat for several); without it the peer's address is the client's"
            )
        ),
    )
    seconds(
        "--header-timeout",
        LIMIT_DEFAULTS["header_seconds"],
        _(N_("seconds a client has to send a request's headers, and then its body (default {n})"), n="10"),
    )
    count(
        "--max-connections",
        LIMIT_DEFAULTS["max_connections"],
        _(N_("connections served at once; past it requests get 503 (default {n})"), n="2000"),
    )
    seconds(
        "--db-connect-timeout",
        DB_TIMEOUTS["connect"],
        _(N_("seconds to wait for a connection to the database (default {n})"), n="5"),
    )
    seconds(
        "--db-statement-timeout",
        DB_TIMEOUTS["statement"],
        _(N_("seconds one database statement may run (PostgreSQL; default {n})"), n="5"),
    )
    seconds(
        "--db-lock-timeout",
        DB_TIMEOUTS["lock"],
        _(
            N_(
                "seconds a change waits for a lock another connection to the database holds, "
                "before it is refused (default {n})"
            ),
            n="3",
        ),
    )
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help=_(N_("how much the server logs (default warning)")),
    )
    # Tests only, and so left out of --help: deal from a seeded generator (paiute.server.deals).
    # Refused unless the server listens on a loopback address with no proxy in front of it.
    parser.add_argument("--insecure-deal-seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)


def check_insecure_seed(address: str, trusted_proxies: list[str]) -> None:
    """Refuse ``--insecure-deal-seed`` on a server others could reach: one bound to an
    address that is not loopback, or behind a reverse proxy (which forwards the world to it)."""
    try:
        loopback = ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        loopback = False
    if not loopback or trusted_proxies:
        raise PaiuteError(
            N_(
                "--insecure-deal-seed is for tests only: it is refused unless the server listens on "
                "a loopback address (127.0.0.1 or ::1) with no --trusted-proxy (it listens on {address})"
            ),
            address=address,
        )


def database_url(db: str | None, data_dir: Path | None) -> str:
    """The database to use: ``--db``, else an SQLite file in the data directory."""
    if db:
        return db
    # Checked writable now, before the server starts; --data-dir DIR is made only when its
    # parent exists (never a silent chain of folders), the default with its parents.
    if data_dir is not None:
        directory = check_output_dir(data_dir)
    else:
        directory = check_output_dir(_default_data_dir(), parents=True)
    return f"sqlite:///{(directory / DATABASE_FILE).resolve()}"


def _default_data_dir() -> Path:
    override = os.environ.get("PAIUTE_DATA_DIR")
    if override:
        return Path(override)
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs is part of the ``web`` extra
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "paiute"
    return Path(platformdirs.user_data_dir("paiute", appauthor=False))


def _listen(host: str, port: int) -> socket.socket:
    """Bind the listening socket first, so that a busy port is one clear error line."""
    if not 0 <= port <= 65535:
        raise PaiuteError(f"--port {port}: a port is 0..65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise PaiuteError(f"--host {host!r}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        raise PaiuteError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from paiute.server.app import create_app
        from paiute.server.db import DatabaseTimeouts, Store
        from paiute.server.httpproto import http_protocol
        from paiute.server.limits import Limits
        from paiute.server.migrate import upgrade
        from paiute.server.reviews import review_playouts
        from paiute.server.service import Settings
        from paiute.server.shutdown import Server
        from paiute.server.wsproto import PER_MESSAGE_DEFLATE, websocket_protocol
    except ImportError as error:
        raise PaiuteError(
            f"paiute serve needs the web extra ({error.name} is missing): pip install 'paiute[web]'"
        ) from None
    if args.bot_delay < 0 or args.deal_pause < 0 or args.away_grace < 0:
        raise PaiuteError("--bot-delay, --deal-pause and --away-grace are seconds, 0 or more")
    if args.abandon_after < 0:
        raise PaiuteError(N_("--abandon-after is minutes: 0 (tables never end unattended) or more"))
    if args.rate_limit < 0:
        raise PaiuteError("--rate-limit is messages a second, 0 (no limit) or more")
    if args.address_rate < 0 or args.header_timeout <= 0:
        raise PaiuteError("--address-rate is 0 (no limit) or more, --header-timeout more than 0")
    if args.logins_per_minute < 0:
        raise PaiuteError(N_("--logins-per-minute is 0 (no limit) or more"))
    if min(args.db_connect_timeout, args.db_statement_timeout, args.db_lock_timeout) <= 0:
        raise PaiuteError(
            N_("--db-connect-timeout, --db-statement-timeout and --db-lock-timeout are seconds, more than 0")
        )
    timeouts = DatabaseTimeouts(
        connect=args.db_connect_timeout, statement=args.db_statement_timeout, lock=args.db_lock_timeout
    )
    if min(args.max_tables_per_address, args.max_seats_per_address, args.max_connections) < 1:
        raise PaiuteError(
            "--max-tables-per-address, --max-seats-per-address and --max-connections are 1 or more"
        )
    review_playouts()  # PAIUTE_REVIEW_PLAYOUTS: a bad value is one line here, not a crash later
    url = database_url(args.db, args.data_dir)
    store = Store(url, timeouts)  # a bad URL: one clear line (DatabaseError is a PaiuteError)
    try:
        upgrade(store)  # here, not only in the app, so that a database that cannot be used is one line
    finally:
        store.dispose()
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    seed = getattr(args, "insecure_deal_seed", None)
    if seed is not None:
        try:
            check_insecure_seed(host, args.trusted_proxy)  # the address really bound, not the name
        except PaiuteError:
            sock.close()
            raise
        _ = translator(getattr(args, "lang", None) or choose_language()).gettext
        warning = _(
            N_(
                "paiute serve: WARNING: INSECURE DEALS (--insecure-deal-seed {seed}): every deal "
                "comes from a seeded generator, not the secure source (R10.1); anyone who knows the "
                "seed knows every hand. For tests only: never let real players use this server."
            ),
            seed=str(seed),
        )
        print(warning, file=sys.stderr, flush=True)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    display = store.display_url

    def ready() -> None:
        print(f"paiute serve: serving at {address} (database {display}; Ctrl-C stops)", flush=True)

    def stopped(tables: int, connections: int, clean: bool) -> None:
        _ = translator(getattr(args, "lang", None) or choose_language()).gettext
        if clean:
            line = _(
                N_(
                    "paiute serve: stopped cleanly; tables closed: {tables}, connections closed: {connections}"
                ),
                tables=str(tables),
                connections=str(connections),
            )
        else:
            line = _(N_("paiute serve: stopped; its shutdown failed (see the messages above)"))
        print(line, flush=True)

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    rate = args.rate_limit if args.rate_limit > 0 else 1e12
    settings = Settings(
        bot_delay=args.bot_delay,
        deal_pause=args.deal_pause,
        away_grace=args.away_grace,
        abandon_minutes=args.abandon_after,
        ws_rate=rate,
        ws_burst=2 * rate,
        http_rate=rate,
        http_burst=3 * rate,
        insecure_deal_seed=seed,
        db_timeouts=timeouts,
    )
    address_rate = args.address_rate if args.address_rate > 0 else 1e12
    limits = Limits(
        address_rate=address_rate,
        address_burst=10 * address_rate,
        open_tables=args.max_tables_per_address,
        # New tables a minute: 10, or as many as may be open at once where that is more (one cap
        # to raise, not two).
        tables_per_minute=max(10, args.max_tables_per_address),
        seats_per_address=args.max_seats_per_address,
        logins_per_minute=args.logins_per_minute or 10**9,
        header_seconds=args.header_timeout,
        body_seconds=args.header_timeout,
        max_connections=args.max_connections,
        trusted_proxies=tuple(args.trusted_proxy),
    )
    app = create_app(url, settings=settings, on_ready=ready, limits=limits)
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        http=http_protocol(limits.header_seconds),  # a deadline for headers (paiute.server.httpproto)
        ws=websocket_protocol(),  # uvicorn's sans-I/O protocol (paiute.server.wsproto)
        ws_per_message_deflate=PER_MESSAGE_DEFLATE,  # off: updates are small patches
        ws_max_size=WS_MAX_SIZE,
        lifespan="on",
        access_log=args.log_level == "debug",
        timeout_graceful_shutdown=5,
        timeout_keep_alive=limits.keep_alive_seconds,
        limit_concurrency=limits.max_connections,
        # X-Forwarded-For/-Proto only from the proxies named (uvicorn trusts 127.0.0.1 by default)
        proxy_headers=bool(limits.trusted_proxies),
        forwarded_allow_ips=list(limits.trusted_proxies) or None,
        server_header=False,
    )
    server = Server(config, app, stopped)  # it says how it stopped (paiute.server.shutdown)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        print("paiute serve: error: the server did not start (see the messages above)", file=sys.stderr)
        return 1
    return 0
