package io.sam3stream.facade.jobs;

import io.sam3stream.facade.FacadeConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The job store's own topics, created when missing: the submissions topic with as many partitions as the results
 * topic (a submission and the result of the same id must reach the same task), and the compacted jobs topic. The
 * requests and results topics belong to the workers; until they exist the store waits.
 */
final class JobTopics {

    private JobTopics() {
    }

    /**
     * Creates what is missing.
     *
     * @return true once every topic exists with a leader for each partition; false while the workers' topics do
     *         not exist yet, and on the call that creates the store's own (try again later: Kafka Streams' global
     *         thread stops for good when it asks a broker that has not yet learnt of a new topic)
     */
    static boolean ensure(Admin admin, FacadeConfig config) throws InterruptedException, ExecutionException {
        FacadeConfig.JobsConfig jobs = config.jobs();
        Set<String> names = admin.listTopics().names().get();
        if (!names.contains(config.requestsTopic()) || !names.contains(jobs.resultsTopic())) {
            return false;
        }
        int partitions = admin.describeTopics(List.of(jobs.resultsTopic())).allTopicNames().get()
                .get(jobs.resultsTopic()).partitions().size();
        String maxBytes = Integer.toString(JobTopology.maxRecordBytes(config));
        if (!names.contains(jobs.submissionsTopic())) {
            // a submission matters only until it is forwarded: a day covers any outage of the store
            create(admin, new NewTopic(jobs.submissionsTopic(), Optional.of(partitions), Optional.empty())
                    .configs(Map.of("cleanup.policy", "delete", "max.message.bytes", maxBytes,
                            "retention.ms", Long.toString(Math.max(86_400_000L, jobs.retention().toMillis())))));
        } else {
            int existing = admin.describeTopics(List.of(jobs.submissionsTopic())).allTopicNames().get()
                    .get(jobs.submissionsTopic()).partitions().size();
            if (existing != partitions) {
                throw new IllegalStateException(jobs.submissionsTopic() + " has " + existing + " partitions but "
                        + jobs.resultsTopic() + " has " + partitions + ": they must be partitioned alike");
            }
        }
        if (!names.contains(jobs.jobsTopic())) {
            create(admin, new NewTopic(jobs.jobsTopic(), Optional.of(partitions), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", maxBytes)));
        }
        return names.contains(jobs.submissionsTopic()) && names.contains(jobs.jobsTopic())
                && everyPartitionLed(admin, List.of(jobs.submissionsTopic(), jobs.jobsTopic()));
    }

    private static boolean everyPartitionLed(Admin admin, List<String> topics)
            throws InterruptedException, ExecutionException {
        return admin.describeTopics(topics).allTopicNames().get().values().stream()
                .allMatch(t -> t.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
    }

    private static void create(Admin admin, NewTopic topic) throws InterruptedException, ExecutionException {
        try {
            admin.createTopics(List.of(topic)).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            // another facade instance created it at the same moment
        }
    }
}
