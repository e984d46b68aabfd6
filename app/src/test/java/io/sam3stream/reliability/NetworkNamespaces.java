package io.sam3stream.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Workers on a network of their own: a Linux bridge on this host ({@link #HOST_ADDRESS}) and, per worker, a network
 * namespace joined to it by a veth pair, so that one worker's link can be cut ({@link #cut}) and restored while the
 * broker, the registry, the facade and the other worker keep running. Needs root and {@code ip} (iproute2); every
 * name carries a prefix, so a run left over by a killed test is removed first.
 */
final class NetworkNamespaces implements AutoCloseable {

    /** The host's address on the bridge, where the broker and the registry listen. */
    static final String HOST_ADDRESS = "10.213.0.1";

    private static final String BRIDGE = "s3br0";
    private static final String PREFIX = "s3w";

    private final int count;

    private NetworkNamespaces(int count) {
        this.count = count;
    }

    /**
     * Creates the bridge and {@code count} namespaces.
     *
     * @throws IOException with the command's output when the host cannot do it (not root, no iproute2, no netns)
     */
    static NetworkNamespaces create(int count) throws IOException, InterruptedException {
        removeLeftovers(count);
        NetworkNamespaces network = new NetworkNamespaces(count);
        try {
            ip("link", "add", BRIDGE, "type", "bridge");
            ip("addr", "add", HOST_ADDRESS + "/24", "dev", BRIDGE);
            ip("link", "set", BRIDGE, "up");
            for (int i = 1; i <= count; i++) {
                String ns = namespace(i);
                ip("netns", "add", ns);
                ip("link", "add", hostEnd(i), "type", "veth", "peer", "name", "s3n" + i);
                ip("link", "set", "s3n" + i, "netns", ns);
                ip("link", "set", hostEnd(i), "master", BRIDGE);
                ip("link", "set", hostEnd(i), "up");
                ip("netns", "exec", ns, "ip", "addr", "add", "10.213.0." + (i + 1) + "/24", "dev", "s3n" + i);
                ip("netns", "exec", ns, "ip", "link", "set", "s3n" + i, "up");
                ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
            }
            return network;
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** The command prefix that runs a program in worker {@code i}'s namespace (1-based). */
    List<String> launcher(int i) {
        return List.of("ip", "netns", "exec", namespace(i));
    }

    /** Takes worker {@code i}'s link down: its packets go nowhere, its connections hang (no reset). */
    void cut(int i) throws IOException, InterruptedException {
        ip("link", "set", hostEnd(i), "down");
    }

    /** Brings worker {@code i}'s link back. */
    void restore(int i) throws IOException, InterruptedException {
        ip("link", "set", hostEnd(i), "up");
    }

    @Override
    public void close() {
        try {
            removeLeftovers(count);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot remove the test network", e);
        }
    }

    private static void removeLeftovers(int count) throws IOException, InterruptedException {
        for (int i = 1; i <= count; i++) {
            run(List.of("ip", "netns", "del", namespace(i)), true);
            run(List.of("ip", "link", "del", hostEnd(i)), true);
        }
        run(List.of("ip", "link", "del", BRIDGE), true);
    }

    private static String namespace(int i) {
        return PREFIX + i;
    }

    private static String hostEnd(int i) {
        return "s3h" + i;
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(List.of(args));
        run(command, false);
    }

    private static void run(List<String> command, boolean mayFail) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!done) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish");
        }
        if (p.exitValue() != 0 && !mayFail) {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + output);
        }
    }
}
