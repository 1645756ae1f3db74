"""Our error kinds and the Java exception classes they stand for.

Ours answers a failure with `error_kind` (the Rust error type and variant)
and `error_message` (its Display); Java with the thrown class and
`getMessage()`. An error agrees when the kind maps to Java's class here and
the messages agree under the kind's rule (exact, unless MESSAGE_RULES says
otherwise, and every exception to "exact" is listed there with its reason).
"""

from __future__ import annotations

from typing import Callable

IAE = "java.lang.IllegalArgumentException"
ARITH = "java.lang.ArithmeticException"
NFE = "java.lang.NumberFormatException"
IOOBE = "java.lang.IndexOutOfBoundsException"
AIOOBE = "java.lang.ArrayIndexOutOfBoundsException"
ASSIGN = "org.apache.pulsar.broker.service.BrokerServiceException$ConsumerAssignException"

# Kind (or "Type::*" for every variant of a type) -> Java class.
KIND_TO_CLASS: dict[str, str] = {
    "DivisionByZero::DivisionByZero": ARITH,
    # TopicMetadataImpl(0): the router's signSafeMod divides by zero.
    "PartitionCountError::Zero": ARITH,
    "RouteError::IllegalPartitionIndex": IAE,
    "TopicNameError::*": IAE,
    "BundleError::MissingUpperBound": AIOOBE,
    "BundleError::InvalidBound": NFE,
    "BundleError::NoBundleForHash": IOOBE,
    "BundleError::*": IAE,
    "AssignError::*": ASSIGN,
    "ConfigError::*": IAE,
}


def java_class(kind: str) -> str | None:
    if kind in KIND_TO_CLASS:
        return KIND_TO_CLASS[kind]
    return KIND_TO_CLASS.get(kind.split("::", 1)[0] + "::*")


def _exact(ours: str, java: str | None) -> bool:
    return ours == java


def _consumer_prefix(ours: str, java: str | None) -> bool:
    # The broker quotes Consumer.toString(), which names the consumer too;
    # the core knows consumers by id only and ends its text after the id.
    if ours == java:
        return True
    return java is not None and ours.endswith("}") and java.startswith(ours[:-1] + ",")


def _not_compared(ours: str, java: str | None) -> bool:
    return True


# Kinds whose message is not compared exactly, and why.
MESSAGE_RULES: dict[str, Callable[[str, str | None], bool]] = {
    "AssignError::RangeConflict": _consumer_prefix,
    # Java's text is the JDK's "Index N out of bounds for length M" of an
    # internal array; ours says which hash has no bundle.
    "BundleError::NoBundleForHash": _not_compared,
}


def agree(kind: str, message: str, jclass: str | None, jmessage: str | None) -> str | None:
    """None when our error agrees with Java's, else why not."""
    want = java_class(kind)
    if want is None:
        return f"no Java class is mapped for our error kind {kind}"
    if want != jclass:
        return f"our {kind} stands for {want}, Java threw {jclass}"
    rule = MESSAGE_RULES.get(kind, _exact)
    if not rule(message, jmessage):
        return f"messages differ: ours {message!r}, Java {jmessage!r}"
    return None
