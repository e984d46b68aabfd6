package io.sam3stream.kafka;

import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.Status;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.PreparedRequest;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.engine.Segmenter;
import io.sam3stream.operations.RecordTrace;
import io.sam3stream.operations.ReplyProblem;
import io.sam3stream.operations.Verdict;
import io.sam3stream.operations.WorkerMetrics;
import io.sam3stream.schemas.Topics.DeadLetterHeaders;
import io.sam3stream.schemas.Topics.ReplyHeaders;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.registry.SchemaRegistryException;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.schemas.serde.UndecodableRecordException;
import io.sam3stream.telemetry.Tracing;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's {@link RecordPipeline}: a request record becomes a {@code SegmentationResult} (or a dead letter) in
 * four stages on two executors, so that one record's host work overlaps another's forward:
 * <ol>
 *   <li>host: decode the Avro request, read its image, {@link Segmenter#prepare} (decode and preprocess);</li>
 *   <li>device: {@link Segmenter#infer}, on the one thread that owns the model (docs/ARCHITECTURE.md,
 *       invariant 2);</li>
 *   <li>host: {@link Segmenter#finish} (post-processing, mask encoding) and the Avro result;</li>
 *   <li>host: any failure of the stages above turned into its outcome.</li>
 * </ol>
 * A record that cannot be decoded becomes a dead letter with Kafka Connect's context headers; a request the engine
 * refuses, or whose deadline passes, an {@code ERROR} result with the engine's code (the contract's symbol of the
 * same name); anything else an {@code INTERNAL_ERROR} whose message is an error id, the exception being logged under
 * it. An unreachable schema registry or broker is waited for, never
 * taken for a bad record. So every future completes normally, until {@link #close}.
 *
 * <p>Each record is traced ({@link RecordTrace}): a span per stage, under the trace context its headers carry, and
 * that context handed on in the outcome's headers.
 */
public final class SegmentationPipeline implements RecordPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentationPipeline.class);

    /** One record per stage: the next one preparing, the current one on the device, the previous one finishing. */
    public static final int CAPACITY = 3;

    /**
     * Room in a Kafka record batch for everything but the value: batch and record framing, the key (a request id)
     * and the correlation header. A result is refused before it is sent when value plus this exceeds the limit.
     */
    private static final int RECORD_OVERHEAD_BYTES = 1024;

    /** Far longer than any forward: a stop waits for the one running rather than pull the engine from under it. */
    private static final Duration DEVICE_STOP_WAIT = Duration.ofMinutes(10);

    /** Host work ends at the next interrupt check or retry pause. */
    private static final Duration HOST_STOP_WAIT = Duration.ofSeconds(10);

    private final Segmenter engine;
    private final Deserializer<SegmentationRequest> requests;
    private final Serializer<SegmentationResult> results;
    private final RequestTranslator translator;
    private final ResultFactory resultFactory;
    private final ReplyTopics replyTopics;
    private final String resultsTopic;
    private final String deadLetterTopic;
    private final int maxMessageBytes;
    private final Backoff backoff;
    private final Clock clock;
    private final DoubleConsumer forwardObserver;
    private final WorkerMetrics metrics;
    private final Tracing tracing;
    private final String consumerGroup;
    private final ExecutorService host;
    private final ExecutorService device;

    /**
     * @param engine          the model; this pipeline is its only caller while it runs
     * @param config          the worker's topics, limits and image root
     * @param registry        where request schemas are fetched and result schemas registered
     * @param admin           looks up the reply topics requests name
     * @param forwardObserver told the wall time of every forward, in milliseconds
     * @param metrics         told the stage and module times, the cache look-ups and the device's busy time
     * @param tracing         where each record's spans go
     */
    public SegmentationPipeline(Segmenter engine, WorkerConfig config, SchemaRegistryClient registry, Admin admin,
            DoubleConsumer forwardObserver, WorkerMetrics metrics, Tracing tracing) {
        this.engine = engine;
        this.requests = new SpecificAvroDeserializer<>(registry, SegmentationRequest.class);
        this.results = new AvroSerializer<>(registry, true);
        this.clock = Clock.systemUTC();
        this.translator = new RequestTranslator(new ClaimCheck(config.imageRoot(), maxImageFileBytes(config)), clock);
        this.resultFactory = new ResultFactory(config.workerId(), engine.info());
        this.backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
        this.replyTopics = new ReplyTopics(admin, config.resultsTopic(), backoff, clock);
        this.resultsTopic = config.resultsTopic();
        this.deadLetterTopic = config.deadLetterTopic();
        this.maxMessageBytes = config.maxMessageBytes();
        this.forwardObserver = forwardObserver;
        this.metrics = metrics;
        this.tracing = tracing;
        this.consumerGroup = config.consumerGroup();
        // two host threads: one record preparing while another finishes
        this.host = Executors.newFixedThreadPool(2, named("sam3-host"));
        this.device = Executors.newSingleThreadExecutor(named("sam3-device"));
    }

    @Override
    public CompletableFuture<Outcome> submit(ConsumerRecord<byte[], byte[]> record) {
        Job job = new Job(record, clock.millis(), System.nanoTime(), RecordTrace.start(tracing, record, consumerGroup));
        metrics.queueWait(job.queueMs);
        return CompletableFuture.supplyAsync(() -> prepare(job), host)
                .thenApplyAsync(prepared -> infer(job, prepared), device)
                .thenApplyAsync(inference -> finish(job, inference), host)
                .handleAsync((outcome, failure) -> traced(job, outcome != null ? outcome : failed(job,
                        unwrap(failure))), host);
    }

    @Override
    public int capacity() {
        return CAPACITY;
    }

    /**
     * Stops both executors; records still in the pipeline are abandoned (their futures never complete). A forward
     * already running is waited for, since the engine must not be closed under it; see {@link #deviceStopped()}.
     */
    @Override
    public void close() {
        host.shutdownNow();
        device.shutdownNow();
        try {
            if (!device.awaitTermination(DEVICE_STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("a forward is still running {} after the pipeline closed", DEVICE_STOP_WAIT);
            }
            host.awaitTermination(HOST_STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the device thread has ended, so the engine may be closed: false only after a forward outlasted close. */
    public boolean deviceStopped() {
        return device.isTerminated();
    }

    /** One record on its way through the stages. */
    private static final class Job {
        final ConsumerRecord<byte[], byte[]> record;
        final double queueMs;
        final long takenUpNanos;
        final RecordTrace trace;
        /** Set once the record decoded; a failure before that makes a dead letter. */
        SegmentationRequest request;

        Job(ConsumerRecord<byte[], byte[]> record, long takenUpMillis, long takenUpNanos, RecordTrace trace) {
            this.record = record;
            this.trace = trace;
            this.queueMs = record.timestamp() >= 0 ? Math.max(0, takenUpMillis - record.timestamp()) : 0;
            this.takenUpNanos = takenUpNanos;
        }

        double elapsedMs() {
            return (System.nanoTime() - takenUpNanos) / 1e6;
        }
    }

    private PreparedRequest prepare(Job job) {
        if (job.record.value() == null) {
            throw new UndecodableRecordException(UndecodableRecordException.Reason.TRUNCATED_HEADER,
                    "the record has no value (a tombstone), so no request");
        }
        job.request = job.trace.stage("decode request", () -> backoff.retry("reading request "
                + job.record.topic() + "-" + job.record.partition() + "@" + job.record.offset(),
                () -> requests.deserialize(job.record.topic(), job.record.headers(), job.record.value()),
                SegmentationPipeline::isRegistryUnavailable));
        job.trace.requestDecoded(job.request.getRequestId(), job.request.getPrompts().size());
        SegmentRequest engineRequest = translator.toEngine(job.request);
        return job.trace.prepare(() -> engine.prepare(engineRequest));
    }

    private Inference infer(Job job, PreparedRequest prepared) {
        translator.requireBeforeDeadline(job.request); // it may have waited behind a long forward
        long start = System.nanoTime();
        Inference inference;
        metrics.device().begin();
        try {
            inference = job.trace.forward(() -> engine.infer(prepared));
        } finally {
            metrics.device().end();
        }
        forwardObserver.accept((System.nanoTime() - start) / 1e6);
        metrics.inferred(inference);
        return inference;
    }

    private Outcome finish(Job job, Inference inference) {
        SegmentResponse response = job.trace.stage("finish", () -> engine.finish(inference));
        metrics.segmented(response.timings());
        return encode(job, resultFactory.ok(job.request, response, job.queueMs, job.elapsedMs()));
    }

    private Outcome failed(Job job, Throwable failure) {
        if (failure instanceof CancellationException cancelled) {
            job.trace.abandon();
            throw cancelled; // closing: nobody publishes this record's outcome any more
        }
        if (job.request == null) {
            LOG.warn("dead-lettering {}-{}@{}: {}", job.record.topic(), job.record.partition(), job.record.offset(),
                    failure.toString());
            return DeadLetters.of(job.record, deadLetterTopic, DeadLetterHeaders.STAGE_VALUE_CONVERTER,
                    SpecificAvroDeserializer.class, failure);
        }
        if (failure instanceof RequestRejectedException rejected) {
            return encode(job, resultFactory.error(job.request, ResultFactory.contractCode(rejected.code()),
                    rejected.getMessage(), job.queueMs, job.elapsedMs()));
        }
        // the exception's text may name files or internals: it stays in the worker's log under an id that the
        // result carries
        String errorId = UUID.randomUUID().toString();
        LOG.error("request {} failed (error id {})", job.request.getRequestId(), errorId, failure);
        return encode(job, resultFactory.error(job.request, ErrorCode.INTERNAL_ERROR,
                "internal error " + errorId + " (the worker's log has the details)", job.queueMs,
                job.elapsedMs()));
    }

    /** The outcome with the record's trace context in its headers; the record's span ends here. */
    private static Outcome traced(Job job, Outcome outcome) {
        job.trace.injectInto(outcome.headers());
        job.trace.end(outcome.verdict());
        return outcome;
    }

    /**
     * The result as a record to its destination. A result too large for a record becomes an ERROR instead, and so
     * does one whose request named a reply destination that cannot be used (a topic or partition that does not
     * exist, a malformed partition header): that ERROR goes where a result can go (the results topic in place of a
     * destination that does not exist), so that the requester sees why its reply never came rather than a result
     * turning up somewhere it did not ask for.
     */
    private Outcome encode(Job job, SegmentationResult result) {
        ReplyDestination wanted = ReplyDestination.of(job.record.headers(), resultsTopic);
        ReplyDestination destination = replyTopics.check(wanted);
        String headerProblem = ReplyDestination.partitionHeaderProblem(job.record.headers());
        ReplyProblem problem = destination != wanted ? ReplyProblem.UNKNOWN_DESTINATION
                : headerProblem != null ? ReplyProblem.BAD_PARTITION_HEADER : null;
        String replyProblem = problem == ReplyProblem.UNKNOWN_DESTINATION
                ? "the reply destination " + wanted.topic() + (wanted.partition() == null ? "" : "[" + wanted.partition()
                        + "]") + " named by the request's " + ReplyHeaders.REPLY_TOPIC + "/" + ReplyHeaders.REPLY_PARTITION
                        + " headers does not exist"
                : headerProblem;
        if (replyProblem != null && result.getStatus() == Status.OK) {
            LOG.warn("request {}: {}; answering with an ERROR on {}", result.getRequestId(), replyProblem,
                    destination.topic());
            return encode(job, resultFactory.error(job.request, ErrorCode.BAD_REQUEST,
                    replyProblem + "; the segmentation was not delivered: fix the headers and send the request again",
                    job.queueMs, job.elapsedMs()));
        }
        long encodeStart = System.nanoTime();
        byte[] value = job.trace.stage("encode result", () -> backoff.retry("writing result "
                + result.getRequestId(), () -> results.serialize(destination.topic(), result),
                SegmentationPipeline::isRegistryUnavailable));
        metrics.encoded(Duration.ofNanos(System.nanoTime() - encodeStart));
        if (value.length + RECORD_OVERHEAD_BYTES > maxMessageBytes) {
            return encode(job, resultFactory.error(job.request, ErrorCode.PAYLOAD_TOO_LARGE,
                    "the result takes " + value.length + " bytes, more than SAM3_MAX_MESSAGE_BYTES=" + maxMessageBytes
                            + " allows; ask for mask_format rle_compressed or none, or fewer instances",
                    job.queueMs, job.elapsedMs()));
        }
        metrics.processed(result.getStatus(), job.elapsedMs());
        return new Outcome(destination.topic(), destination.partition(),
                result.getRequestId().getBytes(StandardCharsets.UTF_8), value, destination.resultHeaders(),
                new Verdict.Answered(result.getStatus(), result.getError() == null ? null : result.getError().getCode(),
                        problem));
    }

    /**
     * The registry could not be reached or failed: worth waiting for, unlike a record that is bad (which the
     * registry may have confirmed, as with an unknown schema id: that failure carries the registry's answer too).
     */
    private static boolean isRegistryUnavailable(RuntimeException e) {
        return !(e instanceof UndecodableRecordException)
                && (e instanceof SchemaRegistryException || e.getCause() instanceof SchemaRegistryException);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * The largest claim-check file worth reading: an image at the pixel limit stored without compression, at the
     * widest sample format a PNG has (16-bit RGBA, 8 bytes a pixel), plus room for metadata chunks.
     */
    private static long maxImageFileBytes(WorkerConfig config) {
        return 8 * config.limits().getMaxPixels() + (1 << 20);
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
