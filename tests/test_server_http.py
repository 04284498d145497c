"""The HTTP front fed what a careless or hostile client sends, on raw sockets: garbage and
oversized heads, pipelined and HTTP/1.0 requests, HEAD, OPTIONS without CORS, odd paths and
names, and more connections than ``--max-connections``. Every answer is the service's own
(JSON errors with their codes; a plain 503 past the connection limit), the server never dies
and never logs a traceback."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("httpx")

from server_process import Server, running  # noqa: E402

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running("--max-connections", "8", "--read-timeout", "2") as s:
        yield s
        assert "Traceback" not in s.stop()


def _connect(server: Server) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def _read_answer(f: object) -> tuple[int, dict[str, str], bytes]:
    status_line = f.readline()  # type: ignore[attr-defined]
    status = int(status_line.split(b" ")[1])
    headers = {}
    while (line := f.readline()) not in (b"\r\n", b""):  # type: ignore[attr-defined]
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    body = f.read(int(headers.get("content-length", "0")))  # type: ignore[attr-defined]
    return status, headers, body


def _ask(server: Server, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with _connect(server) as sock:
        sock.sendall(raw)
        return _read_answer(sock.makefile("rb"))


def _post(body: bytes, path: bytes = b"/v1/solve") -> bytes:
    return (
        b"POST " + path + b" HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % len(body) + body
    )


def test_garbage_and_oversized_heads_are_refused_not_fatal(server: Server) -> None:
    long_head = b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-pad: " + b"a" * 200_000 + b"\r\n\r\n"
    for raw in (b"\x00\xff garbage\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", long_head):
        with _connect(server) as sock:
            sock.sendall(raw)
            got = sock.recv(4096)  # an HTTP error status, or the connection closed
            assert got == b"" or got.startswith(b"HTTP/1.1 4"), got[:80]
    status, _, body = _ask(server, b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_pipelined_requests_are_answered_in_order(server: Server) -> None:
    requests = [_post(json.dumps({"hands": [HAND], "players": p}).encode()) for p in (2, 3, 4)]
    with _connect(server) as sock:
        sock.sendall(b"".join(requests) + b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
        f = sock.makefile("rb")
        answers = [_read_answer(f) for _ in range(4)]
    assert [a[0] for a in answers] == [200, 200, 200, 200]
    assert [json.loads(a[2])["solutions"][0]["players"] for a in answers[:3]] == [2, 3, 4]


def test_http_1_0_head_and_options(server: Server) -> None:
    status, headers, body = _ask(server, b"GET /healthz HTTP/1.0\r\n\r\n")
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, headers, body = _ask(server, b"HEAD /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 200 and body == b""
    status, headers, body = _ask(server, b"OPTIONS /v1/solve HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 405 and headers["allow"] == "POST"
    assert json.loads(body)["error"]["code"] == "method_not_allowed"


def test_odd_paths_and_preset_names(server: Server) -> None:
    for path in (b"/v1/rules/%ff%fe", b"/v1/rules/%zz", b"/v1/rules/" + b"n" * 5000,
                 b"/v1/rules/two_four%20", b"/v1/rules/.."):  # fmt: skip
        status, _, body = _ask(server, b"GET " + path + b" HTTP/1.1\r\nhost: x\r\n\r\n")
        error = json.loads(body)["error"]
        assert (status, error["code"]) == (404, "not_found"), (path, body)
    status, _, body = _ask(server, b"GET /v1/rules/two%5ffour HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 200 and json.loads(body)["name"] == "two_four"
    status, _, body = _ask(server, b"GET /v1//solve HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 404


def test_a_body_longer_or_shorter_than_its_length(server: Server) -> None:
    body = json.dumps({"hands": [HAND]}).encode()
    head = b"POST /v1/solve HTTP/1.1\r\nhost: x\r\ncontent-length: %d\r\n\r\n"
    status, _, answer = _ask(server, head % (len(body) - 5) + body)  # cut: not JSON
    assert status == 400 and json.loads(answer)["error"]["code"] == "bad_json"
    with _connect(server) as sock:  # promised more than it sends: cut off at the read timeout
        sock.sendall(head % (len(body) + 50) + body)
        start = time.monotonic()
        assert sock.recv(4096) == b""
        assert time.monotonic() - start < 8


def test_past_max_connections_a_plain_503_and_the_others_still_served(server: Server) -> None:
    held = [_connect(server) for _ in range(8)]
    try:
        time.sleep(0.2)
        with _connect(server) as extra:
            extra.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
            assert extra.recv(4096).startswith(b"HTTP/1.1 503")
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    status, _, _ = _ask(server, b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    assert status == 200
