"""The service honest to its contract: schemathesis generates requests from the OpenAPI document
the server serves (every operation, valid and invalid data, with and without the token) and
runs all its checks on every answer: no server error, only documented statuses, headers and
content types, answers that match their schemas, invalid data refused, the security scheme
enforced, and a 405 that says which methods a path takes. Run against a real server (a
subprocess on a free localhost port), bounded in examples. A schema-valid request may still be
a 422: JSON Schema cannot say that 13 cards are distinct or that a decision is legal, which the
library checks, naming the field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
httpx = pytest.importorskip("httpx")

from chinese_poker import _core  # noqa: E402
from chinese_poker.server.limits import Limits  # noqa: E402
from chinese_poker.server.schema import openapi  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402
from server_process import Server, running  # noqa: E402

TOKEN = "contract-t0ken"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
OPTIONS = ("--max-hands", "4", "--max-samples", "2000", "--timeout", "5")
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "422"]}}}
)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running(*OPTIONS, env={"CHINESE_POKER_TOKEN": TOKEN}) as s:
        yield s


# the document the server serves (its /openapi.json page renders this same function's answer
# for the same limits; test_the_served_document_is_this_one checks it)
DOCUMENT = openapi(_core.__version__, Limits(max_hands=4, max_samples=2_000, timeout=5.0))
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT, config=CONFIG)


@SCHEMA.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(server: Server, case: Any) -> None:
    case.call_and_validate(base_url=server.url, headers=AUTH)


def test_the_served_document_is_this_one(server: Server) -> None:
    assert server.client(TOKEN).get("/openapi.json").json() == DOCUMENT


def test_the_document_states_the_server_s_own_bounds(server: Server) -> None:
    doc = server.client(TOKEN).get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    hands = schemas["SolveRequest"]["properties"]["hands"]
    assert (hands["minItems"], hands["maxItems"]) == (1, 4) and "pattern" in hands["items"]
    players = schemas["SolveRequest"]["properties"]["players"]
    assert (players["minimum"], players["maximum"]) == (2, 4)
    assert schemas["MonteCarloOptions"]["properties"]["samples"]["maximum"] == 2_000
    assert schemas["MonteCarloOptions"]["properties"]["time_limit"]["maximum"] == 5.0
    operations = [op for path in doc["paths"].values() for op in path.values()]
    assert len({op["operationId"] for op in operations}) == len(operations)
    assert all(op["security"] == ([] if op["operationId"] == "healthz" else [{"bearer": []}])
               for op in operations)  # fmt: skip


def test_safe_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from chinese_poker.cli.serve import _local
    from chinese_poker.server.limits import TOKEN_ENV, authorized, read_token

    # the scheme's name is case-insensitive; the token is not
    for header in (f"Bearer {TOKEN}", f"bearer {TOKEN}", f"BEARER  {TOKEN} "):
        assert authorized(header, TOKEN), header
    for header in (None, "", TOKEN, f"Basic {TOKEN}", f"Bearer {TOKEN.upper()}", "Bearer"):
        assert not authorized(header, TOKEN), header
    # a variable set to nothing is a missing secret: refused, not an open server
    monkeypatch.setenv(TOKEN_ENV, " ")
    with pytest.raises(ValueError, match="set but empty"):
        read_token(None)
    r = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "serve", "--port", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 2 and "set but empty" in r.stderr and "Traceback" not in r.stderr
    monkeypatch.delenv(TOKEN_ENV)
    assert read_token(None) is None
    assert _local("127.0.0.1") and _local("::1") and _local("[::1]") and _local("localhost")
    assert not _local("0.0.0.0") and not _local("192.0.2.1") and not _local("example.org")


def test_operator_comforts(server: Server) -> None:
    from chinese_poker import _core, about

    hands = ["As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"] * 4
    with server.client(TOKEN) as client:
        zipped = client.post(
            "/v1/solve", json={"hands": hands}, headers={"accept-encoding": "gzip"}
        )
        small = client.get("/healthz", headers={"accept-encoding": "gzip"})
        plain = client.post(
            "/v1/solve", json={"hands": hands}, headers={"accept-encoding": "identity"}
        )
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < len(zipped.content) / 3
    assert len(zipped.json()["solutions"]) == 4
    assert "content-encoding" not in small.headers  # below GZIP_MIN: sent as it is
    assert "content-encoding" not in plain.headers and plain.json() == zipped.json()
    found = about.versions()
    assert found["chinese-poker"] == _core.__version__
    assert "hyper" in found["server"] and "tokio" in found["server"]


def test_the_access_log_and_the_log_level() -> None:
    with running("--access-log") as server, server.client() as c:
        c.post("/v1/solve", json={"hands": ["As Ks"]})
        c.get("/healthz")
        err = server.stop()
    assert '"POST /v1/solve HTTP/1.1" 422' in err and '"GET /healthz HTTP/1.1" 200' in err
    with running() as server, server.client() as c:
        c.get("/healthz")
        err = server.stop()
    assert "/healthz" not in err  # no access log unless asked


def test_a_browser_signs_in_to_the_pages_with_the_token(server: Server) -> None:
    with httpx.Client(base_url=server.url, follow_redirects=False) as browser:
        first = browser.get("/")
        assert first.status_code == 401 and "<form method='post' action='/login'>" in first.text
        assert browser.get("/docs").status_code == 401
        wrong = browser.post("/login", data={"token": "guess"})
        assert wrong.status_code == 401 and "not this server's token" in wrong.text
        signed = browser.post("/login", data={"token": TOKEN})
        assert signed.status_code == 303 and signed.headers["location"] == "/"
        cookie = signed.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        page = browser.get("/", params={"hand": "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"})
        assert page.status_code == 200 and "<table" in page.text
        assert browser.get("/docs").status_code == 200
        # the cookie opens the pages only: programs still need the header
        assert browser.post("/v1/solve", json={"hands": ["As Ks"]}).status_code == 401
        assert browser.get("/openapi.json").status_code == 401
