"""A Pulsar broker just large enough to watch real producers route.

It answers the producer path (connect, partitioned metadata, lookup,
producer, send, close) from a JSON scenario and records, as JSON lines,
everything a client did: every connection, lookup, producer and message,
batches unpacked, so that a test can compare where each message went with
what the routing core predicts.

Scenario (every key optional)::

    {
      "topics": {"persistent://public/default/orders": {"partitions": 7}},
      "default_partitions": 0
    }

A topic may be named short (``orders``); it is read as
``persistent://public/default/orders``. A topic the scenario does not name
has ``default_partitions`` partitions (0: not partitioned). Every lookup is
answered Connect, authoritative, to this broker itself.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import time
from dataclasses import dataclass, field
from typing import IO, Any

from . import wire
from .wire import Type

HOST = "127.0.0.1"
# The newest protocol version the subset here is written against (v21 adds
# nothing on the producer path); a client asking for less is answered with
# its own version, as a real broker does.
PROTOCOL_VERSION = 21
SERVER_VERSION = "pulsar-routing-testkit"
MAX_MESSAGE_SIZE = 5 * 1024 * 1024
# A frame may carry a full message plus its command and metadata.
MAX_FRAME_SIZE = MAX_MESSAGE_SIZE + 64 * 1024

_PARTITION_SUFFIX = re.compile(r"^(?P<base>.+)-partition-(?P<n>\d+)$")


def full_topic_name(topic: str) -> str:
    """``persistent://public/default/x`` for the short name ``x``."""
    if "://" in topic:
        return topic
    parts = topic.split("/")
    if len(parts) == 1:
        return f"persistent://public/default/{topic}"
    if len(parts) == 3:
        return f"persistent://{topic}"
    raise ValueError(f"not a topic name: {topic!r}")


def split_partition(topic: str) -> tuple[str, int]:
    """The partitioned topic and partition index of a topic name; -1 if none."""
    m = _PARTITION_SUFFIX.match(topic)
    if m is None:
        return topic, -1
    return m.group("base"), int(m.group("n"))


@dataclass
class Scenario:
    partitions: dict[str, int] = field(default_factory=dict)
    default_partitions: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scenario:
        unknown = set(data) - {"topics", "default_partitions"}
        if unknown:
            raise ValueError(f"unknown scenario keys: {sorted(unknown)}")
        partitions = {}
        for name, spec in data.get("topics", {}).items():
            n = int(spec.get("partitions", 0))
            if n < 0:
                raise ValueError(f"{name}: negative partition count")
            partitions[full_topic_name(name)] = n
        return cls(partitions, int(data.get("default_partitions", 0)))

    def partitions_of(self, topic: str) -> int:
        return self.partitions.get(full_topic_name(topic), self.default_partitions)


def _text(raw: bytes | None) -> str | None:
    """A proto string as text, or None where it is not valid UTF-8."""
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _hex(raw: bytes | None) -> str | None:
    return None if raw is None else raw.hex()


class Recorder:
    """JSON lines, each flushed at once: a test reads the record while the
    broker still runs, right after the client saw its receipt."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out

    def write(self, event: str, **fields: Any) -> None:
        line = {"event": event, "ts_ns": time.time_ns(), **fields}
        self._out.write(json.dumps(line, ensure_ascii=False, default=_json_default) + "\n")
        self._out.flush()


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    raise TypeError(type(value).__name__)


@dataclass
class _Producer:
    topic: str
    base_topic: str
    partition: int
    name: str


class Broker:
    def __init__(self, scenario: Scenario, recorder: Recorder) -> None:
        self.scenario = scenario
        self.recorder = recorder
        self.port = 0
        self._server: asyncio.base_events.Server | None = None
        self._connections = 0
        self._entries: dict[str, int] = {}
        self._ledgers: dict[str, int] = {}
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"pulsar://{HOST}:{self.port}"

    async def start(self, port: int = 0) -> int:
        # Loopback only, whatever the caller asks: the broker accepts
        # anything and must never be reachable from another machine.
        self._server = await asyncio.start_server(self._serve, HOST, port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.recorder.write("listening", host=HOST, port=self.port)
        return self.port

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            await self._server.wait_closed()
        self.recorder.write("stopped")

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections += 1
        conn = self._connections
        peer = writer.get_extra_info("peername")
        self.recorder.write("accept", conn=conn, peer=f"{peer[0]}:{peer[1]}" if peer else None)
        self._writers.add(writer)
        session = _Session(self, conn, writer)
        reason = "closed by client"
        try:
            while True:
                try:
                    header = await reader.readexactly(4)
                except asyncio.IncompleteReadError as e:
                    if e.partial:
                        reason = "truncated frame size"
                    break
                size = int.from_bytes(header, "big")
                if size > MAX_FRAME_SIZE:
                    reason = f"frame of {size} bytes"
                    break
                body = await reader.readexactly(size)
                try:
                    frame = wire.parse_frame(body)
                except wire.DecodeError as e:
                    self.recorder.write("bad_frame", conn=conn, error=str(e), hex=body[:256].hex())
                    reason = f"bad frame: {e}"
                    break
                session.handle(frame)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError) as e:
            reason = f"{type(e).__name__}: {e}"
        finally:
            self._writers.discard(writer)
            self.recorder.write("disconnect", conn=conn, reason=reason)
            writer.close()

    def next_message_id(self, topic: str) -> tuple[int, int]:
        ledger = self._ledgers.setdefault(topic, len(self._ledgers) + 1)
        entry = self._entries.get(topic, 0)
        self._entries[topic] = entry + 1
        return ledger, entry


class _Session:
    """One client connection's state: its producers."""

    def __init__(self, broker: Broker, conn: int, writer: asyncio.StreamWriter) -> None:
        self.broker = broker
        self.record = broker.recorder.write
        self.conn = conn
        self.writer = writer
        self.connected = False
        self.producers: dict[int, _Producer] = {}

    def send(self, ctype: int, command: dict[str, Any]) -> None:
        self.writer.write(wire.build_frame(ctype, command))

    def handle(self, frame: wire.Frame) -> None:
        handler = {
            Type.CONNECT: self.on_connect,
            Type.PING: self.on_ping,
            Type.PONG: lambda f: None,
            Type.PARTITIONED_METADATA: self.on_partitioned_metadata,
            Type.LOOKUP: self.on_lookup,
            Type.PRODUCER: self.on_producer,
            Type.SEND: self.on_send,
            Type.CLOSE_PRODUCER: self.on_close_producer,
        }.get(frame.type, self.on_unhandled)
        handler(frame)

    def on_connect(self, frame: wire.Frame) -> None:
        c = frame.command
        client_version = c.get("protocol_version", 0)
        version = min(client_version, PROTOCOL_VERSION)
        self.record(
            "connect",
            conn=self.conn,
            client_version=_text(c.get("client_version")),
            protocol_version=client_version,
            auth_method_name=_text(c.get("auth_method_name")),
            proxy_to_broker_url=_text(c.get("proxy_to_broker_url")),
            feature_flags=c.get("feature_flags"),
            unknown_fields=sorted(c.get("_unknown", {})),
        )
        self.connected = True
        self.send(
            Type.CONNECTED,
            {
                "server_version": SERVER_VERSION,
                "protocol_version": version,
                "max_message_size": MAX_MESSAGE_SIZE,
            },
        )

    def on_ping(self, frame: wire.Frame) -> None:
        self.send(Type.PONG, {})

    def on_partitioned_metadata(self, frame: wire.Frame) -> None:
        c = frame.command
        topic = _text(c.get("topic")) or ""
        request_id = c.get("request_id", 0)
        try:
            partitions = self.broker.scenario.partitions_of(topic)
        except ValueError as e:
            self.record("partitioned_metadata", conn=self.conn, topic=topic, request_id=request_id, error=str(e))
            self.send(
                Type.PARTITIONED_METADATA_RESPONSE,
                {"request_id": request_id, "response": 1, "error": wire.ServerError.InvalidTopicName, "message": str(e)},
            )
            return
        self.record(
            "partitioned_metadata",
            conn=self.conn,
            topic=topic,
            request_id=request_id,
            partitions=partitions,
            unknown_fields=sorted(c.get("_unknown", {})),
        )
        self.send(
            Type.PARTITIONED_METADATA_RESPONSE,
            {"partitions": partitions, "request_id": request_id, "response": 0},
        )

    def on_lookup(self, frame: wire.Frame) -> None:
        c = frame.command
        topic = _text(c.get("topic")) or ""
        request_id = c.get("request_id", 0)
        self.record(
            "lookup",
            conn=self.conn,
            topic=topic,
            request_id=request_id,
            authoritative=c.get("authoritative", False),
            advertised_listener_name=_text(c.get("advertised_listener_name")),
            answer="connect",
            broker_url=self.broker.url,
        )
        self.send(
            Type.LOOKUP_RESPONSE,
            {
                "brokerServiceUrl": self.broker.url,
                "response": 1,
                "request_id": request_id,
                "authoritative": True,
                "proxy_through_service_url": False,
            },
        )

    def on_producer(self, frame: wire.Frame) -> None:
        c = frame.command
        topic = _text(c.get("topic")) or ""
        producer_id = c.get("producer_id", 0)
        request_id = c.get("request_id", 0)
        requested = _text(c.get("producer_name"))
        name = requested or f"testkit-{self.conn}-{producer_id}"
        base, partition = split_partition(topic)
        self.producers[producer_id] = _Producer(topic, base, partition, name)
        self.record(
            "producer",
            conn=self.conn,
            producer_id=producer_id,
            request_id=request_id,
            topic=base,
            partition=partition,
            requested_name=requested,
            producer_name=name,
            user_provided_producer_name=c.get("user_provided_producer_name"),
            access_mode=c.get("producer_access_mode", 0),
            epoch=c.get("epoch", 0),
        )
        self.send(
            Type.PRODUCER_SUCCESS,
            {
                "request_id": request_id,
                "producer_name": name,
                "last_sequence_id": -1,
                "producer_ready": True,
            },
        )

    def on_send(self, frame: wire.Frame) -> None:
        c = frame.command
        producer_id = c.get("producer_id", 0)
        sequence_id = c.get("sequence_id", 0)
        producer = self.producers.get(producer_id)
        meta = frame.metadata or {}
        payload = frame.payload or b""
        if producer is None:
            self._send_error(producer_id, sequence_id, wire.ServerError.UnknownError, "unknown producer id")
            return
        if frame.checksum_ok is False:
            self.record("send_rejected", conn=self.conn, producer_id=producer_id, sequence_id=sequence_id,
                        reason="checksum mismatch")
            self._send_error(producer_id, sequence_id, wire.ServerError.ChecksumError, "checksum mismatch")
            return
        common = {
            "conn": self.conn,
            "producer_id": producer_id,
            "producer_name": _text(meta.get("producer_name")),
            "topic": producer.base_topic,
            "partition": producer.partition,
            "checksum": frame.checksum is not None,
        }
        batched = "num_messages_in_batch" in meta
        compression = meta.get("compression", wire.CompressionType.NONE)
        if batched and compression != wire.CompressionType.NONE:
            # Unpacking needs the codec; the record says so instead of
            # guessing at the messages.
            self.record("send_not_unpacked", **common, sequence_id=sequence_id, compression=compression,
                        num_messages=meta["num_messages_in_batch"])
        elif batched:
            count = meta["num_messages_in_batch"]
            try:
                entries = wire.split_batch(payload, count)
            except wire.DecodeError as e:
                self.record("send_rejected", **common, sequence_id=sequence_id, reason=str(e))
                self._send_error(producer_id, sequence_id, wire.ServerError.UnknownError, str(e))
                return
            for index, entry in enumerate(entries):
                m = entry.metadata
                self.record(
                    "message",
                    **common,
                    sequence_id=m.get("sequence_id", sequence_id + index),
                    batch_index=index,
                    batch_size=count,
                    **_keys(m),
                    payload_hex=entry.payload.hex(),
                    properties=_properties(m),
                )
        else:
            self.record(
                "message",
                **common,
                sequence_id=meta.get("sequence_id", sequence_id),
                batch_index=-1,
                batch_size=None,
                **_keys(meta),
                payload_hex=payload.hex(),
                properties=_properties(meta),
                compression=compression,
                chunk_id=meta.get("chunk_id"),
            )
        num_messages = c.get("num_messages", 1)
        if batched and num_messages != meta["num_messages_in_batch"]:
            self.record("batch_count_mismatch", **common, sequence_id=sequence_id,
                        command_num_messages=num_messages, metadata_num_messages=meta["num_messages_in_batch"])
        ledger, entry = self.broker.next_message_id(producer.topic)
        receipt: dict[str, Any] = {
            "producer_id": producer_id,
            "sequence_id": sequence_id,
            "message_id": {"ledgerId": ledger, "entryId": entry},
        }
        if "highest_sequence_id" in c:
            receipt["highest_sequence_id"] = c["highest_sequence_id"]
        self.send(Type.SEND_RECEIPT, receipt)

    def _send_error(self, producer_id: int, sequence_id: int, error: int, message: str) -> None:
        self.send(
            Type.SEND_ERROR,
            {"producer_id": producer_id, "sequence_id": sequence_id, "error": error, "message": message},
        )

    def on_close_producer(self, frame: wire.Frame) -> None:
        c = frame.command
        producer_id = c.get("producer_id", 0)
        producer = self.producers.pop(producer_id, None)
        self.record(
            "close_producer",
            conn=self.conn,
            producer_id=producer_id,
            known=producer is not None,
            topic=producer.base_topic if producer else None,
            partition=producer.partition if producer else None,
        )
        self.send(Type.SUCCESS, {"request_id": c.get("request_id", 0)})

    def on_unhandled(self, frame: wire.Frame) -> None:
        name = wire.TYPE_NAMES.get(frame.type, f"type {frame.type}")
        fields = frame.command.get("_unknown", {})
        self.record(
            "unhandled",
            conn=self.conn,
            type=frame.type,
            name=name,
            fields={str(k): [v if isinstance(v, int) else v.hex() for v in vs] for k, vs in fields.items()},
        )
        number = wire.REQUEST_ID_FIELD.get(frame.type)
        if number is None or number not in fields:
            return
        request_id = fields[number][-1]
        message = f"the test broker does not serve {name}"
        if frame.type == Type.GET_SCHEMA:
            # The client treats a missing schema as "none", not as a failure.
            self.send(
                Type.GET_SCHEMA_RESPONSE,
                {"request_id": request_id, "error_code": wire.ServerError.TopicNotFound, "error_message": message},
            )
        else:
            self.send(
                Type.ERROR,
                {"request_id": request_id, "error": wire.ServerError.NotAllowedError, "message": message},
            )


def _keys(meta: dict[str, Any]) -> dict[str, Any]:
    key = meta.get("partition_key")
    ordering = meta.get("ordering_key")
    b64 = meta.get("partition_key_b64_encoded", False)
    out = {
        "partition_key": _text(key),
        "partition_key_hex": _hex(key),
        "partition_key_b64_encoded": b64,
        "ordering_key_hex": _hex(ordering),
        "null_partition_key": meta.get("null_partition_key", False),
    }
    if b64 and key is not None:
        try:
            out["partition_key_decoded_hex"] = base64.b64decode(key, validate=True).hex()
        except ValueError:
            out["partition_key_decoded_hex"] = None
    return out


def _properties(meta: dict[str, Any]) -> dict[str, str | None] | None:
    props = meta.get("properties")
    if not props:
        return None
    return {(_text(p.get("key")) or ""): _text(p.get("value")) for p in props}
