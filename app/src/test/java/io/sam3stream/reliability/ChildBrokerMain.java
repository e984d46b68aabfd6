package io.sam3stream.reliability;

import io.sam3stream.broker.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The dev stack's embedded broker as a process of its own, so that a test can kill it and start it again on the
 * same data directory and ports: {@code ChildBrokerMain <data dir> <broker port> <controller port> <max message
 * bytes>}. Prints {@link #READY} once it accepts clients; SIGTERM stops it cleanly, SIGKILL does not.
 */
public final class ChildBrokerMain {

    /** The line printed once the broker serves. */
    static final String READY = "child broker ready";

    private ChildBrokerMain() {}

    public static void main(String[] args) throws InterruptedException {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(Path.of(args[0]), Integer.parseInt(args[1]),
                Integer.parseInt(args[2]), Long.parseLong(args[3]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "child-broker-stop"));
        broker.start();
        System.out.println(READY + " on " + broker.bootstrapServers());
        System.out.flush();
        stopped.await();
    }
}
