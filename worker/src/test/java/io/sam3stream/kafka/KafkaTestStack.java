package io.sam3stream.kafka;

import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.testing.TestCluster;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
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
    private static volatile TestCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = TestCluster.shared(context, KafkaTestStack.class, MAX_MESSAGE_BYTES);
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
