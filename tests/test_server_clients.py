"""The service as other programs see it: the OpenAPI document (valid, and describing what the
server really answers), the JavaScript client of docs/guide/serve.md run by Node against a
running server with every answer checked against that document, and the page at ``/`` driven
in a real headless browser (Debian's chromium with selenium; a screenshot is kept under
``target/artifacts/``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx")
openapi_schema_validator = pytest.importorskip("openapi_schema_validator")

import chinese_poker as cp  # noqa: E402
from chinese_poker import _core  # noqa: E402
from chinese_poker.exceptions import InvalidRulesError  # noqa: E402
from chinese_poker.server.schema import openapi, rule_set_schema  # noqa: E402
from server_process import Server, running  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "serve.md"
ARTIFACTS = ROOT / "target" / "artifacts"
HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running() as s:
        yield s


@pytest.fixture(scope="module")
def document(server: Server) -> dict[str, Any]:
    with server.client() as c:
        return c.get("/openapi.json").json()  # type: ignore[no-any-return]


def check(document: dict[str, Any], method: str, path: str, status: int, body: Any) -> None:
    """``body`` is what the document says ``method path`` answers with ``status``."""
    template = path if path in document["paths"] else path.rsplit("/", 1)[0] + "/{name}"
    responses = document["paths"][template][method.lower()]["responses"]
    assert str(status) in responses, (method, path, status)
    schema = responses[str(status)]["content"]["application/json"]["schema"]
    validator = openapi_schema_validator.OAS31Validator(
        {**schema, "components": document["components"]}
    )
    validator.validate(body)


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    spec_validator = pytest.importorskip("openapi_spec_validator")
    spec_validator.validate(document)
    assert document == json.loads(json.dumps(openapi(cp.__version__)))


def test_the_response_schemas_name_every_field_the_library_gives(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    solution = cp.solve(HAND, "maceplay")
    assert set(schemas["Solution"]["properties"]) == {"hand", *solution.to_dict()}
    assert set(schemas["Alternative"]["properties"]) == set(solution.to_dict()["alternatives"][0])
    settlement = cp.settle([cp.Setting.parse("2c 3d 4h / 5s 6s 7c 8d 9h / Tc Jd Qh Kc Ad")] * 1
                           + [cp.Surrender()], "pokerfever_eastern")  # fmt: skip
    assert set(schemas["Settlement"]["properties"]) == {
        "rules", "rules_digest", "explanation", *settlement.to_dict()
    }  # fmt: skip
    assert set(schemas["TablesId"]["properties"]) == set(solution.tables.to_dict())  # type: ignore[union-attr]


def test_the_rule_set_schema_takes_every_preset_and_refuses_what_the_core_refuses() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(rule_set_schema())
    validator.check_schema(rule_set_schema())
    for name in _core.PRESET_NAMES:
        validator.validate(cp.RuleSet.preset(name).to_dict())
    validator.validate(cp.RuleSet().to_dict())
    for bad in ({"scoop": {"kind": "lots"}}, {"colour": 1}, {"bonus": {"front": {"trips": "3"}}}):
        assert not validator.is_valid(bad)
        with pytest.raises(InvalidRulesError):
            cp.RuleSet.from_dict(bad)


def _js_client() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text.split("```js\n", 1)[1].split("```", 1)[0]


def test_the_javascript_client_of_the_guide(
    server: Server, document: dict[str, Any], tmp_path: Path
) -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node is not installed (CI installs Debian's nodejs)")
    script = tmp_path / "client.mjs"
    script.write_text(_js_client(), encoding="utf-8")
    env = {**os.environ, "CHINESE_POKER_URL": server.url}
    env.pop("CHINESE_POKER_TOKEN", None)
    result = subprocess.run(
        [node, str(script)], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    assert len(answers) == 8
    for answer, method in zip(answers, ["POST"] * 4 + ["GET"] * 3 + ["POST"], strict=True):
        check(document, method, answer["path"], answer["status"], answer["body"])
    assert [a["status"] for a in answers] == [200] * 7 + [422]
    assert answers[-1]["body"]["error"]["field"] == "hands[0]"
    best = cp.solve(HAND, "maceplay", 4)
    assert answers[0]["body"]["solutions"][0]["setting"] == best.setting.to_text()
    assert result.stderr.startswith(f"play: {best.setting.to_text()}")


def test_the_go_client_of_the_guide(server: Server, tmp_path: Path) -> None:
    go = shutil.which("go")
    if go is None:
        pytest.skip("Go is not installed (CI installs Debian's golang-go)")
    source = GUIDE.read_text(encoding="utf-8").split("```go\n", 1)[1].split("```", 1)[0]
    (tmp_path / "client.go").write_text(source, encoding="utf-8")
    env = {
        **os.environ,
        "CHINESE_POKER_URL": server.url,
        "GOCACHE": str(tmp_path / "cache"),
        "GOPATH": str(tmp_path / "gopath"),
        "GO111MODULE": "off",
    }
    env.pop("CHINESE_POKER_TOKEN", None)
    result = subprocess.run(
        [go, "run", "client.go"], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env
    )
    assert result.returncode == 0, result.stderr
    best = cp.solve(HAND, "maceplay", 4)
    assert result.stdout == f"play: {best.setting.to_text()} ({best.value:+.3f})\n"


def test_error_answers_follow_the_document(server: Server, document: dict[str, Any]) -> None:
    with server.client() as c:
        for method, path, body, status in (
            ("POST", "/v1/solve", b"{bad", 400),
            ("POST", "/v1/solve", b'{"hands": ["As"]}', 422),
            ("POST", "/v1/settle", b'{"decisions": ["x"]}', 422),
            ("POST", "/v1/naturals", b'{"hand": 5}', 422),
            ("GET", "/v1/rules/nope", None, 404),
        ):
            r = c.request(method, path, content=body)
            assert r.status_code == status
            check(document, method, path, status, r.json())


def _browser() -> Any:
    webdriver = pytest.importorskip("selenium.webdriver")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/lib/chromium/chromedriver"
        if Path("/usr/lib/chromium/chromedriver").exists()
        else None
    )
    if binary is None or driver is None:
        pytest.skip("chromium and chromium-driver are not installed (CI installs them)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1100,900"):  # fmt: skip
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=options)


def test_the_page_in_a_headless_browser(server: Server) -> None:
    browser = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    try:
        browser.get(server.url + "/")
        browser.find_element(By.ID, "hand").send_keys(HAND)
        Select(browser.find_element(By.ID, "rules")).select_by_visible_text("pokerclub_south")
        Select(browser.find_element(By.ID, "players")).select_by_visible_text("3")
        browser.find_element(By.ID, "solve").click()
        WebDriverWait(browser, 60).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, "#result .cp-card")
        )
        best = cp.solve(HAND, "pokerclub_south", 3)
        table = browser.find_element(By.CSS_SELECTOR, "#result table")
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
        shown = [
            sorted(c.get_attribute("title") for c in r.find_elements(By.CLASS_NAME, "cp-card"))
            for r in rows
        ]
        assert shown == [sorted(str(c) for c in row) for row in best.setting.rows()]
        text = browser.find_element(By.ID, "result").text
        assert f"{best.value:+.3f}" in text and "next best" in text
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / "serve-page.png"
        assert browser.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
    finally:
        browser.quit()
