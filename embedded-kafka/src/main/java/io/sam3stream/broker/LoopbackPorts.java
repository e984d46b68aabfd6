package io.sam3stream.broker;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on this host, for stacks started on ports nobody configured (benchmarks, tests). */
public final class LoopbackPorts {

    private static final int ATTEMPTS = 50;

    private LoopbackPorts() {}

    /** A loopback port that was free a moment ago. */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A port whose successor is free too: the embedded broker's controller listens on the broker port + 1. */
    public static int freePair() throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = free();
            try (ServerSocket next = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another pair
            }
        }
        throw new IOException("no two consecutive free ports in " + ATTEMPTS + " attempts");
    }
}
