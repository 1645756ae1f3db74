// Package pulsarrouting computes Apache Pulsar's partition routing byte for
// byte as the Java client does (JavaStringHash, Murmur3_32Hash, the
// round-robin and single-partition routers), the routing of the other
// clients (Go, C++, Python, ...), the broker's topic names and namespace
// bundles, and its consistent-hashing Key_Shared selector. It also drives
// a topic lookup as the Java (or Go) client does, without doing any I/O:
// TopicLookup follows redirects, retries and deadlines from the broker
// answers and times it is fed; Coalescer, MetadataCoalescer and
// LookupThrottle are the client's in-flight tables and per-connection
// limits. It wraps the C library libpulsar_routing with cgo.
//
// Keys are string (the Java client's key(String)) or []byte
// (keyBytes(byte[])); failures are error values of type *Error, whose
// Status says which check failed (errors.Is works with the Err* values).
// No C type appears in the API.
//
// Memory: routers, Key_Shared selectors and the lookup types hold a C
// handle. Call Close
// when done; a finalizer frees one that was not closed, but only when the
// garbage collector runs, so Close is the way to release it promptly.
// Everything else (hashes, topic names, bundles) is plain Go values and
// holds no C memory.
//
// Thread safety: every function and method may be called from any number
// of goroutines at once (a round-robin router's keyless counter is atomic;
// a selector's Add and Remove wait for its readers; the lookup types lock
// in C), Close included: a call after Close returns an error.
//
// Building: the package finds the C library with pkg-config. Install it
// with scripts/install.sh PREFIX, then
//
//	PKG_CONFIG_PATH=PREFIX/lib/pkgconfig CGO_LDFLAGS="-Wl,-rpath,PREFIX/lib" go build
//
// scripts/test-go.sh does this with a temporary prefix and runs go vet, the
// tests and (BENCH=1) the benchmarks.
package pulsarrouting
