package io.sam3stream.operations;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sam3stream.avro.ErrorCode;
import io.sam3stream.avro.Status;
import io.sam3stream.engine.EngineInfo;
import io.sam3stream.engine.Inference;
import io.sam3stream.engine.StageTimings;
import io.sam3stream.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * A worker's meters, scraped as Prometheus text from its {@code /metrics} (README, Operations, has the table).
 *
 * <p>Counters of outcomes (results, dead letters, reply-destination problems) count what was committed, so a
 * transaction that is aborted and repeated counts its records once. Latencies count the work done, including work
 * whose outcome was later dropped by a rewind. Every label value that is known in advance is registered at zero, so
 * a rate over a series that has never moved is 0 rather than missing.
 */
public final class WorkerMetrics {

    /** Latencies span a cached tiny-model answer (a millisecond) to a full-size CPU forward (minutes). */
    private static final Duration MIN_LATENCY = Duration.ofMillis(1);
    private static final Duration MAX_LATENCY = Duration.ofMinutes(10);

    /** How often the consumer's own metrics are looked through for new ones (a partition's lag once assigned). */
    private static final Duration KAFKA_METRICS_REFRESH = Duration.ofSeconds(5);

    /** The {@code code} label of an OK result. */
    static final String NO_CODE = "none";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter consumed;
    private final Timer queueWait;
    private final Timer commit;
    private final BusyTime device = new BusyTime();

    /**
     * @param requestsTopic the topic the worker consumes. Kafka's consumer reports each metric of a topic whose name
     *                      holds dots a second time under the name with underscores (for old JMX tools); that copy
     *                      is dropped here, so a sum over partitions counts each partition once
     */
    public WorkerMetrics(String requestsTopic) {
        if (requestsTopic.contains(".")) {
            String legacy = requestsTopic.replace('.', '_');
            registry.config().meterFilter(MeterFilter.deny(id -> id.getName().startsWith("kafka.consumer")
                    && legacy.equals(id.getTag("topic"))));
        }
        consumed = Counter.builder("sam3.worker.records.consumed")
                .description("Request records polled from the request topic (again after a rewind)")
                .register(registry);
        queueWait = histogram(Timer.builder("sam3.worker.queue.wait")
                .description("From a request record's timestamp to the worker taking it up"))
                .register(registry);
        commit = histogram(Timer.builder("sam3.worker.transaction.commit")
                .description("Time the brokers took to commit one transaction of outcomes and offsets"))
                .register(registry);
        FunctionCounter.builder("sam3.worker.device.busy", device, BusyTime::seconds)
                .description("Seconds the device thread spent in forwards, the one under way included; its rate is"
                        + " the fraction of time the device was busy")
                .baseUnit("seconds")
                .register(registry);
        result(Status.OK, null);
        for (ErrorCode code : ErrorCode.values()) {
            result(Status.ERROR, code);
        }
        for (UndecodableRecordException.Reason reason : UndecodableRecordException.Reason.values()) {
            deadLetter(reason.name());
        }
        for (ReplyProblem problem : ReplyProblem.values()) {
            replyProblem(problem);
        }
        for (String cache : new String[] {"image", "text"}) {
            cacheLookups(cache, true);
            cacheLookups(cache, false);
        }
    }

    /**
     * The engine is loaded: publishes {@code sam3_worker_info}, always 1, whose labels say what this worker serves.
     */
    public void engineLoaded(String workerId, EngineInfo engine) {
        Gauge.builder("sam3.worker.info", () -> 1)
                .description("What this worker serves, as labels; the value is always 1")
                .tags(Tags.of("worker_id", workerId, "backend", label(engine.backend()),
                        "device", label(engine.device()), "model", label(engine.modelRepo()),
                        "revision", label(engine.modelRevision()), "precision", precision(engine)))
                .register(registry);
    }

    /** Publishes {@code sam3_worker_ready}: 1 while {@code health}'s readiness probe passes, else 0. */
    public void readiness(WorkerHealth health) {
        Gauge.builder("sam3.worker.ready", health, h -> h.readiness().passes() ? 1 : 0)
                .description("1 while the readiness probe passes (warm-up done, consuming), else 0")
                .strongReference(true)
                .register(registry);
    }

    /**
     * Publishes the consumer's own metrics (among them {@code kafka_consumer_fetch_manager_records_lag} by topic
     * and partition) until the returned handle is closed.
     */
    public AutoCloseable bindConsumer(Consumer<?, ?> consumer) {
        ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "sam3-kafka-metrics");
            t.setDaemon(true);
            return t;
        });
        KafkaClientMetrics kafka = new KafkaClientMetrics(consumer, Tags.empty(), refresher, KAFKA_METRICS_REFRESH);
        kafka.bindTo(registry);
        return kafka; // closing it stops the refresher too
    }

    /** The loop polled {@code records} records. */
    public void consumed(int records) {
        consumed.increment(records);
    }

    /** A record waited {@code millis} from its timestamp until the worker took it up. */
    public void queueWait(double millis) {
        queueWait.record(ofMillis(millis));
    }

    /** The device thread's busy time, which forwards are measured on. */
    public BusyTime device() {
        return device;
    }

    /** One forward's module times and cache lookups. */
    public void inferred(Inference inference) {
        if (!inference.imageFeaturesCached()) {
            module("image_encoder", inference.imageEncoderMs());
        }
        if (inference.textFeaturesComputed() > 0) {
            module("text_encoder", inference.textEncoderMs());
        }
        module("grounding", inference.groundingMs());
        cacheLookups("image", inference.imageFeaturesCached()).increment();
        int prompts = inference.prepared().request().prompts().size();
        cacheLookups("text", true).increment(prompts - inference.textFeaturesComputed());
        cacheLookups("text", false).increment(inference.textFeaturesComputed());
    }

    /** The engine's stage times of one segmented request ({@code timing_ms}). */
    public void segmented(StageTimings timings) {
        stage("decode", timings.decode());
        stage("preprocess", timings.preprocess());
        stage("forward", timings.forward());
        stage("postprocess", timings.postprocess());
    }

    /** Writing one result in the wire format took {@code duration}. */
    public void encoded(Duration duration) {
        stageTimer("encode").record(duration);
    }

    /** From taking a record up to its result being ready, for a result of {@code status}. */
    public void processed(Status status, double millis) {
        histogram(Timer.builder("sam3.worker.request")
                .description("From the worker taking a request up to its result being ready")
                .tag("status", status.name()))
                .register(registry)
                .record(ofMillis(millis));
    }

    /** One transaction committed after {@code duration}. */
    public void committed(Duration duration) {
        commit.record(duration);
    }

    /** One outcome was committed. */
    public void published(Verdict verdict) {
        if (verdict instanceof Verdict.Answered answered) {
            result(answered.status(), answered.code()).increment();
            if (answered.replyProblem() != null) {
                replyProblem(answered.replyProblem()).increment();
            }
        } else if (verdict instanceof Verdict.DeadLettered dead) {
            deadLetter(dead.reason()).increment();
        }
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /** The content type of {@link #scrape()}. */
    public static String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }

    private Counter result(Status status, ErrorCode code) {
        return Counter.builder("sam3.worker.results")
                .description("Results committed, by status and error code")
                .tag("status", status.name())
                .tag("code", code == null ? NO_CODE : code.name())
                .register(registry);
    }

    private Counter deadLetter(String reason) {
        return Counter.builder("sam3.worker.dead.letters")
                .description("Records committed to the dead-letter topic, by why they could not be read")
                .tag("reason", reason)
                .register(registry);
    }

    private Counter replyProblem(ReplyProblem problem) {
        return Counter.builder("sam3.worker.reply.destination.problems")
                .description("Requests whose reply headers named a destination that cannot be used; each got an"
                        + " ERROR result saying so")
                .tag("problem", problem.label())
                .register(registry);
    }

    private Counter cacheLookups(String cache, boolean hit) {
        return Counter.builder("sam3.worker.cache.lookups")
                .description("Feature-cache look-ups of the engine: one per request for images, one per prompt for"
                        + " texts")
                .tag("cache", cache)
                .tag("result", hit ? "hit" : "miss")
                .register(registry);
    }

    private void module(String module, double millis) {
        histogram(Timer.builder("sam3.worker.model.module")
                .description("Time one model module ran for a request")
                .tag("module", module))
                .register(registry)
                .record(ofMillis(millis));
    }

    private void stage(String stage, double millis) {
        stageTimer(stage).record(ofMillis(millis));
    }

    private Timer stageTimer(String stage) {
        return histogram(Timer.builder("sam3.worker.stage")
                .description("Time one stage of a request took: the engine's timing_ms, and the result's encoding")
                .tag("stage", stage))
                .register(registry);
    }

    /** What the engine computes in ({@code fp32}, {@code bf16}), without the reason it gives for the choice. */
    private static String precision(EngineInfo engine) {
        String described = label(engine.precision());
        int reason = described.indexOf(':');
        return reason < 0 ? described : described.substring(0, reason);
    }

    /** A label value: Prometheus has no null, and an absent identity is as good as empty. */
    private static String label(String value) {
        return Objects.toString(value, "");
    }

    private static Duration ofMillis(double millis) {
        return Duration.ofNanos(Math.round(millis * 1e6));
    }

    private static Timer.Builder histogram(Timer.Builder builder) {
        return builder.publishPercentileHistogram().minimumExpectedValue(MIN_LATENCY)
                .maximumExpectedValue(MAX_LATENCY);
    }
}
