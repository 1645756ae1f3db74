#!/usr/bin/env python3
"""Converts the golden vectors into a tab-separated file for ffi-c/tests/golden.c.

C has no gzip or JSON reader at hand, so this script (standard library only)
flattens every Java row of testdata/golden/hash.jsonl.gz, routing.jsonl.gz,
topics.jsonl.gz, bundles.jsonl.gz and the four keyshared_*.jsonl.gz, and
testdata/boost/boost_hash.jsonl.gz, into lines. The cpp_* and go_* fields (what pulsar-client-cpp and
pulsar-client-go printed) go to HP and KP lines, checked through the client
profiles; the other lines are the Java client's and broker's. Byte
strings and all text (topic names, messages, bundle keys) travel as
lower-case UTF-8 hex, so nothing can contain a tab, a comma or a newline.

Line formats (fields separated by one tab; '-' marks an absent value; a
"list" is comma-separated and may be empty; "hex" is UTF-8 as hex):

    H   id key_hex utf8_valid(0|1) murmur3_32 murmur3_32_raw|- java_string_hash
        java_string_hashcode_raw java_decoded_utf16_len java_lossy_utf8_hex|-
        crc32_bundle
    K   scheme num_partitions key_utf8_hex partition
    HP  id key_hex cpp_java_string_hash|- cpp_murmur3_32|-
        cpp_boost_hash_boost1_74_x86_64|- go_java_string_hash|- go_murmur3_32|-
    KP  scheme num_partitions key_utf8_hex cpp_partition go_partition|N
        (N: Go treats the empty key as no key, as go_note says)

  testdata/boost/boost_hash.jsonl.gz (boost::hash<std::string> printed by
  real Boost headers; the sample keeps one row in 25):
    BH  boost_minor char(signed|unsigned) key_hex hash (all 64 bits)
    B   scheme num_partitions key_bytes_hex key_base64 partition
    RB  start_ptn_idx partition_switch_ms_arg clock_ms num_partitions partition
    RS  start_ptn_idx num_partitions p1,p2,...,p12
    S   partition_index_arg num_partitions partition
    M   dividend divisor result|E

  topics.jsonl (a row that holds for several rule sets gives one line per
  set; rules is v4, master or 4.2):
    TP  rules input_hex to_string_hex domain tenant_hex cluster_hex|-
        namespace_portion_hex namespace_hex local_name_hex partition_index
        partitioned_topic_name_hex persistent(0|1) lookup_name_hex
        persistence_naming_hex rest_path_hex encoded_local_name_hex
        partition_3_hex|E (E: getPartition(3) throws)
    TE  rules input_hex error_message_hex
    TI  input_hex partition_index

  bundles.jsonl:
    DB  num_bundles boundaries_list names_list upper_closed_list(0|1)
        (all three '-' for a count Java rejects)
    TB  rules num_bundles topic_hex canonical_hex crc32 bundle bundle_key_hex
        includes(0|1)
    TBE rules num_bundles topic_hex canonical_hex crc32 includes_bundle
        (the broker's lookup throws IndexOutOfBoundsException: crc32 is
        0xffffffff)
    TBP rules topic_hex (the topic name itself is rejected)
    HB  num_bundles hash bundle|E
    PR  input_hex lower upper upper_closed(0|1) bundle_range key_hex
        valid_in_4_bundles(0|1)
    PRE input_hex error_class
    SP  algorithm boundaries_before_list target positions_list|-
        topics_hex_list|- topic_stats|- flow_args_list|-
        split_boundaries_list|- outcome(OK|NS|E) boundaries_after_list|-
        new_bundles_list|-
        (topic_stats: ';'-separated, one per topic, 'n' for null or
        in,out,throughput_in,throughput_out as shortest round-trip floats)
    SE  boundaries_before_list target num_parts boundaries_after_list
        new_bundles_list
    BB  boundaries_list names_list probes_list (probe: hash=bundle or hash=E)
    BBE boundaries_list
    VF  boundaries_hex_list valid(0|1)
    CS  bundle can_split(0|1)

  keyshared_*.jsonl ("triples" are comma-separated consumer:start:end,
  sorted by consumer then start, for per-consumer range maps; "lookups" are
  comma-separated slot:consumer, with consumer 'n' for none; an error is
  error_class and error_hex, '-' '-' without one):
    KH  idx category key_hex murmur3_31 slot_0_65535 slot_1_65535
        slot_1_2147483646 fallback_name_hex|- fallback_sequence_id|-
    KAC range_size ok(0|1) error_hex|-
    KAS id range_size            (starts an AutoSplit scenario)
    KCR name_hex name_index range_max points_list
    KCS id points range_max      (starts a consistent-hashing scenario)
    KAP/KCP (a step of the current AutoSplit / consistent-hashing scenario)
        op consumer name_hex ok(0|1) error_class|- error_hex|-
        assignments_count assignments_sha256 ranges_by_consumer_count
        ranges_by_consumer_triples|- removed_triples added_triples lookups
        name_index|- ring_points_list|-
        (ranges_by_consumer is '-' when the golden step leaves it out;
        the sha256 was checked here against the full assignments when
        the step has them)
    KXC id                       (starts an exclusive case)
    KXS op consumer ranges client_validate_hex|-
        then for the current rules and for the rules before #24730:
        ok(0|1) error_class|- error_hex|- error_match(E|P|-)
        ranges_by_consumer_triples lookups
        (ranges: 'N' for no KeySharedMeta, else comma-separated start:end,
        empty for an empty list; error_match P: the library's message is
        the Java one cut after the consumer id, which Java follows with the
        broker's Consumer.toString())

    END number_of_rows_above

Lines starting with '#' are comments. The END line lets the C program tell
a complete file from a truncated one.

Usage: golden_to_tsv.py OUTPUT.tsv [SAMPLE.tsv]

SAMPLE.tsv, when given, gets the same rows with only one Key_Shared
scenario, case and hash row in 25 (SAMPLE_EVERY): the valgrind run uses it.
"""

import gzip
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[2] / "testdata" / "golden"
BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def rows(name):
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def opt(row, field):
    value = row.get(field)
    return "-" if value is None else str(value)


def hash_line(row):
    return [
        "H",
        str(row["id"]),
        row["key_hex"],
        "1" if row["utf8_valid"] else "0",
        str(row["murmur3_32"]),
        opt(row, "murmur3_32_raw"),
        str(row["java_string_hash"]),
        str(row["java_string_hashcode_raw"]),
        str(row["java_decoded_utf16_len"]),
        opt(row, "java_lossy_utf8_hex"),
        str(row["crc32_bundle"]),
    ]


PROFILE_HASH_FIELDS = ["cpp_java_string_hash", "cpp_murmur3_32",
                       "cpp_boost_hash_boost1_74_x86_64", "go_java_string_hash",
                       "go_murmur3_32"]


def profile_hash_lines(row):
    if not any(field in row for field in PROFILE_HASH_FIELDS):
        return []
    return [["HP", str(row["id"]), row["key_hex"],
             *(opt(row, field) for field in PROFILE_HASH_FIELDS)]]


def boost_lines(sample):
    """One BH line per row of testdata/boost/boost_hash.jsonl.gz."""
    path = GOLDEN.parent / "boost" / "boost_hash.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows_ = [json.loads(line) for line in lines]
    keep = (lambda n: n % SAMPLE_EVERY == 0) if sample else (lambda n: True)
    return [["BH", row["boost"].split(".")[1], row["char"], row["key_hex"], str(row["hash"])]
            for n, row in enumerate(rows_) if keep(n)]


def profile_routing_lines(row):
    if row["kind"] != "keyed" or "cpp_partition" not in row:
        return []
    go = row.get("go_partition")
    if go is None:
        if "empty key" not in row.get("go_note", "") or row["key"] != "":
            raise ValueError(f"a go_partition of null that is not the empty key: {row}")
        go = "N"
    return [["KP", row["scheme"], str(row["num_partitions"]), row["key_utf8_hex"],
             str(row["cpp_partition"]), str(go)]]


def routing_line(row):
    kind = row["kind"]
    if kind == "keyed":
        # The hex is what C reads; check it against the JSON string once.
        key = bytes.fromhex(row["key_utf8_hex"]).decode("utf-8")
        if key != row["key"]:
            raise ValueError(f"key_utf8_hex does not match key: {row}")
        return ["K", row["scheme"], str(row["num_partitions"]), row["key_utf8_hex"],
                str(row["partition"])]
    if kind == "keyed_bytes":
        if not BASE64.fullmatch(row["key"]):
            raise ValueError(f"key is not Base64 text: {row}")
        return ["B", row["scheme"], str(row["num_partitions"]), row["key_bytes_hex"],
                row["key"], str(row["partition"])]
    if kind == "rr_batching":
        return ["RB", str(row["start_ptn_idx"]), str(row["partition_switch_ms_arg"]),
                str(row["clock_ms"]), str(row["num_partitions"]), str(row["partition"])]
    if kind == "rr_sequence":
        if len(row["sequence"]) != 12:
            raise ValueError(f"expected 12 picks: {row}")
        return ["RS", str(row["start_ptn_idx"]), str(row["num_partitions"]),
                ",".join(str(p) for p in row["sequence"])]
    if kind == "single_no_key":
        return ["S", str(row["partition_index_arg"]), str(row["num_partitions"]),
                str(row["partition"])]
    if kind == "sign_safe_mod":
        if "result" in row:
            result = str(row["result"])
        elif row.get("error") == "java.lang.ArithmeticException":
            result = "E"
        else:
            raise ValueError(f"neither result nor ArithmeticException: {row}")
        return ["M", str(row["dividend"]), str(row["divisor"]), result]
    raise ValueError(f"unknown routing kind {kind!r}")


def hexs(text):
    return text.encode("utf-8").hex()


def flag(value):
    if not isinstance(value, bool):
        raise ValueError(f"expected a boolean, got {value!r}")
    return "1" if value else "0"


def join(items):
    return ",".join(str(item) for item in items)


def names_scalable_domain(topic):
    """Whether the name is written with PIP-460's topic:// or segment://."""
    domain, sep, _ = topic.partition("://")
    return bool(sep) and domain.lower() in ("topic", "segment")


def rules_of(row):
    """The rule sets a row holds for: `impl` is both, v4 or master. The 4.2
    rules hold where 4.2.4 prints the row again unchanged (the golden
    README's "Printing them again"): rows of both builds, and master rows
    outside the scalable domains 4.2.4 does not have."""
    impl = row.get("impl") or "both"
    if impl == "both":
        return ["v4", "master", "4.2"]
    name = row["input"] if "input" in row else row["topic"]
    if impl == "master" and not names_scalable_domain(name):
        return ["master", "4.2"]
    if impl in ("v4", "master"):
        return [impl]
    raise ValueError(f"unknown impl {impl!r}: {row}")


def topic_lines(row):
    kind = row["kind"]
    if kind == "get_partition_index":
        return [["TI", hexs(row["input"]), str(row["partition_index"])]]
    if kind != "parse":
        raise ValueError(f"unknown topics kind {kind!r}")
    lines = []
    for rules in rules_of(row):
        if not row["ok"]:
            if row["error_class"] != "java.lang.IllegalArgumentException":
                raise ValueError(f"unexpected error class: {row}")
            lines.append(["TE", rules, hexs(row["input"]), hexs(row["error_message"])])
            continue
        if "partition_3" in row:
            partition_3 = hexs(row["partition_3"])
        elif row.get("partition_3_error") == "java.lang.IllegalArgumentException":
            partition_3 = "E"
        else:
            raise ValueError(f"neither partition_3 nor its error: {row}")
        cluster = row.get("cluster")
        lines.append([
            "TP", rules, hexs(row["input"]), hexs(row["to_string"]), row["domain"],
            hexs(row["tenant"]), "-" if cluster is None else hexs(cluster),
            hexs(row["namespace_portion"]), hexs(row["namespace"]), hexs(row["local_name"]),
            str(row["partition_index"]), hexs(row["partitioned_topic_name"]),
            flag(row["persistent"]), hexs(row["lookup_name"]), hexs(row["persistence_naming"]),
            hexs(row["rest_path"]), hexs(row["encoded_local_name"]), partition_3,
        ])
    return lines


def float_text(value):
    # repr is the shortest text that strtod reads back as the same double.
    return repr(float(value))


def split_line(row):
    stats = row.get("topic_stats")
    if stats is not None:
        stats = ";".join("n" if s is None else ",".join(float_text(x) for x in s)
                         for s in stats)
    else:
        stats = "-"
    chosen = row.get("split_boundaries")
    if "error" in row:
        if row["error"] != "java.lang.IllegalArgumentException":
            raise ValueError(f"unexpected split error: {row}")
        outcome, after, new = "E", "-", "-"
    elif row.get("result") == "no_split":
        outcome, after, new = "NS", "-", "-"
    else:
        outcome, after, new = "OK", join(row["boundaries_after"]), join(row["new_bundles"])
    return [
        "SP", row["algorithm"], join(row["boundaries_before"]), row["target_bundle"],
        "-" if "positions" not in row else join(row["positions"]),
        "-" if "topics" not in row else join(hexs(t) for t in row["topics"]),
        stats,
        "-" if "flow_args" not in row else join(row["flow_args"]),
        "-" if chosen is None else join(chosen),
        outcome, after, new,
    ]


def bundle_lines(row):
    kind = row["kind"]
    if kind == "default_bundles":
        if "error" in row:
            return [["DB", str(row["num_bundles"]), "-", "-", "-"]]
        return [["DB", str(row["num_bundles"]), join(row["boundaries"]), join(row["names"]),
                 join(flag(c) for c in row["upper_closed"])]]
    if kind == "topic_bundle":
        lines = []
        for rules in rules_of(row):
            if "canonical" not in row:
                lines.append(["TBP", rules, hexs(row["topic"])])
            elif "error" in row:
                if row["error"] != "java.lang.IndexOutOfBoundsException":
                    raise ValueError(f"unexpected lookup error: {row}")
                lines.append(["TBE", rules, str(row["num_bundles"]), hexs(row["topic"]),
                              hexs(row["canonical"]), str(row["crc32"]),
                              row["includes_bundle"]])
            else:
                lines.append(["TB", rules, str(row["num_bundles"]), hexs(row["topic"]),
                              hexs(row["canonical"]), str(row["crc32"]), row["bundle"],
                              hexs(row["bundle_key"]), flag(row["includes"])])
        return lines
    if kind == "hash_bundle":
        if "error" in row and row["error"] != "java.lang.IndexOutOfBoundsException":
            raise ValueError(f"unexpected lookup error: {row}")
        return [["HB", str(row["num_bundles"]), str(row["hash"]),
                 "E" if "error" in row else row["bundle"]]]
    if kind == "parse_bundle_range":
        if "error" in row:
            return [["PRE", hexs(row["input"]), row["error"]]]
        return [["PR", hexs(row["input"]), str(row["lower"]), str(row["upper"]),
                 flag(row["upper_closed"]), row["bundle_range"], hexs(row["key"]),
                 flag(row["valid_in_4_bundles"])]]
    if kind == "split":
        return [split_line(row)]
    if kind == "split_equal_parts":
        return [["SE", join(row["boundaries_before"]), row["target_bundle"],
                 str(row["num_parts"]), join(row["boundaries_after"]),
                 join(row["new_bundles"])]]
    if kind == "bundles_from_boundaries":
        if "error" in row:
            return [["BBE", join(row["boundaries"])]]
        probes = []
        for hash_, bundle in zip(row["probe_hashes"], row["probe_bundles"], strict=True):
            if bundle.startswith("error:"):
                if bundle != "error:java.lang.IndexOutOfBoundsException":
                    raise ValueError(f"unexpected probe error: {row}")
                bundle = "E"
            probes.append(f"{hash_}={bundle}")
        return [["BB", join(row["boundaries"]), join(row["names"]), join(probes)]]
    if kind == "validate_full_range":
        return [["VF", join(hexs(b) for b in row["boundaries"]), flag(row["valid"])]]
    if kind == "can_split":
        return [["CS", row["bundle"], flag(row["can_split"])]]
    raise ValueError(f"unknown bundles kind {kind!r}")


def triples(ranges):
    """A per-consumer map of ranges as sorted consumer:start:end triples."""
    items = sorted((int(c), r[0], r[1]) for c, rs in ranges.items() for r in rs)
    return ",".join(f"{c}:{a}:{b}" for c, a, b in items)


def lookups(pairs):
    return ",".join(f"{slot}:{'n' if c is None else c}" for slot, c in pairs)


def sha256_of(assignments):
    text = "".join(f"{a},{b},{c}\n" for a, b, c in assignments)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def error_fields(result):
    if result["ok"]:
        return ["-", "-"]
    return [result["error_class"], hexs(result["error"])]


def keyshared_hash_line(row):
    fallback_name, fallback_seq = "-", "-"
    if row["category"] == "fallback_producer_seq":
        name, seq = row["key_utf8"].rsplit("-", 1)
        if int(seq) < 0 or f"{name}-{int(seq)}" != row["key_utf8"]:
            raise ValueError(f"unexpected fallback key: {row}")
        fallback_name, fallback_seq = hexs(name), seq
    if row["category"] == "none_key" and row["key_hex"] != b"NONE_KEY".hex():
        raise ValueError(f"none_key row that is not NONE_KEY: {row}")
    return ["KH", str(row["idx"]), row["category"], row["key_hex"],
            str(row["pulsar_murmur3_31"]), str(row["hash_range_0_65535"]),
            str(row["hash_range_1_65535"]), str(row["hash_range_1_2147483646"]),
            fallback_name, fallback_seq]


def scenario_step_line(tag, step):
    if "assignments" in step:
        if sha256_of(step["assignments"]) != step["assignments_sha256"]:
            raise ValueError(f"assignments_sha256 disagrees with assignments: {step}")
        if len(step["assignments"]) != step["assignments_count"]:
            raise ValueError(f"assignments_count disagrees with assignments: {step}")
    rbc = step.get("ranges_by_consumer")
    index = step.get("name_index")
    points = step.get("ring_points")
    return [tag, step["op"], str(step["consumer_id"]), hexs(step["name"]),
            flag(step["ok"]), *error_fields(step), str(step["assignments_count"]),
            step["assignments_sha256"], str(step["ranges_by_consumer_count"]),
            "-" if rbc is None else triples(rbc), triples(step["removed"]),
            triples(step["added"]), lookups(step["lookups"]),
            "-" if index is None else str(index),
            "-" if points is None else join(points)]


CONFLICT = re.compile(r"(Range conflict with consumer Consumer\{consumerId=\d+),")


def exclusive_result_fields(result):
    fields = [flag(result["ok"]), *error_fields(result)]
    if result["ok"]:
        fields.append("-")
    else:
        match = CONFLICT.match(result["error"])
        if match:
            fields[2] = hexs(match.group(1))
            fields.append("P")
        else:
            fields.append("E")
    return fields + [triples(result["ranges_by_consumer"]), lookups(result["lookups"])]


def exclusive_step_line(step):
    if "ranges" not in step or step["ranges"] is None:
        ranges = "N"
    else:
        ranges = ",".join(f"{a}:{b}" for a, b in step["ranges"])
    validate = step.get("client_validate")
    if validate is None or validate.startswith("n/a") or step.get("ranges") is None:
        validate = "-"
    else:
        validate = hexs(validate)
    if step["broker"]["lookups"] != step["broker_pre_24730"]["lookups"] and [
            p[0] for p in step["broker"]["lookups"]] != [
            p[0] for p in step["broker_pre_24730"]["lookups"]]:
        raise ValueError(f"different lookup slots: {step}")
    return ["KXS", step["op"], str(step["consumer_id"]), ranges, validate,
            *exclusive_result_fields(step["broker"]),
            *exclusive_result_fields(step["broker_pre_24730"])]


# The valgrind run replays one Key_Shared scenario, case and hash row in
# this many: the selectors run unoptimised there, and slowly.
SAMPLE_EVERY = 25


def keyshared_lines(sample):
    """The Key_Shared rows; with `sample`, one hash row, scenario and case
    in SAMPLE_EVERY (and every constructor and ring-points row)."""
    keep = (lambda n: n % SAMPLE_EVERY == 0) if sample else (lambda n: True)
    lines = []
    hash_rows = [row for row in rows("keyshared_hash") if row["type"] == "key"]
    lines += [keyshared_hash_line(row) for n, row in enumerate(hash_rows) if keep(n)]
    scenarios = 0
    for row in rows("keyshared_autosplit"):
        if row["type"] == "constructor":
            lines.append(["KAC", str(row["range_size"]), flag(row["ok"]),
                          hexs(row["error"]) if not row["ok"] else "-"])
        elif row["type"] == "scenario":
            if keep(scenarios):
                lines.append(["KAS", row["id"], str(row["range_size"])])
                lines += [scenario_step_line("KAP", step) for step in row["steps"]]
            scenarios += 1
    scenarios = 0
    for row in rows("keyshared_consistent"):
        if row["type"] == "ring_points":
            if bytes.fromhex(row["name_utf8_hex"]).decode("utf-8") != row["name"]:
                raise ValueError(f"name_utf8_hex does not match name: {row}")
            lines.append(["KCR", row["name_utf8_hex"], str(row["name_index"]),
                          str(row["range_max"]), join(row["points"])])
        elif row["type"] == "scenario":
            if row["range_min"] != 1:
                raise ValueError(f"range_min is not 1: {row}")
            if keep(scenarios):
                lines.append(["KCS", row["id"], str(row["points"]), str(row["range_max"])])
                lines += [scenario_step_line("KCP", step) for step in row["steps"]]
            scenarios += 1
    cases = 0
    for row in rows("keyshared_exclusive"):
        if row["type"] == "case":
            if keep(cases):
                lines.append(["KXC", row["id"]])
                lines += [exclusive_step_line(step) for step in row["steps"]]
            cases += 1
    return lines


def write_tsv(path, lines):
    with open(path, "w", encoding="ascii", newline="\n") as out:
        out.write("# Generated by ffi-c/tests/golden_to_tsv.py from testdata/golden; "
                  "format in that script.\n")
        for line in lines:
            out.write("\t".join(line) + "\n")
        out.write(f"END\t{len(lines)}\n")


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: golden_to_tsv.py OUTPUT.tsv [SAMPLE.tsv]", file=sys.stderr)
        return 2
    lines = [hash_line(row) for row in rows("hash")]
    lines += [line for row in rows("hash") for line in profile_hash_lines(row)]
    lines += [routing_line(row) for row in rows("routing")]
    lines += [line for row in rows("routing") for line in profile_routing_lines(row)]
    lines += [line for row in rows("topics") for line in topic_lines(row)]
    lines += [line for row in rows("bundles") for line in bundle_lines(row)]
    outputs = [(argv[1], lines + keyshared_lines(sample=False) + boost_lines(sample=False))]
    if len(argv) == 3:
        outputs.append((argv[2], lines + keyshared_lines(sample=True) + boost_lines(sample=True)))
    for path, all_lines in outputs:
        write_tsv(path, all_lines)
        counts = Counter(line[0] for line in all_lines)
        summary = " ".join(f"{tag}={n}" for tag, n in sorted(counts.items()))
        print(f"golden_to_tsv: {len(all_lines)} rows ({summary})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
