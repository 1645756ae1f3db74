package org.pulsarrouting.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import org.apache.pulsar.broker.service.ConsistentHashingStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.Consumer;
import org.apache.pulsar.broker.service.HashRangeAssignment;
import org.apache.pulsar.broker.service.ImpactedConsumersResult;
import org.apache.pulsar.broker.service.ImpactedConsumersResult.OperationType;
import org.apache.pulsar.broker.service.StickyKeyConsumerSelector;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.KeySharedPolicy;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.JavaStringHash;
import org.apache.pulsar.client.impl.Murmur3Hash32;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;
import org.apache.pulsar.client.impl.SinglePartitionMessageRouterImpl;
import org.apache.pulsar.client.util.MathUtils;
import org.apache.pulsar.common.naming.NamespaceBundle;
import org.apache.pulsar.common.naming.NamespaceBundleFactory;
import org.apache.pulsar.common.naming.NamespaceBundles;
import org.apache.pulsar.common.naming.NamespaceName;
import org.apache.pulsar.common.naming.TopicName;
import org.apache.pulsar.common.policies.data.BundlesData;
import org.apache.pulsar.common.policies.data.PoliciesUtil;
import org.apache.pulsar.common.policies.data.stats.TopicStatsImpl;
import org.apache.pulsar.common.util.Murmur3_32Hash;

/**
 * Prints testdata/golden/*.jsonl again from the real 4.2.4 classes: each
 * committed row's inputs, every Java-computed field recomputed, everything
 * else (cpp_*, go_*, meta rows, inputs) copied through. Rows keep their order
 * and their keys' order; a field 4.2.4 cannot compute is left out.
 */
final class Golden {
    private static final NamespaceName NS = NamespaceName.get("t/ns");

    private final Ops ops;

    private Golden(Ops ops) {
        this.ops = ops;
    }

    static void run(Ops ops, Path in, Path out) throws Exception {
        Golden g = new Golden(ops);
        Map<String, Function<ObjectNode, ObjectNode>> files = new java.util.LinkedHashMap<>();
        files.put("hash", g::hash);
        files.put("routing", g::routing);
        files.put("topics", g::topics);
        files.put("bundles", g::bundles);
        files.put("keyshared_hash", g::keySharedHash);
        files.put("keyshared_autosplit", r -> g.keySharedScenario(r, false));
        files.put("keyshared_consistent", r -> g.keySharedScenario(r, true));
        files.put("keyshared_exclusive", g::keySharedExclusive);
        for (Map.Entry<String, Function<ObjectNode, ObjectNode>> f : files.entrySet()) {
            Path src = in.resolve(f.getKey() + ".jsonl.gz");
            Path dst = out.resolve(f.getKey() + ".jsonl");
            long rows = 0;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    new GZIPInputStream(Files.newInputStream(src)), StandardCharsets.UTF_8));
                    Writer w = new BufferedWriter(Files.newBufferedWriter(dst, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    ObjectNode row = (ObjectNode) Harness.MAPPER.readTree(line);
                    w.write(Harness.MAPPER.writeValueAsString(f.getValue().apply(row)));
                    w.write('\n');
                    rows++;
                }
            }
            System.err.println("golden: " + dst.getFileName() + ": " + rows + " rows");
        }
    }

    // --- row plumbing -----------------------------------------------------

    /**
     * The row with {@code outputs} (the Java fields of this row's kind)
     * replaced by {@code computed}: recomputed fields keep their place, stale
     * ones go, new ones come last.
     */
    private static ObjectNode merge(ObjectNode row, ObjectNode computed, Set<String> outputs) {
        ObjectNode out = Ops.JSON.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            if (computed.has(k)) {
                out.set(k, computed.get(k));
            } else if (!outputs.contains(k)) {
                out.set(k, e.getValue());
            }
        }
        computed.fields().forEachRemaining(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    private interface Compute {
        void into(ObjectNode out) throws Exception;
    }

    /** Runs {@code c}; an exception becomes {@code error} = its class, as the generator printed it. */
    private static ObjectNode attempt(Compute c) {
        ObjectNode out = Ops.JSON.objectNode();
        try {
            c.into(out);
        } catch (Exception e) {
            out.put("error", Harness.unwrap(e).getClass().getName());
        }
        return out;
    }

    private static String errorClass(Throwable e) {
        return Harness.unwrap(e).getClass().getName();
    }

    // --- hash.jsonl -------------------------------------------------------

    private static final Set<String> HASH_OUT = Set.of("murmur3_32", "murmur3_32_raw", "java_string_hash",
            "java_string_hashcode_raw", "java_decoded_utf16_len", "java_lossy_utf8_hex", "crc32_bundle");

    private ObjectNode hash(ObjectNode row) {
        byte[] key = Codec.bytes(row.get("key_hex").asText());
        ObjectNode c = Ops.JSON.objectNode();
        c.put("murmur3_32", Murmur3Hash32.getInstance().makeHash(key));
        // murmur3_32_raw (Murmur3_32Hash.makeRawHash) does not exist in 4.2.4.
        c.put("java_string_hash", JavaStringHash.getInstance().makeHash(key));
        String decoded = new String(key, StandardCharsets.UTF_8);
        c.put("java_string_hashcode_raw", decoded.hashCode());
        c.put("java_decoded_utf16_len", decoded.length());
        if (!row.get("utf8_valid").asBoolean()) {
            c.put("java_lossy_utf8_hex", Codec.hex(decoded.getBytes(StandardCharsets.UTF_8)));
        }
        c.put("crc32_bundle", row.get("utf8_valid").asBoolean()
                ? ops.broker().factory.getLongHashCode(decoded)
                : Hashing.crc32().hashBytes(key).padToLong());
        return merge(row, c, HASH_OUT);
    }

    // --- routing.jsonl ----------------------------------------------------

    private static final Set<String> ROUTING_OUT = Set.of("partition", "sequence", "result", "error");

    private ObjectNode routing(ObjectNode row) {
        String kind = row.get("kind").asText();
        ObjectNode c = attempt(out -> {
            int n = row.path("num_partitions").asInt();
            switch (kind) {
                case "keyed", "keyed_bytes" -> {
                    HashingScheme scheme = row.get("scheme").asText().equals("java_string")
                            ? HashingScheme.JavaStringHash : HashingScheme.Murmur3_32Hash;
                    Message<?> msg = kind.equals("keyed")
                            ? Ops.message(row.get("key").asText(), null)
                            : Ops.message(null, Codec.bytes(row.get("key_bytes_hex").asText()));
                    if (kind.equals("keyed_bytes")) {
                        out.put("key", msg.getKey());
                    }
                    out.put("partition", new RoundRobinPartitionMessageRouterImpl(scheme, 0, false, 0)
                            .choosePartition(msg, Ops.topicMetadata(n)));
                }
                case "rr_batching" -> out.put("partition", pick(new RoundRobinPartitionMessageRouterImpl(
                        HashingScheme.JavaStringHash, row.get("start_ptn_idx").asInt(), true,
                        row.get("partition_switch_ms_arg").asLong(),
                        Clock.fixed(Instant.ofEpochMilli(row.get("clock_ms").asLong()), ZoneOffset.UTC)), n));
                case "rr_sequence" -> {
                    MessageRouter router = new RoundRobinPartitionMessageRouterImpl(HashingScheme.JavaStringHash,
                            row.get("start_ptn_idx").asInt(), false, 0);
                    ArrayNode seq = out.putArray("sequence");
                    for (int i = 0; i < 12; i++) {
                        seq.add(pick(router, n));
                    }
                }
                case "single_no_key" -> out.put("partition", pick(new SinglePartitionMessageRouterImpl(
                        row.get("partition_index_arg").asInt(), HashingScheme.JavaStringHash), n));
                case "sign_safe_mod" -> out.put("result",
                        MathUtils.signSafeMod(row.get("dividend").asLong(), row.get("divisor").asInt()));
                default -> throw new IllegalStateException("routing kind " + kind);
            }
        });
        return merge(row, c, ROUTING_OUT);
    }

    private static int pick(MessageRouter router, int numPartitions) throws Exception {
        return router.choosePartition(Ops.message((String) null, null), Ops.topicMetadata(numPartitions));
    }

    // --- topics.jsonl -----------------------------------------------------

    private ObjectNode topics(ObjectNode row) {
        String input = row.get("input").asText();
        ObjectNode c = Ops.JSON.objectNode();
        if (row.get("kind").asText().equals("get_partition_index")) {
            c.put("partition_index", TopicName.getPartitionIndex(input));
        } else {
            try {
                TopicName tn = TopicName.get(input);
                c.put("ok", true);
                Ops.topic(tn, c);
            } catch (Exception e) {
                c.put("ok", false);
                c.put("error_class", errorClass(e));
                c.put("error_message", Harness.unwrap(e).getMessage());
            }
        }
        Set<String> outputs = new java.util.HashSet<>();
        row.fieldNames().forEachRemaining(k -> {
            if (!Set.of("kind", "impl", "input").contains(k) && !k.startsWith("go_") && !k.startsWith("cpp_")) {
                outputs.add(k);
            }
        });
        return merge(row, c, outputs);
    }

    // --- bundles.jsonl ----------------------------------------------------

    private static final Set<String> BUNDLES_OUT = Set.of("names", "upper_closed", "error", "canonical", "crc32",
            "bundle", "bundle_key", "includes", "includes_bundle", "split_boundaries", "boundaries_after",
            "new_bundles", "result", "lower", "upper", "bundle_range", "key", "valid_in_4_bundles",
            "probe_bundles", "valid", "can_split");

    private ObjectNode bundles(ObjectNode row) {
        String kind = row.get("kind").asText();
        ObjectNode c = attempt(out -> {
            switch (kind) {
                case "default_bundles" -> {
                    BundlesData data = PoliciesUtil.getBundles(row.get("num_bundles").asInt());
                    ArrayNode b = out.putArray("boundaries");
                    data.getBoundaries().forEach(b::add);
                    List<NamespaceBundle> bundles = ops.broker().bundles(NS, data).getBundles();
                    out.set("names", Ops.bundleNames(bundles));
                    ArrayNode closed = out.putArray("upper_closed");
                    bundles.forEach(x -> closed.add(
                            x.getKeyRange().upperBoundType() == com.google.common.collect.BoundType.CLOSED));
                }
                case "topic_bundle" -> {
                    TopicName tn = TopicName.get(row.get("topic").asText());
                    out.put("canonical", tn.toString());
                    out.put("crc32", ops.broker().factory.getLongHashCode(tn.toString()));
                    Broker.Exposed bundles = ops.layout(tn.getNamespaceObject(),
                            Codec.boundaryLongs(PoliciesUtil.getBundles(row.get("num_bundles").asInt())
                                    .getBoundaries()));
                    NamespaceBundle b;
                    try {
                        b = bundles.findBundle(tn);
                    } catch (IndexOutOfBoundsException e) {
                        out.put("error", e.getClass().getName());
                        for (NamespaceBundle x : bundles.getBundles()) {
                            if (x.includes(tn)) {
                                out.put("includes_bundle", x.getBundleRange());
                            }
                        }
                        return;
                    }
                    out.put("bundle", b.getBundleRange());
                    out.put("bundle_key", b.toString());
                    out.put("includes", b.includes(tn));
                }
                case "hash_bundle" -> out.put("bundle", ops.layout(NS, Codec.boundaryLongs(
                        PoliciesUtil.getBundles(row.get("num_bundles").asInt()).getBoundaries()))
                        .bundleOfHash(row.get("hash").asLong()).getBundleRange());
                case "split" -> split(row, out);
                case "split_equal_parts" -> {
                    NamespaceBundle target = Ops.target(ops.broker().storeLayout(
                            Codec.boundaryLongs(strings(row.get("boundaries_before"))), List.of()),
                            row.get("target_bundle").asText());
                    splitResult(ops.broker().factory.splitBundles(target, row.get("num_parts").asInt(), null).get()
                            .getLeft(), target, out);
                }
                case "parse_bundle_range" -> {
                    NamespaceBundle b = ops.broker().factory.getBundle(NS.toString(), row.get("input").asText());
                    ops.parseBundleRange(row.get("input").asText(), out);
                    out.put("key", b.toString());
                    boolean valid = true;
                    try {
                        ops.broker().bundles(NS, PoliciesUtil.getBundles(4)).validateBundle(b);
                    } catch (IllegalArgumentException e) {
                        valid = false;
                    }
                    out.put("valid_in_4_bundles", valid);
                }
                case "bundles_from_boundaries" -> {
                    List<String> boundaries = strings(row.get("boundaries"));
                    BundlesData data = BundlesData.builder().boundaries(boundaries)
                            .numBundles(boundaries.size() - 1).build();
                    Broker.Exposed bundles = ops.broker().bundles(NS, data);
                    out.set("names", Ops.bundleNames(bundles.getBundles()));
                    ArrayNode probes = out.putArray("probe_bundles");
                    for (JsonNode h : row.get("probe_hashes")) {
                        try {
                            probes.add(bundles.bundleOfHash(h.asLong()).getBundleRange());
                        } catch (Exception e) {
                            probes.add("error:" + errorClass(e));
                        }
                    }
                }
                case "validate_full_range" -> {
                    try {
                        NamespaceBundleFactory.validateFullRange(new TreeSet<>(strings(row.get("boundaries"))));
                        out.put("valid", true);
                    } catch (Exception e) {
                        out.put("valid", false);
                        out.put("error", errorClass(e));
                    }
                }
                case "can_split" -> out.put("can_split", ops.broker().factory.canSplitBundle(
                        ops.broker().factory.getBundle(NS.toString(), row.get("bundle").asText())));
                default -> throw new IllegalStateException("bundles kind " + kind);
            }
        });
        // default_bundles rows name their boundaries as inputs of the layout;
        // they are printed by PoliciesUtil, so they are recomputed too.
        Set<String> outputs = new java.util.HashSet<>(BUNDLES_OUT);
        if (kind.equals("default_bundles")) {
            outputs.add("boundaries");
        } else if (kind.equals("can_split")) {
            outputs.remove("bundle");
        }
        return merge(row, c, outputs);
    }

    private void split(ObjectNode row, ObjectNode out) throws Exception {
        List<Long> positions = null;
        if (row.hasNonNull("positions")) {
            positions = new ArrayList<>();
            for (JsonNode p : row.get("positions")) {
                positions.add(p.asLong());
            }
        }
        List<String> topics = row.hasNonNull("topics") ? strings(row.get("topics")) : List.of();
        Map<String, TopicStatsImpl> stats = new java.util.HashMap<>();
        if (row.hasNonNull("topic_stats")) {
            for (int i = 0; i < topics.size(); i++) {
                JsonNode s = row.get("topic_stats").get(i);
                if (s != null && !s.isNull()) {
                    stats.put(topics.get(i), Ops.topicStats(s));
                }
            }
        }
        int[] flow = null;
        if (row.hasNonNull("flow_args")) {
            flow = new int[row.get("flow_args").size()];
            for (int i = 0; i < flow.length; i++) {
                flow[i] = row.get("flow_args").get(i).asInt();
            }
        }
        String target = row.get("target_bundle").asText();
        Ops.Split s = ops.runSplit(row.get("algorithm").asText(),
                Codec.boundaryLongs(strings(row.get("boundaries_before"))), target, positions, topics, stats, flow);
        if (s.algorithmError != null) {
            out.put("error", errorClass(s.algorithmError));
            return;
        }
        if (s.splitBoundaries == null) {
            out.putNull("split_boundaries");
            out.put("result", "no_split");
            return;
        }
        ArrayNode sb = out.putArray("split_boundaries");
        s.splitBoundaries.forEach(sb::add);
        if (s.splitError != null) {
            out.put("error", errorClass(s.splitError));
            return;
        }
        out.set("new_bundles", Ops.bundleNames(s.result.getRight()));
        ArrayNode after = Ops.JSON.arrayNode();
        s.result.getLeft().getBundlesData().getBoundaries().forEach(after::add);
        out.set("boundaries_after", after);
        // the generator printed boundaries_after before new_bundles
        out.set("new_bundles", out.remove("new_bundles"));
    }

    private static void splitResult(NamespaceBundles after, NamespaceBundle target, ObjectNode out) {
        ArrayNode b = out.putArray("boundaries_after");
        after.getBundlesData().getBoundaries().forEach(b::add);
        List<NamespaceBundle> inside = new ArrayList<>();
        for (NamespaceBundle x : after.getBundles()) {
            if (target.getKeyRange().encloses(x.getKeyRange())) {
                inside.add(x);
            }
        }
        out.set("new_bundles", Ops.bundleNames(inside));
    }

    private static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(v -> out.add(v.asText()));
        return out;
    }

    // --- keyshared_*.jsonl ------------------------------------------------

    private static final Set<String> KS_HASH_OUT = Set.of("murmur3_32_x86_seed0_u32", "pulsar_murmur3_31",
            "hash_range_0_65535", "hash_range_1_65535", "hash_range_1_2147483646");

    private ObjectNode keySharedHash(ObjectNode row) {
        if (!row.get("type").asText().equals("key")) {
            return row;
        }
        byte[] key = Codec.bytes(row.get("key_hex").asText());
        StickyKeyConsumerSelector[] sel = ops.slotSelectors();
        ObjectNode c = Ops.JSON.objectNode();
        // Guava's MurmurHash3, not Pulsar's: the generator's cross-check.
        c.put("murmur3_32_x86_seed0_u32", Integer.toUnsignedLong(Hashing.murmur3_32_fixed().hashBytes(key).asInt()));
        c.put("pulsar_murmur3_31", Murmur3_32Hash.getInstance().makeHash(key));
        c.put("hash_range_0_65535", sel[0].makeStickyKeyHash(key));
        c.put("hash_range_1_65535", sel[1].makeStickyKeyHash(key));
        c.put("hash_range_1_2147483646", sel[2].makeStickyKeyHash(key));
        return merge(row, c, KS_HASH_OUT);
    }

    private ObjectNode keySharedScenario(ObjectNode row, boolean consistent) {
        String type = row.get("type").asText();
        try {
            switch (type) {
                case "constructor" -> {
                    ObjectNode c = Ops.JSON.objectNode();
                    try {
                        KeyShared.autoSplit(row.get("range_size").asInt());
                        c.put("ok", true);
                    } catch (IllegalArgumentException e) {
                        c.put("ok", false);
                        c.put("error", e.getMessage());
                    }
                    return merge(row, c, Set.of("ok", "error"));
                }
                case "ring_points" -> {
                    ObjectNode c = Ops.JSON.objectNode();
                    int rangeMax = row.get("range_max").asInt();
                    ConsistentHashingStickyKeyConsumerSelector sel =
                            (ConsistentHashingStickyKeyConsumerSelector) KeyShared.consistent(100, rangeMax);
                    Consumer consumer = KeyShared.consumer(0, row.get("name").asText(), null);
                    ArrayNode points = c.putArray("points");
                    for (int i = 0; i < 100; i++) {
                        points.add(Private.ringPoint(sel, consumer, row.get("name_index").asInt(), i));
                    }
                    return merge(row, c, Set.of("points"));
                }
                case "scenario" -> {
                    StickyKeyConsumerSelector sel = consistent
                            ? KeyShared.consistent(row.get("points").asInt(), row.get("range_max").asInt())
                            : KeyShared.autoSplit(row.get("range_size").asInt());
                    KeyShared ks = new KeyShared(sel);
                    ArrayNode steps = Ops.JSON.arrayNode();
                    JsonNode in = row.get("steps");
                    for (int i = 0; i < in.size(); i++) {
                        steps.add(scenarioStep(ks, (ObjectNode) in.get(i), consistent, row.path("points").asInt()));
                    }
                    ObjectNode out = row.deepCopy();
                    out.set("steps", steps);
                    return out;
                }
                default -> {
                    return row;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("keyshared row " + row.path("id"), e);
        }
    }

    private ObjectNode scenarioStep(KeyShared ks, ObjectNode in, boolean consistent, int points)
            throws Exception {
        ObjectNode c = Ops.JSON.objectNode();
        String op = in.get("op").asText();
        long id = in.get("consumer_id").asLong();
        String name = in.get("name").asText();
        Optional<ImpactedConsumersResult> impact = Optional.empty();
        try {
            impact = op.equals("add") ? ks.add(id, name, null) : ks.remove(id, name);
            c.put("ok", true);
        } catch (Exception e) {
            Throwable t = Harness.unwrap(e);
            c.put("ok", false);
            c.put("error_class", t.getClass().getSimpleName());
            c.put("error", t.getMessage());
        }
        if (consistent && op.equals("add") && c.get("ok").asBoolean()) {
            ConsistentHashingStickyKeyConsumerSelector sel = (ConsistentHashingStickyKeyConsumerSelector) ks.selector;
            Consumer consumer = ks.consumerById(id);
            int index = points == 0 ? -1 : Private.nameIndex(sel, consumer);
            c.put("name_index", index);
            if (points <= 7) {
                ArrayNode ring = c.putArray("ring_points");
                for (int p = 0; p < points; p++) {
                    ring.add(Private.ringPoint(sel, consumer, index, p));
                }
            }
        }
        List<HashRangeAssignment> assignments = Private.assignments(ks.selector.getConsumerHashAssignmentsSnapshot());
        StringBuilder text = new StringBuilder();
        ArrayNode a = Ops.JSON.arrayNode();
        for (HashRangeAssignment x : assignments) {
            long cid = x.consumer().consumerId();
            a.addArray().add(x.range().getStart()).add(x.range().getEnd()).add(cid);
            text.append(x.range().getStart()).append(',').append(x.range().getEnd()).append(',').append(cid)
                    .append('\n');
        }
        c.put("assignments_count", assignments.size());
        c.put("assignments_sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.toString().getBytes(StandardCharsets.UTF_8))));
        // The generator left the long lists out of some steps to keep the
        // file small; which ones is its choice, not the selector's.
        if (in.has("assignments")) {
            c.set("assignments", a);
        }
        Map<Long, List<Range>> byConsumer = ks.rangesByConsumer();
        c.put("ranges_by_consumer_count", byConsumer.size());
        if (in.has("ranges_by_consumer")) {
            c.set("ranges_by_consumer", Ops.rangeMap(byConsumer));
        }
        c.set("removed", Ops.rangeMap(Ops.impacted(impact, OperationType.REMOVE)));
        c.set("added", Ops.rangeMap(Ops.impacted(impact, OperationType.ADD)));
        c.set("lookups", lookups(ks, in.get("lookups")));
        return merge(in, c, Set.of("ok", "error_class", "error", "name_index", "ring_points"));
    }

    private static ArrayNode lookups(KeyShared ks, JsonNode committed) {
        ArrayNode out = Ops.JSON.arrayNode();
        for (JsonNode l : committed) {
            int hash = l.get(0).asInt();
            Long c = ks.select(hash);
            ArrayNode pair = out.addArray().add(hash);
            if (c == null) {
                pair.addNull();
            } else {
                pair.add(c);
            }
        }
        return out;
    }

    private ObjectNode keySharedExclusive(ObjectNode row) {
        if (!row.get("type").asText().equals("case")) {
            return row;
        }
        KeyShared ks = new KeyShared(KeyShared.exclusive(StickyKeyConsumerSelector.DEFAULT_RANGE_SIZE));
        ArrayNode steps = Ops.JSON.arrayNode();
        for (JsonNode stepNode : row.get("steps")) {
            ObjectNode in = (ObjectNode) stepNode;
            ObjectNode c = Ops.JSON.objectNode();
            JsonNode ranges = in.get("ranges");
            if (ranges != null && !ranges.isNull() && in.get("op").asText().equals("add")) {
                c.put("client_validate", clientValidate(ranges));
            }
            ObjectNode broker = c.putObject("broker");
            long id = in.get("consumer_id").asLong();
            try {
                if (in.get("op").asText().equals("add")) {
                    ks.add(id, in.get("name").asText(), Ops.meta(ranges));
                } else {
                    ks.remove(id, in.get("name").asText());
                }
                broker.put("ok", true);
            } catch (Exception e) {
                Throwable t = Harness.unwrap(e);
                broker.put("ok", false);
                broker.put("error_class", t.getClass().getSimpleName());
                broker.put("error", t.getMessage());
            }
            broker.set("ranges_by_consumer", Ops.rangeMap(ks.rangesByConsumer()));
            broker.set("lookups", lookups(ks, in.get("broker").get("lookups")));
            steps.add(merge(in, c, Set.of()));
        }
        ObjectNode out = row.deepCopy();
        out.set("steps", steps);
        return out;
    }

    /** The client's own check of the declared ranges, as ConsumerBuilder runs it. */
    private static String clientValidate(JsonNode ranges) {
        try {
            List<Range> list = new ArrayList<>();
            for (JsonNode r : ranges) {
                list.add(Range.of(r.get(0).asInt(), r.get(1).asInt()));
            }
            KeySharedPolicy.stickyHashRange().ranges(list).validate();
            return "ok";
        } catch (Exception e) {
            return "error: " + e.getMessage();
        }
    }

    /**
     * What the golden files record that the selectors keep private: the
     * snapshot's assignment list, a consumer's name index and its ring points.
     * Read by reflection, so the values are still the real classes' own.
     */
    private static final class Private {
        private static final Field ASSIGNMENTS;
        private static final Field TRACKER;
        private static final Method TRACKED_INDEX;
        private static final java.lang.reflect.Constructor<?> IDENTITY;
        private static final Method RING_POINT;

        static {
            try {
                ASSIGNMENTS = org.apache.pulsar.broker.service.ConsumerHashAssignmentsSnapshot.class
                        .getDeclaredField("hashRangeAssignments");
                ASSIGNMENTS.setAccessible(true);
                TRACKER = ConsistentHashingStickyKeyConsumerSelector.class.getDeclaredField("consumerNameIndexTracker");
                TRACKER.setAccessible(true);
                Class<?> identity = Class.forName("org.apache.pulsar.broker.service.ConsumerIdentityWrapper");
                IDENTITY = identity.getDeclaredConstructor(Consumer.class);
                IDENTITY.setAccessible(true);
                TRACKED_INDEX = TRACKER.getType().getDeclaredMethod("getTrackedIndex", identity);
                TRACKED_INDEX.setAccessible(true);
                RING_POINT = ConsistentHashingStickyKeyConsumerSelector.class.getDeclaredMethod(
                        "calculateHashForConsumerAndIndex", Consumer.class, int.class, int.class);
                RING_POINT.setAccessible(true);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unchecked")
        static List<HashRangeAssignment> assignments(
                org.apache.pulsar.broker.service.ConsumerHashAssignmentsSnapshot s) throws Exception {
            return (List<HashRangeAssignment>) ASSIGNMENTS.get(s);
        }

        static int nameIndex(ConsistentHashingStickyKeyConsumerSelector sel, Consumer c) throws Exception {
            return (int) TRACKED_INDEX.invoke(TRACKER.get(sel), IDENTITY.newInstance(c));
        }

        static int ringPoint(ConsistentHashingStickyKeyConsumerSelector sel, Consumer c, int index, int point)
                throws Exception {
            return (int) RING_POINT.invoke(sel, c, index, point);
        }
    }
}
