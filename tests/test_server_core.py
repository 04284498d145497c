"""The core's service (``_core.Service``, which the HTTP routes and ``serve --stdio`` answer
through) against the library: on every preset at 2 and 4 players, dealt hands solved by the
service equal ``Solver.solve(...).to_dict()`` (``detail`` full) and ``solve_batch``'s decisions
(``detail`` decision); rounds settle as ``settle`` does; the stdio form echoes its id; Monte
Carlo slots are given back; a Python event cancels a Monte Carlo solve."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import chinese_poker as cp
import pytest
from chinese_poker import _core
from chinese_poker.exceptions import CancelledError
from chinese_poker.server import ops
from chinese_poker.server.limits import Limits
from close_hands import undecided_hand

HANDS = 100
LIMITS = Limits(max_hands=HANDS)


def _text(row: Any) -> str:
    return " ".join(str(cp.Card(int(c))) for c in row)


def _ask(service: _core.Service, op: str, request: dict[str, Any]) -> Any:
    status, body, code, _ = service.answer(op, json.dumps(request).encode())
    assert status == 200 and code is None, body
    return json.loads(body)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", _core.PRESET_NAMES)
def test_the_service_answers_what_the_library_answers(preset: str, players: int) -> None:
    service = ops.new_service(LIMITS)
    codes = cp.deal(HANDS // players + 1, players, seed=11)[:, :].reshape(-1, 13)[:HANDS]
    hands = [_text(row) for row in codes]
    solver = cp.Solver(preset, players)
    ask = {"hands": hands, "rules": preset, "players": players}
    full = _ask(service, "solve", ask)
    assert full["rules_digest"] == cp.RuleSet.preset(preset).digest
    assert full["tables"] == solver.tables.to_dict()  # type: ignore[union-attr]
    for hand, got in zip(hands, full["solutions"], strict=True):
        want = solver.solve(hand).to_dict()
        assert got == {"hand": hand, **json.loads(json.dumps(want))}
    decided = _ask(service, "solve", {**ask, "detail": "decision"})
    batch = solver.solve_batch(cp.parse_hands(hands))
    for i, (hand, got) in enumerate(zip(hands, decided["solutions"], strict=True)):
        want = {"hand": hand, **batch.decision(i).to_dict(), "value": float(batch.values[i])}
        assert got == want
    # the decisions settle as the library settles them
    seats = [s["setting"] for s in full["solutions"][:players] if s["decision"] != "surrender"]
    if len(seats) >= 2 and all(s["decision"] == "play" for s in full["solutions"][:2]):
        r = _ask(service, "settle", {"decisions": seats[:2], "rules": preset, "explain": True})
        want = cp.settle([cp.Setting.parse(t) for t in seats[:2]], preset)
        assert r.pop("explanation") == want.explain()
        assert r == {
            "rules": preset,
            "rules_digest": cp.RuleSet.preset(preset).digest,
            **json.loads(json.dumps(want.to_dict())),
        }


def test_naturals_and_presets_are_the_library_s() -> None:
    service = ops.new_service(LIMITS)
    dragon = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
    got = _ask(service, "naturals", {"hand": dragon})
    assert got["naturals"] == [
        {"natural": m.natural, "value": m.value, "setting": m.setting and m.setting.to_text()}
        for m in cp.find_naturals(dragon, "maceplay")
    ]
    listed = _ask(service, "rules", {})["presets"]
    assert [p["name"] for p in listed] == list(_core.PRESET_NAMES)
    for name in _core.PRESET_NAMES:
        data = _ask(service, "rules", {"name": name})
        assert data == cp.RuleSet.preset(name).to_dict()
        assert list(data) == list(cp.RuleSet.preset(name).to_dict())


def test_errors_are_the_library_s_named_by_field() -> None:
    service = ops.new_service(LIMITS)
    hand = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    cases = [
        ({"hands": [hand], "players": 7}, "players", lambda: cp.Solver("maceplay", 7)),
        ({"hands": [hand], "players": True}, "players", lambda: cp.Solver("maceplay", True)),
        ({"hands": [hand], "top_k": 0}, "top_k", lambda: cp.solve(hand, top_k=0)),
        ({"hands": [hand, "As Ks"]}, "hands[1]", lambda: cp.solve("As Ks")),
        ({"hands": [hand, "As Xx"], "detail": "decision"}, "hands[1]",
         lambda: cp.parse_hands([hand, "As Xx"])),
        ({"hands": [hand], "rules": "nope"}, "rules", lambda: cp.RuleSet.preset("nope")),
        ({"hands": [hand], "rules": {"scoop": {"kind": "x"}}}, "rules.scoop.kind",
         lambda: cp.RuleSet.from_dict({"scoop": {"kind": "x"}})),
        ({"hands": [hand], "objective": {"monte_carlo": {"samples": 1}}},
         "objective.monte_carlo.samples", lambda: cp.MonteCarlo(samples=1)),
        ({"hands": [hand], "objective": {"monte_carlo": {"seed": -1}}},
         "objective.monte_carlo.seed", lambda: cp.MonteCarlo(seed=-1)),
    ]  # fmt: skip
    for request, field, call in cases:
        status, body, code, _ = service.answer("solve", json.dumps(request).encode())
        with pytest.raises(cp.exceptions.ChinesePokerError) as info:
            call()
        assert (status, code) == (422, "invalid_input")
        assert json.loads(body)["error"] == {
            "code": "invalid_input",
            "message": str(info.value),
            "field": field,
            "type": type(info.value).__name__,
        }, request


def test_settle_names_rows_seats_and_arguments_as_the_library() -> None:
    service = ops.new_service(LIMITS)
    rnd = [
        "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s",
        "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h",
    ]
    bad = [rnd[0], rnd[1].replace("2h", "2Q")]
    cases = [
        ({"decisions": bad}, "decisions[1].back", lambda: cp.Setting.parse(bad[1])),
        ({"decisions": rnd, "dealer": 5}, "dealer",
         lambda: cp.settle([cp.Setting.parse(t) for t in rnd], "maceplay", dealer=5)),
        ({"decisions": [rnd[0], "surrender"]}, "decisions[1]",
         lambda: cp.settle([cp.Setting.parse(rnd[0]), cp.Surrender()], "maceplay")),
        ({"decisions": rnd, "bankrolls": [1, 2.5]}, "bankrolls[1]",
         lambda: cp.settle([cp.Setting.parse(t) for t in rnd], "maceplay", bankrolls=[1, 2.5])),
        ({"decisions": ["a / b", rnd[1]]}, "decisions[0]", lambda: cp.Setting.parse("a / b")),
    ]  # fmt: skip
    for request, field, call in cases:
        status, body, _, _ = service.answer("settle", json.dumps(request).encode())
        with pytest.raises(cp.exceptions.ChinesePokerError) as info:
            call()
        error = json.loads(body)["error"]
        assert (status, error["field"], error["message"], error["type"]) == (
            422, field, str(info.value), type(info.value).__name__
        ), request  # fmt: skip


def test_decisions_as_text_have_one_reader() -> None:
    from chinese_poker.cli.settle import parse_decision

    text = "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"
    assert parse_decision(text) == cp.Setting.parse(text)
    assert parse_decision(" SURRENDER ") == cp.Surrender()
    assert parse_decision(f"Dragon: {text}") == cp.Declare("dragon", cp.Setting.parse(text))
    with pytest.raises(cp.exceptions.InvalidCardError) as info:
        cp.Setting.parse(text.replace("2s", "2Q"))
    assert info.value.row == "back" and str(info.value).startswith("back row: ")


def test_stdio_lines_and_slots() -> None:
    service = ops.new_service(Limits(mc_slots=1))
    line = json.dumps({"op": "rules", "id": [1, "x"], "name": "two_four"}).encode()
    got = json.loads(service.answer_line(line))
    assert got["id"] == [1, "x"] and got["name"] == "two_four"
    assert list(got)[0] == "id"
    mc = json.dumps({"hands": [undecided_hand()],
                     "objective": {"monte_carlo": {"samples": 90_000}}}).encode()  # fmt: skip
    cancel = threading.Event()
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(service.answer("solve", mc, cancel))
        except CancelledError as e:
            outcome.append(e)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    assert service.free_slots == 0
    status, body, code, _ = service.answer("solve", mc)
    assert (status, code) == (429, "busy")
    assert "all 1 Monte Carlo slots are busy" in json.loads(body)["error"]["message"]
    cancel.set()
    worker.join(5)
    assert isinstance(outcome[0], CancelledError)
    assert service.free_slots == 1


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"[" * 100_000, "bad_json"),
        (b'{"op": "solve", "hands": [1e999]}', "bad_json"),
        (b'{"op": "solve", "hands": [NaN]}', "bad_json"),
        (b'{"op": "solve", "hands": ["\\ud800"]}', "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (b'{"op": "solve", "hands": ["As"], "players": 18446744073709551616}', "invalid_input"),
        (b'{"op": "solve", "hands": ["As"], "players": -0}', "invalid_input"),
        (b'{"op": "settle", "decisions": [], "dealer": -0.0}', "invalid_input"),
        (b'{"op": "rules", "op": "fold"}', "invalid_input"),
        ('{"op": "solve", "hands": [], "hands": ["A♠ K♠"]}'.encode(), "invalid_input"),
    ],
)
def test_hostile_lines_are_answered_never_raised(line: bytes, code: str) -> None:
    got = json.loads(ops.new_service(LIMITS).answer_line(line))
    assert got["error"]["code"] == code, got


def test_duplicate_keys_mean_their_last_value_and_text_round_trips() -> None:
    hand = "A♠ K♠ Q♠ J♠ 9♥ 9♦ 7♣ 6♣ 5♦ 4♥ 3♠ 2♠ 2♦"
    line = '{"op": "solve", "id": "♣", "players": 9, "players": 2, "hands": ["' + hand + '"]}'
    got = json.loads(ops.new_service(LIMITS).answer_line(line.encode()))
    assert got["id"] == "♣" and got["solutions"][0]["hand"] == hand
    assert got["solutions"][0]["players"] == 2
