package pulsarrouting

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// parityExempt lists exported C functions this package does not call,
// each with the reason Go cannot or should not. An entry that Go calls
// after all, or that C no longer exports, fails the test too, so the list
// cannot go stale.
//
// None today: pulsar_routing_last_error_message, which reads the calling
// OS thread's last failure, is called only inside the cgo call that
// failed (batch.go), since a goroutine may change threads between calls.
var parityExempt = map[string]string{}

// TestParityWithC fails when a function of ffi-c/symbols.txt (the C ABI)
// is not called from the package's non-test files, directly (C.name) or
// from a cgo preamble. Lines that are comments do not count.
func TestParityWithC(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "ffi-c", "symbols.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var symbols []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			symbols = append(symbols, s)
		}
	}
	if err := sc.Err(); err != nil || len(symbols) == 0 {
		t.Fatalf("ffi-c/symbols.txt: %d symbols, %v", len(symbols), err)
	}

	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`\bpulsar_routing_[a-z0-9_]+\s*\(`)
	called := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(text), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "*") {
				continue
			}
			for _, m := range call.FindAllString(line, -1) {
				called[strings.TrimRight(strings.TrimSuffix(m, "("), " \t")] = true
			}
		}
	}

	exported := map[string]bool{}
	var missing []string
	for _, s := range symbols {
		exported[s] = true
		_, exempt := parityExempt[s]
		switch {
		case called[s] && exempt:
			t.Errorf("%s is exempt but called: remove the exemption", s)
		case !called[s] && !exempt:
			missing = append(missing, s)
		}
	}
	for s := range parityExempt {
		if !exported[s] {
			t.Errorf("%s is exempt but no longer exported: remove the exemption", s)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d of %d exported C functions have no Go API:\n  %s", len(missing), len(symbols),
			strings.Join(missing, "\n  "))
	}
	t.Logf("parity: Go calls %d of %d exported C functions (%d exempt)", len(symbols)-len(missing)-len(parityExempt),
		len(symbols), len(parityExempt))
}
