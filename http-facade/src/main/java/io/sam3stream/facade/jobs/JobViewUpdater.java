package io.sam3stream.facade.jobs;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps this instance's copy of the jobs topic (the global store) as the topic says, tombstones included, and tells
 * {@link JobArrivals} about each job that appears, so a submission can answer once it is readable here.
 */
final class JobViewUpdater implements Processor<String, byte[], Void, Void> {

    private final JobArrivals arrivals;
    private KeyValueStore<String, byte[]> view;

    JobViewUpdater(JobArrivals arrivals) {
        this.arrivals = arrivals;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        view = context.getStateStore(JobTopology.VIEW_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            view.delete(record.key());
        } else {
            view.put(record.key(), record.value());
            arrivals.arrived(record.key());
        }
    }
}
