package io.sam3stream.reliability;

import io.sam3stream.config.Settings;
import io.sam3stream.facade.FacadeConfig;
import io.sam3stream.facade.FacadeServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The HTTP facade in this JVM on a free loopback port, configured by the same knobs production reads. */
final class InProcessFacade implements AutoCloseable {

    private final FacadeServer server;
    private final FacadeConfig config;

    private InProcessFacade(FacadeServer server, FacadeConfig config) {
        this.server = server;
        this.config = config;
    }

    /**
     * Starts a facade; its reply topic is {@code <requests topic>.replies} unless {@code env} names one.
     *
     * @param env the deployment's knobs (broker, registry, topics, limits)
     */
    static InProcessFacade start(Map<String, String> env) throws InterruptedException {
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("SAM3_REPLY_TOPIC", env.get("SAM3_REQUESTS_TOPIC") + ".replies");
        all.put("SAM3_PORT", "0");
        FacadeConfig config = FacadeConfig.from(Settings.from(all), "127.0.0.1");
        return new InProcessFacade(new FacadeServer(config).start(), config);
    }

    FacadeServer server() {
        return server;
    }

    FacadeConfig config() {
        return config;
    }

    /** A client carrying the first of the facade's API keys (none when auth is off). */
    HttpCalls http() {
        return new HttpCalls(server.port(), config.apiKeys().isEmpty() ? null : config.apiKeys().get(0));
    }

    /** A client carrying {@code token} (null: none). */
    HttpCalls http(String token) {
        return new HttpCalls(server.port(), token);
    }

    /** Waits until {@code /health} says ok: a worker is READY and a reply partition is read. */
    InProcessFacade awaitHealthy(Duration timeout) throws InterruptedException {
        HttpCalls open = http(null);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (open.get("/health").status() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the facade did not become healthy within " + timeout);
            }
            Thread.sleep(100);
        }
        return this;
    }

    @Override
    public void close() {
        server.stop();
    }
}
