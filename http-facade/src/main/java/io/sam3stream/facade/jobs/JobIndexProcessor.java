package io.sam3stream.facade.jobs;

import io.sam3stream.telemetry.Tracing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The one place that decides about a request id, run on the task that owns its partition (submissions and results
 * are partitioned alike, so both records of one id meet here). Under exactly-once processing its decisions, the
 * records it forwards and its store's changelog commit together:
 * <ul>
 *   <li>a submission of an id never seen is recorded as pending and forwarded to the requests topic, without reply
 *       headers, so its result lands on the results topic; a submission of a known id is dropped, which is what
 *       makes a resubmission never cause a second forward, whichever facade instance took it;</li>
 *   <li>a result completes its job, or creates one for a request that came straight from Kafka; a later result
 *       for the same id is ignored, so a job finishes once;</li>
 *   <li>a wall-clock punctuation deletes every job past the retention from the index and publishes a tombstone, so
 *       the job disappears from every instance's view and from the compacted topics.</li>
 * </ul>
 * Every change is also forwarded to the jobs topic, the source of the view each instance reads.
 */
final class JobIndexProcessor implements Processor<String, byte[], String, byte[]> {

    /** The expiry scan runs this often relative to the retention, so a job outlives it by at most a quarter. */
    private static final int SCANS_PER_RETENTION = 4;
    private static final Duration MIN_SCAN_INTERVAL = Duration.ofMillis(250);
    private static final Duration MAX_SCAN_INTERVAL = Duration.ofMinutes(1);

    private final String submissionsTopic;
    private final Duration retention;
    private ProcessorContext<String, byte[]> context;
    private KeyValueStore<String, byte[]> index;

    JobIndexProcessor(String submissionsTopic, Duration retention) {
        this.submissionsTopic = submissionsTopic;
        this.retention = retention;
    }

    /** How often the expiry scan runs for a retention. */
    static Duration scanInterval(Duration retention) {
        Duration quarter = retention.dividedBy(SCANS_PER_RETENTION);
        return quarter.compareTo(MIN_SCAN_INTERVAL) < 0 ? MIN_SCAN_INTERVAL
                : quarter.compareTo(MAX_SCAN_INTERVAL) > 0 ? MAX_SCAN_INTERVAL : quarter;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
        this.index = context.getStateStore(JobTopology.INDEX_STORE);
        context.schedule(scanInterval(retention), PunctuationType.WALL_CLOCK_TIME, this::expire);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return; // nothing to key a job by, or a tombstone somebody else wrote
        }
        boolean submission = context.recordMetadata().map(RecordMetadata::topic)
                .filter(submissionsTopic::equals).isPresent();
        Instant at = Instant.ofEpochMilli(record.timestamp());
        byte[] stored = index.get(record.key());
        JobRecord known = stored == null ? null : JobRecord.fromBytes(stored);
        if (submission) {
            onSubmission(record, known, at);
        } else if (known == null || !known.finished()) {
            JobRecord done = known == null ? new JobRecord(null, at, record.value())
                    : known.withResult(at, record.value());
            save(record.key(), done, record.timestamp());
        }
    }

    private void onSubmission(Record<String, byte[]> record, JobRecord known, Instant at) {
        if (known == null) {
            save(record.key(), JobRecord.pending(at), record.timestamp());
            // the request goes on with its trace context only: no reply headers, so its result lands on the
            // results topic
            context.forward(record.withHeaders(Tracing.traceHeadersOf(record.headers())), JobTopology.REQUESTS_SINK);
        } else if (known.submittedAt() == null) {
            // its result was read first (or it came straight from Kafka under this id): nothing left to run
            save(record.key(), known.withSubmittedAt(at), record.timestamp());
        }
    }

    private void save(String id, JobRecord job, long timestamp) {
        byte[] bytes = job.toBytes();
        index.put(id, bytes);
        context.forward(new Record<>(id, bytes, timestamp), JobTopology.JOBS_SINK);
    }

    private void expire(long nowMs) {
        Instant now = Instant.ofEpochMilli(nowMs);
        List<String> expired = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> all = index.all()) {
            while (all.hasNext()) {
                KeyValue<String, byte[]> entry = all.next();
                if (!JobRecord.fromBytes(entry.value).expiresAt(retention).isAfter(now)) {
                    expired.add(entry.key);
                }
            }
        }
        for (String id : expired) {
            index.delete(id);
            context.forward(new Record<String, byte[]>(id, null, nowMs), JobTopology.JOBS_SINK);
        }
    }
}
