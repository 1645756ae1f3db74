#!/usr/bin/env bash
# The Java reference harness over the real Pulsar 4.2.4 classes
# (reference/java/, protocol in reference/PROTOCOL.md).
#
#   scripts/reference-java.sh                 serve the protocol on stdin/stdout
#   scripts/reference-java.sh --build         only (re)build the harness
#   scripts/reference-java.sh --golden OUTDIR print testdata/golden/*.jsonl again into OUTDIR
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
exec java -XX:+UseSerialGC -Xshare:auto \
    -Dfile.encoding=UTF-8 -Dlog4j2.configurationFile=log4j2.xml \
    -cp "$jar:$(cat "$classpath")" org.pulsarrouting.reference.Harness "$@"
