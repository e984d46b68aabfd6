package io.sam3stream.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the service's topics when they are missing, with sizes and policies set consistently. */
public final class TopicSetup {

    /** How long the broker may take to list or create topics before the start fails. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What one topic needs.
     *
     * @param name       topic name
     * @param partitions partitions when it has to be created
     * @param compacted  keep the latest record per key ({@code cleanup.policy=compact}) instead of deleting by age
     */
    public record TopicSpec(String name, int partitions, boolean compacted) {}

    private TopicSetup() {}

    /**
     * Creates each missing topic with {@code max.message.bytes} = {@code maxMessageBytes} and the broker's default
     * replication factor; existing topics are left as they are (their owner may have sized them on purpose).
     *
     * @throws IllegalStateException when the broker does not answer or refuses
     */
    public static void ensure(Admin admin, List<TopicSpec> topics, int maxMessageBytes) throws InterruptedException {
        Set<String> existing = await(admin.listTopics().names(), "list topics");
        List<NewTopic> missing = new ArrayList<>();
        for (TopicSpec t : topics) {
            if (!existing.contains(t.name())) {
                missing.add(new NewTopic(t.name(), Optional.of(t.partitions()), Optional.empty()).configs(Map.of(
                        "max.message.bytes", Integer.toString(maxMessageBytes),
                        "cleanup.policy", t.compacted() ? "compact" : "delete")));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try {
            await(admin.createTopics(missing).all(), "create topics " + missing);
        } catch (IllegalStateException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            // another worker created it at the same moment
        }
    }

    private static <T> T await(KafkaFuture<T> future, String what)
            throws InterruptedException {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot " + what + ": no answer from the brokers in " + ADMIN_TIMEOUT, e);
        }
    }
}
