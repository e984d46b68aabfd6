package io.sam3stream.facade.http;

import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.facade.jobs.JobRecord;
import io.sam3stream.facade.jobs.JobStore;
import io.sam3stream.facade.jobs.JobSubmitter;
import io.sam3stream.facade.predict.JobIds;
import io.sam3stream.facade.predict.PredictRequestParser;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The asynchronous job API. {@code POST /v1/jobs} takes a {@code /predict} body through the same admission, body
 * limit and checks, writes it as a submission and answers {@code 202} with the job's location as soon as this
 * instance can read the job (or after a short wait, when its partition is being moved between instances). An id
 * already known answers with that job and writes nothing; a resubmission racing the first is dropped by the job
 * store, so no id is ever forwarded twice. {@code GET /v1/jobs/{id}} reads this instance's complete view: 200 with
 * the job, 404 when the id is unknown or expired. No READY worker is needed to submit: a job waits in Kafka.
 */
public final class JobRoutes {

    /** How long a submission waits to become readable here before it is answered anyway. */
    private static final Duration READABLE_WAIT = Duration.ofSeconds(5);

    private final InFlightLimiter limiter;
    private final long maxBodyBytes;
    private final PredictRequestParser parser;
    private final JobStore store;
    private final JobSubmitter submitter;
    private final JobJson json;
    private final Clock clock;

    public JobRoutes(InFlightLimiter limiter, long maxBodyBytes, PredictRequestParser parser, JobStore store,
            JobSubmitter submitter, JobJson json, Clock clock) {
        this.limiter = limiter;
        this.maxBodyBytes = maxBodyBytes;
        this.parser = parser;
        this.store = store;
        this.submitter = submitter;
        this.json = json;
        this.clock = clock;
    }

    /** {@code POST /v1/jobs}. */
    public void submit(Context ctx) {
        InFlightLimiter.Permit permit = limiter.admit();
        CompletableFuture<byte[]> response;
        String id;
        try {
            JsonContentType.require(ctx.header("Content-Type"));
            byte[] body = BodyReader.read(ctx, maxBodyBytes);
            SegmentationRequest request = parser.parseJob(body, ctx.header(JobIds.HEADER));
            id = request.getRequestId();
            Optional<JobRecord> known = store.find(id); // also 503 while the store is not serving
            if (known.isPresent()) {
                response = CompletableFuture.completedFuture(json.accepted(id, known.get()));
            } else {
                JobRecord submitted = JobRecord.pending(clock.instant());
                response = submitter.submit(request, HttpServerSpans.contextOf(ctx))
                        .thenCompose(acked -> store.whenReadable(id, READABLE_WAIT))
                        .thenApply(readable -> json.accepted(id, store.find(id).orElse(submitted)));
            }
        } catch (RuntimeException e) {
            permit.release();
            throw e;
        }
        String location = JobJson.location(id);
        ctx.future(() -> response
                .whenComplete((body, error) -> permit.release())
                .thenAccept(body -> ctx.status(202).header("Location", location)
                        .contentType(ContentType.APPLICATION_JSON).result(body)));
    }

    /** {@code GET /v1/jobs/{id}}. */
    public void get(Context ctx) {
        String id = ctx.pathParam("id");
        Optional<JobRecord> job = JobIds.isValid(id) ? store.find(id) : Optional.empty();
        if (job.isEmpty()) {
            throw ApiException.http(404, "NOT_FOUND", "no job " + id + ": unknown, or expired after its retention");
        }
        ctx.contentType(ContentType.APPLICATION_JSON).result(json.job(id, job.get()));
    }
}
