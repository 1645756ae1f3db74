"""The broker and its codec on their own, driven by hand-built frames, so a
protocol fault shows here rather than as a client timing out."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest
from pulsar_testkit import wire
from pulsar_testkit.broker import Broker, Recorder, Scenario, full_topic_name, split_partition
from pulsar_testkit.wire import Type


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**32, 2**63 - 1, -1, -2**63])
def test_varints_round_trip_with_negatives_as_64_bit(value: int) -> None:
    data = wire.encode({"v": value}, {"v": (1, "int")})
    assert wire.decode(data, {"v": (1, "int")}) == {"v": value}
    if value == -1:
        assert len(data) == 11  # tag + ten bytes, as protobuf writes int64 -1


def test_crc32c_matches_the_castagnoli_check_value() -> None:
    assert wire.crc32c(b"123456789") == 0xE3069283


def test_unknown_fields_are_kept_for_the_record() -> None:
    data = wire.encode({"request_id": 7}, wire.COMMAND_SUCCESS) + wire.encode({"x": 5}, {"x": (9, "uint")})
    assert wire.decode(data, wire.COMMAND_SUCCESS) == {"request_id": 7, "_unknown": {9: [5]}}


def test_topic_names() -> None:
    assert full_topic_name("t") == "persistent://public/default/t"
    assert full_topic_name("a/b/t") == "persistent://a/b/t"
    assert split_partition("persistent://public/default/t-partition-12") == ("persistent://public/default/t", 12)
    assert split_partition("persistent://public/default/t") == ("persistent://public/default/t", -1)


class Client:
    """A hand-driven client connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def request(self, frame: bytes) -> wire.Frame:
        self.writer.write(frame)
        await self.writer.drain()
        size = int.from_bytes(await asyncio.wait_for(self.reader.readexactly(4), 5), "big")
        return wire.parse_frame(await self.reader.readexactly(size))


async def _session(scenario: dict[str, Any]) -> tuple[list[wire.Frame], list[dict[str, Any]]]:
    out = io.StringIO()
    broker = Broker(Scenario.from_json(scenario), Recorder(out))
    port = await broker.start(0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = Client(reader, writer)
    answers = [
        await c.request(wire.build_request_frame(Type.CONNECT, {"client_version": "hand", "protocol_version": 19})),
        await c.request(wire.build_request_frame(Type.PARTITIONED_METADATA, {"topic": "orders", "request_id": 1})),
        await c.request(wire.build_request_frame(
            Type.LOOKUP, {"topic": "persistent://public/default/orders-partition-2", "request_id": 2})),
        await c.request(wire.build_request_frame(
            Type.PRODUCER, {"topic": "persistent://public/default/orders-partition-2", "producer_id": 4,
                            "request_id": 3})),
    ]
    batch = wire.build_batch([
        ({"partition_key": b"k1", "sequence_id": 10}, b"one"),
        ({"partition_key": "a2V5", "partition_key_b64_encoded": True, "ordering_key": b"\x00o"}, b"two"),
        ({}, b"three"),
    ])
    answers.append(await c.request(wire.build_send_frame(
        {"producer_id": 4, "sequence_id": 10, "num_messages": 3, "highest_sequence_id": 12},
        {"producer_name": "p", "sequence_id": 10, "publish_time": 1, "num_messages_in_batch": 3}, batch)))
    answers.append(await c.request(wire.build_send_frame(
        {"producer_id": 4, "sequence_id": 13}, {"producer_name": "p", "sequence_id": 13, "publish_time": 1,
                                                "partition_key": b"\xff"}, b"single")))
    corrupt = bytearray(wire.build_send_frame(
        {"producer_id": 4, "sequence_id": 14}, {"producer_name": "p", "sequence_id": 14, "publish_time": 1}, b"x"))
    corrupt[-1] ^= 1
    answers.append(await c.request(bytes(corrupt)))
    answers.append(await c.request(wire.build_frame(
        Type.SUBSCRIBE, {"topic": "t", "request_id": 9},
        {"topic": (1, "string"), "request_id": (5, "uint")})))
    answers.append(await c.request(wire.build_request_frame(Type.PING, {})))
    answers.append(await c.request(wire.build_request_frame(Type.CLOSE_PRODUCER, {"producer_id": 4,
                                                                                  "request_id": 5})))
    writer.close()
    await broker.stop()
    return answers, [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_producer_path_is_answered_and_recorded() -> None:
    answers, records = asyncio.run(_session({"topics": {"orders": {"partitions": 3}}}))
    connected, metadata, lookup, producer, receipt, receipt2, error, refused, pong, closed = answers
    assert connected.type == Type.CONNECTED and connected.command["protocol_version"] == 19
    assert metadata.type == Type.PARTITIONED_METADATA_RESPONSE
    assert metadata.command == {"partitions": 3, "request_id": 1, "response": 0}
    assert lookup.type == Type.LOOKUP_RESPONSE and lookup.command["response"] == 1
    assert lookup.command["authoritative"] is True
    assert lookup.command["brokerServiceUrl"].startswith(b"pulsar://127.0.0.1:")
    assert producer.type == Type.PRODUCER_SUCCESS and producer.command["last_sequence_id"] == -1
    assert receipt.type == Type.SEND_RECEIPT
    assert (receipt.command["sequence_id"], receipt.command["highest_sequence_id"]) == (10, 12)
    assert receipt2.type == Type.SEND_RECEIPT
    assert error.type == Type.SEND_ERROR and error.command["error"] == wire.ServerError.ChecksumError
    assert refused.type == Type.ERROR and refused.command["request_id"] == 9
    assert pong.type == Type.PONG
    assert closed.type == Type.SUCCESS and closed.command == {"request_id": 5}

    messages = [r for r in records if r["event"] == "message"]
    assert [(m["partition"], m["batch_index"], m["sequence_id"]) for m in messages] == [
        (2, 0, 10), (2, 1, 11), (2, 2, 12), (2, -1, 13)]
    assert [m["partition_key"] for m in messages] == ["k1", "a2V5", None, None]
    assert messages[1]["partition_key_b64_encoded"] is True
    assert messages[1]["partition_key_decoded_hex"] == b"key".hex()
    assert messages[1]["ordering_key_hex"] == "006f"
    assert messages[3]["partition_key_hex"] == "ff"  # invalid UTF-8 kept as sent
    assert [bytes.fromhex(m["payload_hex"]) for m in messages] == [b"one", b"two", b"three", b"single"]
    lookups = [r for r in records if r["event"] == "lookup"]
    assert lookups[0]["topic"] == "persistent://public/default/orders-partition-2"
    assert lookups[0]["authoritative"] is False
    assert any(r["event"] == "unhandled" and r["name"] == "SUBSCRIBE" for r in records)
    assert any(r["event"] == "send_rejected" for r in records)
