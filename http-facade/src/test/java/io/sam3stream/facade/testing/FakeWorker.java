package io.sam3stream.facade.testing;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.CocoRle;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.ErrorDetail;
import io.sam3stream.avro.Instance;
import io.sam3stream.avro.MaskFormat;
import io.sam3stream.avro.ModelIdentity;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.PromptResult;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.avro.Timing;
import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.avro.WorkerState;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.imageheader.ImageHeader;
import io.sam3stream.schemas.Topics;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A stand-in worker written only against the contract: it reads Avro {@code SegmentationRequest}s, answers each
 * with a {@code SegmentationResult} sent where Spring Kafka's three reply headers say (copying the correlation
 * id), and publishes {@code WorkerStatus} heartbeats. Its answer is derived from the request's content, so a test
 * can tell whose result it got; the first prompt can steer it:
 * <ul>
 *   <li>{@code silent}: never answers;</li>
 *   <li>{@code late:<ms>}: answers after that many milliseconds;</li>
 *   <li>{@code hold}: answers when {@link #releaseHeld()} is called;</li>
 *   <li>{@code error:<CODE>:<message>}: answers ERROR with that code.</li>
 * </ul>
 */
public final class FakeWorker implements AutoCloseable {

    public static final int HEARTBEAT_INTERVAL_MS = 200;

    private final String workerId;
    private final String workersTopic;
    private final String resultsTopic;
    private final KafkaConsumer<String, SegmentationRequest> consumer;
    private final KafkaProducer<String, IndexedRecord> producer;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    private final List<ConsumerRecord<String, SegmentationRequest>> held = new CopyOnWriteArrayList<>();
    private final List<SegmentationRequest> received = new CopyOnWriteArrayList<>();
    private final Thread loop;
    private volatile boolean running = true;
    private volatile Map<String, String> runtime = Map.of("SAM3_PRECISION", "fp32");
    private ScheduledFuture<?> heartbeats;

    /**
     * @param workerId      this worker's id
     * @param group         consumer group shared by the workers of one test
     * @param requestsTopic topic to read requests from
     * @param workersTopic  topic for heartbeats
     */
    public FakeWorker(String workerId, String group, String requestsTopic, String workersTopic) {
        this(workerId, group, requestsTopic, workersTopic, null);
    }

    /**
     * A worker that, as the real one, answers a request without reply headers on {@code resultsTopic}, keyed by
     * its request id (null: such requests are not expected).
     */
    public FakeWorker(String workerId, String group, String requestsTopic, String workersTopic,
            String resultsTopic) {
        this.workerId = workerId;
        this.resultsTopic = resultsTopic;
        this.workersTopic = workersTopic;
        SchemaRegistryClient registry = TestStack.registryClient();
        Properties c = new Properties();
        c.put("bootstrap.servers", TestStack.bootstrapServers());
        c.put("group.id", group);
        c.put("auto.offset.reset", "earliest");
        c.put("isolation.level", "read_committed");
        c.put("max.partition.fetch.bytes", Integer.toString(TestStack.MAX_MESSAGE_BYTES));
        consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new SpecificAvroDeserializer<>(registry, SegmentationRequest.class));
        consumer.subscribe(List.of(requestsTopic));
        Properties p = new Properties();
        p.put("bootstrap.servers", TestStack.bootstrapServers());
        p.put("max.request.size", Integer.toString(TestStack.MAX_MESSAGE_BYTES));
        producer = new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<>(registry, true));
        loop = new Thread(this::run, "fake-worker-" + workerId);
        loop.start();
    }

    /** Starts publishing READY every {@link #HEARTBEAT_INTERVAL_MS}. */
    public FakeWorker ready() {
        heartbeats = scheduler.scheduleAtFixedRate(() -> announce(WorkerState.READY), 0, HEARTBEAT_INTERVAL_MS,
                TimeUnit.MILLISECONDS);
        return this;
    }

    /** Heartbeats from now on carry {@code extra} in their runtime map too. */
    public FakeWorker withRuntime(Map<String, String> extra) {
        Map<String, String> all = new java.util.HashMap<>(runtime);
        all.putAll(extra);
        runtime = Map.copyOf(all);
        return this;
    }

    /** Stops heartbeating without a word, as a killed worker does. */
    public void stopHeartbeats() {
        heartbeats.cancel(false);
    }

    /** Publishes one status. */
    public void announce(WorkerState state) {
        WorkerStatus status = WorkerStatus.newBuilder()
                .setWorkerId(workerId)
                .setState(state)
                .setBackend("cpu")
                .setDevice("cpu")
                .setModelRepo("facebook/sam3")
                .setModelRevision("3c879f39826c281e95690f02c7821c4de09afae7")
                .setCheckpointPath("/weights/sam3.pt")
                .setLimits(WorkerLimits.newBuilder().setMaxSide(4096).setMaxPixels(16_777_216).setMaxPrompts(4)
                        .setMaxMessageBytes(TestStack.MAX_MESSAGE_BYTES).build())
                .setRuntime(runtime)
                .setSourceCommit(null)
                .setLastForwardMs(12.5)
                .setHeartbeatIntervalMs(HEARTBEAT_INTERVAL_MS)
                .setTimestamp(Instant.now())
                .build();
        producer.send(new ProducerRecord<>(workersTopic, workerId, status));
    }

    /** Answers every request held by a {@code hold} prompt. */
    public void releaseHeld() {
        List<ConsumerRecord<String, SegmentationRequest>> now = new ArrayList<>(held);
        held.removeAll(now);
        now.forEach(this::reply);
    }

    /** Requests this worker has read, in order. */
    public List<SegmentationRequest> received() {
        return received;
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, SegmentationRequest> record : consumer.poll(Duration.ofMillis(200))) {
                    received.add(record.value());
                    String steer = record.value().getPrompts().get(0).getText();
                    if (steer.equals("silent")) {
                        continue;
                    }
                    if (steer.equals("hold")) {
                        held.add(record);
                    } else if (steer.startsWith("late:")) {
                        scheduler.schedule(() -> reply(record), Long.parseLong(steer.substring(5)),
                                TimeUnit.MILLISECONDS);
                    } else {
                        reply(record);
                    }
                }
                consumer.commitSync();
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void reply(ConsumerRecord<String, SegmentationRequest> request) {
        if (request.headers().lastHeader(Topics.ReplyHeaders.REPLY_TOPIC) == null && resultsTopic != null) {
            SegmentationRequest r = request.value();
            producer.send(new ProducerRecord<>(resultsTopic, r.getRequestId(), answer(r)));
            return;
        }
        Header correlation = request.headers().lastHeader(Topics.ReplyHeaders.CORRELATION_ID);
        String topic = new String(request.headers().lastHeader(Topics.ReplyHeaders.REPLY_TOPIC).value(),
                StandardCharsets.UTF_8);
        int partition = ByteBuffer.wrap(request.headers().lastHeader(Topics.ReplyHeaders.REPLY_PARTITION).value())
                .getInt();
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.ReplyHeaders.CORRELATION_ID, correlation.value());
        SegmentationRequest r = request.value();
        producer.send(new ProducerRecord<>(topic, partition, r.getRequestId(), answer(r), headers));
    }

    /** A result made from the request's own content. */
    private SegmentationResult answer(SegmentationRequest r) {
        SegmentationResult.Builder result = SegmentationResult.newBuilder()
                .setRequestId(r.getRequestId())
                .setThreshold(r.getThreshold())
                .setMaskFormat(r.getMaskFormat())
                .setTimingMs(Timing.newBuilder().setQueue(1).setDecode(2).setPreprocess(3).setForward(40)
                        .setForwardPerPrompt(40.0 / r.getPrompts().size()).setPostprocess(5).setTotal(50).build())
                .setWorkerId(workerId)
                .setModel(new ModelIdentity("facebook/sam3", "3c879f39826c281e95690f02c7821c4de09afae7"))
                .setDevice("cpu")
                .setMetadata(r.getMetadata());
        String steer = r.getPrompts().get(0).getText();
        if (steer.startsWith("error:")) {
            String[] parts = steer.split(":", 3);
            return result.setStatus(Status.ERROR)
                    .setError(new ErrorDetail(ErrorCode.valueOf(parts[1]), parts[2]))
                    .setResults(List.of())
                    .build();
        }
        byte[] image = new byte[r.getImage().remaining()];
        r.getImage().duplicate().get(image);
        ImageHeader header = ImageHeader.read(image);
        List<PromptResult> results = new ArrayList<>();
        for (Prompt prompt : r.getPrompts()) {
            Box box = prompt.getBoxes().isEmpty() ? new Box(0f, 0f, (float) header.width(), (float) header.height())
                    : prompt.getBoxes().get(0).getBoxXyxy();
            results.add(new PromptResult(prompt.getText(), 0.95f, 1,
                    List.of(instance(r.getMaskFormat(), prompt.getText(), box, header))));
        }
        return result.setStatus(Status.OK).setError(null).setWidth(header.width()).setHeight(header.height())
                .setInputSize(1008).setResults(results).build();
    }

    private static Instance instance(MaskFormat format, String prompt, Box box, ImageHeader image) {
        Instance.Builder instance = Instance.newBuilder().setScore(0.9f).setBoxXyxy(box)
                .setMaskArea(format == MaskFormat.none ? null : (long) image.width() * image.height())
                .setMaskPng(null).setMaskRle(null);
        List<Integer> size = List.of(image.height(), image.width());
        switch (format) {
            case png -> instance.setMaskPng(ByteBuffer.wrap(("mask of " + prompt).getBytes(StandardCharsets.UTF_8)));
            case rle -> instance.setMaskRle(new CocoRle(size, List.of(0, image.width() * image.height())));
            case rle_compressed -> instance.setMaskRle(new CocoRle(size, "0" + prompt));
            case none -> { }
        }
        return instance.build();
    }

    /** Stops reading and heartbeating (without announcing anything). */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            loop.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler.shutdownNow();
        producer.close(Duration.ofSeconds(5));
    }
}
