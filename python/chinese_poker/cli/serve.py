"""the solver as an HTTP JSON API, or JSON lines on standard input and output

Endpoints: POST /v1/solve, /v1/settle, /v1/naturals; GET /v1/rules, /v1/rules/NAME, /healthz,
/metrics, /openapi.json, /docs and a page at /. Listens on {host} only unless --host says
otherwise. With a token (--token-file, or ${token_env}) every path but /healthz needs
'Authorization: Bearer TOKEN'. SIGTERM or Ctrl-C finishes the requests in flight, then stops.
Needs the [server] extra.

Examples:
    chinese-poker serve                      # http://127.0.0.1:8013, docs at /docs
    chinese-poker serve --port 0 --token-file token.txt
    echo '{"op": "solve", "id": 1, "hands": ["As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"]}'
        | chinese-poker serve --stdio
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import sys
import warnings
from collections.abc import Callable
from typing import Any

from ..server.limits import Limit
from ._options import Shared, command, int_arg
from ._shared import PROG, fail

PORT = int_arg("a port from 0 to 65535", 0, 65535)


def _bounded(limit: Limit) -> Callable[[str], int | float]:
    """The argparse type of a limit: a whole number, or seconds, within its bounds."""
    if limit.is_int:
        return int_arg(
            f"a number from {limit.low:,} to {limit.high:,}", int(limit.low), int(limit.high)
        )
    what = f"seconds from {limit.low:g} to {limit.high:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not limit.low <= value <= limit.high:  # NaN too
            raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
        return value

    parse.__name__ = what
    return parse


def register(sub: Any, shared: Shared) -> None:
    from ..server.limits import DEFAULT_HOST, DEFAULT_PORT, LIMITS, TOKEN_ENV

    p = command(sub, __name__, __doc__, [], host=DEFAULT_HOST, token_env=TOKEN_ENV)
    p.add_argument("--stdio", action="store_true", help="JSON lines on stdin/stdout, no network")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address (default {DEFAULT_HOST})")
    p.add_argument(
        "--port",
        type=PORT,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0: any free port, printed on stderr)",
    )
    p.add_argument("--token-file", help=f"a file holding the bearer token (else ${TOKEN_ENV})")
    p.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="allow browser pages of ORIGIN to call the API (repeatable; default: CORS off)",
    )
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="warning",
        help="the server's log level (default warning: errors and warnings only)",
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        help="log one line per request (method, path, status) at the info level",
    )
    for limit in LIMITS:
        p.add_argument(
            limit.option,
            type=_bounded(limit),
            default=limit.default,
            help=f"{limit.help} (default {limit.default:,})",
        )
    p.set_defaults(run=run)


def _check_address(host: str, port: int) -> None:
    """Refuses an address the server cannot listen on, as one line, before it starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as e:
            fail("--port", f"cannot listen on {host}:{port} ({e.strerror or e})")


def _more_file_descriptors(connections: int) -> None:
    """Raises the soft limit on open files towards the hard one (POSIX), so that
    ``--max-connections`` connections, the workers' files and the listening socket fit: past
    the limit the event loop fails every accept and logs each failure."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 64
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def _local(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> None:
    from ..server.limits import LIMITS, TOKEN_ENV, Limits, read_token

    limits = Limits(**{lim.name: getattr(args, lim.name) for lim in LIMITS})
    if args.stdio:
        from ..server import stdio

        stdio.serve(sys.stdin.buffer, sys.stdout.buffer, limits)
        return
    try:
        token = read_token(args.token_file)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        fail("--token-file", f"cannot read a token: {e}")
    from ..server.http import serve

    _check_address(args.host, args.port)
    if token is None and not _local(args.host):
        warnings.warn(
            f"--host {args.host} opens the server to the network without a token: anyone who "
            f"reaches it may use it (set --token-file or ${TOKEN_ENV})",
            UserWarning,
            stacklevel=1,
        )
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(message)s")
    _more_file_descriptors(limits.max_connections)

    def announce(host: str, port: int) -> None:
        shown = f"[{host}]" if ":" in host else host
        print(f"{PROG} serve: listening on http://{shown}:{port}", file=sys.stderr, flush=True)

    try:
        serve(
            limits,
            token,
            host=args.host,
            port=args.port,
            cors_origins=args.cors_origin,
            access_log=args.access_log,
            log_errors=LOG_LEVELS.index(args.log_level) <= LOG_LEVELS.index("error"),
            announce=announce,
        )
    except OSError as e:
        fail("--port", f"cannot listen on {args.host}:{args.port} ({e.strerror or e})")
