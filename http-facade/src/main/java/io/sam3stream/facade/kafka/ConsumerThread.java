package io.sam3stream.facade.kafka;

import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that owns one {@link KafkaConsumer} (which is not thread-safe): it runs a set-up step (assign or
 * subscribe and position), then polls and hands each batch to a handler until {@link #close()}. A failing poll
 * or handler is logged and retried after a pause, so a broker outage delays the consumer instead of ending it.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class ConsumerThread<K, V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerThread.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);

    private final KafkaConsumer<K, V> consumer;
    private final Consumer<KafkaConsumer<K, V>> setUp;
    private final Consumer<ConsumerRecords<K, V>> handler;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param name     thread name
     * @param consumer the consumer, owned (and closed) by this thread from now on
     * @param setUp    run once on the thread before the first poll
     * @param handler  run on the thread for every non-empty batch
     */
    public ConsumerThread(String name, KafkaConsumer<K, V> consumer, Consumer<KafkaConsumer<K, V>> setUp,
            Consumer<ConsumerRecords<K, V>> handler) {
        this.consumer = consumer;
        this.setUp = setUp;
        this.handler = handler;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        try {
            setUp.accept(consumer);
            while (running) {
                pollOnce();
            }
        } catch (WakeupException | InterruptException e) {
            // close() asked us to stop
        } catch (RuntimeException e) {
            LOG.error("{} stopped: {}", thread.getName(), e.toString(), e);
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private void pollOnce() {
        try {
            ConsumerRecords<K, V> records = consumer.poll(POLL);
            if (!records.isEmpty()) {
                handler.accept(records);
            }
        } catch (WakeupException | InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            if (!running) {
                return;
            }
            LOG.warn("{}: {}; retrying in {} ms", thread.getName(), e.toString(), PAUSE_AFTER_FAILURE.toMillis());
            try {
                Thread.sleep(PAUSE_AFTER_FAILURE.toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }

    /** Stops polling, waits for the thread and closes the consumer (leaving its group at once). */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
