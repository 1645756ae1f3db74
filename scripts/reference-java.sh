#!/usr/bin/env bash
# The Java reference harness over the real Pulsar 4.2.4 classes
# (reference/java/, protocol in reference/PROTOCOL.md).
#
#   scripts/reference-java.sh                 serve the protocol on stdin/stdout
#   scripts/reference-java.sh --build         only (re)build the harness
#   scripts/reference-java.sh --golden OUTDIR print testdata/golden/*.jsonl again into OUTDIR
#   scripts/reference-java.sh --self-check    send reference/java/selfcheck.jsonl's requests
#                                             and compare with its expected answers (golden rows)
#
# The jar is rebuilt when it is missing or older than any source or the pom.
# The build runs offline when ~/.m2 already holds every artifact, online
# otherwise (Maven Central only).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
project="$root/reference/java"
jar="$project/target/harness.jar"
classpath="$project/target/classpath.txt"

needs_build() {
    [[ ! -f "$jar" || ! -f "$classpath" ]] && return 0
    [[ -n "$(find "$project/pom.xml" "$project/src" -newer "$jar" -print -quit)" ]]
}

build() {
    # Maven's own output would mix with the protocol on stdout.
    if ! mvn -q -o -B -f "$project/pom.xml" package >&2; then
        echo "reference-java: offline build failed, trying online" >&2
        mvn -q -B -f "$project/pom.xml" package >&2
    fi
}

if needs_build; then
    build
fi

case "${1:-}" in
    --build)
        exit 0
        ;;
    --self-check)
        "$0" < <(python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.dumps(json.loads(l)["request"]))' "$project/selfcheck.jsonl") \
            | python3 -c '
import json, sys
cases = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
answers = [json.loads(l) for l in sys.stdin]
def fits(want, got):
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and fits(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and want and isinstance(want[0], dict):
        return isinstance(got, list) and len(got) == len(want) and all(map(fits, want, got))
    return want == got
bad = 0
for case, got in zip(cases, answers):
    want = dict(case["expect"])
    want.setdefault("ok", True)
    if not fits(want, got):
        bad += 1
        print("MISMATCH", case["from"], "\n  want", json.dumps(want)[:300], "\n  got ", json.dumps(got)[:300])
if len(answers) != len(cases):
    bad += 1
    print(f"{len(answers)} answers to {len(cases)} requests")
print(f"self-check: {len(cases) - bad}/{len(cases)} answers agree with the golden rows")
sys.exit(1 if bad else 0)' "$project/selfcheck.jsonl"
        exit
        ;;
    --golden)
        if [[ $# -ne 2 ]]; then
            echo "usage: $0 --golden OUTDIR" >&2
            exit 2
        fi
        mkdir -p "$2"
        set -- --golden "$root/testdata/golden" "$2"
        ;;
esac

# Serial GC and the CDS archive keep start-up short; the broker classes'
# logging is configured by the log4j2.xml in the jar (stderr, errors only).
# Without -OmitStackTraceInFastThrow the JIT replaces an exception thrown
# often (a division by zero, an index out of bounds) with one that has no
# message, and error_message would turn null after a few thousand requests.
exec java -XX:+UseSerialGC -Xshare:auto -XX:-OmitStackTraceInFastThrow \
    -Dfile.encoding=UTF-8 -Dlog4j2.configurationFile=log4j2.xml \
    -cp "$jar:$(cat "$classpath")" org.pulsarrouting.reference.Harness "$@"
