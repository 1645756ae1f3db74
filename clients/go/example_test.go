package javarouter_test

import (
	"context"
	"fmt"
	"log"

	"github.com/apache/pulsar-client-go/pulsar"

	javarouter "pulsar-routing/clients/go"
)

// A Go producer whose messages land where the Java producers' do.
func Example() {
	client, err := pulsar.NewClient(pulsar.ClientOptions{URL: "pulsar://localhost:6650"})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// Options{} is Java's default producer: JavaStringHash, round robin,
	// batching on. One Router per producer, like Java's.
	router, err := javarouter.New(javarouter.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer router.Close()
	producer, err := client.CreateProducer(pulsar.ProducerOptions{
		Topic:         "persistent://public/default/orders",
		MessageRouter: router.Route,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer producer.Close()

	// Where Java's producer.newMessage().key("é").send() goes.
	_, err = producer.Send(context.Background(), &pulsar.ProducerMessage{Key: "é", Payload: []byte("paid")})
	if err != nil {
		log.Fatal(err)
	}
}

type twelve struct{}

func (twelve) NumPartitions() uint32 { return 12 }

// Java hashes the one UTF-16 unit of "é" (233 % 12 = 5); pulsar-client-go's
// own router hashes its two UTF-8 bytes and would pick partition 10.
func ExampleRouter_Route() {
	router, err := javarouter.New(javarouter.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer router.Close()
	fmt.Println(router.Route(&pulsar.ProducerMessage{Key: "é"}, twelve{}))
	// Bytes that are not UTF-8 are hashed as Java decodes them: U+FFFD.
	fmt.Println(router.Route(&pulsar.ProducerMessage{Key: "\xff"}, twelve{}),
		router.Route(&pulsar.ProducerMessage{Key: "\ufffd"}, twelve{}))
	// Output:
	// 5
	// 1 1
}

// A given start index makes keyless routing reproducible: without batching
// Java counts from it, one partition per keyless message.
func ExampleOptions() {
	start := int32(3)
	router, err := javarouter.New(javarouter.Options{
		HashingScheme:   pulsar.Murmur3_32Hash,
		StartIndex:      &start,
		DisableBatching: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer router.Close()
	for i := 0; i < 4; i++ {
		fmt.Print(router.Route(&pulsar.ProducerMessage{}, twelve{}), " ")
	}
	fmt.Println()
	// Output: 3 4 5 6
}
