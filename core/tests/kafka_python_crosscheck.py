"""Cross-check of Kafka's murmur2 partitioning against kafka-python.

kafka-python (PyPI package ``kafka-python``) ships its own pure-Python port
of the Java client's ``Utils.murmur2`` and ``DefaultPartitioner``. This
script draws 10,000 keys from a fixed seed, asks kafka-python for each
key's murmur2 hash and for the partition its ``DefaultPartitioner`` picks,
and either writes the results or checks them against the committed file
that ``core/tests/kafka.rs`` reads:

    python core/tests/kafka_python_crosscheck.py --check   # the test command
    python core/tests/kafka_python_crosscheck.py --write   # regenerate

The vectors are committed so that the Rust test runs without Python; this
script proves, wherever kafka-python is installed, that they are what
kafka-python computes.
"""

import argparse
import gzip
import io
import json
import pathlib
import random
import sys

from kafka.partitioner.default import DefaultPartitioner, murmur2

VECTORS = (
    pathlib.Path(__file__).resolve().parents[2]
    / "testdata"
    / "kafka"
    / "murmur2_kafka_python.jsonl.gz"
)
SEED = 20260729
COUNT = 10_000
PARTITION_COUNTS = [1, 2, 3, 5, 7, 10, 12, 16, 100, 1000, 65536, 2**31 - 1]


class _OneTopicCluster:
    """The three ClusterMetadata methods DefaultPartitioner reads."""

    def __init__(self, topic, num_partitions):
        self._topic = topic
        self._partitions = set(range(num_partitions))

    def topics(self):
        return {self._topic}

    def partitions_for_topic(self, topic):
        return self._partitions

    def available_partitions_for_topic(self, topic):
        return self._partitions


def _keys(rng):
    """Every tail length and several blocks of random bytes, printable keys,
    and a few long keys."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_:."
    for i in range(COUNT):
        if i % 100 == 99:
            yield bytes(rng.getrandbits(8) for _ in range(rng.randint(25, 300)))
        elif i % 3 == 2:
            yield "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24))).encode()
        else:
            yield bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 24)))


def generate():
    rng = random.Random(SEED)
    partitioner = DefaultPartitioner()
    lines = []
    for key in _keys(rng):
        n = rng.choice(PARTITION_COUNTS)
        if n > 100_000:
            # DefaultPartitioner sorts a set of all partition ids: fine for
            # small topics only, so the largest count checks the formula.
            partition = (murmur2(key) & 0x7FFFFFFF) % n
        else:
            cluster = _OneTopicCluster("t", n)
            partition = partitioner.partition("t", key, key, None, None, cluster)
        lines.append(
            json.dumps(
                {
                    "key_hex": key.hex(),
                    "murmur2": murmur2(key),
                    "num_partitions": n,
                    "partition": partition,
                },
                separators=(",", ":"),
            )
        )
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare with the committed vectors")
    mode.add_argument("--write", action="store_true", help="rewrite the committed vectors")
    args = parser.parse_args()

    text = generate()
    if args.write:
        VECTORS.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        # mtime=0 keeps the file byte-identical across regenerations.
        with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz:
            gz.write(text.encode())
        VECTORS.write_bytes(buffer.getvalue())
        print(f"wrote {COUNT} vectors to {VECTORS.name}")
        return 0
    committed = gzip.decompress(VECTORS.read_bytes()).decode()
    if committed != text:
        print(f"{VECTORS.name} differs from what kafka-python computes", file=sys.stderr)
        return 1
    print(f"kafka-python agrees with the {COUNT} committed murmur2 vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
