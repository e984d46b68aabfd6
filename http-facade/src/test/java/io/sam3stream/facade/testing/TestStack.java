package io.sam3stream.facade.testing;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real single-node KRaft broker (in-process) and an embedded schema registry, started once for the whole test
 * run and closed at its end. Test classes use it with {@code @ExtendWith(TestStack.class)} and get fresh topic
 * names from {@link #uniqueTopic}, so tests never see each other's records.
 */
public final class TestStack implements BeforeAllCallback {

    /** Records as large as the facade tests need (request images stay far below). */
    public static final int MAX_MESSAGE_BYTES = 4 << 20;

    private static final AtomicInteger TOPICS = new AtomicInteger();
    private static volatile Resources resources;

    private record Resources(KafkaClusterTestKit cluster, EmbeddedSchemaRegistry registry) implements AutoCloseable {
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

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (TestStack.class) {
            if (resources == null) {
                resources = start();
                // the root store closes its AutoCloseable values once, after every test class ran
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(TestStack.class, resources);
            }
        }
    }

    private static Resources start() throws Exception {
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1") // default 3: groups never form on one node
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                .setConfigProp("message.max.bytes", Integer.toString(MAX_MESSAGE_BYTES))
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return new Resources(cluster, registry);
    }

    public static String bootstrapServers() {
        return resources.cluster().bootstrapServers();
    }

    public static String registryUrl() {
        return resources.registry().url().toString();
    }

    public static SchemaRegistryClient registryClient() {
        return SchemaRegistryClient.builder(resources.registry().url()).build();
    }

    /** A topic name no other test uses. */
    public static String uniqueTopic(String prefix) {
        return prefix + "-" + TOPICS.incrementAndGet();
    }

    /** Creates topics as the worker's topic set-up would (compacted ones for heartbeats). */
    public static void createTopics(int partitions, Map<String, Boolean> compactedByName) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            List<NewTopic> topics = compactedByName.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), partitions, (short) 1).configs(Map.of(
                            "cleanup.policy", e.getValue() ? "compact" : "delete",
                            "max.message.bytes", Integer.toString(MAX_MESSAGE_BYTES))))
                    .toList();
            admin.createTopics(topics).all().get();
        }
    }
}
