package io.sam3stream.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * HTTP/1.1 written by hand on a socket, for what a well-behaved client library will not send: a body that never
 * arrives in full, or one that trickles in a byte at a time (slow loris).
 */
final class RawHttp {

    private RawHttp() {}

    /** What the server did: the status of its response (0 when it closed the connection without one). */
    record Reply(int status, String statusLine, Duration elapsed) {}

    /** The head of a {@code POST /predict} declaring {@code contentLength} bytes of JSON. */
    static byte[] predictHead(int port, String token, long contentLength) {
        return predictHead(port, token, "Content-Length: " + contentLength);
    }

    private static byte[] predictHead(int port, String token, String framing) {
        String head = "POST /predict HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + port + "\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Type: application/json\r\n"
                + framing + "\r\n"
                + "\r\n";
        return head.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends {@code head} and {@code bodyStart}, then one more byte every {@code drip} until the server answers or
     * closes, or {@code giveUp} passes (then the reply has status -1).
     */
    static Reply trickle(int port, byte[] head, byte[] bodyStart, Duration drip, Duration giveUp)
            throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) Math.max(1, drip.toMillis()));
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(head);
            out.write(bodyStart);
            out.flush();
            while (System.nanoTime() - start < giveUp.toNanos()) {
                try {
                    int first = in.read();
                    return reply(first, in, start);
                } catch (SocketTimeoutException quiet) {
                    // no answer yet: one more byte
                }
                try {
                    out.write(' ');
                    out.flush();
                } catch (IOException closed) {
                    socket.setSoTimeout(5_000);
                    return reply(in.read(), in, start);
                }
            }
            return new Reply(-1, "(still waiting)", Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** Sends {@code head} and {@code partialBody}, then closes its side of the connection; returns the reply. */
    static Reply halfSent(int port, byte[] head, byte[] partialBody, Duration timeout) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) timeout.toMillis());
            socket.getOutputStream().write(head);
            socket.getOutputStream().write(partialBody);
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            try {
                return reply(socket.getInputStream().read(), socket.getInputStream(), start);
            } catch (SocketTimeoutException e) {
                return new Reply(-1, "(no reply within " + timeout + ")", Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }

    /**
     * Uploads a {@code POST /predict} body of {@code length} spaces, declared in a Content-Length or sent in 64 KiB
     * chunks, while reading: returns the server's reply as soon as it comes, even if the upload is not done (a
     * server refusing the body may answer, or close the connection, before it has all arrived).
     */
    static Reply upload(int port, String token, long length, boolean chunked)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(60_000);
            byte[] head = predictHead(port, token,
                    chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + length);
            OutputStream out = socket.getOutputStream();
            Thread writer = new Thread(() -> {
                byte[] block = new byte[64 * 1024];
                Arrays.fill(block, (byte) ' ');
                try {
                    out.write(head);
                    for (long sent = 0; sent < length; sent += block.length) {
                        int n = (int) Math.min(block.length, length - sent);
                        if (chunked) {
                            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        }
                        out.write(block, 0, n);
                        if (chunked) {
                            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                        }
                    }
                    if (chunked) {
                        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.flush();
                } catch (IOException refused) {
                    // the server stopped reading: its reply says why
                }
            }, "upload");
            writer.setDaemon(true);
            writer.start();
            try {
                InputStream in = socket.getInputStream();
                return reply(in.read(), in, start);
            } catch (SocketTimeoutException e) {
                return new Reply(-1, "(no reply within 60 s)", Duration.ofNanos(System.nanoTime() - start));
            } finally {
                socket.close();
                writer.join(10_000);
            }
        }
    }

    private static Reply reply(int firstByte, InputStream in, long start) throws IOException {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (firstByte < 0) {
            return new Reply(0, "(closed)", elapsed);
        }
        String line = (char) firstByte
                + new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1)).readLine();
        String[] parts = line.split(" ");
        return new Reply(parts.length > 1 ? Integer.parseInt(parts[1]) : 0, line, elapsed);
    }
}
