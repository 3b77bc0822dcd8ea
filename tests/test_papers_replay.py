"""The replay arXiv itself: recorded feeds by parsed parameters, fixture lookups, PDFs, and its faults."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import unquote_plus, urlencode, urlsplit

import httpx
import pytest
from support.arxiv_replay import Replay


@pytest.fixture(autouse=True)
def no_faults(replay: Replay) -> Iterator[None]:
    yield
    replay.clear_faults()


def get(url: str, params: dict[str, str] | None = None) -> httpx.Response:
    with httpx.Client(trust_env=False) as client:
        return client.get(url, params=params)


def test_every_recorded_feed_is_served_byte_for_byte_in_any_parameter_order(replay: Replay) -> None:
    index = json.loads((replay.fixtures / "feeds" / "index.json").read_text(encoding="utf-8"))
    for row in index:
        pairs = [tuple(p.split("=", 1)) for p in urlsplit(row["request_url"]).query.split("&")]
        shuffled = dict(reversed(pairs))  # same parameters, another order and encoding
        response = get(replay.api_url + "?" + urlencode({k: unquote_plus(v) for k, v in shuffled.items()}))
        assert response.status_code == row["http_status"], row["file"]
        assert response.content == (replay.fixtures / "feeds" / row["file"]).read_bytes(), row["file"]


def test_fixture_papers_are_looked_up_from_metadata(replay: Replay) -> None:
    response = get(
        replay.api_url, {"search_query": "", "id_list": "1706.03762", "start": "0", "max_results": "1"}
    )
    assert response.status_code == 200
    body = response.text
    assert "<id>http://arxiv.org/abs/1706.03762v5</id>" in body  # unversioned id -> the fixture's version
    assert "<title>Attention Is All You Need</title>" in body
    assert "<opensearch:totalResults>1</opensearch:totalResults>" in body


def test_a_malformed_id_gets_the_400_error_feed_and_an_unknown_one_an_empty_feed(replay: Replay) -> None:
    bad = get(replay.api_url, {"search_query": "", "id_list": "not-an-id", "start": "0", "max_results": "1"})
    assert bad.status_code == 400 and "<title>Error</title>" in bad.text
    empty = get(
        replay.api_url, {"search_query": "", "id_list": "2301.00001", "start": "0", "max_results": "1"}
    )
    assert empty.status_code == 200 and "<entry>" not in empty.text


def test_pdfs_are_served_by_any_id_form(replay: Replay) -> None:
    expected = (replay.fixtures / "pdfs" / "quant-ph_9508027v2.pdf").read_bytes()
    for path in ("quant-ph/9508027", "quant-ph/9508027v2", "quant-ph/9508027v2.pdf"):
        response = get(replay.pdf_url + path)
        assert response.status_code == 200 and response.content == expected, path
    assert get(replay.pdf_url + "2301.00001").status_code == 404


def test_faults_apply_for_the_requested_count(replay: Replay) -> None:
    replay.set_fault("http_429", times=2, target="pdf")
    codes = [get(replay.pdf_url + "1503.02531").status_code for _ in range(3)]
    assert codes == [429, 429, 200]
    replay.set_fault("rate_exceeded", times=1)
    assert get(replay.api_url, {"search_query": "ti:x"}).text == "Rate exceeded."
