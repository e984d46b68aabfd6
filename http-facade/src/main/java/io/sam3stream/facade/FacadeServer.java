package io.sam3stream.facade;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.json.JavalinJackson;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.avro.WorkerStatus;
import io.sam3stream.facade.http.ApiException;
import io.sam3stream.facade.http.BearerAuth;
import io.sam3stream.facade.http.DemoPage;
import io.sam3stream.facade.http.ErrorResponses;
import io.sam3stream.facade.http.HttpServerSpans;
import io.sam3stream.facade.http.InFlightLimiter;
import io.sam3stream.facade.http.JobJson;
import io.sam3stream.facade.http.JobRoutes;
import io.sam3stream.facade.http.OpenApiRoute;
import io.sam3stream.facade.http.PredictRoute;
import io.sam3stream.facade.http.RequestTiming;
import io.sam3stream.facade.http.StatusRoutes;
import io.sam3stream.facade.jobs.JobStore;
import io.sam3stream.facade.jobs.JobSubmitter;
import io.sam3stream.facade.kafka.FacadeKafkaProperties;
import io.sam3stream.facade.kafka.ReplyTopic;
import io.sam3stream.facade.metrics.FacadeMetrics;
import io.sam3stream.facade.predict.PredictRequestParser;
import io.sam3stream.facade.predict.RequestLimits;
import io.sam3stream.facade.reply.PendingReplies;
import io.sam3stream.facade.reply.ReplyListener;
import io.sam3stream.facade.reply.ReplyPartitions;
import io.sam3stream.facade.reply.RequestReplyClient;
import io.sam3stream.facade.workers.HeartbeatListener;
import io.sam3stream.facade.workers.WorkerDirectory;
import io.sam3stream.schemas.json.ResultRenderer;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.AvroSerializer;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.telemetry.Tracing;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP facade as one object with {@link #start()} and {@link #stop()}: the Javalin server on the front, a
 * Kafka producer of requests, a reply listener, a heartbeat listener and the job store behind it. {@code FacadeMain} runs one per
 * process; the dev stack and the tests run it in-process. A server starts once; after {@link #stop()} make a new
 * one.
 */
public final class FacadeServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FacadeServer.class);

    /**
     * Paths served without a bearer token: orchestrators probe health before they hold any secret (the demo page's
     * own files are open too, see {@link DemoPage}).
     */
    private static final Set<String> OPEN_PATHS = Set.of("/health");

    private final FacadeConfig config;
    private final Clock clock;
    private final String instanceId = UUID.randomUUID().toString().substring(0, 8);

    private final FacadeMetrics metrics = new FacadeMetrics();
    private final WorkerDirectory workers;
    private final ReplyPartitions replyPartitions = new ReplyPartitions();
    private final InFlightLimiter limiter;
    /** How to stop each started part, the last started on top. */
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private final Tracing tracing;
    private volatile Javalin http;
    private volatile JobStore jobs;
    private boolean started;

    /** The {@code service.name} of the facade's spans. */
    public static final String SERVICE_NAME = "sam3-facade";

    /** A facade whose spans go to the configuration's collector, if it names one. */
    public FacadeServer(FacadeConfig config) {
        this(config, null, Clock.systemUTC());
    }

    /**
     * A facade whose spans go to {@code tracing}, which it closes when it stops (an in-memory exporter in tests,
     * the application's own OpenTelemetry when embedded).
     */
    public FacadeServer(FacadeConfig config, Tracing tracing) {
        this(config, tracing, Clock.systemUTC());
    }

    FacadeServer(FacadeConfig config, Tracing tracing, Clock clock) {
        this.config = config;
        this.tracing = tracing != null ? tracing
                : Tracing.create(config.otlpEndpoint(), SERVICE_NAME, instanceId);
        this.clock = clock;
        this.workers = new WorkerDirectory(clock);
        this.limiter = new InFlightLimiter(config.maxInFlight());
    }

    /**
     * Sets up the reply topic, starts the Kafka side, then serves HTTP. Returns once the port is open; {@code
     * /health} says {@code ok} once a worker is READY and a reply partition is read. If any step fails, what was
     * started is stopped again before the failure is thrown.
     */
    public synchronized FacadeServer start() throws InterruptedException {
        if (started) {
            throw new IllegalStateException("a facade server starts once");
        }
        started = true;
        try {
            startAll();
        } catch (InterruptedException | RuntimeException e) {
            stop();
            throw e;
        }
        LOG.info("sam3 facade {} serving on {}:{}", instanceId, config.host(), http.port());
        return this;
    }

    /** Starts each part and pushes how to stop it, so that {@link #stop()} undoes them in reverse order. */
    private void startAll() throws InterruptedException {
        running.push(tracing); // closed last: flushes the spans of the final requests
        FacadeKafkaProperties kafka = new FacadeKafkaProperties(config);
        try (Admin admin = Admin.create(kafka.admin(clientId("admin")))) {
            ReplyTopic.ensure(admin, config.replyTopic(), config.topicPartitions(), config.maxMessageBytes(),
                    config.replyTimeout(), config.replyPartitions());
        }
        SchemaRegistryClient registry = SchemaRegistryClient.builder(URI.create(config.schemaRegistryUrl())).build();

        ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1,
                daemonThreads("sam3-facade-deadlines"));
        deadlines.setRemoveOnCancelPolicy(true); // answered calls must not leave their deadline queued for minutes
        running.push(deadlines::shutdownNow);
        ExecutorService decoding = Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()), daemonThreads("sam3-facade-decode"));
        running.push(decoding::shutdownNow);
        PendingReplies pending = new PendingReplies(config.maxInFlight(), deadlines, metrics);
        running.push(() -> pending.failAll(ApiException.unavailable("the facade is stopping")));

        KafkaProducer<String, SegmentationRequest> producer = new KafkaProducer<>(
                kafka.producer(clientId("requests")), new StringSerializer(), new AvroSerializer<>(registry, true));
        running.push(() -> producer.close(Duration.ofSeconds(5)));
        KafkaConsumer<byte[], byte[]> replyConsumer = new KafkaConsumer<>(
                kafka.replyConsumer(clientId("replies"), config.replyPartitions().isEmpty()
                        ? ReplyListener.leaseGroup(config.replyTopic()) : null),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        ReplyListener replyListener = config.replyPartitions().isEmpty()
                ? ReplyListener.leased(replyConsumer, config.replyTopic(), replyPartitions, pending)
                : ReplyListener.assigned(replyConsumer, config.replyTopic(), config.replyPartitions(),
                        replyPartitions, pending);
        replyListener.start();
        running.push(replyListener);
        HeartbeatListener heartbeatListener = new HeartbeatListener(
                new KafkaConsumer<>(kafka.heartbeatConsumer(clientId("heartbeats")), new ByteArrayDeserializer(),
                        new ByteArrayDeserializer()),
                config.workersTopic(), new SpecificAvroDeserializer<>(registry, WorkerStatus.class), workers);
        heartbeatListener.start();
        running.push(heartbeatListener);

        JobStore jobStore = new JobStore(config, kafka, clientId("jobs"), clock);
        running.push(jobStore);
        jobStore.start();
        jobs = jobStore;
        KafkaProducer<String, byte[]> submissions = new KafkaProducer<>(kafka.producer(clientId("submissions")),
                new StringSerializer(), new ByteArraySerializer());
        running.push(() -> submissions.close(Duration.ofSeconds(5)));
        JobSubmitter submitter = new JobSubmitter(submissions, new AvroSerializer<>(registry, true),
                config.requestsTopic(), config.jobs().submissionsTopic(), clock, tracing);

        RequestReplyClient client = new RequestReplyClient(producer,
                new SpecificAvroDeserializer<>(registry, SegmentationResult.class), config.requestsTopic(),
                config.replyTopic(), replyPartitions, pending, decoding, tracing);
        metrics.gauge("sam3.predict.in.flight", "Predictions admitted and not yet answered", limiter::inFlight);
        metrics.gauge("sam3.replies.pending", "Calls waiting for a Kafka reply", pending::size);
        metrics.gauge("sam3.workers.ready", "Workers READY with a fresh heartbeat", () -> workers.ready().size());
        metrics.gauge("sam3.reply.partitions.owned", "Reply partitions this instance reads",
                () -> replyPartitions.owned().size());
        metrics.gauge("sam3.jobs.stored", "Jobs in this instance's view of the job store", jobStore::size);
        http = createHttp(client, jobStore, submitter,
                new SpecificAvroDeserializer<>(registry, SegmentationResult.class)).start(config.host(), config.port());
        running.push(() -> {
            http.stop();
            http = null;
        });
    }

    private Javalin createHttp(RequestReplyClient client, JobStore jobStore, JobSubmitter submitter,
            SpecificAvroDeserializer<SegmentationResult> results) {
        ObjectMapper mapper = new ObjectMapper();
        PredictRequestParser parser = new PredictRequestParser(new RequestLimits(config.maxSide(),
                config.maxPixels(), config.maxPrompts(), config.maxBodyBytes()));
        ResultRenderer renderer = new ResultRenderer(mapper);
        PredictRoute predict = new PredictRoute(limiter, config.maxBodyBytes(), parser, workers, client, renderer,
                metrics, config.replyTimeout(), clock);
        JobRoutes jobRoutes = new JobRoutes(limiter, config.maxBodyBytes(), parser, jobStore, submitter,
                new JobJson(mapper, renderer, results, config.jobs().resultsTopic()), clock);
        StatusRoutes status = new StatusRoutes(workers, replyPartitions, config, version(), clock);
        RequestTiming timing = new RequestTiming(metrics);
        HttpServerSpans spans = new HttpServerSpans(tracing);
        DemoPage page = new DemoPage();
        Set<String> open = new HashSet<>(OPEN_PATHS);
        open.addAll(page.openPaths());
        BearerAuth auth = new BearerAuth(config.apiKeys(), open);
        OpenApiRoute openApi = new OpenApiRoute(mapper, config.maxPrompts());
        return Javalin.create(cfg -> {
            cfg.jsonMapper(new JavalinJackson(mapper, false));
            cfg.startup.showJavalinBanner = false;
            cfg.http.maxRequestSize = config.maxBodyBytes();
            cfg.http.prefer405over404 = true;
            cfg.routes.before(timing::start);
            cfg.routes.before(spans::start);
            cfg.routes.before(auth);
            cfg.routes.post("/predict", predict);
            cfg.routes.post("/v1/jobs", jobRoutes::submit);
            cfg.routes.get("/v1/jobs/{id}", jobRoutes::get);
            cfg.routes.get("/health", status::health);
            cfg.routes.get("/info", status::info);
            cfg.routes.get("/v1/models", status::models);
            cfg.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                    .result(metrics.scrape()));
            cfg.routes.get("/openapi.json", openApi);
            page.register(cfg.routes);
            cfg.routes.after(spans::finish);
            cfg.routes.after(timing::finish);
            ErrorResponses.install(cfg.routes, config.maxBodyBytes());
        });
    }

    /**
     * Waits until this instance reads at least one reply partition, the moment from which {@code /predict} can be
     * answered (before that it answers 503).
     *
     * @return false if that did not happen within {@code timeout}
     */
    public boolean awaitReplyPartitions(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (replyPartitions.owned().isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /**
     * Waits until the job store serves {@code /v1/jobs} (its topics exist and its state is restored).
     *
     * @return false if that did not happen within {@code timeout}
     */
    public boolean awaitJobStore(Duration timeout) throws InterruptedException {
        JobStore store = jobs;
        return store != null && store.awaitServing(timeout);
    }

    /** The HTTP port actually bound (useful with port 0). */
    public int port() {
        Javalin server = http;
        if (server == null) {
            throw new IllegalStateException("not serving");
        }
        return server.port();
    }

    /** The facade's meters (tests and the dev stack read them). */
    public FacadeMetrics metrics() {
        return metrics;
    }

    /**
     * Stops serving: the HTTP server first (no new calls), then the Kafka listeners and producer, then every call
     * still waiting ends with 503. Stopping a stopped server does nothing.
     */
    public synchronized void stop() {
        boolean wasRunning = !running.isEmpty();
        while (!running.isEmpty()) {
            try {
                running.pop().close();
            } catch (Exception e) {
                LOG.warn("stopping a part of the facade failed: {}", e.toString());
            }
        }
        if (wasRunning) {
            LOG.info("sam3 facade {} stopped", instanceId);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private String clientId(String role) {
        return "sam3-facade-" + instanceId + "-" + role;
    }

    private static String version() {
        String v = FacadeServer.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
