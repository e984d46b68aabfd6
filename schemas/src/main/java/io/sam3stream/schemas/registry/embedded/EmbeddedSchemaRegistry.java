package io.sam3stream.schemas.registry.embedded;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small schema registry that speaks the Confluent REST API (the module's README lists the endpoints and what
 * differs), for the local stack and the tests, where Confluent's registry cannot run. Global ids deduplicated by
 * schema content, numbered versions per subject, soft and permanent deletes, modes, schema references,
 * compatibility enforced at registration (BACKWARD unless configured otherwise). Given a Kafka cluster it keeps
 * its state in the compacted topic {@code _sam3_schemas}, so ids stay valid for records that outlive a restart.
 * Production points its clients at a real registry instead.
 */
public final class EmbeddedSchemaRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSchemaRegistry.class);
    private static final int HANDLER_THREADS = 2;

    private final HttpServer server;
    private final ExecutorService executor;
    private final RegistryState state;
    private final URI url;

    private EmbeddedSchemaRegistry(HttpServer server, ExecutorService executor, RegistryState state) {
        this.server = server;
        this.executor = executor;
        this.state = state;
        this.url = urlOf(server.getAddress());
    }

    /** Starts a registry on {@code address} (port 0 picks a free port) that forgets everything when closed. */
    public static EmbeddedSchemaRegistry start(InetSocketAddress address) throws IOException {
        return start(address, new RegistryState());
    }

    /**
     * Starts a registry on {@code address} that keeps its state in the compacted topic {@code _sam3_schemas} of
     * the Kafka cluster at {@code bootstrapServers}, resuming whatever state a previous run left there.
     *
     * @throws IOException when the port cannot be bound or the saved state cannot be read
     */
    public static EmbeddedSchemaRegistry start(InetSocketAddress address, String bootstrapServers)
            throws IOException {
        return start(address, new RegistryState(
                new KafkaRegistryStore(bootstrapServers, KafkaRegistryStore.DEFAULT_TOPIC)));
    }

    static EmbeddedSchemaRegistry start(InetSocketAddress address, RegistryState state) throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(HANDLER_THREADS, task -> {
            Thread thread = new Thread(task, "schema-registry-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.createContext("/", new RegistryHttpHandler(state));
        server.setExecutor(executor);
        server.start();
        EmbeddedSchemaRegistry registry = new EmbeddedSchemaRegistry(server, executor, state);
        LOG.info("schema registry listening on {}", registry.url());
        return registry;
    }

    private static URI urlOf(InetSocketAddress bound) {
        // A wildcard bind is reachable on loopback; report that rather than the unroutable 0.0.0.0 or ::.
        InetAddress address = bound.getAddress().isAnyLocalAddress()
                ? InetAddress.getLoopbackAddress() : bound.getAddress();
        String host = address.getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort());
    }

    /** The base URL clients use. */
    public URI url() {
        return url;
    }

    /**
     * Stops serving. Does not wait: clients keep idle connections open, which would hold a graceful stop for its
     * whole delay, and every request here completes in microseconds anyway.
     */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdown();
        try {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state.close();
    }

    /**
     * Runs a registry until the process is stopped: {@code EmbeddedSchemaRegistry PORT [BOOTSTRAP_SERVERS]}
     * listens on all interfaces at PORT and keeps its state in that Kafka cluster when given.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: EmbeddedSchemaRegistry PORT [BOOTSTRAP_SERVERS]");
            System.exit(2);
        }
        InetSocketAddress address = new InetSocketAddress(Integer.parseInt(args[0]));
        EmbeddedSchemaRegistry registry = args.length == 2 ? start(address, args[1]) : start(address);
        Runtime.getRuntime().addShutdownHook(new Thread(registry::close, "schema-registry-shutdown"));
    }
}
