package io.sam3stream.facade.jobs;

import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.http.ApiException;
import io.sam3stream.facade.kafka.FacadeKafkaProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The facade's job store: runs the {@link JobTopology} and answers lookups from this instance's complete copy of
 * the jobs (the global store), so any instance finds any job with one local read. It starts in the background: it
 * waits for the workers' topics, creates its own, then restores its stores from Kafka; until then lookups answer
 * 503, while {@code /predict} is served as before. With {@code SAM3_JOB_STATE_DIR} set, a restart reuses the local
 * RocksDB files and reads only what it missed; without it the stores are rebuilt from the changelog and the jobs
 * topic in a fresh temporary folder, deleted again at stop.
 */
public final class JobStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobStore.class);
    private static final Duration TOPIC_RETRY = Duration.ofSeconds(1);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final FacadeConfig config;
    private final FacadeKafkaProperties kafka;
    private final String clientId;
    private final Clock clock;
    private final JobArrivals arrivals = new JobArrivals();
    private final Path stateDir;
    private final boolean temporaryState;
    private final Thread starter;
    private volatile boolean closed;
    private volatile KafkaStreams streams;
    private volatile ReadOnlyKeyValueStore<String, byte[]> view;

    /**
     * @param clientId prefix of the Kafka clients' ids
     */
    public JobStore(FacadeConfig config, FacadeKafkaProperties kafka, String clientId, Clock clock) {
        this.config = config;
        this.kafka = kafka;
        this.clientId = clientId;
        this.clock = clock;
        this.temporaryState = config.jobs().stateDir().isBlank();
        try {
            this.stateDir = temporaryState ? Files.createTempDirectory("sam3-jobs-")
                    : Files.createDirectories(Path.of(config.jobs().stateDir()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the job store's folder", e);
        }
        this.starter = new Thread(this::startWhenTopicsExist, clientId + "-start");
        this.starter.setDaemon(true);
    }

    /** The application id every facade instance of one deployment shares: one per jobs topic. */
    public static String applicationId(String jobsTopic) {
        return "sam3-facade." + jobsTopic;
    }

    /** Starts in the background and returns at once. */
    public void start() {
        starter.start();
    }

    /**
     * Sets the topics up and starts the application, retrying every second: the workers' topics may not exist
     * yet, and a topic just created may not be in every broker's metadata when the global store first looks.
     */
    private void startWhenTopicsExist() {
        boolean logged = false;
        try (Admin admin = Admin.create(kafka.admin(clientId + "-admin"))) {
            while (!closed) {
                try {
                    if (JobTopics.ensure(admin, config) && startStreams()) {
                        return;
                    }
                    if (!logged) {
                        LOG.info("job store waits for the topics {} and {} (created by the workers), and for its own"
                                + " to have a leader on every partition", config.requestsTopic(),
                                config.jobs().resultsTopic());
                        logged = true;
                    }
                } catch (ExecutionException | RuntimeException e) {
                    LOG.warn("job store not started yet, retrying: {}", e.toString());
                }
                Thread.sleep(TOPIC_RETRY.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /** Starts the application; false when it could not start yet (it is closed again). */
    private synchronized boolean startStreams() {
        if (closed) {
            return true;
        }
        KafkaStreams created = new KafkaStreams(JobTopology.build(config, arrivals), kafka.streams(
                clientId, applicationId(config.jobs().jobsTopic()), stateDir.toString(),
                JobTopology.maxRecordBytes(config)));
        created.setUncaughtExceptionHandler(e -> {
            // a failed poll or commit is transient: a fresh thread resumes from the last commit
            LOG.warn("job store thread failed, replacing it: {}", e.toString(), e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        try {
            created.start();
        } catch (RuntimeException e) {
            LOG.warn("job store did not start, retrying: {}", e.toString());
            created.close(CLOSE_TIMEOUT);
            return false;
        }
        streams = created;
        return true;
    }

    /** Whether lookups can be answered (the view is restored and kept up to date). */
    public boolean serving() {
        KafkaStreams s = streams;
        return s != null && s.state().isRunningOrRebalancing();
    }

    /** Waits until {@link #serving()}; false if that did not happen within {@code timeout}. */
    public boolean awaitServing(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!serving()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /**
     * The job with this id, if this instance's view holds it and it has not expired (a job past the retention is
     * gone even before the expiry scan's tombstone reaches the view).
     *
     * @throws ApiException 503 while the store is not serving
     */
    public Optional<JobRecord> find(String id) {
        byte[] bytes;
        try {
            bytes = view().get(id);
        } catch (InvalidStateStoreException e) { // the view was closed under a rebalance or a replaced thread
            view = null;
            throw ApiException.unavailable("the job store is not readable now: " + e.getMessage());
        }
        if (bytes == null) {
            return Optional.empty();
        }
        JobRecord job = JobRecord.fromBytes(bytes);
        return job.expiresAt(config.jobs().retention()).isAfter(clock.instant()) ? Optional.of(job)
                : Optional.empty();
    }

    /** Jobs in this instance's view, expired ones not yet deleted included. */
    public long size() {
        return serving() ? view().approximateNumEntries() : 0;
    }

    /**
     * Completes when the job appears in this instance's view, or after {@code timeout} either way (a submission
     * waiting for a rebalance is still accepted, just not readable here yet).
     */
    public CompletableFuture<Void> whenReadable(String id, Duration timeout) {
        CompletableFuture<Void> arrival = arrivals.expect(id);
        if (find(id).isPresent()) { // arrived between the caller's produce and this registration
            arrivals.arrived(id);
        }
        return arrival.completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ignored, error) -> arrivals.forget(id, arrival));
    }

    private ReadOnlyKeyValueStore<String, byte[]> view() {
        KafkaStreams s = streams;
        if (s == null || !s.state().isRunningOrRebalancing()) {
            throw ApiException.unavailable("the job store is starting (restoring its state from Kafka)");
        }
        ReadOnlyKeyValueStore<String, byte[]> v = view;
        if (v == null) {
            try {
                v = s.store(StoreQueryParameters.fromNameAndType(JobTopology.VIEW_STORE,
                        QueryableStoreTypes.keyValueStore()));
            } catch (InvalidStateStoreException e) {
                throw ApiException.unavailable("the job store is not readable yet: " + e.getMessage());
            }
            view = v;
        }
        return v;
    }

    /** Stops the application, leaving its group at once so the other instances take its partitions over. */
    @Override
    public void close() {
        KafkaStreams s;
        synchronized (this) {
            closed = true;
            s = streams;
            streams = null;
        }
        starter.interrupt();
        if (s != null) {
            s.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(CLOSE_TIMEOUT));
            if (temporaryState) {
                s.cleanUp();
            }
        }
        if (temporaryState) {
            deleteQuietly(stateDir);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete the job store's temporary folder {}: {}", dir, e.toString());
        }
    }
}
