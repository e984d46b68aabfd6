package io.sam3stream.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the service's topics when they are missing, with sizes and policies set consistently. */
public final class TopicSetup {

    /** What one topic needs. */
    public record TopicSpec(String name, int partitions, boolean compacted) {}

    private TopicSetup() {}

    /**
     * Creates each missing topic with {@code max.message.bytes} = {@code maxMessageBytes} (compacted topics get
     * {@code cleanup.policy=compact}); existing topics are left as they are.
     */
    public static void ensure(Admin admin, List<TopicSpec> topics, int maxMessageBytes, short replication)
            throws InterruptedException {
        Set<String> existing;
        try {
            existing = admin.listTopics().names().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics: " + e.getCause(), e.getCause());
        }
        List<NewTopic> missing = new ArrayList<>();
        for (TopicSpec t : topics) {
            if (!existing.contains(t.name())) {
                missing.add(new NewTopic(t.name(), t.partitions(), replication).configs(Map.of(
                        "max.message.bytes", Integer.toString(maxMessageBytes),
                        "cleanup.policy", t.compacted() ? "compact" : "delete")));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try {
            admin.createTopics(missing).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topics " + missing + ": " + e.getCause(), e.getCause());
            }
            // another worker created it at the same moment
        }
    }
}
