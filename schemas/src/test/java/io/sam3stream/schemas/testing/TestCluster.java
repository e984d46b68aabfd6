package io.sam3stream.schemas.testing;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real single-node KRaft broker (in the test JVM) and an embedded schema registry on a loopback port, configured
 * as one node must be for consumer groups and transactions to work. The test stacks of the facade and the worker
 * start one each for their whole test run.
 */
public final class TestCluster implements AutoCloseable {

    private final KafkaClusterTestKit cluster;
    private final EmbeddedSchemaRegistry registry;

    private TestCluster(KafkaClusterTestKit cluster, EmbeddedSchemaRegistry registry) {
        this.cluster = cluster;
        this.registry = registry;
    }

    /**
     * The cluster of a JUnit extension ({@code key}), started by the first test class that uses it and closed once
     * after the whole run (JUnit's root store closes what it holds).
     */
    public static TestCluster shared(ExtensionContext context, Class<?> key, int maxMessageBytes) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(key, k -> {
            try {
                return start(maxMessageBytes);
            } catch (Exception e) {
                throw new IllegalStateException("the test cluster did not start", e);
            }
        }, TestCluster.class);
    }

    /** Starts the broker, with records up to {@code maxMessageBytes}, and the registry; returns when both serve. */
    public static TestCluster start(int maxMessageBytes) throws Exception {
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1") // default 3: groups never form on one node
                .setConfigProp("offsets.topic.num.partitions", "4")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "4")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                .setConfigProp("message.max.bytes", Integer.toString(maxMessageBytes))
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return new TestCluster(cluster, registry);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public String registryUrl() {
        return registry.url().toString();
    }

    public SchemaRegistryClient registryClient() {
        return SchemaRegistryClient.builder(registry.url()).build();
    }

    @Override
    public void close() {
        registry.close();
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("the test broker did not stop cleanly", e);
        }
    }
}
