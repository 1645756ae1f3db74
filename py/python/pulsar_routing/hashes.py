"""The hashes, as Java computes them, and Java's modulo.

A ``str`` is hashed as Java's ``getBytes(UTF_8)`` (a lone surrogate becomes
``?``), a buffer as its raw bytes.

- :func:`murmur3_32` (Pulsar's ``Murmur3_32Hash``, masked to 31 bits),
  :func:`murmur3_32_raw` and the streaming :class:`Murmur3Hasher`;
- :func:`java_string_hash` (``String.hashCode()`` masked to 31 bits, the
  default routing hash), :func:`java_string_hashcode` (signed), their
  ``_bytes`` forms over UTF-8 input and :func:`java_lossy_utf8`, Java's
  decoding of invalid UTF-8;
- :func:`crc32` and :class:`Crc32`, the broker's bundle hash;
- :func:`sign_safe_mod`, Java's ``signSafeMod``, whose divisor of 0 raises
  :class:`DivisionByZeroError`.

>>> from pulsar_routing.hashes import java_string_hash, murmur3_32, sign_safe_mod
>>> murmur3_32("hello"), java_string_hash("hello")
(613153351, 99162322)
>>> sign_safe_mod(-7, 3)
2
"""

from __future__ import annotations

from ._pulsar_routing import (
    Crc32,
    DivisionByZeroError,
    Murmur3Hasher,
    crc32,
    java_lossy_utf8,
    java_string_hash,
    java_string_hash_bytes,
    java_string_hashcode,
    java_string_hashcode_bytes,
    murmur3_32,
    murmur3_32_raw,
    sign_safe_mod,
)

__all__ = [
    "Crc32",
    "DivisionByZeroError",
    "Murmur3Hasher",
    "crc32",
    "java_lossy_utf8",
    "java_string_hash",
    "java_string_hash_bytes",
    "java_string_hashcode",
    "java_string_hashcode_bytes",
    "murmur3_32",
    "murmur3_32_raw",
    "sign_safe_mod",
]
