"""7. Producer queue sizing: ``maxPendingMessages >= peak msg/s * reconnect window``."""

from __future__ import annotations

import math

from .results import QueuePlan


def producer_queue(
    peak_msg_per_s: float,
    reconnect_window_s: float,
    avg_message_bytes: float,
    *,
    partitions: int | None = None,
    max_mean: float = 1.0,
) -> QueuePlan:
    """The pending-message queue that rides out a reconnect at peak, and its memory.

    With ``partitions``, also the queue of each partition's producer (the
    Java client applies ``maxPendingMessages`` per partition), sized for the
    hottest partition at the measured ``max_mean``.
    """
    if peak_msg_per_s < 0 or reconnect_window_s < 0 or avg_message_bytes < 0:
        raise ValueError("rates, windows and sizes must not be negative")
    if max_mean < 1:
        raise ValueError("max/mean is at least 1")
    if partitions is not None and partitions < 1:
        raise ValueError("partitions must be at least 1")
    pending = math.ceil(round(peak_msg_per_s * reconnect_window_s, 9))
    per_partition = (
        None
        if partitions is None
        else math.ceil(round(peak_msg_per_s / partitions * max_mean * reconnect_window_s, 9))
    )
    notes = [
        "The client's memoryLimit caps the payload bytes pending over all its producers: "
        "it must hold this memory too, or sends block (or fail) before the queue fills.",
        "The reconnect window is how long the producer may be cut off: broker restart or "
        "topic unload, lookup and reconnect with backoff.",
    ]
    if per_partition is not None and partitions is not None and partitions > 1:
        notes.append(
            f"Across {partitions} partition producers the queues hold up to "
            f"{per_partition * partitions:,} messages if every partition ran as hot as the hottest."
        )
    return QueuePlan(
        peak_msg_per_s=float(peak_msg_per_s),
        reconnect_window_s=float(reconnect_window_s),
        avg_message_bytes=float(avg_message_bytes),
        pending_messages=pending,
        memory_bytes=float(pending) * float(avg_message_bytes),
        partitions=partitions,
        max_mean=float(max_mean),
        per_partition_pending=per_partition,
        notes=notes,
    )
