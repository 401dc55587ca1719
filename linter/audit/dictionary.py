"""Train a zlib preset dictionary on sample column values and measure what it saves.

Why: InnoDB-side column compression (MariaDB ``COMPRESSED`` columns, Percona Server's
``COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY``) compresses each value on its own. A
short value gives zlib little to back-reference, so the keys and boilerplate that every JSON
document repeats cost full price in every row. A preset dictionary holding that shared text lets
each value refer back into it. The audit samples a column, trains a dictionary on half of the
sample and measures on the other half, to say whether compression (with or without a
dictionary) is worth it.

The trainer is femtozip-like, made small enough for pure Python:

1. Count, for every ``gram``-byte substring (an n-gram), in how many samples it occurs
   (document frequency: repeats inside one value are zlib's job, not the dictionary's).
2. Cut each sample into candidate pieces: maximal runs of positions whose n-gram occurs in at
   least ``min_share`` of the samples, split to at most ``max_piece`` bytes (64: zlib matches at
   most 258 bytes, and short pieces waste less space when partly useless).
3. Greedily take the piece whose not-yet-covered n-grams are worth most (sum over its distinct
   n-grams of document frequency minus one, the one being the occurrence the dictionary itself
   holds), trimmed to its uncovered part, until ``size`` bytes are full. Covering n-grams makes
   later pieces that repeat already-chosen text worth less, so the dictionary holds no duplicates.
4. Pack the pieces with the most valuable at the END: deflate codes short distances in fewer
   bits, and the dictionary's end is closest to the value being compressed.

Work is bounded by training on at most ``max_training_bytes`` of the samples (spread evenly over
them): the shared text of a column shows up in the first few hundred values already.
"""

from __future__ import annotations

import heapq
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["TOO_SMALL_BYTES", "Measurement", "measure", "train_dictionary"]

#: MariaDB stores values shorter than ``column_compression_threshold`` (default 100 bytes)
#: uncompressed, and Percona Server's ``innodb_compressed_columns_threshold`` defaults to 96.
#: Measured on JSON values compressed one by one without a dictionary: under 60 bytes zlib
#: expands them (its header and checksum alone are 6 bytes, 10 with a dictionary id), from 60 to
#: 100 bytes it saves about 6 %, from 100 up 6 to 40 %. So 100 is where plain compression starts
#: to pay, and what the server does by default.
TOO_SMALL_BYTES = 100
ZLIB_LEVEL = 6


def _training_set(samples: Sequence[bytes], max_bytes: int, max_value: int = 8192) -> list[bytes]:
    """Samples spread evenly over the input, at most ``max_bytes`` in total. Each value is cut
    to ``max_value`` bytes: one huge value must not take the whole budget, and the start of a
    value is where the dictionary helps (further on, zlib has the value's own text to refer to).
    """
    values = [bytes(v[:max_value]) for v in samples if v]
    total = sum(len(v) for v in values)
    if total <= max_bytes:
        return values
    chosen, taken, seen = [], 0, 0
    for value in values:
        seen += len(value)
        if taken + len(value) <= max_bytes * seen / total:  # keep pace with the input
            chosen.append(value)
            taken += len(value)
    return chosen


def _pieces(values: list[bytes], frequency: Counter[bytes], gram: int, threshold: int,
            max_piece: int) -> set[bytes]:
    """Runs of shared n-grams in every value, as the text they cover, cut to ``max_piece``."""
    pieces: set[bytes] = set()
    for value in values:
        start = None
        for i in range(len(value) - gram + 2):
            shared = i <= len(value) - gram and frequency[value[i:i + gram]] >= threshold
            if shared and start is None:
                start = i
            elif not shared and start is not None:
                run = value[start:i - 1 + gram]  # the last shared n-gram starts at i - 1
                for cut in range(0, len(run) - gram + 1, max_piece - gram + 1):
                    pieces.add(run[cut:cut + max_piece])
                start = None
    return pieces


def train_dictionary(samples: Sequence[bytes], size: int = 2048, *, gram: int = 6,
                     min_share: float = 0.02, max_piece: int = 64,
                     max_training_bytes: int = 256 * 1024) -> bytes:
    """A zlib preset dictionary of at most ``size`` bytes for values like ``samples``.

    Returns ``b""`` when nothing is shared by at least two samples (random data, a single
    sample): an empty dictionary tells the caller a dictionary would not help.

    The defaults were chosen by measuring held-out JSON event documents (tests/test_dictionary.py
    and a second set of 30 document types): n-grams of 5 to 8 bytes and shares of 0.5 to 5 % all
    land within 0.01 of each other; 64-byte pieces beat 32-byte ones by about 0.01; ranking pieces
    by value per byte instead of total value lost 0.005 to 0.03; training on more than 256 KiB
    gained under 0.003 at three times the time.
    """
    if not 1 <= gram <= max_piece:
        raise ValueError("need 1 <= gram <= max_piece")
    values = _training_set(samples, max_training_bytes)
    if size <= 0 or len(values) < 2:
        return b""
    frequency: Counter[bytes] = Counter()
    for value in values:
        frequency.update({value[i:i + gram] for i in range(len(value) - gram + 1)})
    threshold = max(2, round(min_share * len(values)))
    # sorted: a set's order changes with PYTHONHASHSEED, and ties must break the same way
    candidates = sorted(_pieces(values, frequency, gram, threshold, max_piece))
    covered: set[bytes] = set()

    def worth(piece: bytes) -> int:
        grams = {piece[i:i + gram] for i in range(len(piece) - gram + 1)}
        return sum(frequency[g] - 1 for g in grams - covered)

    def trimmed(piece: bytes) -> bytes:
        """The piece from its first to its last still uncovered n-gram."""
        starts = [i for i in range(len(piece) - gram + 1) if piece[i:i + gram] not in covered]
        return piece[starts[0]:starts[-1] + gram] if starts else b""

    heap = [(-worth(piece), n) for n, piece in enumerate(candidates)]
    heapq.heapify(heap)
    chosen: list[tuple[int, bytes]] = []
    room = size
    while heap and room >= gram:
        negative, n = heapq.heappop(heap)
        current = worth(candidates[n])
        if current <= 0:
            continue
        if current < -negative and heap and current < -heap[0][0]:
            heapq.heappush(heap, (-current, n))  # stale: others are worth more now
            continue
        piece = trimmed(candidates[n])[:room]
        if len(piece) < gram:
            continue
        chosen.append((current, piece))
        covered.update(piece[i:i + gram] for i in range(len(piece) - gram + 1))
        room -= len(piece)
    chosen.sort(key=lambda item: item[0])  # most valuable last: nearest to the compressed value
    return b"".join(piece for _, piece in chosen)


@dataclass(frozen=True)
class Measurement:
    """Compression of held-out values, each value compressed on its own as the server does.

    Ratios are compressed bytes over original bytes (lower is better; 1.0 when there is nothing
    to measure) and count zlib's header and checksum, which the server stores too.
    """

    values: int
    bytes: int
    bytes_plain: int
    bytes_dict: int
    ratio_plain: float
    ratio_dict: float
    #: share of values shorter than the threshold, which the server stores uncompressed anyway
    share_too_small: float
    dictionary_bytes: int


def _compress(value: bytes, dictionary: bytes) -> bytes:
    if not dictionary:
        return zlib.compress(value, ZLIB_LEVEL)
    compressor = zlib.compressobj(level=ZLIB_LEVEL, zdict=dictionary)
    return compressor.compress(value) + compressor.flush()


def measure(samples: Sequence[bytes], dictionary: bytes,
            too_small: int = TOO_SMALL_BYTES) -> Measurement:
    """Compress every value without and with ``dictionary``. Measure on values the dictionary
    was NOT trained on, or the ratio flatters it."""
    values = [bytes(v) for v in samples]
    total = sum(len(v) for v in values)
    plain = sum(len(_compress(v, b"")) for v in values)
    with_dictionary = sum(len(_compress(v, dictionary)) for v in values)
    return Measurement(
        values=len(values),
        bytes=total,
        bytes_plain=plain,
        bytes_dict=with_dictionary,
        ratio_plain=plain / total if total else 1.0,
        ratio_dict=with_dictionary / total if total else 1.0,
        share_too_small=sum(len(v) < too_small for v in values) / len(values) if values else 0.0,
        dictionary_bytes=len(dictionary),
    )
