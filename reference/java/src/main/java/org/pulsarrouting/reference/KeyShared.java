package org.pulsarrouting.reference;

import static org.mockito.Mockito.mock;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.pulsar.broker.service.ConsistentHashingStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.Consumer;
import org.apache.pulsar.broker.service.HashRangeAutoSplitStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.HashRangeExclusiveStickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.ImpactedConsumersResult;
import org.apache.pulsar.broker.service.StickyKeyConsumerSelector;
import org.apache.pulsar.broker.service.TransportCnx;
import org.apache.pulsar.client.api.Range;
import org.apache.pulsar.common.api.proto.KeySharedMeta;
import org.apache.pulsar.common.api.proto.KeySharedMode;
import org.mockito.Answers;
import org.mockito.Mockito;

/** One real Key_Shared selector and the consumers added to it, known by id. */
final class KeyShared {
    /**
     * The exclusive selector asks a conflicting consumer's connection whether
     * it is still alive before it rejects the newcomer; every stand-in
     * connection is alive, as the consumers of a running subscription are.
     */
    private static final TransportCnx ALIVE = mock(TransportCnx.class, inv ->
            switch (inv.getMethod().getName()) {
                case "checkConnectionLiveness" -> CompletableFuture.completedFuture(Optional.of(true));
                case "isActive" -> true;
                default -> Answers.RETURNS_DEFAULTS.answer(inv);
            });

    final StickyKeyConsumerSelector selector;
    private final Map<Long, Consumer> consumers = new HashMap<>();

    KeyShared(StickyKeyConsumerSelector selector) {
        this.selector = selector;
    }

    static StickyKeyConsumerSelector autoSplit(int rangeSize) {
        return new HashRangeAutoSplitStickyKeyConsumerSelector(rangeSize, true);
    }

    static StickyKeyConsumerSelector consistent(int points, int rangeMax) {
        return new ConsistentHashingStickyKeyConsumerSelector(points, true, rangeMax);
    }

    static StickyKeyConsumerSelector exclusive(int rangeSize) {
        return new HashRangeExclusiveStickyKeyConsumerSelector(rangeSize);
    }

    /**
     * The broker's Consumer needs a live connection and subscription to be
     * constructed; the selectors read only its id, name, KeySharedMeta,
     * connection and toString. Its equality stays identity, and each id has
     * one instance at a time, which is what id + address equality gives.
     * toString follows the golden generator's stand-in, so error messages
     * that quote a consumer read the same in both.
     */
    static Consumer consumer(long id, String name, KeySharedMeta meta) {
        String text = "Consumer{consumerId=" + id + ", consumerName=" + name + "}";
        return mock(Consumer.class, Mockito.withSettings().stubOnly().defaultAnswer(inv ->
                switch (inv.getMethod().getName()) {
                    case "consumerId" -> id;
                    case "consumerName" -> name;
                    case "getKeySharedMeta" -> meta;
                    case "cnx" -> ALIVE;
                    case "toString" -> text;
                    case "getPriorityLevel" -> 0;
                    default -> Answers.RETURNS_DEFAULTS.answer(inv);
                }));
    }

    static KeySharedMeta stickyMeta(List<int[]> ranges) {
        KeySharedMeta meta = new KeySharedMeta().setKeySharedMode(KeySharedMode.STICKY);
        for (int[] r : ranges) {
            meta.addHashRange().setStart(r[0]).setEnd(r[1]);
        }
        return meta;
    }

    /** Adds a consumer; a rejection is thrown, unwrapped from the future. */
    Optional<ImpactedConsumersResult> add(long id, String name, KeySharedMeta meta) throws Exception {
        Consumer c = consumer(id, name, meta);
        consumers.put(id, c);
        return selector.addConsumer(c).get();
    }

    /** Removes the consumer with this id, or a never-added one of that id and name. */
    Optional<ImpactedConsumersResult> remove(long id, String name) {
        Consumer c = consumers.remove(id);
        if (c == null) {
            c = consumer(id, name, null);
        }
        return selector.removeConsumer(c);
    }

    Consumer consumerById(long id) {
        return consumers.get(id);
    }

    Long select(int hash) {
        Consumer c = selector.select(hash);
        return c == null ? null : c.consumerId();
    }

    /** getConsumerKeyHashRanges(), keyed by consumer id in ascending order. */
    TreeMap<Long, List<Range>> rangesByConsumer() {
        TreeMap<Long, List<Range>> out = new TreeMap<>();
        selector.getConsumerKeyHashRanges().forEach((c, ranges) -> out.put(c.consumerId(), ranges));
        return out;
    }
}
