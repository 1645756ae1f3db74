"""The subset of Pulsar's binary protocol the test broker speaks.

Everything here is written from the field numbers of ``PulsarApi.proto``
(proto2); no generated code is used, so the broker runs on the standard
library alone and a reader can check each number against the .proto.

A frame is ``[totalSize u32][commandSize u32][BaseCommand]``, and for SEND
``[0x0e01][crc32c u32][metadataSize u32][MessageMetadata][payload]`` after
the command (all integers big-endian). A batch payload is a run of
``[size u32][SingleMessageMetadata][payload]``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

# --- protobuf wire format -------------------------------------------------

VARINT, FIXED64, LEN, FIXED32 = 0, 1, 2, 5


class DecodeError(ValueError):
    """Bytes that are not the protobuf or frame they claim to be."""


def encode_varint(value: int) -> bytes:
    if value < 0:
        # int32/int64 negatives go on the wire as 64-bit two's complement.
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes")


def parse_fields(data: bytes) -> dict[int, list[int | bytes]]:
    """Every field of one message by number, in wire order, untyped."""
    fields: dict[int, list[int | bytes]] = {}
    pos = 0
    while pos < len(data):
        tag, pos = decode_varint(data, pos)
        number, wire_type = tag >> 3, tag & 7
        value: int | bytes
        if wire_type == VARINT:
            value, pos = decode_varint(data, pos)
        elif wire_type == LEN:
            length, pos = decode_varint(data, pos)
            if pos + length > len(data):
                raise DecodeError(f"field {number} runs past the end")
            value = data[pos : pos + length]
            pos += length
        elif wire_type == FIXED64:
            value = int.from_bytes(data[pos : pos + 8], "little")
            pos += 8
        elif wire_type == FIXED32:
            value = int.from_bytes(data[pos : pos + 4], "little")
            pos += 4
        else:
            raise DecodeError(f"unsupported wire type {wire_type} (field {number})")
        if number == 0:
            raise DecodeError("field number 0")
        fields.setdefault(number, []).append(value)
    if pos != len(data):
        raise DecodeError("fixed-width field runs past the end")
    return fields


# A schema maps a field name to (number, kind[, sub-schema]); kinds are
# "uint" (uint32/uint64/enum), "int" (int32/int64, sign from two's
# complement), "bool", "string", "bytes", "message"; a trailing "*" on the
# kind makes the field repeated.
Schema = dict[str, tuple[Any, ...]]


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def decode(data: bytes, schema: Schema) -> dict[str, Any]:
    """A message as a dict of the schema's fields that are present.

    Fields the schema does not name are kept under ``"_unknown"`` (by
    number) so that the broker can log what a client sent it beyond the
    subset it understands.
    """
    raw = parse_fields(data)
    out: dict[str, Any] = {}
    known = set()
    for name, spec in schema.items():
        number, kind = spec[0], spec[1]
        known.add(number)
        if number not in raw:
            continue
        repeated = kind.endswith("*")
        kind = kind.rstrip("*")
        values = [_typed(v, kind, spec[2] if len(spec) > 2 else None, name) for v in raw[number]]
        # proto2: a repeated scalar of this subset is never packed, and for
        # a singular field the last value wins.
        out[name] = values if repeated else values[-1]
    unknown = {n: v for n, v in raw.items() if n not in known}
    if unknown:
        out["_unknown"] = unknown
    return out


def _typed(value: int | bytes, kind: str, sub: Schema | None, name: str) -> Any:
    if kind in ("uint", "int", "bool"):
        if not isinstance(value, int):
            raise DecodeError(f"{name}: expected a varint")
        if kind == "int":
            return _signed(value)
        if kind == "bool":
            return value != 0
        return value
    if not isinstance(value, bytes):
        raise DecodeError(f"{name}: expected length-delimited bytes")
    if kind == "bytes":
        return value
    if kind == "string":
        # Kept as bytes: a client may put invalid UTF-8 in a proto2 string
        # (Go does, for a binary key) and the record must show it as sent.
        return value
    if kind == "message":
        assert sub is not None
        return decode(value, sub)
    raise AssertionError(kind)


def encode(values: dict[str, Any], schema: Schema) -> bytes:
    """The message whose present fields are ``values`` (None is absent)."""
    out = bytearray()
    for name, spec in schema.items():
        if name not in values or values[name] is None:
            continue
        number, kind = spec[0], spec[1]
        repeated = kind.endswith("*")
        kind = kind.rstrip("*")
        items = values[name] if repeated else [values[name]]
        for item in items:
            if kind in ("uint", "int", "bool"):
                out += encode_varint(number << 3 | VARINT)
                out += encode_varint(int(item))
            else:
                if kind == "message":
                    body = encode(item, spec[2])
                elif isinstance(item, str):
                    body = item.encode()
                else:
                    body = bytes(item)
                out += encode_varint(number << 3 | LEN)
                out += encode_varint(len(body))
                out += body
    unknown = set(values) - set(schema)
    if unknown:
        raise KeyError(f"fields not in the schema: {sorted(unknown)}")
    return bytes(out)


# --- the messages of PulsarApi.proto this broker reads or writes -----------

KEY_VALUE: Schema = {"key": (1, "string"), "value": (2, "string")}

FEATURE_FLAGS: Schema = {
    "supports_auth_refresh": (1, "bool"),
    "supports_broker_entry_metadata": (2, "bool"),
    "supports_partial_producer": (3, "bool"),
    "supports_topic_watchers": (4, "bool"),
}

MESSAGE_ID_DATA: Schema = {
    "ledgerId": (1, "uint"),
    "entryId": (2, "uint"),
    "partition": (3, "int"),
    "batch_index": (4, "int"),
}

COMMAND_CONNECT: Schema = {
    "client_version": (1, "string"),
    "auth_method": (2, "uint"),
    "auth_data": (3, "bytes"),
    "protocol_version": (4, "int"),
    "auth_method_name": (5, "string"),
    "proxy_to_broker_url": (6, "string"),
    "original_principal": (7, "string"),
    "original_auth_data": (8, "string"),
    "original_auth_method": (9, "string"),
    "feature_flags": (10, "message", FEATURE_FLAGS),
}

COMMAND_CONNECTED: Schema = {
    "server_version": (1, "string"),
    "protocol_version": (2, "int"),
    "max_message_size": (3, "int"),
    "feature_flags": (4, "message", FEATURE_FLAGS),
}

COMMAND_PARTITIONED_METADATA: Schema = {
    "topic": (1, "string"),
    "request_id": (2, "uint"),
    "original_principal": (3, "string"),
    "original_auth_data": (4, "string"),
    "original_auth_method": (5, "string"),
}

COMMAND_PARTITIONED_METADATA_RESPONSE: Schema = {
    "partitions": (1, "uint"),
    "request_id": (2, "uint"),
    "response": (3, "uint"),  # Success = 0, Failed = 1
    "error": (4, "uint"),
    "message": (5, "string"),
}

COMMAND_LOOKUP_TOPIC: Schema = {
    "topic": (1, "string"),
    "request_id": (2, "uint"),
    "authoritative": (3, "bool"),
    "original_principal": (4, "string"),
    "original_auth_data": (5, "string"),
    "original_auth_method": (6, "string"),
    "advertised_listener_name": (7, "string"),
}

COMMAND_LOOKUP_TOPIC_RESPONSE: Schema = {
    "brokerServiceUrl": (1, "string"),
    "brokerServiceUrlTls": (2, "string"),
    "response": (3, "uint"),  # Redirect = 0, Connect = 1, Failed = 2
    "request_id": (4, "uint"),
    "authoritative": (5, "bool"),
    "error": (6, "uint"),
    "message": (7, "string"),
    "proxy_through_service_url": (8, "bool"),
}

COMMAND_PRODUCER: Schema = {
    "topic": (1, "string"),
    "producer_id": (2, "uint"),
    "request_id": (3, "uint"),
    "producer_name": (4, "string"),
    "encrypted": (5, "bool"),
    "metadata": (6, "message*", KEY_VALUE),
    "schema": (7, "bytes"),
    "epoch": (8, "uint"),
    "user_provided_producer_name": (9, "bool"),
    "producer_access_mode": (10, "uint"),
    "topic_epoch": (11, "uint"),
    "txn_enabled": (12, "bool"),
    "initial_subscription_name": (13, "string"),
}

COMMAND_PRODUCER_SUCCESS: Schema = {
    "request_id": (1, "uint"),
    "producer_name": (2, "string"),
    "last_sequence_id": (3, "int"),
    "schema_version": (4, "bytes"),
    "topic_epoch": (5, "uint"),
    "producer_ready": (6, "bool"),
}

COMMAND_SEND: Schema = {
    "producer_id": (1, "uint"),
    "sequence_id": (2, "uint"),
    "num_messages": (3, "int"),
    "txnid_least_bits": (4, "uint"),
    "txnid_most_bits": (5, "uint"),
    "highest_sequence_id": (6, "uint"),
    "is_chunk": (7, "bool"),
    "marker": (8, "bool"),
    "message_id": (9, "message", MESSAGE_ID_DATA),
}

COMMAND_SEND_RECEIPT: Schema = {
    "producer_id": (1, "uint"),
    "sequence_id": (2, "uint"),
    "message_id": (3, "message", MESSAGE_ID_DATA),
    "highest_sequence_id": (4, "uint"),
}

COMMAND_SEND_ERROR: Schema = {
    "producer_id": (1, "uint"),
    "sequence_id": (2, "uint"),
    "error": (3, "uint"),
    "message": (4, "string"),
}

COMMAND_CLOSE_PRODUCER: Schema = {"producer_id": (1, "uint"), "request_id": (2, "uint")}
COMMAND_SUCCESS: Schema = {"request_id": (1, "uint")}
COMMAND_ERROR: Schema = {"request_id": (1, "uint"), "error": (2, "uint"), "message": (3, "string")}
COMMAND_EMPTY: Schema = {}

COMMAND_GET_SCHEMA_RESPONSE: Schema = {
    "request_id": (1, "uint"),
    "error_code": (2, "uint"),
    "error_message": (3, "string"),
}

MESSAGE_METADATA: Schema = {
    "producer_name": (1, "string"),
    "sequence_id": (2, "uint"),
    "publish_time": (3, "uint"),
    "properties": (4, "message*", KEY_VALUE),
    "replicated_from": (5, "string"),
    "partition_key": (6, "string"),
    "replicate_to": (7, "string*"),
    "compression": (8, "uint"),
    "uncompressed_size": (9, "uint"),
    "num_messages_in_batch": (11, "int"),
    "event_time": (12, "uint"),
    "encryption_algo": (14, "string"),
    "encryption_param": (15, "bytes"),
    "schema_version": (16, "bytes"),
    "partition_key_b64_encoded": (17, "bool"),
    "ordering_key": (18, "bytes"),
    "deliver_at_time": (19, "int"),
    "marker_type": (20, "int"),
    "txnid_least_bits": (22, "uint"),
    "txnid_most_bits": (23, "uint"),
    "highest_sequence_id": (24, "uint"),
    "null_value": (25, "bool"),
    "uuid": (26, "string"),
    "num_chunks_from_msg": (27, "int"),
    "total_chunk_msg_size": (28, "int"),
    "chunk_id": (29, "int"),
    "null_partition_key": (30, "bool"),
}

SINGLE_MESSAGE_METADATA: Schema = {
    "properties": (1, "message*", KEY_VALUE),
    "partition_key": (2, "string"),
    "payload_size": (3, "int"),
    "compacted_out": (4, "bool"),
    "event_time": (5, "uint"),
    "partition_key_b64_encoded": (6, "bool"),
    "ordering_key": (7, "bytes"),
    "sequence_id": (8, "uint"),
    "null_value": (9, "bool"),
    "null_partition_key": (10, "bool"),
}


# BaseCommand.Type. Each command's sub-message sits in the BaseCommand field
# whose number equals its type, so one table names both.
class Type:
    CONNECT = 2
    CONNECTED = 3
    SUBSCRIBE = 4
    PRODUCER = 5
    SEND = 6
    SEND_RECEIPT = 7
    SEND_ERROR = 8
    MESSAGE = 9
    ACK = 10
    FLOW = 11
    UNSUBSCRIBE = 12
    SUCCESS = 13
    ERROR = 14
    CLOSE_PRODUCER = 15
    CLOSE_CONSUMER = 16
    PRODUCER_SUCCESS = 17
    PING = 18
    PONG = 19
    REDELIVER_UNACKNOWLEDGED_MESSAGES = 20
    PARTITIONED_METADATA = 21
    PARTITIONED_METADATA_RESPONSE = 22
    LOOKUP = 23
    LOOKUP_RESPONSE = 24
    CONSUMER_STATS = 25
    CONSUMER_STATS_RESPONSE = 26
    REACHED_END_OF_TOPIC = 27
    SEEK = 28
    GET_LAST_MESSAGE_ID = 29
    GET_LAST_MESSAGE_ID_RESPONSE = 30
    ACTIVE_CONSUMER_CHANGE = 31
    GET_TOPICS_OF_NAMESPACE = 32
    GET_TOPICS_OF_NAMESPACE_RESPONSE = 33
    GET_SCHEMA = 34
    GET_SCHEMA_RESPONSE = 35
    AUTH_CHALLENGE = 36
    AUTH_RESPONSE = 37
    ACK_RESPONSE = 38
    GET_OR_CREATE_SCHEMA = 39
    GET_OR_CREATE_SCHEMA_RESPONSE = 40
    NEW_TXN = 50
    ADD_PARTITION_TO_TXN = 52
    ADD_SUBSCRIPTION_TO_TXN = 54
    END_TXN = 56
    END_TXN_ON_PARTITION = 58
    END_TXN_ON_SUBSCRIPTION = 60
    TC_CLIENT_CONNECT_REQUEST = 62
    WATCH_TOPIC_LIST = 64
    WATCH_TOPIC_LIST_CLOSE = 67
    TOPIC_MIGRATED = 68


TYPE_NAMES = {v: k for k, v in vars(Type).items() if not k.startswith("_")}

# Where the request id sits in requests this broker does not serve, so that
# it can refuse them with an ERROR the client matches to its request rather
# than leave the client waiting for its operation timeout.
REQUEST_ID_FIELD = {
    Type.SUBSCRIBE: 5,
    Type.UNSUBSCRIBE: 2,
    Type.CLOSE_CONSUMER: 2,
    Type.CONSUMER_STATS: 1,
    Type.SEEK: 2,
    Type.GET_LAST_MESSAGE_ID: 2,
    Type.GET_TOPICS_OF_NAMESPACE: 1,
    Type.GET_SCHEMA: 1,
    Type.GET_OR_CREATE_SCHEMA: 1,
    Type.NEW_TXN: 1,
    Type.ADD_PARTITION_TO_TXN: 1,
    Type.ADD_SUBSCRIPTION_TO_TXN: 1,
    Type.END_TXN: 1,
    Type.END_TXN_ON_PARTITION: 1,
    Type.END_TXN_ON_SUBSCRIPTION: 1,
    Type.TC_CLIENT_CONNECT_REQUEST: 1,
    Type.WATCH_TOPIC_LIST: 1,
    Type.WATCH_TOPIC_LIST_CLOSE: 1,
}


class ServerError:
    UnknownError = 0
    MetadataError = 1
    ServiceNotReady = 6
    ChecksumError = 9
    TopicNotFound = 11
    InvalidTopicName = 17
    NotAllowedError = 22


class CompressionType:
    NONE = 0
    LZ4 = 1
    ZLIB = 2
    ZSTD = 3
    SNAPPY = 4


MAGIC_CRC32C = 0x0E01
MAGIC_BROKER_ENTRY_METADATA = 0x0E02

# --- CRC-32C (Castagnoli), the checksum SEND carries ------------------------


def _crc32c_table() -> list[int]:
    poly = 0x82F63B78  # 0x1EDC6F41 bit-reversed
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data: bytes, crc: int = 0) -> int:
    crc ^= 0xFFFFFFFF
    table = _CRC32C
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# --- frames -----------------------------------------------------------------


@dataclass
class Frame:
    """One frame: its command, and for SEND what follows the command."""

    type: int
    command: dict[str, Any]
    raw_command: bytes
    # SEND only:
    checksum: int | None = None
    checksum_ok: bool | None = None
    metadata: dict[str, Any] | None = None
    payload: bytes | None = None


_SCHEMAS: dict[int, Schema] = {
    Type.CONNECT: COMMAND_CONNECT,
    Type.CONNECTED: COMMAND_CONNECTED,
    Type.PRODUCER: COMMAND_PRODUCER,
    Type.SEND: COMMAND_SEND,
    Type.SEND_RECEIPT: COMMAND_SEND_RECEIPT,
    Type.SEND_ERROR: COMMAND_SEND_ERROR,
    Type.SUCCESS: COMMAND_SUCCESS,
    Type.ERROR: COMMAND_ERROR,
    Type.CLOSE_PRODUCER: COMMAND_CLOSE_PRODUCER,
    Type.PRODUCER_SUCCESS: COMMAND_PRODUCER_SUCCESS,
    Type.PING: COMMAND_EMPTY,
    Type.PONG: COMMAND_EMPTY,
    Type.PARTITIONED_METADATA: COMMAND_PARTITIONED_METADATA,
    Type.PARTITIONED_METADATA_RESPONSE: COMMAND_PARTITIONED_METADATA_RESPONSE,
    Type.LOOKUP: COMMAND_LOOKUP_TOPIC,
    Type.LOOKUP_RESPONSE: COMMAND_LOOKUP_TOPIC_RESPONSE,
    Type.GET_SCHEMA_RESPONSE: COMMAND_GET_SCHEMA_RESPONSE,
}

BASE_COMMAND_TYPE_FIELD = 1
_U32 = struct.Struct(">I")
_U16 = struct.Struct(">H")


def parse_frame(body: bytes) -> Frame:
    """A frame without its leading totalSize (``body`` is totalSize bytes)."""
    if len(body) < 4:
        raise DecodeError("frame shorter than its command size")
    (command_size,) = _U32.unpack_from(body, 0)
    if 4 + command_size > len(body):
        raise DecodeError("command runs past the frame")
    raw = body[4 : 4 + command_size]
    base = parse_fields(raw)
    types = base.get(BASE_COMMAND_TYPE_FIELD)
    if not types or not isinstance(types[-1], int):
        raise DecodeError("BaseCommand without a type")
    ctype = types[-1]
    sub = base.get(ctype, [b""])[-1]
    if not isinstance(sub, bytes):
        raise DecodeError(f"command field {ctype} is not a message")
    schema = _SCHEMAS.get(ctype)
    command = decode(sub, schema) if schema is not None else {"_unknown": parse_fields(sub)}
    frame = Frame(ctype, command, raw)
    rest = body[4 + command_size :]
    if ctype == Type.SEND:
        pos = 0
        if len(rest) >= 2 and _U16.unpack_from(rest, 0)[0] == MAGIC_CRC32C:
            (frame.checksum,) = _U32.unpack_from(rest, 2)
            pos = 6
            frame.checksum_ok = crc32c(rest[pos:]) == frame.checksum
        if len(rest) < pos + 4:
            raise DecodeError("SEND without message metadata")
        (meta_size,) = _U32.unpack_from(rest, pos)
        pos += 4
        if pos + meta_size > len(rest):
            raise DecodeError("message metadata runs past the frame")
        frame.metadata = decode(rest[pos : pos + meta_size], MESSAGE_METADATA)
        frame.payload = rest[pos + meta_size :]
    elif rest:
        raise DecodeError(f"{TYPE_NAMES.get(ctype, ctype)} frame has {len(rest)} bytes after its command")
    return frame


def build_frame(ctype: int, command: dict[str, Any], schema: Schema | None = None) -> bytes:
    """The frame of one command the broker sends (no payload)."""
    schema = _SCHEMAS[ctype] if schema is None else schema
    sub = encode(command, schema)
    base = (
        encode_varint(BASE_COMMAND_TYPE_FIELD << 3 | VARINT)
        + encode_varint(ctype)
        + encode_varint(ctype << 3 | LEN)
        + encode_varint(len(sub))
        + sub
    )
    return _U32.pack(len(base) + 4) + _U32.pack(len(base)) + base


def build_send_frame(command: dict[str, Any], metadata: dict[str, Any], payload: bytes) -> bytes:
    """A SEND frame as a producer writes it (for tests of the broker)."""
    sub = encode(command, COMMAND_SEND)
    base = (
        encode_varint(BASE_COMMAND_TYPE_FIELD << 3 | VARINT)
        + encode_varint(Type.SEND)
        + encode_varint(Type.SEND << 3 | LEN)
        + encode_varint(len(sub))
        + sub
    )
    meta = encode(metadata, MESSAGE_METADATA)
    checked = _U32.pack(len(meta)) + meta + payload
    tail = _U16.pack(MAGIC_CRC32C) + _U32.pack(crc32c(checked)) + checked
    return _U32.pack(4 + len(base) + len(tail)) + _U32.pack(len(base)) + base + tail


def build_request_frame(ctype: int, command: dict[str, Any]) -> bytes:
    """A client request frame (for tests of the broker)."""
    return build_frame(ctype, command)


@dataclass
class BatchEntry:
    metadata: dict[str, Any]
    payload: bytes


def split_batch(payload: bytes, count: int) -> list[BatchEntry]:
    """The ``count`` messages of an uncompressed batch payload."""
    entries = []
    pos = 0
    for i in range(count):
        if pos + 4 > len(payload):
            raise DecodeError(f"batch ends after {i} of {count} messages")
        (size,) = _U32.unpack_from(payload, pos)
        pos += 4
        if pos + size > len(payload):
            raise DecodeError(f"batch message {i} metadata runs past the payload")
        meta = decode(payload[pos : pos + size], SINGLE_MESSAGE_METADATA)
        pos += size
        length = meta.get("payload_size", 0)
        if length < 0 or pos + length > len(payload):
            raise DecodeError(f"batch message {i} payload runs past the payload")
        entries.append(BatchEntry(meta, payload[pos : pos + length]))
        pos += length
    if pos != len(payload):
        raise DecodeError(f"{len(payload) - pos} bytes after the {count} batch messages")
    return entries


def build_batch(entries: list[tuple[dict[str, Any], bytes]]) -> bytes:
    """A batch payload (for tests of the broker)."""
    out = bytearray()
    for meta, payload in entries:
        body = encode({**meta, "payload_size": len(payload)}, SINGLE_MESSAGE_METADATA)
        out += _U32.pack(len(body)) + body + payload
    return bytes(out)
