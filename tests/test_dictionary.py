"""The compression-dictionary trainer: capped, deterministic, and useful on held-out JSON.

The data imitates what column compression advice is for: event documents as an application logs
them into a JSON column, with the same keys and boilerplate (user agents, URLs) in every row and
varying ids, times and free text. Training uses one half and measurement the other, never the
training values, or the dictionary would look better than it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import string
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from linter.audit.dictionary import TOO_SMALL_BYTES, Measurement, measure, train_dictionary
from tests.complexity import assert_linear

FIRST = ["Anna", "Ben", "Chloe", "David", "Emma", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Katrin", "Liam", "Mia", "Noah", "Olga", "Pavel", "Quentin", "Rosa", "Sami", "Tara"]
LAST = ["Smith", "Müller", "Garcia", "Rossi", "Kowalski", "Novak", "Dubois", "Jensen", "Silva",
        "Yilmaz", "Nguyen", "Kim", "Larsen", "Costa", "Weber", "Moreau"]
DOMAINS = ["gmail.com", "example.org", "outlook.com", "yahoo.com", "proton.me", "corp.example.com"]
EVENTS = ["page_view", "click", "purchase", "signup", "search", "add_to_cart", "logout"]
AGENTS = [
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/124.0.0.0 Safari/537.36"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Version/17.4.1 Safari/605.1.15"),
    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
     "Gecko) Version/17.4 Mobile/15E148 Safari/604.1"),
    ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/124.0.6367.82 Mobile Safari/537.36"),
]
COUNTRIES = ["DE", "FR", "US", "GB", "ES", "IT", "PL", "NL", "SE", "BR", "JP"]
SECTIONS = ["shoes", "jackets", "bags", "accessories", "sale", "new-in", "kids"]
WORDS = ["red", "blue", "leather", "running", "winter", "summer", "classic", "slim", "waterproof",
         "wool", "cotton", "vintage", "sport", "travel", "mini", "large", "black", "white"]
REFERRERS = ["https://www.google.com/", "https://www.bing.com/", "https://t.co/",
             "https://news.ycombinator.com/"]
ALPHABET = string.ascii_letters + string.digits


def make_documents(count: int, seed: int = 0) -> list[bytes]:
    """Event documents of 200 to 1,500 bytes (most 700-1,200), as bytes of compact-ish JSON."""
    rng = random.Random(seed)

    def hexs(n: int) -> str:
        return "".join(rng.choice("0123456789abcdef") for _ in range(n))

    def token(n: int) -> str:
        return "".join(rng.choice(ALPHABET) for _ in range(n))

    documents = []
    for _ in range(count):
        first, last, event = rng.choice(FIRST), rng.choice(LAST), rng.choice(EVENTS)
        doc: dict[str, object] = {
            "event_id": f"{hexs(8)}-{hexs(4)}-4{hexs(3)}-{hexs(4)}-{hexs(12)}",
            "event": event,
            "timestamp": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                         f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                         f"{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z",
        }
        if event == "logout":  # the short ones
            doc.update({"user": {"id": rng.randint(1, 9_999_999)},
                        "reason": rng.choice(["timeout", "user", "token_expired"]),
                        "session_seconds": rng.randint(5, 20000),
                        "token": token(rng.randint(20, 60))})
            documents.append(json.dumps(doc, ensure_ascii=False).encode())
            continue
        doc["user"] = {"id": rng.randint(1, 9_999_999), "name": f"{first} {last}",
                       "email": f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}"
                                f"@{rng.choice(DOMAINS)}",
                       "country": rng.choice(COUNTRIES),
                       "plan": rng.choice(["free", "pro", "enterprise"]),
                       "newsletter": rng.random() < 0.3}
        session = {"id": hexs(16),
                   "ip": ".".join(str(rng.randint(1, 254)) for _ in range(4)),
                   "user_agent": rng.choice(AGENTS),
                   "fingerprint": token(rng.choice([16, 24, 32, 44]))}
        if rng.random() < 0.6:
            session["referrer"] = rng.choice(REFERRERS)
        doc["session"] = session
        section = rng.choice(SECTIONS)
        doc["page"] = {"url": f"https://shop.example.com/{section}/{rng.choice(WORDS)}-"
                              f"{rng.choice(WORDS)}-{rng.randint(1000, 99999)}",
                       "title": f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {section} "
                                "| Example Shop"}
        if rng.random() < 0.25:
            doc["comment"] = " ".join(rng.choice(WORDS + FIRST + ["the", "is", "not", "very"])
                                      for _ in range(rng.randint(5, 40)))
        if event in ("purchase", "add_to_cart"):
            items: list[dict[str, Any]] = [{"sku": f"SKU-{rng.randint(100000, 999999)}",
                      "name": f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(SECTIONS)}",
                      "quantity": rng.randint(1, 3), "price": round(rng.uniform(5, 300), 2)}
                     for _ in range(rng.randint(1, 5))]
            doc["properties"] = {
                "order_id": rng.randint(10**6, 10**7) if event == "purchase" else None,
                "currency": rng.choice(["EUR", "USD", "GBP"]), "items": items,
                "total": round(sum(i["price"] * i["quantity"] for i in items), 2)}
        elif event == "search":
            doc["properties"] = {"query": " ".join(rng.sample(WORDS, rng.randint(1, 3))),
                                 "results": rng.randint(0, 500), "page": rng.randint(1, 5)}
        elif event == "click":
            doc["properties"] = {"element": rng.choice(["button", "link", "image", "banner"]),
                                 "element_id": f"{rng.choice(['cta', 'nav', 'promo'])}-"
                                               f"{rng.randint(1, 40)}",
                                 "x": rng.randint(0, 1920), "y": rng.randint(0, 1080)}
        doc["tags"] = rng.sample(["mobile", "returning", "campaign-spring", "ab-test-b", "vip",
                                  "first-visit", "newsletter"], rng.randint(0, 3))
        doc["app"] = {"version": f"3.{rng.randint(0, 12)}.{rng.randint(0, 9)}",
                      "platform": rng.choice(["web", "ios", "android"]),
                      "build": rng.randint(1000, 9999)}
        documents.append(json.dumps(doc, ensure_ascii=False).encode())
    return documents


DOCUMENTS = make_documents(2000, seed=1)
TRAIN, HELD_OUT = DOCUMENTS[::2], DOCUMENTS[1::2]


@pytest.fixture(scope="module")
def json_dictionary() -> bytes:
    return train_dictionary(TRAIN)


def test_documents_look_like_the_percona_case() -> None:
    sizes = sorted(len(d) for d in DOCUMENTS)
    assert 150 < sizes[0] and sizes[-1] < 1600 and 700 < sizes[len(sizes) // 2] < 1000
    assert not set(TRAIN) & set(HELD_OUT)


@pytest.mark.parametrize("size", [0, 1, 7, 100, 512, 2048, 4096, 32768])
def test_dictionary_size_is_capped(size: int) -> None:
    assert len(train_dictionary(TRAIN[:300], size)) <= size


def test_dictionary_helps_on_held_out_json(json_dictionary: bytes) -> None:
    result = measure(HELD_OUT, json_dictionary)
    assert len(json_dictionary) > 1900  # there is plenty worth keeping
    # Percona's femtozip dictionary of 2 KB took JSON from 0.82 (no dictionary) to 0.57
    assert result.ratio_dict < 0.57
    assert result.ratio_dict < result.ratio_plain - 0.2
    assert result.bytes_dict < result.bytes_plain


def test_trained_beats_an_untrained_dictionary(json_dictionary: bytes) -> None:
    """Any JSON helps a little; training must do better than the tail of the training data."""
    untrained = b"".join(TRAIN[:4])[-2048:]
    assert measure(HELD_OUT, json_dictionary).ratio_dict < measure(HELD_OUT, untrained).ratio_dict


def test_the_most_valuable_text_is_at_the_end(json_dictionary: bytes) -> None:
    tail, head = json_dictionary[-512:], json_dictionary[:512]
    in_every_document = sum(tail[i:i + 6] in d for d in HELD_OUT[:200] for i in range(0, 506, 6))
    in_head = sum(head[i:i + 6] in d for d in HELD_OUT[:200] for i in range(0, 506, 6))
    assert in_every_document > in_head


def test_measure_counts_bytes_and_small_values() -> None:
    values = [b"x" * 50, b'{"a": 1}', b"y" * 300]
    result = measure(values, b"")
    assert isinstance(result, Measurement)
    assert result.values == 3 and result.bytes == 358
    assert result.share_too_small == pytest.approx(2 / 3)
    assert result.bytes_plain == sum(len(zlib.compress(v)) for v in values)
    assert result.bytes_dict == result.bytes_plain  # no dictionary, nothing changes
    assert result.ratio_plain == result.bytes_plain / 358
    assert measure(values, b"", too_small=10).share_too_small == pytest.approx(1 / 3)
    assert TOO_SMALL_BYTES == 100


def test_a_dictionary_round_trips() -> None:
    dictionary = train_dictionary(TRAIN[:200])
    value = HELD_OUT[0]
    compressor = zlib.compressobj(level=6, zdict=dictionary)
    packed = compressor.compress(value) + compressor.flush()
    decompressor = zlib.decompressobj(zdict=dictionary)
    assert decompressor.decompress(packed) + decompressor.flush() == value


@pytest.mark.parametrize("samples", [[], [b""], [b"a"], [b"abc", b"abc"], [b"", b"", b""],
                                     [b"x" * 10_000], [b"ab" * 5000, b"ab" * 5000]])
def test_empty_and_tiny_inputs(samples: list[bytes]) -> None:
    dictionary = train_dictionary(samples)
    assert len(dictionary) <= 2048
    result = measure(samples, dictionary)
    assert result.values == len(samples)
    assert 0 <= result.share_too_small <= 1


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError):
        train_dictionary(TRAIN[:10], gram=8, max_piece=4)


def test_nothing_to_measure() -> None:
    result = measure([], b"")
    assert (result.values, result.bytes, result.ratio_plain, result.ratio_dict) == (0, 0, 1.0, 1.0)


def test_deterministic_even_across_hash_seeds() -> None:
    """Sets of bytes iterate in an order that changes with PYTHONHASHSEED; output must not."""
    assert train_dictionary(TRAIN[:300]) == train_dictionary(TRAIN[:300])
    script = ("import sys, hashlib; sys.path[:0] = ['.']\n"
              "from tests.test_dictionary import TRAIN\n"
              "from linter.audit.dictionary import train_dictionary\n"
              "print(hashlib.sha256(train_dictionary(TRAIN[:300])).hexdigest())\n")
    root = Path(__file__).resolve().parent.parent
    runs = [subprocess.Popen([sys.executable, "-c", script], cwd=root, text=True,
                             stdout=subprocess.PIPE, env={**os.environ, "PYTHONHASHSEED": seed})
            for seed in ("1", "2")]
    digests = {run.communicate(timeout=120)[0].strip() for run in runs}
    assert digests == {hashlib.sha256(train_dictionary(TRAIN[:300])).hexdigest()}


def test_random_bytes_get_no_meaningful_benefit() -> None:
    rng = random.Random(7)
    noise = [rng.randbytes(rng.randint(300, 1500)) for _ in range(1000)]
    dictionary = train_dictionary(noise[:500])
    result = measure(noise[500:], dictionary)
    assert result.ratio_plain > 1.0  # incompressible: zlib only adds its framing
    assert result.ratio_dict >= result.ratio_plain - 0.005


def test_training_grows_linearly_with_the_samples() -> None:
    """Training reads each sample a bounded number of times: 10x the samples (up to the
    training cap, 256 KB) take at most ~10x the time, never the square."""
    def make(n: int) -> Callable[[], object]:
        samples = [(d * 2)[:1024] for d in make_documents(n, seed=2)]
        return lambda: train_dictionary(samples)

    assert_linear(make, 20, what="train_dictionary")
