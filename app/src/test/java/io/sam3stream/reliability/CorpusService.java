package io.sam3stream.reliability;

import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.kafka.KafkaTestStack;
import io.sam3stream.kafka.TestClients;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The service the bad-input corpus is sent to, and every way to reach it: HTTP through the facade, Avro records
 * straight onto the request topic, and the result and dead-letter topics to read outcomes from.
 *
 * @param stack    the running worker and facade
 * @param http     a client of the facade carrying its API key
 * @param requests a producer onto the request topic
 * @param outcomes follows the result and dead-letter topics
 */
record CorpusService(ServiceStack stack, HttpCalls http, TestClients.Requests requests, TopicTail outcomes)
        implements AutoCloseable {

    /** How long a worker may take to answer one record of the corpus. */
    static final Duration OUTCOME_TIMEOUT = Duration.ofSeconds(60);

    static CorpusService start() throws Exception {
        ServiceStack stack = ServiceStack.start("corpus", Map.of());
        TestClients.Requests requests = new TestClients.Requests(stack.worker().config().requestsTopic());
        TopicTail outcomes = new TopicTail(KafkaTestStack.bootstrapServers(), KafkaTestStack.MAX_MESSAGE_BYTES,
                List.of(stack.worker().config().resultsTopic(), stack.worker().config().deadLetterTopic()));
        return new CorpusService(stack, stack.facade().http(), requests, outcomes);
    }

    int port() {
        return stack.facade().server().port();
    }

    String token() {
        List<String> keys = stack.facade().config().apiKeys();
        return keys.isEmpty() ? null : keys.get(0);
    }

    String resultsTopic() {
        return stack.worker().config().resultsTopic();
    }

    String deadLetterTopic() {
        return stack.worker().config().deadLetterTopic();
    }

    /** The one record the request with this id led to, on the topic named. */
    ConsumerRecord<byte[], byte[]> awaitOutcome(String id, String topic) throws InterruptedException {
        ConsumerRecord<byte[], byte[]> record = outcomes.await(id, OUTCOME_TIMEOUT);
        if (!record.topic().equals(topic)) {
            throw new AssertionError(id + " led to a record on " + record.topic() + ", expected one on " + topic);
        }
        return record;
    }

    /** The result of the request with this id. */
    SegmentationResult awaitResult(String id) throws InterruptedException {
        ConsumerRecord<byte[], byte[]> record = awaitOutcome(id, resultsTopic());
        return new SpecificAvroDeserializer<>(KafkaTestStack.registryClient(), SegmentationResult.class)
                .deserialize(record.topic(), record.value());
    }

    @Override
    public void close() {
        outcomes.close();
        requests.close();
        stack.close();
    }
}
