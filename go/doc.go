// Package pulsarrouting computes Apache Pulsar's partition routing byte for
// byte as the Java client does (JavaStringHash, Murmur3_32Hash, the
// round-robin and single-partition routers), the routing of the other
// clients (Go, C++, Python, ...) and of Kafka's, the broker's topic names,
// namespace bundles and their splits, and its three Key_Shared selectors
// with the impact of each change. It also drives
// a topic lookup as the Java (or Go) client does, without doing any I/O:
// TopicLookup follows redirects, retries and deadlines from the broker
// answers and times it is fed; Coalescer, MetadataCoalescer and
// LookupThrottle are the client's in-flight tables and per-connection
// limits; SenderGate and PendingQueue are the producers' send gates. It
// wraps the C library libpulsar_routing with cgo, all of it: a test fails
// when a function of the C ABI has no Go API.
//
// Keys are string (the Java client's key(String)) or []byte
// (keyBytes(byte[])); failures are error values of type *Error, whose
// Status says which check failed (errors.Is works with the Err* values).
// No C type appears in the API.
//
// Speed: every call crosses into C once, which costs about as much as
// routing a short key in pure Go. Route many keys with PartitionsForKeys
// (one cgo call for the whole slice, about pure Go's speed per key from a
// few dozen keys on) rather than PartitionForKey in a loop.
//
// Memory: routers, partitioners, Key_Shared selectors, bundle layouts,
// sender gates and the lookup types hold C memory. Call Close
// when done; a finalizer frees one that was not closed, but only when the
// garbage collector runs, so Close is the way to release it promptly.
// Everything else (hashes, hashers, topic names, bundle ranges) is plain
// Go values.
//
// Thread safety: every function and every method of a type holding C
// memory may be called from any number of goroutines at once (a
// round-robin router's keyless counter is atomic; a selector's Add and
// Remove wait for its readers; the lookup types lock in C), Close
// included: a call after Close returns an error. The small state values
// (the streaming hashers, Backoff, PendingQueue) belong to one goroutine
// at a time.
//
// Building: the package finds the C library with pkg-config. Install it
// with scripts/install.sh PREFIX, then
//
//	PKG_CONFIG_PATH=PREFIX/lib/pkgconfig CGO_LDFLAGS="-Wl,-rpath,PREFIX/lib" go build
//
// scripts/test-go.sh does this with a temporary prefix and runs go vet, the
// tests and (BENCH=1) the benchmarks.
package pulsarrouting
