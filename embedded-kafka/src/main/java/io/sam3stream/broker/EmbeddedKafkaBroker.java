package io.sam3stream.broker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft Kafka cluster (combined broker and controller) inside this JVM, for the one-command dev
 * stack. Its log directory is formatted on first use and reused afterwards, so topics, committed offsets and the
 * schema registry's topic survive restarts like a real broker's.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private final String host;
    private final Path dataDir;
    private final int brokerPort;
    private final int controllerPort;
    private final long maxMessageBytes;
    private KafkaRaftServer server;

    /**
     * A broker for clients on this host.
     *
     * @param dataDir         log directory (created and formatted when it holds no cluster yet)
     * @param brokerPort      client port on 127.0.0.1
     * @param controllerPort  KRaft controller port on 127.0.0.1 (must stay the same across restarts)
     * @param maxMessageBytes broker-wide {@code message.max.bytes}
     */
    public EmbeddedKafkaBroker(Path dataDir, int brokerPort, int controllerPort, long maxMessageBytes) {
        this("127.0.0.1", dataDir, brokerPort, controllerPort, maxMessageBytes);
    }

    /**
     * A broker whose client listener binds to, and is advertised as, {@code host}: an address that clients in other
     * network namespaces reach (the controller stays on 127.0.0.1).
     */
    public EmbeddedKafkaBroker(String host, Path dataDir, int brokerPort, int controllerPort, long maxMessageBytes) {
        this.host = host;
        this.dataDir = dataDir.toAbsolutePath();
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Formats the log directory if needed and starts the broker; returns once it accepts connections. */
    public synchronized void start() {
        if (server != null) {
            throw new IllegalStateException("already started");
        }
        Properties props = serverProperties();
        try {
            Files.createDirectories(dataDir);
            if (!Files.exists(dataDir.resolve("meta.properties"))) {
                format(props);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare Kafka data directory " + dataDir, e);
        }
        KafkaRaftServer s = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        s.startup();
        server = s;
    }

    /** {@code host:port} for clients. */
    public String bootstrapServers() {
        return host + ":" + brokerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    private Properties serverProperties() {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://" + host + ":" + brokerPort + ",CONTROLLER://127.0.0.1:"
                + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + host + ":" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.setProperty("log.dirs", dataDir.toString());
        // a single node: every internal topic has exactly one replica
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("message.max.bytes", Long.toString(maxMessageBytes));
        p.setProperty("replica.fetch.max.bytes", Long.toString(maxMessageBytes));
        return p;
    }

    private void format(Properties props) throws IOException {
        Path configFile = Files.createTempFile("sam3-kraft", ".properties");
        try {
            try (OutputStream out = Files.newOutputStream(configFile)) {
                props.store(out, "sam3 embedded broker");
            }
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int rc;
            try (PrintStream printer = new PrintStream(log, true, StandardCharsets.UTF_8)) {
                rc = StorageTool.execute(new String[] {
                    "format", "--standalone", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()
                }, printer);
            }
            if (rc != 0) {
                throw new IllegalStateException("formatting " + dataDir + " failed: "
                        + log.toString(StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(configFile);
        }
    }

    /** Stops the broker cleanly (idempotent). */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }
}
