"""Keys that exercise every way a client can turn a key into bytes."""

from __future__ import annotations

import random


def java_string_keys(seed: int = 4) -> list[str]:
    """Java Strings (UTF-16, so lone surrogates are allowed): every UTF-8
    width, surrogate pairs, lone and reversed surrogates, empty, long."""
    rng = random.Random(seed)
    keys = [
        "", "a", "user-42", "customer-000042", "key with spaces", "\x00", "\x7f",
        "\x80", "é", "ñandú", "ключ-1", "\u07ff", "\u0800", "键", "日本語キー", "\u20ac100",
        "\ufffd", "\uffff", "\U00010000", "😀", "𝄞music", "🏳️‍🌈", "\U0010ffff",
        "\ud800", "\udfff", "\udbff", "\udc00", "a\ud834b", "\udc00\ud800", "x\ud83d",
        "\ud83dtail", "\ud83d\ud83d\ude00", "mixé键😀\ud800",
        "L" * 100, "long-" + "é" * 500, "k" * 5000, "😀" * 700,
    ]
    keys += [f"order-{i}" for i in range(40)]
    # Random code units across the planes, surrogates included on purpose.
    pools = [(0x20, 0x7F), (0x80, 0x800), (0x800, 0xD800), (0xD800, 0xE000), (0xE000, 0x10000)]
    for _ in range(110):
        length = rng.choice([1, 2, 3, 5, 8, 13, 21, 40])
        units = []
        for _ in range(length):
            lo, hi = rng.choice(pools)
            units.append(chr(rng.randrange(lo, hi)))
        if rng.random() < 0.3:
            # A valid astral character, as a pair.
            units.append(chr(rng.randrange(0x10000, 0x110000)))
        keys.append("".join(units))
    # Java sees code units, so a high then a low surrogate is one character
    # whether Python spelled it as a pair or as one code point.
    return [canonical(k) for k in keys]


def byte_keys(seed: int = 5) -> list[bytes]:
    """Binary keys: empty, NUL, invalid UTF-8, valid UTF-8, random, long."""
    rng = random.Random(seed)
    keys = [b"", b"\x00", b"\xff", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"hello", "ключ".encode(),
            bytes(range(256)), b"\x80" * 3000]
    keys += [rng.randbytes(rng.choice([1, 2, 3, 4, 7, 16, 33, 100])) for _ in range(30)]
    return keys


def canonical(key: str) -> str:
    """The one Python spelling of a key's UTF-16 units (adjacent surrogate
    code points that form a pair become the astral character)."""
    return key.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "surrogatepass")


def utf16_hex(key: str) -> str:
    """The key's UTF-16 code units as hex, 4 digits each, as the Java producer reads them."""
    return key.encode("utf-16-be", "surrogatepass").hex()
