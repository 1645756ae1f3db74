#!/usr/bin/env bash
# The real producers on the wire: builds the Java producer (pulsar-client
# 4.2.4, testkit/java) and the Go sender (pulsar-client-go v0.19.0,
# testkit/go), then runs testkit/tests, which start the project's own test
# broker (testkit/pulsar_testkit) on a free 127.0.0.1 port for each sender,
# send keyed, ordering-key and keyless messages through the real clients and
# check the partition the broker recorded for every message against the
# Python package (the core for Java, the `go` profile for Go). It also
# builds the clients with the adapters that make them route like Java
# (Python and C over the pulsar-client wheel's libpulsar, Go, pulsar-rs:
# testkit/adapters/) and checks that each of their messages lands where the
# Java producer's copy did. Exits non-zero on any disagreement, or when a
# sender cannot be built. With --build it only fetches and builds the
# senders (scripts/setup.sh).
#
# Downloads, once: the Maven artifacts into ~/.m2 (Maven Central) and the
# pinned Go module with its dependencies into the Go module cache (the Go
# module proxy); each is printed as it is fetched. Later runs build offline.
# Needs java 17 and mvn, go (GO=..., else /usr/local/go/bin/go or PATH's) and
# the project's venv (scripts/setup.sh; PYTHON=... to use another).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$SECONDS

log() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

python="${PYTHON:-$root/.venv/bin/python}"
if [ -z "${GO:-}" ]; then
    if [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; else GO="$(command -v go || true)"; fi
fi
command -v java >/dev/null 2>&1 || die "java not found"
command -v mvn >/dev/null 2>&1 || die "mvn not found"
[ -n "$GO" ] && [ -x "$GO" ] || die "go not found (set GO=)"
[ -x "$python" ] || die "$python not found; run scripts/setup.sh or set PYTHON="
"$python" -c "import pulsar_routing, pytest" || die "pulsar_routing and pytest must import in $python"

log "Java producer (testkit/java)"
java_dir="$root/testkit/java"
mvn_goals=(compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
if ! (cd "$java_dir" && mvn -q -o -B "${mvn_goals[@]}" >/dev/null 2>&1); then
    # Not everything is in ~/.m2 yet: fetch it, naming each artifact.
    log "fetching Maven artifacts (org.apache.pulsar:pulsar-client:4.2.4, its dependencies and plugins)"
    (cd "$java_dir" && mvn -B "${mvn_goals[@]}") |
        grep -E '^\[INFO\] Downloaded from|ERROR|FAIL' || true
    (cd "$java_dir" && mvn -q -o -B "${mvn_goals[@]}") || die "the Java producer does not build"
fi
java_cp="$java_dir/target/classes:$(cat "$java_dir/target/classpath.txt")"

log "Go sender (testkit/go)"
go_dir="$root/testkit/go"
go_bin="$root/testkit/.build/wire-sender"
# -x prints a "# get" line for each module actually fetched, nothing when cached.
(cd "$go_dir" && GOFLAGS=-mod=readonly "$GO" mod download -x 2>&1 | grep -E '^# get .*: 200|error' || true)
(cd "$go_dir" && GOFLAGS="-mod=readonly -buildvcs=false" "$GO" build -o "$go_bin" .) ||
    die "the Go sender does not build"

log "the adapters' senders: Python and C (testkit/adapters/build-python-c.sh)"
# It prints the paths of what it built (TESTKIT_*=...), which the tests read.
adapter_env="$(testkit/adapters/build-python-c.sh)"
while IFS= read -r line; do
    case $line in
        TESTKIT_*=*) export "${line?}" ;;
        *) printf '%s\n' "$line" ;;
    esac
done <<<"$adapter_env"
log "the adapters' senders: Go and pulsar-rs (testkit/adapters/build-go-rs.sh)"
# Its own checks (gofmt, vet, tests, clippy) run with the wire tests, not at setup.
if [ "${1:-}" = --build ]; then
    SKIP_CHECKS=1 testkit/adapters/build-go-rs.sh
else
    testkit/adapters/build-go-rs.sh
fi

if [ "${1:-}" = --build ]; then
    # scripts/setup.sh: fetch and build now, test later.
    exit 0
fi

log "wire tests (testkit/tests)"
status=0
TESTKIT_REQUIRE_SENDERS=1 TESTKIT_JAVA_CP="$java_cp" TESTKIT_GO_SENDER="$go_bin" \
    "$python" -m pytest -p no:cacheprovider -q --rootdir "$root/testkit" "$root/testkit/tests" || status=$?
log "test-wire.sh took $((SECONDS - start)) s"
exit "$status"
