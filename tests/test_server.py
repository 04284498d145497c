"""``chinese-poker serve`` for real: the server started as a subprocess on a free localhost port,
every endpoint, every limit and error code, the token, concurrent clients, SIGTERM with requests
in flight; the stdio mode, ``solve --jsonl`` and ``settle --file -`` fed line by line through a
pipe. Answers are compared with the library's own results and messages."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

httpx = pytest.importorskip("httpx")

import chinese_poker as cp  # noqa: E402
from chinese_poker import _core  # noqa: E402
from chinese_poker.exceptions import ChinesePokerError  # noqa: E402
from close_hands import undecided_hand  # noqa: E402
from server_process import Server, _env, running, start  # noqa: E402

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
OTHER = "Ah Kh Qh Jh Th 9c 9s 4d 4c 3h 3d 2c 2h"
DRAGON = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
ROUND = [
    "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
    "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
    "surrender",
]
# a Monte Carlo request that takes a while (0.5 to 2 s): a hand whose plays are so close that
# the race never ends early, so every sample is drawn (the SIGTERM test checks that it was)
CLOSE = undecided_hand()
SLOW_SAMPLES = 10_000
SLOW = {"hands": [CLOSE], "objective": {"monte_carlo": {"samples": SLOW_SAMPLES, "seed": 1}}}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running() as s:
        yield s


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert "Traceback" not in response.text
    body = response.json()
    assert set(body) == {"error"}
    return body["error"]  # type: ignore[no-any-return]


def library_error(call: Any) -> ChinesePokerError:
    with pytest.raises(ChinesePokerError) as info:
        call()
    return info.value


# -- endpoints ---------------------------------------------------------------------------------


def test_solve_answers_what_the_library_answers(client: httpx.Client) -> None:
    request = {"hands": [HAND, OTHER, DRAGON], "rules": "pokerclub_south", "players": 3}
    r = client.post("/v1/solve", json={**request, "top_k": 3})
    assert r.status_code == 200, r.text
    solutions = r.json()["solutions"]
    for hand, got in zip(request["hands"], solutions, strict=True):
        want = cp.solve(hand, "pokerclub_south", 3, top_k=3).to_dict()
        assert got == {"hand": hand, **json.loads(json.dumps(want))}
    # the defaults are the command line's: the first preset, 4 players, 5 plays
    r = client.post("/v1/solve", json={"hands": [HAND]})
    want = cp.solve(HAND, _core.PRESET_NAMES[0], 4, top_k=5).to_dict()
    assert r.json()["solutions"][0] == {"hand": HAND, **json.loads(json.dumps(want))}


def test_detail_decision_solves_the_hands_as_one_batch(client: httpx.Client) -> None:
    hands = [HAND, OTHER, DRAGON]
    r = client.post("/v1/solve", json={"hands": hands, "players": 3, "detail": "decision"})
    assert r.status_code == 200, r.text
    for hand, got in zip(hands, r.json()["solutions"], strict=True):
        full = cp.solve(hand, _core.PRESET_NAMES[0], 3)
        assert got == {"hand": hand, **full.as_decision().to_dict(), "value": full.value}
    assert r.json()["solutions"][2]["decision"] == "declare"


def test_solve_takes_an_inline_rule_set(client: httpx.Client) -> None:
    rules = cp.RuleSet.preset("two_four").replace(name="house", sweep={"multiplier": 3})
    r = client.post("/v1/solve", json={"hands": [HAND], "rules": rules.to_dict(), "players": 2})
    assert r.status_code == 200, r.text
    assert r.json()["solutions"][0]["value"] == cp.solve(HAND, rules, 2).value


def test_monte_carlo_is_the_library_s_for_its_seed(client: httpx.Client) -> None:
    mc = {"samples": 300, "seed": 7}
    r = client.post("/v1/solve", json={"hands": [OTHER], "objective": {"monte_carlo": mc}})
    assert r.status_code == 200, r.text
    got = r.json()["solutions"][0]
    want = cp.Solver(_core.PRESET_NAMES[0], 4, cp.MonteCarlo(**mc)).solve(OTHER).to_dict()
    assert got["stderr"] is not None and got["samples"] > 0
    assert got == {"hand": OTHER, **json.loads(json.dumps(want))}


def test_settle_answers_the_settlement_and_its_explanation(client: httpx.Client) -> None:
    request = {"decisions": ROUND, "rules": "pokerfever_eastern", "dealer": 1}
    short = client.post("/v1/settle", json=request)
    assert short.status_code == 200 and "explanation" not in short.json()
    r = client.post("/v1/settle", json={**request, "explain": True})
    assert r.status_code == 200, r.text
    assert short.json() == {k: v for k, v in r.json().items() if k != "explanation"}
    assert error_of(client.post("/v1/settle", json={**request, "explain": 1}), 422)["field"] == (
        "explain"
    )
    decisions = [cp.Setting.parse(ROUND[0]), cp.Setting.parse(ROUND[1]), cp.Surrender()]
    want = cp.settle(decisions, "pokerfever_eastern", dealer=1)
    body = r.json()
    assert body.pop("explanation") == want.explain()
    assert body.pop("rules_digest") == cp.RuleSet.preset("pokerfever_eastern").digest
    assert body == {"rules": "pokerfever_eastern", **json.loads(json.dumps(want.to_dict()))}


def test_a_solved_decision_settles_as_it_is(client: httpx.Client) -> None:
    solved = client.post("/v1/solve", json={"hands": [HAND, OTHER]}).json()["solutions"]
    r = client.post("/v1/settle", json={"decisions": solved, "bankrolls": [5, 5]})
    assert r.status_code == 200, r.text
    want = cp.settle(
        [cp.solve(HAND, _core.PRESET_NAMES[0]).as_decision(),
         cp.solve(OTHER, _core.PRESET_NAMES[0]).as_decision()],
        _core.PRESET_NAMES[0],
        bankrolls=[5, 5],
    )  # fmt: skip
    assert r.json()["totals"] == list(want.totals)


def test_naturals(client: httpx.Client) -> None:
    r = client.post("/v1/naturals", json={"hand": DRAGON, "rules": "maceplay"})
    assert r.status_code == 200, r.text
    want = [
        {"natural": m.natural, "value": m.value, "setting": m.setting and m.setting.to_text()}
        for m in cp.find_naturals(DRAGON, "maceplay")
    ]
    assert r.json() == {
        "hand": DRAGON,
        "rules": "maceplay",
        "rules_digest": cp.RuleSet.preset("maceplay").digest,
        "naturals": want,
    }
    assert want and want[0]["natural"] == "dragon"


def test_rules_list_and_each_preset(client: httpx.Client) -> None:
    listed = client.get("/v1/rules").json()["presets"]
    assert [p["name"] for p in listed] == list(_core.PRESET_NAMES)
    for name in _core.PRESET_NAMES:
        r = client.get(f"/v1/rules/{name}")
        assert r.status_code == 200
        assert cp.RuleSet.from_dict(r.json()) == cp.RuleSet.preset(name)
    assert error_of(client.get("/v1/rules/nope"), 404)["code"] == "not_found"


def test_healthz_openapi_docs_and_page(client: httpx.Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "version": cp.__version__}
    document = client.get("/openapi.json").json()
    assert set(document["paths"]) >= {"/v1/solve", "/v1/settle", "/v1/naturals", "/metrics"}
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/v1/solve" in docs.text and "SolveRequest" in docs.text
    page = client.get("/", params={"hand": HAND, "rules": "maceplay", "players": "3"})
    assert page.status_code == 200
    solution = cp.solve(HAND, "maceplay", 3)
    assert solution._repr_html_() in page.text  # the display module's layout, as it is
    bad = client.get("/", params={"hand": "As Ks"})
    assert "expected 13 cards" in bad.text and "Traceback" not in bad.text
    for text in (page.text, docs.text):  # everything served locally
        assert "http://" not in text.replace("http://127.0.0.1", "")
        assert "https://" not in text and "<script" not in text


def test_metrics_count_requests_errors_latency_and_hands() -> None:
    with running() as server, server.client() as c:
        c.post("/v1/solve", json={"hands": [HAND, OTHER]})
        c.post("/v1/solve", json={"hands": ["As Ks"]})
        c.get("/nope")
        text = c.get("/metrics").text
    assert 'chinese_poker_requests_total{route="solve",status="200"} 1.0' in text
    assert 'chinese_poker_requests_total{route="solve",status="422"} 1.0' in text
    assert 'chinese_poker_errors_total{code="invalid_input",route="solve"} 1.0' in text
    assert 'chinese_poker_errors_total{code="not_found",route="other"} 1.0' in text
    assert 'chinese_poker_hands_solved_total{objective="table"} 2.0' in text
    assert 'chinese_poker_request_seconds_count{route="solve"} 2.0' in text


# -- errors: the library's messages, naming the field ----------------------------------------


@pytest.mark.parametrize(
    ("request_", "field", "call"),
    [
        ({"hands": [HAND, "As Ks"]}, "hands[1]", lambda: cp.solve("As Ks")),
        ({"hands": [HAND, HAND[:-2] + "Xx"]}, "hands[1]", lambda: cp.solve(HAND[:-2] + "Xx")),
        ({"hands": [HAND, "As Ks"], "detail": "decision"}, "hands[1]",
         lambda: cp.parse_hands([HAND, "As Ks"])),
        ({"hands": [HAND], "players": 7}, "players", lambda: cp.Solver("maceplay", 7)),
        ({"hands": [HAND], "top_k": 0}, "top_k", lambda: cp.solve(HAND, "maceplay", top_k=0)),
        ({"hands": [HAND], "rules": "nope"}, "rules", lambda: cp.RuleSet.preset("nope")),
        ({"hands": [HAND], "rules": {"scoop": {"kind": "x"}}}, "rules.scoop.kind",
         lambda: cp.RuleSet.from_dict({"scoop": {"kind": "x"}})),
        ({"hands": [HAND], "objective": {"monte_carlo": {"samples": 1}}},
         "objective.monte_carlo.samples", lambda: cp.MonteCarlo(samples=1)),
        ({"hands": [HAND], "objective": {"monte_carlo": {"seed": -1}}},
         "objective.monte_carlo.seed", lambda: cp.MonteCarlo(seed=-1)),
    ],
)  # fmt: skip
def test_solve_refuses_what_the_library_refuses(
    client: httpx.Client, request_: dict[str, Any], field: str, call: Any
) -> None:
    error = error_of(client.post("/v1/solve", json=request_), 422)
    expected = library_error(call)
    assert error == {
        "code": "invalid_input",
        "field": field,
        "message": str(expected),
        "type": type(expected).__name__,
    }


def test_settle_and_naturals_name_the_field(client: httpx.Client) -> None:
    bad_card = [ROUND[0], ROUND[1].replace("2h", "2Q")]
    error = error_of(client.post("/v1/settle", json={"decisions": bad_card}), 422)
    assert error["field"] == "decisions[1].back"
    assert error["message"] == str(library_error(lambda: cp.Setting.parse(bad_card[1])))
    two = {"decisions": ROUND[:2]}
    error = error_of(client.post("/v1/settle", json={**two, "dealer": 5}), 422)
    seats = [cp.Setting.parse(t) for t in ROUND[:2]]
    assert (error["field"], error["message"]) == (
        "dealer", str(library_error(lambda: cp.settle(seats, "maceplay", dealer=5)))
    )  # fmt: skip
    error = error_of(client.post("/v1/settle", json={**two, "bankrolls": [1]}), 422)
    assert error["field"] == "bankrolls"
    error = error_of(client.post("/v1/settle", json={"decisions": [{"decision": "fold"}]}), 422)
    assert error["field"] == "decisions[0].decision"
    error = error_of(client.post("/v1/naturals", json={"hand": "As Ks"}), 422)
    assert error["field"] == "hand"
    assert error["message"] == str(library_error(lambda: cp.find_naturals("As Ks", "maceplay")))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"hands": [HAND], "color": "red"}, "color"),
        ({}, "hands"),
        ({"hands": HAND}, "hands"),
        ({"hands": []}, "hands"),
        ({"hands": [HAND], "objective": "fast"}, "objective"),
        ({"hands": [HAND], "objective": {"monte_carlo": {"sample": 5}}},
         "objective.monte_carlo.sample"),
        ({"hands": [HAND], "objective": {"monte_carlo": {"time_limit": -1}}},
         "objective.monte_carlo.time_limit"),
        ({"hands": [HAND], "rules": 5}, "rules"),
        ({"hands": [HAND, 5]}, "hands[1]"),
        ([HAND], None),
    ],
)  # fmt: skip
def test_a_bad_request_shape_is_422_naming_the_field(
    client: httpx.Client, body: Any, field: str | None
) -> None:
    error = error_of(client.post("/v1/solve", json=body), 422)
    assert error["code"] == "invalid_input" and error["field"] == field
    assert error["message"].startswith(f"{field}: " if field else "expected a JSON object")


def test_bad_json_404_405(client: httpx.Client) -> None:
    for body in (b"{bad", b"", b"\xff\xfe", b"[" * 100_000):
        error = error_of(client.post("/v1/solve", content=body), 400)
        assert error["code"] == "bad_json"
    assert error_of(client.get("/v2/solve"), 404)["code"] == "not_found"
    assert error_of(client.get("/v1/solve"), 405)["code"] == "method_not_allowed"


def test_limits_413_422_429_504(tmp_path: Path) -> None:
    options = ("--max-body", "2048", "--max-hands", "3", "--max-samples", "30000")
    with running(*options, "--mc-slots", "1", "--workers", "2") as server, server.client() as c:
        error = error_of(c.post("/v1/solve", json={"hands": [HAND] * 200}), 413)
        assert error["code"] == "too_large" and "2048 bytes" in error["message"]
        # a body sent in chunks without a length is cut off at the limit too
        chunks = iter([b'{"hands": ["' + b"A" * 1500, b"B" * 1500 + b'"]}'])
        error_of(c.post("/v1/solve", content=chunks), 413)
        error = error_of(c.post("/v1/solve", json={"hands": [HAND] * 4}), 422)
        assert error["field"] == "hands" and "1 to 3 hands" in error["message"]
        mc = {"monte_carlo": {"samples": 20_000}}
        error = error_of(c.post("/v1/solve", json={"hands": [HAND] * 2, "objective": mc}), 422)
        assert error["field"] == "objective.monte_carlo.samples"
        assert "30000 samples per request" in error["message"]
        # one Monte Carlo slot: a second request while the first runs is refused, not queued
        longer = {"hands": [CLOSE], "objective": {"monte_carlo": {"samples": 29_000}}}
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(c.post, "/v1/solve", json=longer)
            time.sleep(0.3)
            busy = c.post("/v1/solve", json=SLOW)
            table = c.post("/v1/solve", json={"hands": [HAND]})  # the table objective is free
            assert first.result().status_code == 200
        assert error_of(busy, 429)["code"] == "busy"
        assert busy.headers["retry-after"] == "1"
        assert table.status_code == 200
        # a time limit means what it means in the library: the best play found by then
        tight = {"monte_carlo": {"samples": 15_000, "time_limit": 0.05}}
        start = time.perf_counter()
        r = c.post("/v1/solve", json={"hands": [CLOSE], "objective": tight})
        assert r.status_code == 200, r.text
        assert time.perf_counter() - start < 5
        assert 0 < r.json()["solutions"][0]["samples"] < 15_000
        assert c.post("/v1/solve", json={"hands": [HAND]}).status_code == 200


def _reordered(value: Any, reverse: bool) -> Any:
    if isinstance(value, dict):
        return {k: _reordered(value[k], reverse) for k in sorted(value, reverse=reverse)}
    return value


def test_a_rule_set_means_the_same_however_it_is_sent(client: httpx.Client) -> None:
    hands = [HAND, OTHER, DRAGON, CLOSE] + [
        " ".join(str(cp.Card(int(c))) for c in row) for row in cp.deal(60, 2, seed=4)[:, 0]
    ]
    for name in _core.PRESET_NAMES:
        served = client.get(f"/v1/rules/{name}").json()
        ask = {"hands": hands, "players": 4, "detail": "decision"}
        want = client.post("/v1/solve", json={**ask, "rules": name}).json()
        assert want["tables"]["source"] == "shipped"
        assert want["rules_digest"] == cp.RuleSet.preset(name).digest
        for rules in (served, _reordered(served, False), _reordered(served, True)):
            got = client.post("/v1/solve", json={**ask, "rules": rules}).json()
            assert got == want, name
        full = client.post("/v1/solve", json={"hands": [HAND], "rules": _reordered(served, True)})
        assert full.json()["solutions"][0]["tables"] == want["tables"]


def test_work_past_its_deadline_or_left_by_its_client_frees_its_slot() -> None:
    endless = {"hands": [CLOSE], "objective": {"monte_carlo": {"samples": 90_000}}}
    with running("--timeout", "0.4", "--mc-slots", "1", "--max-samples", "100000") as server:
        with server.client() as c:
            start = time.perf_counter()
            assert error_of(c.post("/v1/solve", json=endless), 504)["code"] == "timeout"
            # cancelled at the deadline: the one slot is free again at once
            r = c.post("/v1/solve", json=SLOW | {"objective": {"monte_carlo": {"samples": 200}}})
            assert r.status_code == 200, r.text
            assert time.perf_counter() - start < 3
        # a client that leaves: its work is cancelled too
        with server.client(timeout=0.15) as impatient, pytest.raises(httpx.TimeoutException):
            impatient.post("/v1/solve", json=endless)
        time.sleep(0.5)
        with server.client() as c:
            r = c.post("/v1/solve", json={"hands": [CLOSE], "objective": {"monte_carlo": {}}})
            assert r.status_code == 200, r.text
        text = server.client().get("/metrics").text
        assert 'code="internal"' not in text


def test_monte_carlo_time_limit_is_per_hand_and_bounded_before_work(client: httpx.Client) -> None:
    mc = {"monte_carlo": {"samples": 100, "time_limit": 20.0}}
    error = error_of(client.post("/v1/solve", json={"hands": [HAND] * 2, "objective": mc}), 422)
    assert error["field"] == "objective.monte_carlo.time_limit"
    assert "request timeout" in error["message"]
    # a number of the wrong type is refused before any cache can take it for another
    for samples in (1000.0, True, "1000"):
        mc = {"monte_carlo": {"samples": samples}}
        error = error_of(client.post("/v1/solve", json={"hands": [HAND], "objective": mc}), 422)
        assert error["field"] == "objective.monte_carlo.samples", samples
    decided = client.post(
        "/v1/solve",
        json={"hands": [HAND], "objective": {"monte_carlo": {"samples": 50}}, "detail": "decision"},
    )
    assert decided.status_code == 200, decided.text
    assert set(decided.json()["solutions"][0]) == {"hand", "decision", "setting", "codes", "value"}


def test_slow_clients_are_cut_off_and_never_lock_the_server_out() -> None:
    import socket

    with running("--read-timeout", "0.5", "--max-connections", "48") as server:
        host, port = server.url.removeprefix("http://").split(":")
        start = time.perf_counter()
        slow = []
        for _ in range(40):  # each sends half a request, then nothing more
            sock = socket.create_connection((host, int(port)), timeout=5)
            sock.sendall(b"POST /v1/solve HTTP/1.1\r\nhost: x\r\ncontent-length: 400\r\n\r\n{")
            slow.append(sock)
        trickle = socket.create_connection((host, int(port)), timeout=5)
        with server.client() as c:  # the server answers others meanwhile
            assert c.post("/v1/solve", json={"hands": [HAND]}).status_code == 200
            for byte in b"GET /healthz HTTP/1.1\r\nhost: x\r\n":  # one byte at a time
                try:
                    trickle.sendall(bytes([byte]))
                except OSError:
                    break  # closed by the server: what this test wants
                time.sleep(0.05)
            for sock in [*slow, trickle]:  # every one closed by the server, none answered
                sock.settimeout(5)
                with contextlib.suppress(ConnectionResetError):
                    assert sock.recv(4096) == b""
                sock.close()
            assert time.perf_counter() - start < 15
            assert c.get("/healthz").status_code == 200
            text = c.get("/metrics").text
            assert 'code="internal"' not in text
    assert "Traceback" not in server.stop()


def test_a_lone_surrogate_or_an_odd_digit_is_never_a_500(client: httpx.Client) -> None:
    # a \ud800 escape is no text the core can hold: not JSON to it (the serve guide says so)
    body = '{"hands": ["' + HAND + '"], "\\ud800": 1}'
    r = client.post("/v1/solve", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("application/json")
    assert r.json()["error"]["code"] == "bad_json"
    page = client.get("/", params={"hand": HAND, "players": "²"})
    assert page.status_code == 200


def test_server_timeout_is_a_504() -> None:
    with running("--timeout", "0.05") as server, server.client() as c:
        error = error_of(c.post("/v1/solve", json=SLOW), 504)
        assert "0.05 s" in error["message"]
        assert c.get("/healthz").status_code == 200


def test_the_token(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("s3cret-token\n")
    with running("--token-file", str(token_file)) as server:
        with server.client() as anonymous:
            r = anonymous.post("/v1/solve", json={"hands": [HAND]})
            assert error_of(r, 401)["code"] == "unauthorized"
            assert r.headers["www-authenticate"] == "Bearer"
            for path in ("/v1/rules", "/metrics", "/openapi.json"):
                error_of(anonymous.get(path), 401)
            page = anonymous.get("/")  # a browser is shown the sign-in form
            assert page.status_code == 401 and "action='/login'" in page.text
            assert anonymous.get("/healthz").status_code == 200  # probes need no token
        with server.client("wrong-token") as wrong:
            error_of(wrong.get("/v1/rules"), 401)
        with server.client("s3cret-token") as ok:
            assert ok.post("/v1/solve", json={"hands": [HAND]}).status_code == 200
    # the environment variable, when there is no file
    with running(env={"CHINESE_POKER_TOKEN": "from-env"}) as server:
        error_of(server.client().get("/v1/rules"), 401)
        assert server.client("from-env").get("/v1/rules").status_code == 200


def test_a_bad_token_file_or_port_is_one_line(tmp_path: Path) -> None:
    for options, argument in (
        (["--token-file", str(tmp_path / "missing")], "--token-file"),
        (["--max-hands", "0"], "--max-hands"),
        (["--timeout", "nan"], "--timeout"),
        (["--host", "192.0.2.1"], "--port"),  # not an address of this machine
    ):
        r = subprocess.run(
            [sys.executable, "-m", "chinese_poker", "serve", "--port", "0", *options],
            capture_output=True, text=True, timeout=60, env=_env(),
        )  # fmt: skip
        assert r.returncode == 2, r.stderr
        assert f"argument {argument}" in r.stderr and "Traceback" not in r.stderr


def test_cors_is_off_unless_configured(client: httpx.Client) -> None:
    origin = {"origin": "https://table.example"}
    assert "access-control-allow-origin" not in client.get("/v1/rules", headers=origin).headers
    with running("--cors-origin", "https://table.example") as server, server.client() as c:
        r = c.get("/v1/rules", headers=origin)
        assert r.headers["access-control-allow-origin"] == "https://table.example"
        other = c.get("/v1/rules", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_concurrent_clients_get_their_own_answers(server: Server) -> None:
    rng = np.random.default_rng(3)
    hands = [" ".join(str(_core.Card(int(c))) for c in rng.permutation(52)[:13]) for _ in range(48)]
    want = {h: cp.solve(h, "maceplay").setting.to_text() for h in hands}

    def one(hand: str) -> str:
        with server.client() as c:
            r = c.post("/v1/solve", json={"hands": [hand], "rules": "maceplay"})
            assert r.status_code == 200, r.text
            return r.json()["solutions"][0]["setting"]  # type: ignore[no-any-return]

    with ThreadPoolExecutor(16) as pool:
        got = dict(zip(hands, pool.map(one, hands), strict=True))
    assert got == want


@pytest.mark.posix_only  # SIGTERM's exit status
def test_sigterm_finishes_the_requests_in_flight() -> None:
    server = start("--mc-slots", "2", "--workers", "2")
    results: list[tuple[Any, float]] = []

    def slow() -> None:
        with server.client() as c:
            r = c.post("/v1/solve", json=SLOW)
            results.append((r, time.monotonic()))

    threads = [threading.Thread(target=slow) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.3)  # both requests are in the workers
    signalled = time.monotonic()
    err = server.stop()
    for t in threads:
        t.join(60)
    # the server finishes, then dies by the signal it caught, as a process sent SIGTERM does
    assert server.proc.returncode == -signal.SIGTERM, err
    assert "Traceback" not in err
    assert [r.status_code for r, _ in results] == [200, 200]
    assert all(r.json()["solutions"][0]["samples"] == SLOW_SAMPLES for r, _ in results)
    assert all(done > signalled for _, done in results)  # they were in flight
    with pytest.raises(httpx.TransportError):
        httpx.get(server.url + "/healthz", timeout=2)


# -- JSON lines --------------------------------------------------------------------------------


def _pipe(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "chinese_poker", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, bufsize=1, env=_env(),
    )  # fmt: skip


def _ask(proc: subprocess.Popen[str], line: str) -> Any:
    """Writes one line and reads its answer while the input stays open."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def test_stdio_answers_each_line_as_it_is_read() -> None:
    proc = _pipe("serve", "--stdio")
    try:
        first = _ask(proc, json.dumps({"op": "solve", "id": "a1", "hands": [HAND], "top_k": 2}))
        solved = cp.solve(HAND, "maceplay", top_k=2)
        want = solved.to_dict()
        assert first == {
            "id": "a1",
            "rules_digest": solved.rules_digest,
            "tables": solved.tables.to_dict(),  # type: ignore[union-attr]
            "solutions": [{"hand": HAND, **json.loads(json.dumps(want))}],
        }
        assert _ask(proc, "{bad")["error"]["code"] == "bad_json"
        assert _ask(proc, "[1]")["error"]["code"] == "invalid_input"
        unknown = _ask(proc, json.dumps({"op": "fold", "id": 2}))
        assert unknown["id"] == 2 and unknown["error"]["field"] == "op"
        bad = _ask(proc, json.dumps({"op": "solve", "id": 3, "hands": [HAND, "As Ks"]}))
        assert bad["id"] == 3 and bad["error"]["field"] == "hands[1]"
        assert bad["error"]["message"] == str(library_error(lambda: cp.solve("As Ks")))
        settled = _ask(proc, json.dumps({"op": "settle", "decisions": ROUND[:2]}))
        assert settled["totals"] == [18, -18]
        assert _ask(proc, json.dumps({"op": "naturals", "hand": DRAGON}))["naturals"]
        assert len(_ask(proc, json.dumps({"op": "rules"}))["presets"]) == len(_core.PRESET_NAMES)
        assert _ask(proc, json.dumps({"op": "rules", "name": "two_four"}))["name"] == "two_four"
        assert _ask(proc, json.dumps({"op": "rules", "name": "x"}))["error"]["code"] == "not_found"
    finally:
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out == "" and err == ""


JSONL_BAD = [
    HAND.replace("As", "Zs", 1),
    " ".join([HAND.split()[0]] * 2 + HAND.split()[2:]),
    HAND + " 2c",
    "\u00e9" * 5,
]


@pytest.mark.parametrize("text", JSONL_BAD, ids=repr)
def test_a_bad_hand_is_answered_as_the_naturals_request_answers_it(
    client: httpx.Client, text: str
) -> None:
    """``solve --jsonl``'s error line and the service's answer for the same text: one owner."""
    got = _core.hand_error(text, "hand")
    assert got is not None
    r = client.post("/v1/naturals", json={"hand": text})
    assert r.status_code == 422 and json.loads(got) == r.json()
    assert _core.hand_error(HAND, "hand") is None
    assert json.loads(_core.hand_error(text, "x[3]") or b"{}")["error"]["field"] == "x[3]"


def test_solve_jsonl_streams_one_answer_per_line() -> None:
    proc = _pipe("solve", "--jsonl", "--rules", "two_four", "--players", "2", "--top", "1")
    try:
        got = _ask(proc, HAND)
        assert got == {
            "hand": HAND,
            **json.loads(json.dumps(cp.solve(HAND, "two_four", 2, top_k=1).to_dict())),
        }
        bad = _ask(proc, "As Ks Qs  # a comment")
        assert bad["line"] == 2 and bad["error"]["field"] == "hand"
        assert bad["error"]["message"] == str(library_error(lambda: cp.solve("As Ks Qs")))
        # every kind of bad hand: the library's message and class, the stream goes on
        for number, text in enumerate(JSONL_BAD, start=3):
            e = library_error(lambda text=text: cp.solve(text))
            assert _ask(proc, text) == {
                "line": number,
                "error": {
                    "code": "invalid_input", "message": str(e), "field": "hand",
                    "type": type(e).__name__,
                },
            }  # fmt: skip
        assert _ask(proc, OTHER)["hand"] == OTHER
    finally:
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out == "" and err == ""


def test_settle_reads_a_round_on_standard_input() -> None:
    for text in (
        json.dumps({"seats": ROUND[:2], "rules": "maceplay"}),
        'rules = "maceplay"\nseats = ["' + '", "'.join(ROUND[:2]) + '"]\n',
    ):
        r = subprocess.run(
            [sys.executable, "-m", "chinese_poker", "settle", "--file", "-", "--json"],
            input=text, capture_output=True, text=True, timeout=60, env=_env(),
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["totals"] == [18, -18]


ODD = [[4], {"a": 1}, "4", 4.5, True, None, -1, 10**30, [], ""]


@pytest.mark.parametrize("value", ODD, ids=repr)
def test_any_json_value_in_any_field_is_answered_never_a_500(
    client: httpx.Client, value: Any
) -> None:
    """Every field given a value of every JSON type: a 4xx naming the field, or an answer."""
    two = ROUND[:2]
    mc = "objective.monte_carlo"
    cases = [
        ("/v1/solve", {"hands": [HAND], "players": value}, "players"),
        ("/v1/solve", {"hands": [HAND], "top_k": value}, "top_k"),
        ("/v1/solve", {"hands": [HAND], "objective": {"monte_carlo": {"samples": value}}},
         f"{mc}.samples"),
        ("/v1/solve", {"hands": [HAND], "objective": {"monte_carlo": {"seed": value}}},
         f"{mc}.seed"),
        ("/v1/solve", {"hands": [HAND], "objective": {"monte_carlo": {"time_limit": value}}},
         f"{mc}.time_limit"),
        ("/v1/solve", {"hands": [HAND], "rules": value}, "rules"),
        ("/v1/solve", {"hands": [HAND], "detail": value}, "detail"),
        ("/v1/solve", {"hands": [HAND], "detail": "decision", "players": value}, "players"),
        ("/v1/solve", {"hands": value}, "hands"),
        ("/v1/settle", {"decisions": two, "dealer": value}, "dealer"),
        ("/v1/settle", {"decisions": two, "bankrolls": value}, "bankrolls"),
        ("/v1/settle", {"decisions": value}, "decisions"),
        ("/v1/settle", {"decisions": [value, two[1]]}, "decisions[0]"),
        ("/v1/settle", {"decisions": two, "rules": value}, "rules"),
        ("/v1/naturals", {"hand": value}, "hand"),
        ("/v1/naturals", {"hand": HAND, "rules": value}, "rules"),
    ]  # fmt: skip
    for path, body, field in cases:
        r = client.post(path, json=body)
        assert r.status_code in (200, 422), (body, r.text)
        if r.status_code == 422:
            error = r.json()["error"]
            assert error["field"] is not None and error["field"].startswith(field), (body, error)
