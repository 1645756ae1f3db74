"""Writes the golden rows the C++ wrapper test reads, as tab-separated
text (hex for anything that may hold a tab or a newline), so that the test
needs no JSON or gzip library.

Usage: golden_to_tsv.py GOLDEN_DIR OUT_DIR
"""

import gzip
import json
import os
import sys


def rows(golden, name):
    with gzip.open(os.path.join(golden, name), "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def hexs(text):
    return text.encode("utf-8").hex() or "-"


def main():
    golden, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(out, "hash.tsv"), "w", encoding="ascii") as f:
        for r in rows(golden, "hash.jsonl.gz"):
            java = str(r["java_string_hash"]) if r["utf8_valid"] else "-"
            f.write(
                f"{r['key_hex'] or '-'}\t{r['murmur3_32']}\t{r['murmur3_32_raw'] & 0xFFFFFFFF}"
                f"\t{java}\t{r['crc32_bundle']}\n"
            )
    with open(os.path.join(out, "routing.tsv"), "w", encoding="ascii") as f:
        for r in rows(golden, "routing.jsonl.gz"):
            if r["kind"] == "keyed":
                f.write(
                    f"{r['key_utf8_hex'] or '-'}\t{r['num_partitions']}\t{r['scheme']}"
                    f"\t{r['partition']}\n"
                )
    with open(os.path.join(out, "topics.tsv"), "w", encoding="ascii") as f:
        for r in rows(golden, "topics.jsonl.gz"):
            if r["kind"] != "parse":
                continue
            # 4.2.4 prints rows of both builds, and master rows outside the
            # scalable domains it lacks, again unchanged (golden README).
            domain, sep, _ = r["input"].partition("://")
            scalable = bool(sep) and domain.lower() in ("topic", "segment")
            for impl in ("v4", "master", "4.2"):
                holds = {"both": True, "v4": impl == "v4", "master": impl == "master"
                         or (impl == "4.2" and not scalable)}[r["impl"]]
                if not holds:
                    continue
                if r["ok"]:
                    fields = [
                        "ok",
                        r["to_string"],
                        r["namespace"],
                        r["lookup_name"],
                        str(r["partition_index"]),
                        r.get("partition_3") or "",
                    ]
                else:
                    fields = ["error", r["error_message"], "", "", "", ""]
                f.write("\t".join([impl, hexs(r["input"])] + [hexs(x) for x in fields]) + "\n")
    with open(os.path.join(out, "bundles.tsv"), "w", encoding="ascii") as f:
        for r in rows(golden, "bundles.jsonl.gz"):
            if r["kind"] == "default_bundles":
                names = ",".join(r["names"]) if "names" in r else "error"
                f.write(f"{r['num_bundles']}\t{names}\n")


if __name__ == "__main__":
    main()
