"""The service honest to its contract: schemathesis generates requests from the OpenAPI document
the server serves (every operation, valid and invalid data, with and without the token) and
runs all its checks on every answer: no server error, only documented statuses, headers and
content types, answers that match their schemas, invalid data refused, the security scheme
enforced, and a 405 that says which methods a path takes. Run in-process on the ASGI app,
bounded in examples. A schema-valid request may still be a 422: JSON Schema cannot say that 13
cards are distinct or that a decision is legal, which the library checks, naming the field."""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
pytest.importorskip("starlette")

from chinese_poker.server.app import create_app  # noqa: E402
from chinese_poker.server.limits import Limits  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

TOKEN = "contract-t0ken"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
APP = create_app(Limits(max_hands=4, max_samples=2_000, timeout=5.0), TOKEN)
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "422"]}}}
)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG, headers=AUTH)


@SCHEMA.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_its_contract(case: Any) -> None:
    case.call_and_validate(headers=AUTH)


def test_the_document_states_the_server_s_own_bounds() -> None:
    from starlette.testclient import TestClient

    with TestClient(APP) as client:
        doc = client.get("/openapi.json", headers=AUTH).json()
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


def test_operator_comforts() -> None:
    from chinese_poker import about
    from starlette.testclient import TestClient

    hands = ["As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"] * 4
    with TestClient(APP) as client:
        zipped = client.post(
            "/v1/solve", json={"hands": hands}, headers={**AUTH, "accept-encoding": "gzip"}
        )
        small = client.get("/healthz", headers={"accept-encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < len(zipped.content) / 3
    assert len(zipped.json()["solutions"]) == 4
    assert "content-encoding" not in small.headers  # below GZIP_MIN: sent as it is
    found = about.versions()
    for name in ("starlette", "uvicorn", "prometheus-client"):
        assert name in found


def test_a_browser_signs_in_to_the_pages_with_the_token() -> None:
    from starlette.testclient import TestClient

    with TestClient(APP, follow_redirects=False) as browser:
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
