"""Whether two answers to one request agree."""

from __future__ import annotations

from typing import Any

from . import errors

_META = ("id", "ok")


def _fields(a: dict) -> dict:
    return {k: v for k, v in a.items() if k not in _META}


def _error_vs_java(ours: dict, java: dict) -> str | None:
    if ours.get("error_class") == "protocol" or java.get("error_class") == "protocol":
        return f"protocol error: ours {ours.get('error_message')!r}, Java {java.get('error_message')!r}"
    kind = ours.get("error_kind")
    if kind is None:
        return "our error has no error_kind"
    jclass = java.get("error_class")
    if jclass is None and java.get("error_kind"):
        # --java-cmd pointed at one of our answerers, to test the driver.
        jclass = errors.java_class(java["error_kind"])
    return errors.agree(kind, ours.get("error_message"), jclass, java.get("error_message"))


def _value_vs_java(key: str, ours: Any, java: Any) -> str | None:
    if key == "partition_3_error" and isinstance(ours, dict) and isinstance(java, dict):
        return _error_vs_java(ours, java)
    if key == "steps" and isinstance(ours, list) and isinstance(java, list):
        if len(ours) != len(java):
            return f"{len(ours)} steps answered, Java {len(java)}"
        for i, (o, j) in enumerate(zip(ours, java)):
            if o.get("ok") is False and j.get("ok") is False:
                why = _error_vs_java(o, j)
            elif o.get("ok") is False or j.get("ok") is False:
                why = f"ours {o}, Java {j}"
            else:
                why = None if o == j else f"ours {o}, Java {j}"
            if why:
                return f"step {i}: {why}"
        return None
    return None if ours == java else f"ours {ours!r}, Java {java!r}"


def vs_java(ours: dict, java: dict) -> str | None:
    """None when our answer agrees with Java's, else why not."""
    if ours.get("ok") and java.get("ok"):
        o, j = _fields(ours), _fields(java)
        for key in sorted(set(o) | set(j)):
            if key not in o or key not in j:
                return f"field {key} only in {'ours' if key in o else 'Java'}"
            why = _value_vs_java(key, o[key], j[key])
            if why:
                return f"{key}: {why}"
        return None
    if not ours.get("ok") and not java.get("ok"):
        return _error_vs_java(ours, java)
    if ours.get("ok"):
        return f"ours answered {_fields(ours)}, Java threw {java.get('error_class')}: {java.get('error_message')!r}"
    return f"ours failed with {ours.get('error_kind') or ours.get('error_class')}: {ours.get('error_message')!r}, Java answered {_fields(java)}"


def _strip_kinds(v: Any) -> Any:
    # The bindings name their errors their own way (C status codes, Python
    # exception classes); what must match the core is the failure and its
    # text, which is the core's Display in every binding.
    if isinstance(v, dict):
        return {k: _strip_kinds(x) for k, x in v.items() if k not in ("error_kind", "error_class")}
    if isinstance(v, list):
        return [_strip_kinds(x) for x in v]
    return v


def vs_core(other: dict, core: dict) -> str | None:
    """None when a binding's answer is the core's."""
    a, b = _strip_kinds(_fields(other)), _strip_kinds(_fields(core))
    if other.get("ok") != core.get("ok") or a != b:
        return f"binding {other}, core {core}"
    return None
