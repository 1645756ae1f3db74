package org.pulsarrouting.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Constructor;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.lang3.tuple.Pair;
import org.apache.pulsar.broker.service.ImpactedConsumersResult;
import org.apache.pulsar.broker.service.StickyKeyConsumerSelector;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageRouter;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.TopicMetadata;
import org.apache.pulsar.client.impl.JavaStringHash;
import org.apache.pulsar.client.impl.Murmur3Hash32;
import org.apache.pulsar.client.impl.RoundRobinPartitionMessageRouterImpl;
import org.apache.pulsar.client.impl.SinglePartitionMessageRouterImpl;
import org.apache.pulsar.client.impl.TypedMessageBuilderImpl;
import org.apache.pulsar.client.util.MathUtils;
import org.apache.pulsar.common.naming.BundleSplitOption;
import org.apache.pulsar.common.naming.FlowOrQpsEquallyDivideBundleSplitOption;
import org.apache.pulsar.common.naming.NamespaceBundle;
import org.apache.pulsar.common.naming.NamespaceBundleSplitAlgorithm;
import org.apache.pulsar.common.naming.NamespaceBundles;
import org.apache.pulsar.common.naming.NamespaceName;
import org.apache.pulsar.common.naming.TopicName;
import org.apache.pulsar.common.policies.data.BundlesData;
import org.apache.pulsar.common.policies.data.PoliciesUtil;
import org.apache.pulsar.common.policies.data.stats.TopicStatsImpl;

/** The operations of PROTOCOL.md, each answered by the real Pulsar 4.2.4 classes. */
final class Ops {
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final NamespaceName DEFAULT_LAYOUT_NS = NamespaceName.get("t/ns");

    /**
     * TopicMetadataImpl is the client's own TopicMetadata, but its class and
     * constructor are package-private.
     */
    private static final Constructor<?> TOPIC_METADATA;

    static {
        try {
            TOPIC_METADATA = Class.forName("org.apache.pulsar.client.impl.TopicMetadataImpl")
                    .getDeclaredConstructor(int.class);
            TOPIC_METADATA.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Built on first use: a client-only session never pays for the broker
    // stand-ins' start-up (Mockito, ServiceConfiguration, the factory).
    private Broker broker;
    private StickyKeyConsumerSelector[] slotSelectors;

    Broker broker() {
        if (broker == null) {
            broker = new Broker();
        }
        return broker;
    }

    /** makeStickyKeyHash of AutoSplit (0..65535) and of ConsistentHashing over 1..65535 and 1..2147483646. */
    StickyKeyConsumerSelector[] slotSelectors() {
        if (slotSelectors == null) {
            slotSelectors = new StickyKeyConsumerSelector[] {
                KeyShared.autoSplit(StickyKeyConsumerSelector.DEFAULT_RANGE_SIZE),
                KeyShared.consistent(100, 65535),
                KeyShared.consistent(100, 2147483646),
            };
        }
        return slotSelectors;
    }

    /** Bundles are rebuilt per boundary list only when the list changes; a layout of 1000 bundles is slow to build. */
    private final Map<LayoutKey, Broker.Exposed> layouts = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<LayoutKey, Broker.Exposed> eldest) {
            return size() > 256;
        }
    };

    private record LayoutKey(NamespaceName ns, long[] boundaries, int hash) {
        LayoutKey(NamespaceName ns, long[] boundaries) {
            this(ns, boundaries, ns.hashCode() * 31 + Arrays.hashCode(boundaries));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LayoutKey k && k.ns.equals(ns) && Arrays.equals(k.boundaries, boundaries);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    void dispatch(String op, JsonNode req, ObjectNode out) throws Exception {
        switch (op) {
            case "hash" -> hash(req, out);
            case "sign_safe_mod" -> out.put("result", MathUtils.signSafeMod(longField(req, "dividend"),
                    intField(req, "divisor")));
            case "route" -> route(req, out);
            case "topic" -> topic(TopicName.get(text(req, "name")), out);
            case "partition_index" -> out.put("index", TopicName.getPartitionIndex(text(req, "name")));
            case "bundles_default" -> bundlesDefault(intField(req, "num_bundles"), out);
            case "topic_bundle" -> {
                TopicName tn = TopicName.get(text(req, "topic"));
                long crc = broker().factory.getLongHashCode(tn.toString());
                NamespaceBundle b = layout(tn.getNamespaceObject(), boundaries(req, "boundaries")).findBundle(tn);
                out.put("crc32", crc);
                out.put("bundle", b.getBundleRange());
            }
            case "hash_bundle" -> out.put("bundle",
                    layout(DEFAULT_LAYOUT_NS, boundaries(req, "boundaries")).bundleOfHash(longField(req, "hash"))
                            .getBundleRange());
            case "parse_bundle_range" -> parseBundleRange(text(req, "range"), out);
            case "split" -> split(req, out);
            case "split_equal" -> {
                NamespaceBundle target = target(broker().storeLayout(boundaries(req, "boundaries"), List.of()),
                        text(req, "target"));
                int parts = intField(req, "parts");
                out.set("boundaries_after", boundaryArray(
                        broker().factory.splitBundles(target, parts, null).get().getLeft()));
            }
            case "key_shared_hash" -> {
                byte[] key = Codec.bytes(text(req, "key_hex"));
                StickyKeyConsumerSelector[] sel = slotSelectors();
                out.put("slot_0_65535", sel[0].makeStickyKeyHash(key));
                out.put("slot_1_65535", sel[1].makeStickyKeyHash(key));
                out.put("slot_1_2147483646", sel[2].makeStickyKeyHash(key));
            }
            case "key_shared" -> keyShared(req, out);
            default -> throw new ProtocolError("unknown op: " + op);
        }
    }

    private static void hash(JsonNode req, ObjectNode out) {
        JsonNode u16 = req.get("key_u16hex");
        if (u16 != null) {
            String key = Codec.u16(u16.asText());
            out.put("murmur3_32", Murmur3Hash32.getInstance().makeHash(key));
            out.put("java_string", JavaStringHash.getInstance().makeHash(key));
        } else {
            byte[] key = Codec.bytes(text(req, "key_bytes_hex"));
            out.put("murmur3_32", Murmur3Hash32.getInstance().makeHash(key));
            out.put("java_string", JavaStringHash.getInstance().makeHash(key));
        }
    }

    private static void route(JsonNode req, ObjectNode out) throws Exception {
        HashingScheme scheme = switch (text(req, "scheme")) {
            case "java_string" -> HashingScheme.JavaStringHash;
            case "murmur3_32" -> HashingScheme.Murmur3_32Hash;
            default -> throw new ProtocolError("unknown scheme: " + req.get("scheme").asText());
        };
        int startIndex = intField(req, "start_index");
        MessageRouter router = switch (text(req, "router")) {
            case "round_robin" -> new RoundRobinPartitionMessageRouterImpl(scheme, startIndex,
                    boolField(req, "batching"), longField(req, "partition_switch_ms"),
                    Clock.fixed(Instant.ofEpochMilli(longField(req, "clock_ms")), ZoneOffset.UTC));
            case "single" -> new SinglePartitionMessageRouterImpl(startIndex, scheme);
            default -> throw new ProtocolError("unknown router: " + req.get("router").asText());
        };
        Message<?> msg = message(req.get("key_u16hex"), req.get("key_bytes_hex"));
        TopicMetadata metadata = topicMetadata(intField(req, "num_partitions"));
        JsonNode picksNode = req.get("picks");
        int picks = picksNode == null || picksNode.isNull() ? 1 : intField(req, "picks");
        ArrayNode partitions = out.putArray("partitions");
        for (int i = 0; i < picks; i++) {
            partitions.add(router.choosePartition(msg, metadata));
        }
    }

    /** A message as a producer's newMessage() builds it; the builder needs no producer for a key and a schema. */
    static Message<?> message(JsonNode keyU16, JsonNode keyBytes) {
        return message(keyU16 == null || keyU16.isNull() ? null : Codec.u16(keyU16.asText()),
                keyBytes == null || keyBytes.isNull() ? null : Codec.bytes(keyBytes.asText()));
    }

    static Message<?> message(String key, byte[] keyBytes) {
        TypedMessageBuilderImpl<byte[]> builder = new TypedMessageBuilderImpl<>(null, Schema.BYTES);
        if (key != null) {
            builder.key(key);
        } else if (keyBytes != null) {
            builder.keyBytes(keyBytes);
        }
        return builder.getMessage();
    }

    static TopicMetadata topicMetadata(int numPartitions) throws Exception {
        try {
            return (TopicMetadata) TOPIC_METADATA.newInstance(numPartitions);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    static void topic(TopicName tn, ObjectNode out) {
        out.put("to_string", tn.toString());
        out.put("domain", tn.getDomain().value());
        out.put("tenant", tn.getTenant());
        // 4.2.4's TopicName has no cluster: it no longer parses V1 names.
        out.putNull("cluster");
        out.put("namespace_portion", tn.getNamespacePortion());
        out.put("namespace", tn.getNamespace());
        out.put("local_name", tn.getLocalName());
        out.put("partition_index", tn.getPartitionIndex());
        out.put("partitioned_topic_name", tn.getPartitionedTopicName());
        out.put("persistent", tn.isPersistent());
        out.put("lookup_name", tn.getLookupName());
        out.put("persistence_naming", tn.getPersistenceNamingEncoding());
        out.put("rest_path", tn.getRestPath());
        out.put("encoded_local_name", tn.getEncodedLocalName());
        try {
            out.put("partition_3", tn.getPartition(3).toString());
        } catch (Exception e) {
            ObjectNode err = out.putObject("partition_3_error");
            Throwable t = Harness.unwrap(e);
            err.put("error_class", t.getClass().getName());
            err.put("error_message", t.getMessage());
        }
    }

    void bundlesDefault(int numBundles, ObjectNode out) {
        BundlesData data = PoliciesUtil.getBundles(numBundles);
        long[] boundaries = Codec.boundaryLongs(data.getBoundaries());
        ArrayNode b = out.putArray("boundaries");
        for (long v : boundaries) {
            b.add(v);
        }
        out.set("names", bundleNames(broker().bundles(DEFAULT_LAYOUT_NS, data).getBundles()));
    }

    void parseBundleRange(String range, ObjectNode out) {
        NamespaceBundle b = broker().factory.getBundle(DEFAULT_LAYOUT_NS.toString(), range);
        com.google.common.collect.Range<Long> r = b.getKeyRange();
        out.put("lower", r.lowerEndpoint());
        out.put("upper", r.upperEndpoint());
        out.put("upper_closed", r.upperBoundType() == com.google.common.collect.BoundType.CLOSED);
        out.put("bundle_range", b.getBundleRange());
    }

    Broker.Exposed layout(NamespaceName ns, long[] boundaries) {
        return layouts.computeIfAbsent(new LayoutKey(ns, boundaries),
                k -> broker().bundles(ns, Broker.bundlesData(boundaries)));
    }

    /** What a split asks of the algorithm and of the factory, kept apart so a failure says which stage failed. */
    static final class Split {
        List<Long> splitBoundaries;
        Pair<NamespaceBundles, List<NamespaceBundle>> result;
        Exception algorithmError;
        Exception splitError;
    }

    /**
     * The split as NamespaceService does it: the algorithm picks boundaries,
     * then {@code splitBundles(target, boundaries.size() + 1, boundaries)}.
     */
    Split runSplit(String algorithm, long[] boundaries, String target, List<Long> positions, List<String> topics,
            Map<String, TopicStatsImpl> stats, int[] flowArgs) throws Exception {
        NamespaceBundle bundle = target(broker().storeLayout(boundaries, topics), target);
        NamespaceBundleSplitAlgorithm algo = switch (algorithm) {
            case "specified_positions_divide_force" -> NamespaceBundleSplitAlgorithm.SPECIFIED_POSITIONS_DIVIDE_FORCE_ALGO;
            case "range_equally_divide", "topic_count_equally_divide", "specified_positions_divide",
                    "flow_or_qps_equally_divide" -> NamespaceBundleSplitAlgorithm.of(algorithm);
            default -> throw new ProtocolError("unknown algorithm: " + algorithm);
        };
        BundleSplitOption option;
        if (algorithm.equals("flow_or_qps_equally_divide")) {
            if (flowArgs == null || flowArgs.length != 3) {
                throw new ProtocolError("flow_or_qps_equally_divide needs flow_args [maxMsgRate, maxBandwidthMbytes, thresholdPercent]");
            }
            option = new FlowOrQpsEquallyDivideBundleSplitOption(broker().namespaceService, bundle, positions,
                    stats, flowArgs[0], flowArgs[1], flowArgs[2]);
        } else {
            option = new BundleSplitOption(broker().namespaceService, bundle, positions);
        }
        Split s = new Split();
        try {
            s.splitBoundaries = algo.getSplitBoundary(option).get();
        } catch (Exception e) {
            s.algorithmError = e;
            return s;
        }
        if (s.splitBoundaries == null) {
            return s;
        }
        try {
            s.result = broker().factory.splitBundles(bundle, s.splitBoundaries.size() + 1, s.splitBoundaries).get();
        } catch (Exception e) {
            s.splitError = e;
        }
        return s;
    }

    private void split(JsonNode req, ObjectNode out) throws Exception {
        List<Long> positions = null;
        JsonNode p = req.get("positions");
        if (p != null && !p.isNull()) {
            positions = new ArrayList<>();
            for (JsonNode v : array(req, "positions")) {
                positions.add(asLong(v, "positions"));
            }
        }
        List<String> topics = new ArrayList<>();
        JsonNode t = req.get("topics");
        if (t != null && !t.isNull()) {
            for (JsonNode v : array(req, "topics")) {
                topics.add(v.asText());
            }
        }
        Map<String, TopicStatsImpl> stats = new HashMap<>();
        JsonNode ts = req.get("topic_stats");
        if (ts != null && !ts.isNull()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = ts.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                stats.put(e.getKey(), topicStats(e.getValue()));
            }
        }
        int[] flowArgs = null;
        JsonNode fa = req.get("flow_args");
        if (fa != null && !fa.isNull()) {
            flowArgs = new int[fa.size()];
            for (int i = 0; i < flowArgs.length; i++) {
                flowArgs[i] = asInt(fa.get(i), "flow_args");
            }
        }
        Split s = runSplit(text(req, "algorithm"), boundaries(req, "boundaries"), text(req, "target"), positions,
                topics, stats, flowArgs);
        if (s.algorithmError != null) {
            throw s.algorithmError;
        }
        if (s.splitError != null) {
            throw s.splitError;
        }
        if (s.splitBoundaries == null) {
            out.putNull("split_boundaries");
            out.putNull("boundaries_after");
            return;
        }
        ArrayNode sb = out.putArray("split_boundaries");
        s.splitBoundaries.forEach(sb::add);
        out.set("boundaries_after", boundaryArray(s.result.getLeft()));
    }

    static TopicStatsImpl topicStats(JsonNode rates) {
        if (rates == null || !rates.isArray() || rates.size() != 4) {
            throw new ProtocolError("topic_stats entries are [msgRateIn, msgRateOut, msgThroughputIn, msgThroughputOut]");
        }
        TopicStatsImpl s = new TopicStatsImpl();
        s.msgRateIn = rates.get(0).asDouble();
        s.msgRateOut = rates.get(1).asDouble();
        s.msgThroughputIn = rates.get(2).asDouble();
        s.msgThroughputOut = rates.get(3).asDouble();
        return s;
    }

    static NamespaceBundle target(NamespaceBundles bundles, String range) {
        for (NamespaceBundle b : bundles.getBundles()) {
            if (b.getBundleRange().equals(range)) {
                return b;
            }
        }
        throw new ProtocolError("target " + range + " is not a bundle of the given boundaries");
    }

    static ArrayNode boundaryArray(NamespaceBundles bundles) {
        ArrayNode a = JSON.arrayNode();
        for (long v : Codec.boundaryLongs(bundles.getBundlesData().getBoundaries())) {
            a.add(v);
        }
        return a;
    }

    static ArrayNode bundleNames(List<NamespaceBundle> bundles) {
        ArrayNode a = JSON.arrayNode();
        for (NamespaceBundle b : bundles) {
            a.add(b.getBundleRange());
        }
        return a;
    }

    private static void keyShared(JsonNode req, ObjectNode out) throws Exception {
        String kind = text(req, "selector");
        StickyKeyConsumerSelector selector = switch (kind) {
            case "auto_split" -> KeyShared.autoSplit(intField(req, "range_size"));
            case "consistent_hashing" -> KeyShared.consistent(intField(req, "points"), intField(req, "range_max"));
            case "exclusive" -> KeyShared.exclusive(intField(req, "range_size"));
            default -> throw new ProtocolError("unknown selector: " + kind);
        };
        KeyShared ks = new KeyShared(selector);
        ArrayNode answers = out.putArray("steps");
        for (JsonNode step : array(req, "steps")) {
            ObjectNode a = answers.addObject();
            String op = text(step, "op");
            if (op.equals("select")) {
                Long c = ks.select(intField(step, "hash"));
                if (c == null) {
                    a.putNull("consumer_id");
                } else {
                    a.put("consumer_id", c);
                }
                continue;
            }
            long id = longField(step, "consumer_id");
            JsonNode nameNode = step.get("name");
            String name = nameNode == null || nameNode.isNull() ? "" : nameNode.asText();
            try {
                switch (op) {
                    case "add" -> ks.add(id, name, meta(step.get("ranges")));
                    case "remove" -> ks.remove(id, name);
                    default -> throw new ProtocolError("unknown key_shared step: " + op);
                }
            } catch (ProtocolError e) {
                throw e;
            } catch (Exception e) {
                Throwable t = Harness.unwrap(e);
                a.put("ok", false);
                a.put("error_class", t.getClass().getName());
                a.put("error_message", t.getMessage());
                continue;
            }
            a.put("ok", true);
            a.set("ranges_by_consumer", rangeMap(ks.rangesByConsumer()));
        }
    }

    static org.apache.pulsar.common.api.proto.KeySharedMeta meta(JsonNode ranges) {
        if (ranges == null || ranges.isNull()) {
            return null;
        }
        List<int[]> list = new ArrayList<>();
        for (JsonNode r : ranges) {
            if (!r.isArray() || r.size() != 2) {
                throw new ProtocolError("a range is [start, end]");
            }
            list.add(new int[] {asInt(r.get(0), "ranges"), asInt(r.get(1), "ranges")});
        }
        return KeyShared.stickyMeta(list);
    }

    static ObjectNode rangeMap(Map<Long, List<Range>> byConsumer) {
        ObjectNode m = JSON.objectNode();
        byConsumer.forEach((id, ranges) -> m.set(Long.toString(id), ranges(ranges)));
        return m;
    }

    static ArrayNode ranges(List<Range> ranges) {
        ArrayNode a = JSON.arrayNode();
        for (Range r : ranges) {
            a.addArray().add(r.getStart()).add(r.getEnd());
        }
        return a;
    }

    static Map<Long, List<Range>> impacted(Optional<ImpactedConsumersResult> result,
            ImpactedConsumersResult.OperationType want) {
        Map<Long, List<Range>> out = new java.util.TreeMap<>();
        result.ifPresent(r -> r.processUpdatedHashRanges((c, ranges, type) -> {
            if (type == want) {
                out.put(c.consumerId(), ranges.asRanges());
            }
        }));
        return out;
    }

    // --- request fields -------------------------------------------------

    static JsonNode field(JsonNode req, String name) {
        JsonNode v = req.get(name);
        if (v == null || v.isNull()) {
            throw new ProtocolError("missing field: " + name);
        }
        return v;
    }

    /** The field, if it is of the JSON type {@code is} accepts. */
    static JsonNode typed(JsonNode req, String name, java.util.function.Predicate<JsonNode> is, String what) {
        JsonNode v = field(req, name);
        if (!is.test(v)) {
            throw new ProtocolError(name + " is not " + what);
        }
        return v;
    }

    static String text(JsonNode req, String name) {
        return typed(req, name, JsonNode::isTextual, "a string").asText();
    }

    static long longField(JsonNode req, String name) {
        return asLong(field(req, name), name);
    }

    static int intField(JsonNode req, String name) {
        return asInt(field(req, name), name);
    }

    static boolean boolField(JsonNode req, String name) {
        return typed(req, name, JsonNode::isBoolean, "a boolean").asBoolean();
    }

    static JsonNode array(JsonNode req, String name) {
        return typed(req, name, JsonNode::isArray, "a list");
    }

    static long asLong(JsonNode v, String name) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ProtocolError(name + " is not a 64-bit integer");
        }
        return v.longValue();
    }

    static int asInt(JsonNode v, String name) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ProtocolError(name + " is not a 32-bit integer");
        }
        return v.intValue();
    }

    static long[] boundaries(JsonNode req, String name) {
        JsonNode a = array(req, name);
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = asLong(a.get(i), name);
        }
        return out;
    }
}
