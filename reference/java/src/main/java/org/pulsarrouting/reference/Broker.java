package org.pulsarrouting.reference;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.google.common.hash.Hashing;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.lang3.tuple.Pair;
import org.apache.pulsar.broker.PulsarService;
import org.apache.pulsar.broker.ServiceConfiguration;
import org.apache.pulsar.broker.namespace.NamespaceService;
import org.apache.pulsar.broker.resources.LocalPoliciesResources;
import org.apache.pulsar.broker.resources.PulsarResources;
import org.apache.pulsar.common.naming.NamespaceBundle;
import org.apache.pulsar.common.naming.NamespaceBundleFactory;
import org.apache.pulsar.common.naming.NamespaceBundles;
import org.apache.pulsar.common.naming.NamespaceName;
import org.apache.pulsar.common.policies.data.BundlesData;
import org.apache.pulsar.common.policies.data.LocalPolicies;
import org.apache.pulsar.metadata.api.CacheGetResult;
import org.apache.pulsar.metadata.api.Stat;
import org.apache.pulsar.metadata.api.extended.MetadataStoreExtended;

/**
 * The real NamespaceBundleFactory, built as NamespaceService builds it
 * ({@code new NamespaceBundleFactory(pulsar, Hashing.crc32())}), over mocks of
 * the services it needs at construction. Single-threaded, like the harness.
 */
final class Broker {
    /** The namespace whose stored policies {@link #layout} stands for. */
    static final NamespaceName SPLIT_NS = NamespaceName.get("t/ns");

    final NamespaceBundleFactory factory;
    /** What the namespace service reports as owned in the bundle being split. */
    final NamespaceService namespaceService;

    private volatile BundlesData layout;
    private volatile List<String> ownedTopics = List.of();

    Broker() {
        // PulsarService cannot be constructed without a running broker; the
        // factory only registers a metadata listener, reads the bundle
        // assignment strategy from the configuration and, when it splits,
        // loads the namespace's bundles from the local policies.
        PulsarService pulsar = mock(PulsarService.class);
        when(pulsar.getConfiguration()).thenReturn(new ServiceConfiguration());
        when(pulsar.getLocalMetadataStore()).thenReturn(mock(MetadataStoreExtended.class));
        PulsarResources resources = mock(PulsarResources.class);
        LocalPoliciesResources localPolicies = mock(LocalPoliciesResources.class);
        when(pulsar.getPulsarResources()).thenReturn(resources);
        when(resources.getLocalPolicies()).thenReturn(localPolicies);
        when(localPolicies.getLocalPoliciesWithVersion(SPLIT_NS)).thenAnswer(inv -> CompletableFuture.completedFuture(
                Optional.of(new CacheGetResult<>(new LocalPolicies(layout, null, null),
                        new Stat("/admin/local-policies/t/ns", 1, 0, 0, false, false)))));
        // NamespaceService needs a whole broker too; the split algorithms only
        // ask it which topics the bundle owns.
        namespaceService = mock(NamespaceService.class);
        when(namespaceService.getOwnedTopicListForNamespaceBundle(org.mockito.ArgumentMatchers.any()))
                .thenAnswer(inv -> CompletableFuture.completedFuture(ownedTopics));
        when(pulsar.getNamespaceService()).thenReturn(namespaceService);
        factory = new NamespaceBundleFactory(pulsar, Hashing.crc32());
    }

    static BundlesData bundlesData(long[] boundaries) {
        return BundlesData.builder()
                .boundaries(Codec.boundaryStrings(boundaries))
                .numBundles(boundaries.length - 1)
                .build();
    }

    /** The bundles of {@code ns} over the given boundaries, as the broker reads them from its policies. */
    Exposed bundles(NamespaceName ns, BundlesData data) {
        return new Exposed(ns, factory, Optional.of(Pair.of(new LocalPolicies(data, null, null), 1L)));
    }

    /**
     * Makes {@code boundaries} the stored layout of {@link #SPLIT_NS} and returns
     * the factory's (cached) bundles of it, which is what splitBundles reads.
     */
    NamespaceBundles storeLayout(long[] boundaries, List<String> owned) throws Exception {
        layout = bundlesData(boundaries);
        ownedTopics = owned;
        factory.invalidateBundleCache(SPLIT_NS);
        return factory.getBundlesAsync(SPLIT_NS).get();
    }

    /**
     * The assigner's {@code NamespaceBundles.getBundle(long)} is protected;
     * a subclass is the way the API offers to reach it.
     */
    static final class Exposed extends NamespaceBundles {
        Exposed(NamespaceName ns, NamespaceBundleFactory factory, Optional<Pair<LocalPolicies, Long>> policies) {
            super(ns, factory, policies);
        }

        NamespaceBundle bundleOfHash(long hash) {
            return getBundle(hash);
        }
    }
}
