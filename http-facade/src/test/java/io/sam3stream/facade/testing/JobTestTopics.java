package io.sam3stream.facade.testing;

import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.schemas.serde.AvroSerializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The topics of one job-store test (requests, results, heartbeats and the store's own two, all fresh names), the
 * environment a facade on them needs, and reads of what landed on them.
 */
public final class JobTestTopics {

    public final String requests = TestStack.uniqueTopic("requests");
    public final String results = TestStack.uniqueTopic("results");
    public final String workers = TestStack.uniqueTopic("workers");
    public final String jobs = TestStack.uniqueTopic("jobs");
    public final String submissions = TestStack.uniqueTopic("submissions");

    /** Creates the workers' topics (the facade creates its own). */
    public JobTestTopics create() throws Exception {
        TestStack.createTopics(4, Map.of(requests, false, results, false));
        TestStack.createTopics(1, Map.of(workers, true));
        return this;
    }

    /** A worker answering this test's requests, replies and job results alike. */
    public FakeWorker worker(String id, String group) {
        return new FakeWorker(id, group, requests, workers, results).ready();
    }

    /** The environment of a facade on these topics, its job store in {@code stateDir}. */
    public Map<String, String> facadeEnv(Path stateDir, String retention) {
        Map<String, String> env = new HashMap<>();
        env.put("SAM3_REQUESTS_TOPIC", requests);
        env.put("SAM3_RESULTS_TOPIC", results);
        env.put("SAM3_WORKERS_TOPIC", workers);
        env.put("SAM3_REPLY_TOPIC", TestStack.uniqueTopic("replies"));
        env.put("SAM3_JOBS_TOPIC", jobs);
        env.put("SAM3_JOB_SUBMISSIONS_TOPIC", submissions);
        env.put("SAM3_JOB_STATE_DIR", stateDir.toString());
        env.put("SAM3_JOB_RETENTION", retention);
        return env;
    }

    /** Produces a request as an event pipeline does: straight to the requests topic, no reply headers. */
    public void produceRequest(SegmentationRequest request) {
        Properties p = new Properties();
        p.put("bootstrap.servers", TestStack.bootstrapServers());
        try (KafkaProducer<String, SegmentationRequest> producer = new KafkaProducer<>(p, new StringSerializer(),
                new AvroSerializer<>(TestStack.registryClient(), true))) {
            producer.send(new ProducerRecord<>(requests, request.getRequestId(), request));
        }
    }

    /** How many request records carry each key (committed ones, from the start of the topic). */
    public Map<String, Integer> requestCounts() {
        Map<String, Integer> counts = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : readAll(requests)) {
            counts.merge(r.key(), 1, Integer::sum);
        }
        return counts;
    }

    /** Every committed record of a topic, from its start to its current end. */
    public static List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        Properties c = new Properties();
        c.put("bootstrap.servers", TestStack.bootstrapServers());
        c.put("isolation.level", "read_committed");
        c.put("max.partition.fetch.bytes", Integer.toString(TestStack.MAX_MESSAGE_BYTES));
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
