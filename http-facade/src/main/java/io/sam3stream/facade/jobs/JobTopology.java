package io.sam3stream.facade.jobs;

import io.sam3stream.facade.FacadeConfig;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The job store's Kafka Streams topology:
 * <pre>
 *  [submissions] ─┐                       ┌─▶ [requests]  (first submission of an id only, no reply headers)
 *                 ├─▶ index (partitioned) ─┤
 *  [results] ─────┘    RocksDB + changelog └─▶ [jobs] (compacted) ─▶ view (global store on every instance)
 * </pre>
 * The partitioned index makes each decision once ({@link JobIndexProcessor}); the view is what {@code GET} reads,
 * complete on every instance, so any instance answers for any job without forwarding.
 */
public final class JobTopology {

    /** The partitioned store that decides (with its changelog). */
    static final String INDEX_STORE = "job-index";
    /** The global store that {@code GET} reads. */
    static final String VIEW_STORE = "job-view";
    static final String REQUESTS_SINK = "requests-sink";
    static final String JOBS_SINK = "jobs-sink";

    /** Room in an internal record beyond the result it carries (the job record's own fields). */
    static final int RECORD_HEADROOM_BYTES = 64 * 1024;

    private JobTopology() {
    }

    /** The topology for these topics and this retention. */
    static Topology build(FacadeConfig config, JobArrivals arrivals) {
        FacadeConfig.JobsConfig jobs = config.jobs();
        Topology topology = new Topology();
        topology.addSource("submissions", Serdes.String().deserializer(), Serdes.ByteArray().deserializer(),
                jobs.submissionsTopic());
        topology.addSource("results", Serdes.String().deserializer(), Serdes.ByteArray().deserializer(),
                jobs.resultsTopic());
        topology.addProcessor("index", () -> new JobIndexProcessor(jobs.submissionsTopic(), jobs.retention()),
                "submissions", "results");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INDEX_STORE),
                Serdes.String(), Serdes.ByteArray()).withLoggingEnabled(Map.of(
                        "max.message.bytes", Integer.toString(maxRecordBytes(config)))), "index");
        topology.addSink(REQUESTS_SINK, config.requestsTopic(), Serdes.String().serializer(),
                Serdes.ByteArray().serializer(), "index");
        topology.addSink(JOBS_SINK, jobs.jobsTopic(), Serdes.String().serializer(), Serdes.ByteArray().serializer(),
                "index");
        topology.addGlobalStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(VIEW_STORE),
                Serdes.String(), Serdes.ByteArray()).withLoggingDisabled(), "jobs",
                Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), jobs.jobsTopic(), "view",
                () -> new JobViewUpdater(arrivals));
        return topology;
    }

    /** The largest record of the internal topics: a result of the message limit and the job's own fields. */
    static int maxRecordBytes(FacadeConfig config) {
        return config.maxMessageBytes() + RECORD_HEADROOM_BYTES;
    }
}
