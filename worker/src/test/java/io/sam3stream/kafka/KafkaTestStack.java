package io.sam3stream.kafka;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.embedded.EmbeddedSchemaRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real single-node KRaft broker (in-process) and an embedded schema registry, started once for the whole test
 * run and closed at its end. Test classes use it with {@code @ExtendWith(KafkaTestStack.class)}; each worker under
 * test gets its own topics and consumer group from {@link #workerEnvironment}, so tests never see each other's
 * records.
 */
public final class KafkaTestStack implements BeforeAllCallback {

    /** The brokers' record limit, and the workers' {@code SAM3_MAX_MESSAGE_BYTES}. */
    public static final int MAX_MESSAGE_BYTES = 2 << 20;

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static volatile Resources resources;

    private record Resources(KafkaClusterTestKit cluster, EmbeddedSchemaRegistry registry) implements AutoCloseable {
        @Override
        public void close() {
            registry.close();
            try {
                cluster.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the test cluster failed", e);
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (KafkaTestStack.class) {
            if (resources == null) {
                resources = start();
                // the root store closes its AutoCloseable values once, after every test class ran
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(KafkaTestStack.class, resources);
            }
        }
    }

    private static Resources start() throws Exception {
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1") // default 3: groups never form on one node
                .setConfigProp("offsets.topic.num.partitions", "4")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "4")
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

    /**
     * The environment of a worker of a fresh deployment: its own topics ({@code <name>.requests}, ...) and consumer
     * group, one warm-up forward, this stack's broker and registry.
     */
    public static Map<String, String> workerEnvironment(String deployment) {
        String name = deployment + "-" + NAMES.incrementAndGet();
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers());
        env.put("SCHEMA_REGISTRY_URL", registryUrl());
        // the same numerics on every CPU: auto would compute in bfloat16 where the CPU has the instructions
        env.put("SAM3_PRECISION", "fp32");
        env.put("SAM3_CONSUMER_GROUP", name + ".workers");
        env.put("SAM3_REQUESTS_TOPIC", name + ".requests");
        env.put("SAM3_RESULTS_TOPIC", name + ".results");
        env.put("SAM3_DLQ_TOPIC", name + ".requests.dlq");
        env.put("SAM3_WORKERS_TOPIC", name + ".workers");
        env.put("SAM3_TOPIC_PARTITIONS", "1");
        env.put("SAM3_MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES));
        env.put("SAM3_WARMUP_RUNS", "1");
        env.put("SAM3_WORKER_ID", name + "-worker");
        return env;
    }
}
