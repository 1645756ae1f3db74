package pulsarrouting.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.TypedMessageBuilder;
import org.apache.pulsar.client.impl.PartitionedProducerImpl;

/**
 * Sends a plan of messages through the real Java client so that a test broker
 * can record where its default router put each one.
 *
 * <p>The plan is a tab-separated file, one instruction a line:
 *
 * <pre>
 * service  pulsar://127.0.0.1:PORT
 * run      NAME  TOPIC  PARTITIONS  java_string|murmur3_32  batching(0|1)
 * key      ID    UTF16HEX     key(String), 4 hex digits per UTF-16 unit
 * bytes    ID    HEX          keyBytes(byte[])
 * none     ID                 no key
 * pause    MICROS             spread keyless messages over time slots
 * </pre>
 *
 * <p>The payload of each message is its ID, so the broker's record can be
 * joined to this program's output, a JSON object a line on stdout. Keys are
 * given as UTF-16 units because a lone surrogate cannot survive any UTF-8
 * step between the test and {@code String.hashCode}.
 */
public final class WireProducer {
    private WireProducer() {}

    private record Run(String name, String topic, int partitions, String scheme, boolean batching) {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: WireProducer PLAN");
            System.exit(2);
        }
        List<String[]> plan = readPlan(Path.of(args[0]));
        String service = null;
        for (String[] line : plan) {
            if (line[0].equals("service")) {
                service = line[1];
            }
        }
        if (service == null) {
            throw new IllegalArgumentException("plan has no service line");
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (PulsarClient client = PulsarClient.builder().serviceUrl(service).build()) {
            Run run = null;
            List<String[]> body = new ArrayList<>();
            for (String[] line : plan) {
                switch (line[0]) {
                    case "service" -> { }
                    case "run" -> {
                        if (run != null) {
                            send(client, run, body, out);
                        }
                        run = new Run(line[1], line[2], Integer.parseInt(line[3]), line[4], line[5].equals("1"));
                        body = new ArrayList<>();
                    }
                    case "key", "bytes", "none", "pause" -> {
                        if (run == null) {
                            throw new IllegalArgumentException("message before any run line");
                        }
                        body.add(line);
                    }
                    default -> throw new IllegalArgumentException("unknown plan line: " + line[0]);
                }
            }
            if (run != null) {
                send(client, run, body, out);
            }
        }
        out.flush();
    }

    private static List<String[]> readPlan(Path path) throws IOException {
        List<String[]> lines = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty()) {
                    // -1 keeps a trailing empty field: the empty key.
                    lines.add(line.split("\t", -1));
                }
            }
        }
        return lines;
    }

    private static void send(PulsarClient client, Run run, List<String[]> body, PrintStream out)
            throws Exception {
        ProducerBuilder<byte[]> builder = client.newProducer().topic(run.topic()).enableBatching(run.batching());
        // The routing mode stays unset: the default router is what is under test.
        // Only Murmur3 is set, so the default JavaStringHash is the client's own.
        switch (run.scheme()) {
            case "java_string" -> { }
            case "murmur3_32" -> builder.hashingScheme(HashingScheme.Murmur3_32Hash);
            default -> throw new IllegalArgumentException("unknown scheme " + run.scheme());
        }
        try (Producer<byte[]> producer = builder.create()) {
            int seen = producer instanceof PartitionedProducerImpl<?> p ? p.getNumOfPartitions() : 0;
            if (seen != run.partitions()) {
                throw new IllegalStateException(
                        run.topic() + ": client sees " + seen + " partitions, plan says " + run.partitions());
            }
            out.printf("{\"event\":\"run\",\"run\":\"%s\",\"topic\":\"%s\",\"partitions\":%d,"
                    + "\"scheme\":\"%s\",\"batching\":%b}%n",
                    run.name(), run.topic(), seen, run.scheme(), run.batching());
            List<CompletableFuture<MessageId>> pending = new ArrayList<>(body.size());
            List<String> sent = new ArrayList<>(body.size());
            for (String[] line : body) {
                if (line[0].equals("pause")) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(line[1])));
                    continue;
                }
                String id = line[1];
                TypedMessageBuilder<byte[]> message = producer.newMessage().value(id.getBytes(StandardCharsets.UTF_8));
                switch (line[0]) {
                    case "key" -> message.key(utf16(line[2]));
                    case "bytes" -> message.keyBytes(hex(line[2]));
                    default -> { }
                }
                // The router reads the clock inside sendAsync, so these two
                // readings bound the instant it used.
                long before = System.currentTimeMillis();
                pending.add(message.sendAsync());
                long after = System.currentTimeMillis();
                sent.add("{\"event\":\"sent\",\"run\":\"" + run.name() + "\",\"id\":\"" + id
                        + "\",\"kind\":\"" + line[0] + "\",\"t0_ms\":" + before + ",\"t1_ms\":" + after + "}");
            }
            producer.flush();
            for (CompletableFuture<MessageId> f : pending) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (String s : sent) {
                out.println(s);
            }
            out.printf("{\"event\":\"acked\",\"run\":\"%s\",\"count\":%d}%n", run.name(), pending.size());
        }
    }

    private static String utf16(String hex) {
        if (hex.length() % 4 != 0) {
            throw new IllegalArgumentException("UTF-16 hex must have 4 digits a unit: " + hex);
        }
        char[] units = new char[hex.length() / 4];
        for (int i = 0; i < units.length; i++) {
            units[i] = (char) Integer.parseInt(hex.substring(4 * i, 4 * i + 4), 16);
        }
        return new String(units);
    }

    private static byte[] hex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
