"""partitions_for_keys agrees with the one-key functions on every input kind."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

import numpy as np
import pyarrow as pa
import pytest
from numpy.typing import NDArray

import pulsar_routing as pr

# For calls that break the stub's types on purpose.
untyped: Any = pr

Key = Optional[Union[str, bytes]]
SCHEMES = ("java_string", "murmur3_32")

TEXT_KEYS = [
    "",
    "a",
    "user-42",
    "persistent://public/default/my-topic",
    "Grüße",
    "日本語のキー",
    "😀 emoji",
    "zwj 👩‍👩‍👧",
    "\ufeffbom",
    "mid\0nul",
    "x" * 700,  # 700 UCS-4 code points: 2800 bytes per numpy item, past the stack buffer
]
BYTE_KEYS = [b"", b"\x00", b"hello", bytes(range(256)), b"\xff\xfe", b"k" * 1000]


def expected(keys: Sequence[Key], n: int, scheme: str) -> NDArray[np.int32]:
    """The one-key answer for every key: the reference for the bulk path."""
    out = []
    for key in keys:
        if key is None:
            out.append(-1)
        elif isinstance(key, str):
            out.append(pr.partition_for_key(key, n, scheme))
        else:
            out.append(pr.partition_for_key_bytes(key, n, scheme))
    return np.array(out, dtype=np.int32)


def check(keys_in: Any, keys: Sequence[Key], n: int = 13) -> None:
    for scheme in SCHEMES:
        got = pr.partitions_for_keys(keys_in, n, scheme)
        assert got.dtype == np.int32
        assert got.shape == (len(keys),)
        np.testing.assert_array_equal(got, expected(keys, n, scheme), scheme)


def test_list_tuple_and_generator() -> None:
    keys: list[Key] = [*TEXT_KEYS, None, *BYTE_KEYS, None]
    check(keys, keys)
    check(tuple(keys), keys)
    for scheme in SCHEMES:
        from_generator = pr.partitions_for_keys((key for key in keys), 13, scheme)
        np.testing.assert_array_equal(from_generator, expected(keys, 13, scheme))


def test_empty_inputs() -> None:
    empties: list[Any] = [
        [],
        (),
        np.array([], dtype="U"),
        np.array([], dtype="S"),
        np.array([], dtype=object),
        pa.array([], pa.string()),
        pa.array([], pa.large_binary()),
        pa.chunked_array([], pa.string()),
        pa.chunked_array([pa.array([], pa.string())]),
    ]
    for empty in empties:
        check(empty, [])


def test_numpy_unicode() -> None:
    # numpy strips trailing NULs from U items, so none of these keys ends in one.
    array = np.array(TEXT_KEYS)
    assert array.dtype.kind == "U"
    check(array, TEXT_KEYS)
    short = np.array(TEXT_KEYS[:-1])
    assert short.dtype.itemsize <= 1024
    check(short, TEXT_KEYS[:-1])


def test_numpy_unicode_byte_swapped_and_strided() -> None:
    array = np.array(TEXT_KEYS)
    swapped = array.astype(array.dtype.newbyteorder())
    assert not swapped.dtype.isnative
    check(swapped, TEXT_KEYS)
    check(array[::2], TEXT_KEYS[::2])
    check(array[::-1], TEXT_KEYS[::-1])


def test_numpy_items_end_where_numpy_ends_them() -> None:
    # What numpy hands out (tolist) is what gets routed: trailing NULs dropped.
    unicode = np.array(["a\0", "\0", "b\0c"])
    check(unicode, unicode.tolist())
    raw = np.array([b"a\0", b"\0", b"b\0c", b""])
    check(raw, raw.tolist())


def test_numpy_bytes() -> None:
    keys = [key for key in BYTE_KEYS if not key.endswith(b"\0")]
    array = np.array(keys)
    assert array.dtype.kind == "S"
    check(array, keys)
    check(array[::-1], keys[::-1])


def test_numpy_object() -> None:
    keys: list[Key] = [*TEXT_KEYS, None, *BYTE_KEYS]
    check(np.array(keys, dtype=object), keys)


def test_numpy_string_dtype() -> None:
    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is None:
        pytest.skip("numpy < 2 has no StringDType")
    check(np.array(TEXT_KEYS, dtype=string_dtype()), TEXT_KEYS)


def test_numpy_wrong_shapes_and_dtypes() -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        pr.partitions_for_keys(np.array([["a", "b"], ["c", "d"]]), 3)
    with pytest.raises(TypeError, match="dtype"):
        pr.partitions_for_keys(np.arange(3), 3)
    not_a_code_point = np.array([0x110000], dtype=np.uint32).view("U1")
    with pytest.raises(ValueError, match="not a Unicode code point"):
        pr.partitions_for_keys(not_a_code_point, 3)


def test_numpy_lone_surrogates_agree_with_str() -> None:
    keys = ["\ud800", "a\udfffb", "\ud83d\ude00"]
    array = np.array(keys)
    check(array, keys)
    # A surrogate pair spelled as two code points is the Java string of the
    # character it encodes.
    assert pr.partitions_for_keys(array, 97)[2] == pr.partition_for_key("😀", 97)


@pytest.mark.parametrize(
    "arrow_type", [pa.string(), pa.large_string()], ids=["string", "large_string"]
)
def test_pyarrow_text(arrow_type: pa.DataType) -> None:
    keys: list[Key] = [*TEXT_KEYS, None, "tail"]
    array = pa.array(keys, arrow_type)
    check(array, keys)
    # Slices start past the array's first offset and validity bit.
    for start, length in [(1, 3), (5, 4), (len(keys) - 2, 2), (3, 0)]:
        sliced = array.slice(start, length)
        assert sliced.offset == start
        check(sliced, keys[start : start + length])


@pytest.mark.parametrize(
    "arrow_type", [pa.binary(), pa.large_binary()], ids=["binary", "large_binary"]
)
def test_pyarrow_binary(arrow_type: pa.DataType) -> None:
    keys: list[Key] = [*BYTE_KEYS, None, b"tail"]
    array = pa.array(keys, arrow_type)
    check(array, keys)
    check(array.slice(2, 4), keys[2:6])


def test_pyarrow_nulls_only() -> None:
    check(pa.array([None, None, None], pa.string()), [None, None, None])
    check(pa.array([None], pa.binary()).slice(1), [])


def test_pyarrow_chunked() -> None:
    keys: list[Key] = [*TEXT_KEYS, None, "x"]
    chunked = pa.chunked_array(
        [
            pa.array(keys[:3], pa.string()),
            pa.array([], pa.string()),
            pa.array(["skip", *keys[3:9]], pa.string()).slice(1),
            pa.array(keys[9:], pa.string()),
        ]
    )
    check(chunked, keys)
    check(pa.chunked_array([pa.array([b"a", None], pa.binary())]), [b"a", None])


def test_pyarrow_unsupported_types() -> None:
    with pytest.raises(TypeError, match="cast it first"):
        pr.partitions_for_keys(pa.array([1, 2, 3]), 3)
    with pytest.raises(TypeError, match="cast it first"):
        pr.partitions_for_keys(pa.array(["a", "b", "a"]).dictionary_encode(), 3)


def test_pyarrow_invalid_utf8_is_rejected() -> None:
    raw = pa.array([b"ok", b"\xff"], pa.binary())
    # Arrow lets a binary array be viewed as string without validation.
    as_text = pa.Array.from_buffers(pa.string(), len(raw), raw.buffers())
    with pytest.raises(ValueError, match=r"keys\[1\] is not valid UTF-8"):
        pr.partitions_for_keys(as_text, 3)


def test_pyarrow_long_arrays_with_nulls_and_slices() -> None:
    # Several of the blocks Arrow arrays are mapped in, with nulls (so a
    # validity bitmap), multi-byte text and slices that start mid-byte of
    # the bitmap and mid-block.
    text: list[Key] = [
        None if i % 7 == 3 else TEXT_KEYS[i % len(TEXT_KEYS)] + str(i) for i in range(5000)
    ]
    raw: list[Key] = [None if i % 5 == 1 else BYTE_KEYS[i % len(BYTE_KEYS)] for i in range(3000)]
    for arrow_type, keys in (
        (pa.string(), text),
        (pa.large_string(), text),
        (pa.binary(), raw),
        (pa.large_binary(), raw),
    ):
        array = pa.array(keys, arrow_type)
        check(array, keys)
        check(array.slice(1021, 2050), keys[1021:3071])
        check(pa.chunked_array([array.slice(0, 3), array.slice(3)]), keys)


def test_pyarrow_value_splitting_a_character_is_rejected() -> None:
    # The whole data buffer is UTF-8, but the offsets cut "é" (c3 a9) in two,
    # so neither value is text on its own; the first one is in a later block.
    prefix = "k" * 2500
    data = (prefix + "é").encode()
    offsets = np.array([*range(2501), 2501, 2502], dtype=np.int32)
    array = pa.Array.from_buffers(
        pa.string(), 2502, [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)]
    )
    for scheme in SCHEMES:
        with pytest.raises(ValueError, match=r"keys\[2500\] is not valid UTF-8"):
            pr.partitions_for_keys(array, 3, scheme)


def test_pyarrow_invalid_bytes_under_a_null_are_ignored() -> None:
    # Arrow leaves the bytes under a null slot unspecified: they need not be
    # UTF-8, and they are never read as a key.
    text: list[Optional[str]] = [f"key-{i}" for i in range(2000)]
    text[1500] = None
    keys: list[Key] = list(text)
    values = [b"\xff" if key is None else key.encode() for key in text]
    data = b"".join(values)
    offsets = np.concatenate([[0], np.cumsum([len(v) for v in values])]).astype(np.int32)
    validity = np.packbits([key is not None for key in keys], bitorder="little")
    array = pa.Array.from_buffers(
        pa.string(),
        len(keys),
        [pa.py_buffer(validity.tobytes()), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)],
    )
    check(array, keys)


def test_large_inputs_release_the_gil_and_agree() -> None:
    # Past the thresholds where the GIL is released and objects are batched.
    keys: list[Key] = [f"key-{i}" if i % 11 else None for i in range(10_000)]
    keys[5] = b"raw"
    check(keys, keys, n=101)
    text = [key for key in keys if isinstance(key, str)]
    check(np.array(text), text, n=101)
    check(pa.array(text), text, n=101)


def test_not_a_collection_of_keys() -> None:
    with pytest.raises(TypeError, match="not one key"):
        untyped.partitions_for_keys("abc", 3)
    with pytest.raises(TypeError, match="not one key"):
        untyped.partitions_for_keys(b"abc", 3)
    with pytest.raises(TypeError, match=r"keys\[2\] must be str, bytes or None, not int"):
        untyped.partitions_for_keys(["a", None, 3], 3)
    with pytest.raises(TypeError):
        untyped.partitions_for_keys(42, 3)


def test_errors_from_the_iterable_propagate() -> None:
    def keys() -> Iterator[str]:
        yield "a"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        pr.partitions_for_keys(keys(), 3)


def test_bad_partition_count_and_scheme() -> None:
    with pytest.raises(pr.PartitionCountError):
        pr.partitions_for_keys(["a"], 0)
    with pytest.raises(pr.UnknownHashingSchemeError):
        pr.partitions_for_keys(["a"], 3, "boost")
