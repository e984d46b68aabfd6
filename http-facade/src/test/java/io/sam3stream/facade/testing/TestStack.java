package io.sam3stream.facade.testing;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.testing.TestCluster;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
    private static volatile TestCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = TestCluster.shared(context, TestStack.class, MAX_MESSAGE_BYTES);
    }

    public static String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public static String registryUrl() {
        return cluster.registryUrl();
    }

    public static SchemaRegistryClient registryClient() {
        return cluster.registryClient();
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
