package pulsarrouting_test

import (
	"fmt"

	pulsarrouting "pulsar-routing/go"
)

// Where the Java client sends key("user-42") on a topic with 12
// partitions, and what pulsar-client-go itself would do.
func Example() {
	p, err := pulsarrouting.PartitionForKey("user-42", 12, pulsarrouting.SchemeJavaString)
	if err != nil {
		panic(err)
	}
	fmt.Println("Java:", p)

	router, err := pulsarrouting.NewRoundRobinRouter(pulsarrouting.SchemeMurmur3_32, 0, true, 10)
	if err != nil {
		panic(err)
	}
	defer router.Close()
	m, _ := router.ChoosePartition(pulsarrouting.StringKey("user-42"), 12, 0)
	fmt.Println("Java, Murmur3_32Hash:", m)

	// pulsar-client-go hashes the UTF-8 bytes (0xc3 0xa9) and does not
	// mask: 31*0xc3 + 0xa9 = 6214, and 6214 % 12 = 10, where Java hashes
	// the one UTF-16 unit 0xe9 = 233, and 233 % 12 = 5.
	java, _ := pulsarrouting.PartitionForKey("é", 12, pulsarrouting.SchemeJavaString)
	goClient, _, _ := pulsarrouting.ClientPartition(pulsarrouting.ClientGo,
		pulsarrouting.ClientSchemeJavaString, pulsarrouting.StringKey("é"), 12)
	fmt.Println("é: Java", java, "pulsar-client-go", goClient)

	_, err = pulsarrouting.PartitionForKey("k", 0, pulsarrouting.SchemeJavaString)
	fmt.Println(err)

	topic, _ := pulsarrouting.ParseTopicName("my-topic", pulsarrouting.RulesPulsar42)
	bundle, _ := pulsarrouting.BundleForTopic(4, topic.String(), pulsarrouting.RulesPulsar42)
	fmt.Println(topic, "is in bundle", bundle)
	// Output:
	// Java: 4
	// Java, Murmur3_32Hash: 0
	// é: Java 5 pulsar-client-go 10
	// pulsar_routing: number of partitions must be at least 1, got 0
	// persistent://public/default/my-topic is in bundle 0x00000000_0x40000000
}

// A Key_Shared subscription with the broker's AutoSplit selector: the
// second consumer takes the lower half of the first one's range, and the
// impact says which slots moved (in the broker, the first consumer's lost
// slots become draining hashes). The values are the broker's own
// (testdata/golden/keyshared_autosplit.jsonl.gz).
func ExampleNewAutoSplitSelector() {
	s, err := pulsarrouting.NewAutoSplitSelector(pulsarrouting.DefaultRangeSize)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	impact, _ := s.Add(1, "c1")
	fmt.Println("add 1: added", impact.Added)
	impact, _ = s.Add(2, "c2")
	fmt.Println("add 2: removed", impact.Removed, "added", impact.Added)
	assignments, _ := s.Assignments()
	fmt.Println(assignments)
	// Output:
	// add 1: added [{0 65536 1}]
	// add 2: removed [{0 32768 1}] added [{0 32768 2}]
	// [{0 32768 2} {32769 65536 1}]
}
