package io.sam3stream.facade.http;

import io.javalin.http.Context;
import io.sam3stream.avro.WorkerLimits;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.reply.ReplyPartitions;
import io.sam3stream.facade.workers.WorkerDirectory;
import io.sam3stream.schemas.DemoModel;
import io.sam3stream.schemas.WorkerRuntimeKeys;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service's self-description, from the workers' heartbeats and this instance's configuration:
 * {@code /health} (ok once a worker is READY and this instance reads a reply partition; 503 {@code starting}
 * before), {@code /info} and the OpenAI-shaped {@code /v1/models}.
 */
public final class StatusRoutes {

    /** The model name clients of the reference server know. */
    public static final String MODEL_NAME = "sam3-p150";

    private final WorkerDirectory workers;
    private final ReplyPartitions replyPartitions;
    private final FacadeConfig config;
    private final String version;
    private final Instant started;
    private final Clock clock;

    public StatusRoutes(WorkerDirectory workers, ReplyPartitions replyPartitions, FacadeConfig config,
            String version, Clock clock) {
        this.workers = workers;
        this.replyPartitions = replyPartitions;
        this.config = config;
        this.version = version;
        this.clock = clock;
        this.started = clock.instant();
    }

    /** {@code GET /health}. */
    public void health(Context ctx) {
        List<WorkerStatus> ready = workers.ready();
        boolean ok = !ready.isEmpty() && !replyPartitions.owned().isEmpty();
        Map<String, Object> device = new LinkedHashMap<>();
        if (!ready.isEmpty()) {
            device.put("backend", ready.get(0).getBackend());
            device.put("name", ready.get(0).getDevice());
        }
        device.put("ready_workers", ready.size());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", ok ? "ok" : "starting");
        body.put("model", MODEL_NAME);
        if (!ready.isEmpty()) {
            body.put("weights", Map.of("demo", DemoModel.is(ready.get(0).getModelRepo(),
                    ready.get(0).getModelRevision())));
        }
        body.put("device", device);
        ctx.status(ok ? 200 : 503).json(body);
    }

    /** {@code GET /info}. */
    public void info(Context ctx) {
        List<WorkerStatus> ready = workers.ready();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", MODEL_NAME);
        body.put("weights", ready.isEmpty() ? null : weights(ready.get(0)));
        body.put("limits", limits());
        body.put("source", Map.of("repo", "sam3-stream", "version", version));
        body.put("runtime", runtime());
        body.put("workers", ready.stream().map(this::worker).toList());
        ctx.json(body);
    }

    /** {@code GET /v1/models}: the list the OpenAI API returns, with the one model served. */
    public void models(Context ctx) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("id", MODEL_NAME);
        model.put("object", "model");
        model.put("created", started.getEpochSecond());
        model.put("owned_by", "sam3-stream");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "list");
        body.put("data", List.of(model));
        ctx.json(body);
    }

    private static Map<String, Object> weights(WorkerStatus worker) {
        Map<String, Object> weights = new LinkedHashMap<>();
        weights.put("demo", DemoModel.is(worker.getModelRepo(), worker.getModelRevision()));
        weights.put("repo", worker.getModelRepo());
        weights.put("revision", worker.getModelRevision());
        weights.put("checkpoint_path", worker.getCheckpointPath());
        return weights;
    }

    private Map<String, Object> limits() {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_side", config.maxSide());
        limits.put("max_pixels", config.maxPixels());
        limits.put("max_prompts", config.maxPrompts());
        limits.put("max_message_bytes", config.maxMessageBytes());
        limits.put("max_body_bytes", config.maxBodyBytes());
        limits.put("max_in_flight", config.maxInFlight());
        limits.put("reply_timeout_ms", config.replyTimeout().toMillis());
        return limits;
    }

    private Map<String, Object> runtime() {
        Map<String, Object> runtime = new LinkedHashMap<>();
        runtime.put("requests_topic", config.requestsTopic());
        runtime.put("reply_topic", config.replyTopic());
        runtime.put("reply_partitions", replyPartitions.owned());
        runtime.put("reply_partitions_leased", config.replyPartitions().isEmpty());
        runtime.put("workers_topic", config.workersTopic());
        runtime.put("auth", config.authRequired());
        // the reference server's device fields, over every ready worker whose encoder runs on a device
        List<WorkerStatus> onDevice = workers.ready().stream()
                .filter(s -> s.getRuntime().containsKey(WorkerRuntimeKeys.ENCODER_TRACE_CAPTURED)).toList();
        if (!onDevice.isEmpty()) {
            runtime.put(WorkerRuntimeKeys.ENCODER_TRACE_CAPTURED, onDevice.stream()
                    .allMatch(s -> "true".equals(s.getRuntime().get(WorkerRuntimeKeys.ENCODER_TRACE_CAPTURED))));
            runtime.put(WorkerRuntimeKeys.ENCODER_FALLBACKS, onDevice.stream()
                    .mapToLong(s -> count(s.getRuntime().get(WorkerRuntimeKeys.ENCODER_FALLBACKS))).sum());
        }
        return runtime;
    }

    /** A count a worker reported; a garbled one counts as one fallback, so it is never hidden. */
    private static long count(String reported) {
        try {
            return reported == null ? 0 : Long.parseLong(reported);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private Map<String, Object> worker(WorkerStatus s) {
        Map<String, Object> worker = new LinkedHashMap<>();
        worker.put("worker_id", s.getWorkerId());
        worker.put("state", s.getState().name());
        worker.put("backend", s.getBackend());
        worker.put("device", s.getDevice());
        worker.put("weights", weights(s));
        WorkerLimits l = s.getLimits();
        worker.put("limits", Map.of("max_side", l.getMaxSide(), "max_pixels", l.getMaxPixels(),
                "max_prompts", l.getMaxPrompts(), "max_message_bytes", l.getMaxMessageBytes()));
        worker.put("runtime", s.getRuntime());
        worker.put("source_commit", s.getSourceCommit());
        worker.put("last_forward_ms", s.getLastForwardMs());
        worker.put("heartbeat_age_ms", clock.millis() - s.getTimestamp().toEpochMilli());
        return worker;
    }
}
