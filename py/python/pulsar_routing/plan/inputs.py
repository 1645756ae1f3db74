"""Key samples: keys with optional weights, from Python, numpy, pyarrow or files.

Every analysis works on a :class:`KeySample`: the distinct keys of a sample
with the summed weight (message count) of each, and the weight of the
messages that have no key. A key is what the Java producer API sets:

* ``str``: ``key(String)``;
* ``bytes``: ``keyBytes(byte[])`` (the producer hashes its Base64 text, the
  broker's Key_Shared dispatcher the bytes themselves);
* ``None`` (or null in Arrow): no key.

Integers (Python ``int``, numpy or Arrow integer columns) are read as their
decimal text, as ``key(String.valueOf(id))`` would send them.

Counting is exact: the distinct keys are held in memory, and files are read
in batches, so memory follows the number of distinct keys, not of rows.
Past what fits, :func:`file_batches` streams a file of any format into the
sketches of :mod:`pulsar_routing.plan.sketch` and :mod:`pulsar_routing.plan.stream`.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import numpy as np
from numpy.typing import NDArray

from ..key_counts import KeyCounts

Key = Union[str, bytes]
# What the analyses accept as keys: a KeySample, an iterable of str/bytes/int/None,
# a 1-D numpy array or a pyarrow Array/ChunkedArray.
KeysLike = Any
WeightsLike = Union[Sequence[float], NDArray[Any], Any, None]

FORMATS = ("auto", "text", "csv", "parquet")
# Rows per batch when reading files.
BATCH_ROWS = 1 << 20


class PlanInputError(ValueError):
    """Input the planner cannot use: a missing file or column, a bad weight, bad UTF-8, ..."""


@dataclass(frozen=True, eq=False)
class KeySample:
    """The distinct keys of a sample, each with its total weight.

    ``keys`` is a 1-D numpy object array of ``str``/``bytes`` or a pyarrow
    array of string or binary (no nulls); either goes to
    :func:`pulsar_routing.partitions_for_keys` as it is. ``weights`` holds the
    summed weight of each key (the number of rows without a weight column).
    ``keyless`` is the weight of the rows without a key.
    """

    keys: Any
    weights: NDArray[np.float64]
    keyless: float
    rows: int
    source: str
    weighted: bool
    counting: str = "exact"

    @property
    def distinct_keys(self) -> int:
        return int(self.weights.shape[0])

    @property
    def keyed_weight(self) -> float:
        return float(self.weights.sum())

    @property
    def total_weight(self) -> float:
        return self.keyed_weight + self.keyless

    def key_at(self, index: int) -> Key:
        """The key at index (of ``keys``)."""
        if isinstance(self.keys, np.ndarray):
            return _as_key(self.keys[int(index)])
        # Indexing an Arrow array gives a scalar, not the Python value.
        return _as_key(self.keys[int(index)].as_py())

    def keys_at(self, indexes: Sequence[int] | NDArray[np.intp]) -> list[Key]:
        """The keys at the given indexes, as Python objects."""
        idx = np.asarray(indexes, dtype=np.intp)
        if isinstance(self.keys, np.ndarray):
            return [_as_key(k) for k in self.keys[idx].tolist()]
        return [_as_key(k) for k in self.keys.take(idx).to_pylist()]

    def key_list(self) -> list[Key]:
        """Every distinct key as a Python object (in the order of ``weights``)."""
        if isinstance(self.keys, np.ndarray):
            return [_as_key(k) for k in self.keys.tolist()]
        return [_as_key(k) for k in self.keys.to_pylist()]

    def describe(self) -> str:
        """One line: where the sample comes from and what it holds."""
        total = self.total_weight
        what = "messages (weighted)" if self.weighted else "messages"
        keyless = f", {self.keyless / total:.1%} without a key" if total and self.keyless else ""
        return (
            f"{self.source}: {self.rows:,} rows, {self.distinct_keys:,} distinct keys, "
            f"{_count_text(total)} {what}{keyless} ({self.counting} counting)"
        )


def _count_text(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.1f}"


def _as_key(value: object) -> Key:
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, np.str_):
        return str(value)
    if isinstance(value, np.bytes_):
        return bytes(value)
    raise TypeError(f"not a key: {value!r}")


def key_sample(keys: KeysLike, weights: WeightsLike = None, *, source: str | None = None) -> KeySample:
    """A :class:`KeySample` from keys and optional weights (one per key, >= 0).

    ``keys`` is a :class:`KeySample` (returned as is; ``weights`` must then
    be None), an iterable of ``str``/``bytes``/``int``/``None``, a 1-D numpy
    array (dtype ``U``, ``S``, integer, object or ``StringDType``), or a
    pyarrow ``Array``/``ChunkedArray`` (string, binary, integer or a
    dictionary of these; nulls are keyless).
    """
    if isinstance(keys, KeySample):
        if weights is not None:
            raise PlanInputError("weights go with raw keys, not with a KeySample")
        return keys
    if isinstance(keys, (str, bytes)):
        raise PlanInputError("keys must be a collection of keys, not a single str or bytes")
    if _is_arrow(keys):
        return _from_arrow(keys, weights, source or "pyarrow array")
    if isinstance(keys, np.ndarray):
        return _from_numpy(keys, weights, source or "numpy array")
    return _from_python(keys, weights, source or "Python keys")


# ---------------------------------------------------------------- validation


def _check_weights(w: NDArray[np.float64], rows: int) -> NDArray[np.float64]:
    if w.ndim != 1:
        raise PlanInputError(f"weights must be 1-D, got shape {w.shape}")
    if w.shape[0] != rows:
        raise PlanInputError(f"{w.shape[0]:,} weights for {rows:,} keys")
    if w.size and not np.isfinite(w).all():
        raise PlanInputError("weights must be finite numbers (found NaN or infinity)")
    if w.size and (w < 0).any():
        raise PlanInputError("weights must not be negative")
    return w


def _weights_array(weights: WeightsLike, rows: int) -> NDArray[np.float64] | None:
    if weights is None:
        return None
    if _is_arrow(weights):
        weights = _arrow_weights(weights)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise PlanInputError(f"weights must be numbers: {err}") from None
    return _check_weights(w, rows)


def _sample(
    keys: Any,
    weights: NDArray[np.float64],
    keyless: float,
    rows: int,
    source: str,
    weighted: bool,
) -> KeySample:
    return KeySample(
        keys=keys,
        weights=np.ascontiguousarray(weights, dtype=np.float64),
        keyless=float(keyless),
        rows=rows,
        source=source,
        weighted=weighted,
    )


def _object_array(items: Sequence[Key]) -> NDArray[np.object_]:
    out = np.empty(len(items), dtype=object)
    out[:] = list(items)
    return out


# ---------------------------------------------------------------- Python and numpy


def _normalise(key: object, index: int) -> Key | None:
    if key is None or isinstance(key, (str, bytes)):
        return key
    if isinstance(key, (bytearray, memoryview)):
        return bytes(key)
    if isinstance(key, np.str_):
        return str(key)
    if isinstance(key, np.bytes_):
        return bytes(key)
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        return str(int(key))
    raise PlanInputError(
        f"key #{index} is a {type(key).__name__}: keys are str, bytes, int or None"
    )


def _from_python(keys: Iterable[object], weights: WeightsLike, source: str) -> KeySample:
    try:
        items = list(keys)
    except TypeError:
        raise PlanInputError(f"keys must be iterable, not {type(keys).__name__}") from None
    w = _weights_array(weights, len(items))
    normalised = [_normalise(k, i) for i, k in enumerate(items)]
    totals: dict[Key | None, float]
    if w is None:
        totals = dict(Counter(normalised))
    else:
        totals = {}
        for key, weight in zip(normalised, w.tolist()):
            totals[key] = totals.get(key, 0.0) + weight
    keyless = totals.pop(None, 0.0)
    distinct = [k for k in totals if k is not None]
    return _sample(
        _object_array(distinct),
        np.fromiter((totals[k] for k in distinct), dtype=np.float64, count=len(distinct)),
        keyless,
        len(items),
        source,
        w is not None,
    )


def _from_numpy(keys: NDArray[Any], weights: WeightsLike, source: str) -> KeySample:
    if keys.ndim != 1:
        raise PlanInputError(f"keys must be a 1-D array, got shape {keys.shape}")
    rows = int(keys.shape[0])
    w = _weights_array(weights, rows)
    if keys.dtype.kind in "iu":
        keys = keys.astype(str)
    if keys.dtype.kind in "US":
        distinct, inverse = np.unique(keys, return_inverse=True)
        totals = np.bincount(inverse.reshape(-1), weights=w, minlength=distinct.shape[0]).astype(np.float64)
        items = distinct.tolist()
        return _sample(_object_array(items), totals, 0.0, rows, source, w is not None)
    if keys.dtype.kind in "OT":
        sample = _from_python(keys.tolist(), w, source)
        return sample
    raise PlanInputError(f"keys of dtype {keys.dtype} are not supported: use str, bytes or integers")


# ---------------------------------------------------------------- pyarrow


def _is_arrow(obj: object) -> bool:
    module = type(obj).__module__ or ""
    return module.startswith("pyarrow") and hasattr(obj, "type")


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - pyarrow is a test dependency
        raise PlanInputError("this input needs pyarrow: pip install 'pulsar-routing[plan]'") from None
    return pyarrow


def _arrow_keys(column: Any) -> Any:
    """A key column as string, large_string, binary or large_binary."""
    pa = _pyarrow()
    t = column.type
    if pa.types.is_dictionary(t):
        if _text_or_binary(pa, t.value_type):
            # Kept encoded: counting needs only the indices (see
            # _aggregate_arrow), and decoding would write every row's bytes.
            return column
        column = column.cast(t.value_type)
        t = column.type
    if pa.types.is_integer(t):
        return column.cast(pa.string())
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return column
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return column
    if hasattr(pa.types, "is_string_view") and pa.types.is_string_view(t):
        return column.cast(pa.large_string())
    if hasattr(pa.types, "is_binary_view") and pa.types.is_binary_view(t):
        return column.cast(pa.large_binary())
    if pa.types.is_fixed_size_binary(t):
        return column.cast(pa.binary())
    raise PlanInputError(f"a key column of type {t} is not supported: use string, binary or integers")


def _text_or_binary(pa: Any, t: Any) -> bool:
    return bool(
        pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t)
    )


def _arrow_weights(column: Any) -> NDArray[np.float64]:
    pa = _pyarrow()
    if not (pa.types.is_integer(column.type) or pa.types.is_floating(column.type)):
        raise PlanInputError(f"the weight column must be numeric, not {column.type}")
    if column.null_count:
        raise PlanInputError(f"the weight column has {column.null_count:,} null values")
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return np.asarray(column.to_numpy(zero_copy_only=False), dtype=np.float64)


def _aggregate_arrow(keys: Any, weights: NDArray[np.float64] | None) -> Any:
    """A table (k, w) of distinct keys in byte order and their summed weights, then the null key if any."""
    counts = KeyCounts()
    _count_into(counts, keys, weights)
    return _counted(counts)


def _count_into(counts: KeyCounts, keys: Any, weights: NDArray[np.float64] | None) -> None:
    """Adds a batch of keys to ``counts``; a dictionary array as its used entries with their summed weights."""
    pa = _pyarrow()
    if isinstance(keys, pa.ChunkedArray) and pa.types.is_dictionary(keys.type):
        for chunk, w in zip(keys.chunks, _split(weights, [len(c) for c in keys.chunks])):
            _count_into(counts, chunk, w)
        return
    if pa.types.is_dictionary(keys.type):
        keys, weights = _dictionary_sums(pa, keys, weights)
    counts.add(keys, weights)


def _counted(counts: KeyCounts) -> Any:
    """The (k, w) table of ``counts``: its keys in byte order, then the null key with the keyless weight, if any."""
    pa = _pyarrow()
    keys, w = counts.to_arrow()
    if counts.keyless_weight is not None:
        keys = pa.concat_arrays([keys, pa.nulls(1, keys.type)])
        w = np.append(w, counts.keyless_weight)
    return pa.table({"k": keys, "w": pa.array(w, type=pa.float64())})


def _split(weights: NDArray[np.float64] | None, lengths: Sequence[int]) -> list[NDArray[np.float64] | None]:
    if weights is None:
        return [None] * len(lengths)
    return list(np.split(weights, np.cumsum(lengths)[:-1]))


def _dictionary_sums(pa: Any, keys: Any, weights: NDArray[np.float64] | None) -> tuple[Any, NDArray[np.float64]]:
    """The dictionary entries a dictionary array uses, and each one's summed weight: a bincount of its indices.

    Each entry is hashed once, however many rows use it. A null row is a
    null entry at the end. A dictionary may hold a value twice (Arrow does
    not forbid it); :class:`KeyCounts` then adds the two together.
    """
    dictionary = keys.dictionary
    if dictionary.null_count:
        return keys.cast(keys.type.value_type), weights if weights is not None else np.ones(len(keys))
    size = len(dictionary)
    index = np.asarray(keys.indices.fill_null(size).to_numpy(zero_copy_only=False), dtype=np.intp)
    used = np.bincount(index, minlength=size + 1)
    sums = used.astype(np.float64) if weights is None else np.bincount(index, weights=weights, minlength=size + 1)
    kept = used[:size] > 0
    out = dictionary.filter(pa.array(kept)) if not kept.all() else dictionary
    w = sums[:size][kept]
    if used[size]:
        out = pa.concat_arrays([out, pa.nulls(1, out.type)])
        w = np.append(w, sums[size])
    return out, np.asarray(w, dtype=np.float64)


def _merge_aggregates(parts: Sequence[Any]) -> Any:
    """One (k, w) table from several, the weights of a key summed."""
    counts = KeyCounts()
    for part in parts:
        counts.add(part.column("k"), np.asarray(part.column("w").to_numpy(), dtype=np.float64))
    return _counted(counts)


Progress = Callable[[int], None]


class _ArrowAccumulator:
    """Sums weights per key over batches in a :class:`KeyCounts`; memory follows the distinct keys."""

    def __init__(self, progress: Progress | None = None) -> None:
        self._counts = KeyCounts()
        self._progress = progress
        self.rows = 0

    def add(self, keys: Any, weights: NDArray[np.float64] | None) -> None:
        _count_into(self._counts, keys, weights)
        self.rows += len(keys)
        if self._progress is not None:
            self._progress(self.rows)

    def absorb(self, table: Any) -> None:
        """Adds a (k, w) table of distinct keys, as :meth:`table` gives it, without counting rows."""
        self._counts.add(table.column("k"), np.asarray(table.column("w").to_numpy(), dtype=np.float64))

    @property
    def distinct(self) -> int:
        """The distinct keys held, the null key (keyless rows) counting as one."""
        return len(self._counts) + (self._counts.keyless_weight is not None)

    def table(self) -> Any:
        """The (k, w) table of the keys held: in byte order, the null key last."""
        return _counted(self._counts)

    def sample(self, source: str, weighted: bool) -> KeySample:
        counts = self._counts
        if not len(counts) and counts.keyless_weight is None:
            return _sample(_object_array([]), np.zeros(0), 0.0, self.rows, source, weighted)
        # In byte order, as Arrow's sort orders them: the same keys give
        # the same report however they were read (in one piece, in
        # batches, or as partial counts merged after Dask).
        keys, weights = counts.to_arrow()
        return _sample(keys, weights, counts.keyless_weight or 0.0, self.rows, source, weighted)


def _pyarrow_compute() -> Any:
    _pyarrow()
    import pyarrow.compute as pc

    return pc


def _from_arrow(keys: Any, weights: WeightsLike, source: str) -> KeySample:
    pa = _pyarrow()
    if not isinstance(keys, (pa.Array, pa.ChunkedArray)):
        raise PlanInputError(f"keys must be a pyarrow Array or ChunkedArray, not {type(keys).__name__}")
    keys = _arrow_keys(keys)
    w = _weights_array(weights, len(keys))
    acc = _ArrowAccumulator()
    acc.add(keys, w)
    return acc.sample(source, w is not None)


# ---------------------------------------------------------------- files


def detect_format(path: str | os.PathLike[str]) -> str:
    """"parquet" for .parquet/.pq, "csv" for .csv/.tsv, else "text"."""
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".tsv"):
        return "csv"
    return "text"


def _check_file(
    path: str | os.PathLike[str], format: str, key_column: str | None, weight_column: str | None, batch_rows: int
) -> tuple[Path, str]:
    """The path and its format, after the checks every file reader makes."""
    fmt = detect_format(path) if format == "auto" else format
    if fmt not in FORMATS:
        raise PlanInputError(f"unknown format {format!r}: choose from {', '.join(FORMATS)}")
    p = Path(path)
    if not p.exists():
        raise PlanInputError(f"{p}: no such file")
    if not p.is_file():
        raise PlanInputError(f"{p}: not a file")
    if batch_rows < 1:
        raise PlanInputError("batch_rows must be at least 1")
    if fmt == "text" and (key_column is not None or weight_column is not None):
        raise PlanInputError(f"{p.name}: a text file has one key per line and no columns")
    return p, fmt


def read_keys(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    key_column: str | None = None,
    weight_column: str | None = None,
    batch_rows: int = BATCH_ROWS,
    progress: Progress | None = None,
) -> KeySample:
    """A :class:`KeySample` from a file, read in batches.

    * ``text``: one key per line (UTF-8; ``\\n`` or ``\\r\\n``); blank lines
      are skipped. No columns.
    * ``csv`` (``.tsv`` is tab-separated): a header row; ``key_column``
      (default: the only column, or one named ``key``) is read as text, as
      written; ``weight_column`` is optional.
    * ``parquet``: ``key_column`` (string, binary or integer) and the
      optional numeric ``weight_column``.

    ``progress``, if given, is called with the number of rows read so far
    after each batch.

    Counting is exact, so memory follows the number of distinct keys; for
    files with more distinct keys than fit, stream :func:`file_batches`
    into :func:`pulsar_routing.plan.sketch.stream_skew` or the ``stream_*``
    functions of :mod:`pulsar_routing.plan.stream`.
    """
    p, fmt = _check_file(path, format, key_column, weight_column, batch_rows)
    if fmt == "text":
        return _read_text(p, batch_rows, progress)
    if fmt == "csv" and not _has_pyarrow():  # pragma: no cover - exercised without pyarrow only
        delimiter, key = _csv_columns(p, key_column, weight_column)
        return _read_csv_python(p, delimiter, key, weight_column)
    acc = _ArrowAccumulator()
    for keys, weights in _arrow_batches(p, fmt, key_column, weight_column, batch_rows, progress):
        acc.add(keys, weights)
    return acc.sample(p.name, weight_column is not None)


def file_batches(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    key_column: str | None = None,
    weight_column: str | None = None,
    batch_rows: int = BATCH_ROWS,
    progress: Progress | None = None,
) -> Iterator[tuple[Any, NDArray[np.float64] | None]]:
    """The rows of a text, CSV or Parquet file as (keys, weights) batches, read once.

    Keys are a pyarrow string or binary array (null: no key), or, for a
    Parquet text or binary column, a dictionary array of those as Parquet
    stores it (``cast`` it to its value type for the plain array); weights
    a float64 array or None without ``weight_column``. The arguments and the
    checks are those of :func:`read_keys`; nothing but the current batch is
    held, so this feeds :func:`pulsar_routing.plan.sketch.stream_skew` on
    files of any size. Needs pyarrow.
    """
    p, fmt = _check_file(path, format, key_column, weight_column, batch_rows)
    _pyarrow()
    if fmt == "text":
        import pyarrow as pa

        rows = 0
        for lines in _text_batches(p, batch_rows):
            rows += len(lines)
            yield pa.array(lines, type=pa.string()), None
            if progress is not None:
                progress(rows)
        return
    yield from _arrow_batches(p, fmt, key_column, weight_column, batch_rows, progress)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow is a test dependency
        return False
    return True


def _arrow_batches(
    path: Path,
    fmt: str,
    key_column: str | None,
    weight_column: str | None,
    batch_rows: int,
    progress: Progress | None,
) -> Iterator[tuple[Any, NDArray[np.float64] | None]]:
    """(keys, weights) batches of a CSV or Parquet file; errors name the file."""
    batches = _csv_batches if fmt == "csv" else _parquet_batches
    rows = 0
    try:
        for keys, weights in batches(path, key_column, weight_column, batch_rows):
            rows += len(keys)
            yield keys, weights
            if progress is not None:
                progress(rows)
    except PlanInputError as err:
        message = str(err)
        raise PlanInputError(message if message.startswith(f"{path.name}: ") else f"{path.name}: {message}") from None


def _text_batches(path: Path, batch_rows: int) -> Iterator[list[str]]:
    """The non-blank lines of a text file, about ``batch_rows`` at a time."""
    line_no = 0
    with path.open("rb") as f:
        while True:
            lines = f.readlines(max(batch_rows, 1) * 16)
            if not lines:
                break
            keys: list[str] = []
            for line in lines:
                line_no += 1
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError as err:
                    raise PlanInputError(
                        f"{path.name} line {line_no}: not valid UTF-8 ({err.reason} at byte {err.start})"
                    ) from None
                text = text.rstrip("\n")
                if text.endswith("\r"):
                    text = text[:-1]
                if text:
                    keys.append(text)
            yield keys


def _read_text(path: Path, batch_rows: int, progress: Progress | None) -> KeySample:
    counts: Counter[str] = Counter()
    rows = 0
    for keys in _text_batches(path, batch_rows):
        counts.update(keys)
        rows += len(keys)
        if progress is not None:
            progress(rows)
    # Sorted, as the Arrow readers sort theirs (code point order is UTF-8
    # byte order), so a file gives the same report read whole or streamed.
    distinct = sorted(counts)
    weights = np.fromiter((counts[k] for k in distinct), dtype=np.float64, count=len(distinct))
    return _sample(_object_array(distinct), weights, 0.0, rows, path.name, False)


def _pick_key_column(name: str, columns: Sequence[str], key_column: str | None) -> str:
    if key_column is not None:
        if key_column not in columns:
            raise PlanInputError(
                f"{name}: no column {key_column!r} (columns: {', '.join(map(repr, columns))})"
            )
        return key_column
    if len(columns) == 1:
        return columns[0]
    if "key" in columns:
        return "key"
    raise PlanInputError(
        f"{name}: which column holds the key? (columns: {', '.join(map(repr, columns))})"
    )


def _check_weight_column(name: str, columns: Sequence[str], weight_column: str | None) -> None:
    if weight_column is not None and weight_column not in columns:
        raise PlanInputError(
            f"{name}: no column {weight_column!r} (columns: {', '.join(map(repr, columns))})"
        )


def _csv_header(path: Path, delimiter: str) -> list[str]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            header = next(csv.reader(f, delimiter=delimiter), None)
    except UnicodeDecodeError:
        raise PlanInputError(f"{path.name}: the header is not valid UTF-8") from None
    if not header:
        raise PlanInputError(f"{path.name}: empty CSV file (a header row is needed)")
    return header


def _csv_columns(path: Path, key_column: str | None, weight_column: str | None) -> tuple[str, str]:
    """The delimiter and the key column of a CSV file, from its header."""
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    header = _csv_header(path, delimiter)
    key = _pick_key_column(path.name, header, key_column)
    _check_weight_column(path.name, header, weight_column)
    return delimiter, key


def _csv_batches(
    path: Path, key_column: str | None, weight_column: str | None, batch_rows: int
) -> Iterator[tuple[Any, NDArray[np.float64] | None]]:
    delimiter, key = _csv_columns(path, key_column, weight_column)
    import pyarrow as pa
    import pyarrow.csv as pacsv

    columns = [key] + ([weight_column] if weight_column else [])
    read = pacsv.ReadOptions(block_size=max(1 << 20, min(batch_rows * 64, 1 << 28)))
    parse = pacsv.ParseOptions(delimiter=delimiter)
    convert = pacsv.ConvertOptions(
        include_columns=columns,
        column_types={key: pa.string()},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        with pacsv.open_csv(path, read_options=read, parse_options=parse, convert_options=convert) as reader:
            for batch in reader:
                yield batch.column(key), _batch_weights(batch, weight_column)
    except pa.ArrowInvalid as err:
        raise PlanInputError(f"{path.name}: {_arrow_message(err)}") from None


def _arrow_message(err: Exception) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if "invalid UTF8" in text or "UTF8" in text:
        return "not valid UTF-8 (keys are read as text)"
    return text


def _read_csv_python(
    path: Path, delimiter: str, key: str, weight_column: str | None
) -> KeySample:  # pragma: no cover - exercised without pyarrow only
    keys: list[str] = []
    weights: list[float] = []
    try:
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter=delimiter):
                keys.append(row[key])
                if weight_column:
                    weights.append(float(row[weight_column]))
    except UnicodeDecodeError:
        raise PlanInputError(f"{path.name}: not valid UTF-8 (keys are read as text)") from None
    except ValueError as err:
        raise PlanInputError(f"{path.name}: bad weight: {err}") from None
    return _from_python(keys, weights if weight_column else None, path.name)


def _parquet_batches(
    path: Path, key_column: str | None, weight_column: str | None, batch_rows: int
) -> Iterator[tuple[Any, NDArray[np.float64] | None]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # Pre-buffered column chunks stay cached for the reader's lifetime,
        # so with pre-buffering a long file's memory grows with the rows
        # read (about a batch's worth per batch); without it, it stays flat.
        parquet = pq.ParquetFile(path, pre_buffer=False)
    except (pa.ArrowInvalid, OSError) as err:
        raise PlanInputError(f"{path.name}: not a Parquet file ({_arrow_message(err)})") from None
    names = list(parquet.schema_arrow.names)
    key = _pick_key_column(path.name, names, key_column)
    _check_weight_column(path.name, names, weight_column)
    columns = [key] + ([weight_column] if weight_column else [])
    options: dict[str, Any] = {"pre_buffer": False}
    if _text_or_binary(pa, parquet.schema_arrow.field(key).type):
        # Read as Arrow dictionaries: a dictionary-encoded column chunk then
        # arrives as its indices, not as every row's bytes, and a plain one
        # is hashed once while decoding. Counting needs no more.
        options["read_dictionary"] = [key]
        parquet = pq.ParquetFile(path, **options)
    for batch in _batches(path, options, parquet, columns, batch_rows):
        yield _arrow_keys(batch.column(key)), _batch_weights(batch, weight_column)


# Row groups decoded ahead of the one being counted, in threads (decoding
# releases the GIL), when every row group is at most this many rows: the
# memory held is then a few row groups, whatever the file's length.
_THREADED_ROW_GROUP_ROWS = 1 << 22


def _batch_weights(batch: Any, weight_column: str | None) -> NDArray[np.float64] | None:
    if weight_column is None:
        return None
    return _check_weights(_arrow_weights(batch.column(weight_column)), batch.num_rows)


def _batches(path: Path, options: dict[str, Any], parquet: Any, columns: list[str], batch_rows: int) -> Iterator[Any]:
    """The batches of a Parquet file in order, row groups decoded in parallel where that is safe.

    ``iter_batches`` decodes one row group at a time on one core; the floor
    (``pyarrow.parquet.read_table``) decodes them all at once on every
    core, holding the whole column. Here each of a few threads, with its
    own reader, decodes the next row group while the caller counts the
    current one: the cores of the floor, the memory of a few row groups.
    """
    meta = parquet.metadata
    groups = meta.num_row_groups
    threads = min(4, os.cpu_count() or 1)
    if (
        threads < 2
        or groups < 2
        or max(meta.row_group(i).num_rows for i in range(groups)) > _THREADED_ROW_GROUP_ROWS
    ):
        yield from parquet.iter_batches(batch_size=batch_rows, columns=columns)
        return
    import threading
    from concurrent.futures import Future, ThreadPoolExecutor

    import pyarrow.parquet as pq

    local = threading.local()

    def read(i: int) -> Any:
        reader = getattr(local, "reader", None)
        if reader is None:
            reader = local.reader = pq.ParquetFile(path, **options)
        return reader.read_row_group(i, columns=columns, use_threads=False)

    with ThreadPoolExecutor(threads) as pool:
        pending: list[Future[Any]] = []
        following = 0
        for i in range(groups):
            while following < groups and len(pending) < threads:
                pending.append(pool.submit(read, following))
                following += 1
            table = pending.pop(0).result()
            yield from table.to_batches(max_chunksize=batch_rows)
            del table
