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
    "BundleError::MissingLowerBound": AIOOBE,
    "BundleError::InvalidBound": NFE,
    "BundleError::NoBundleForHash": IOOBE,
    # The default layout's count is checked by the admin layer.
    "BundleError::NoBundles": "org.apache.pulsar.common.util.RestException",
    # splitBundles(target, 0, null) divides the range by 0.
    "BundleError::ZeroSplitParts": ARITH,
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


def _java_says_nothing(ours: str, java: str | None) -> bool:
    # Guava's checkArgument without a message: Java's text is null.
    return java is None


# The namespace the Java program splits in (reference/PROTOCOL.md, `split`).
SPLIT_NAMESPACE = "t/ns"


def _bundle_in_namespace(ours: str, java: str | None) -> bool:
    # Java names a bundle by its toString, `namespace/range`; the core's
    # bundles are ranges, without a namespace.
    if java is None:
        return False
    words = ours.split(" ")
    return any(
        " ".join(words[:i] + [f"{SPLIT_NAMESPACE}/{w}"] + words[i + 1 :]) == java
        for i, w in enumerate(words)
        if w.startswith("0x")
    )


def _jdk_division(ours: str, java: str | None) -> bool:
    # Java divides by the zero and the JDK says "/ by zero"; ours names the
    # argument that was zero instead.
    return java == "/ by zero"


# Kinds whose message is not compared exactly, and why.
MESSAGE_RULES: dict[str, Callable[[str, str | None], bool]] = {
    "BundleError::ZeroSplitParts": _jdk_division,
    "PartitionCountError::Zero": _jdk_division,
    "AssignError::RangeConflict": _consumer_prefix,
    # Java's text is the JDK's "Index N out of bounds for length M" of an
    # internal array; ours says which hash has no bundle.
    "BundleError::NoBundleForHash": _not_compared,
    # The JDK's "Index 1 out of bounds for length 1" of the split text.
    "BundleError::MissingUpperBound": _not_compared,
    "BundleError::MissingLowerBound": _not_compared,
    "BundleError::BoundariesNotSorted": _java_says_nothing,
    # Long.decode's NumberFormatException: the JDK's words about the part
    # it could not read ("For input string: ...", "Zero length string"),
    # not Pulsar's; the class is still compared.
    "BundleError::InvalidBound": _not_compared,
    "BundleError::SplitBoundaryOutsideBundle": _bundle_in_namespace,
    "BundleError::CannotSplitFurther": _bundle_in_namespace,
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
        return f"{kind}: messages differ: ours {message!r}, Java {jmessage!r}"
    return None
