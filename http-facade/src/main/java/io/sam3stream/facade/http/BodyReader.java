package io.sam3stream.facade.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeoutException;

/**
 * Reads a request body up to a limit: a declared {@code Content-Length} over it is refused before reading, and a
 * body without one (chunked) is refused as soon as it grows past the limit, so an oversized upload never occupies
 * more than the limit in memory.
 *
 * <p>A body must also keep arriving: once a grace period is over, one that comes in slower than a minimum rate is
 * refused with 408. Jetty's idle timeout only ends a connection that sends nothing at all, so without this a client
 * trickling a byte at a time (slow loris) would hold its in-flight place and a server thread for as long as it
 * liked, and a handful of such clients would lock everyone else out with 429s.
 */
final class BodyReader {

    /** A body refused as too large is still read to its end, before the connection closes, up to this × the limit. */
    static final long LINGER_FACTOR = 4;

    /** Slowest body accepted: a full-size image from a client on a very slow link still arrives well above it. */
    static final long MIN_BYTES_PER_SECOND = 16 * 1024;

    /** How long a body may take before its rate counts (connection set-up, TCP slow start, a client's pause). */
    static final long GRACE_NANOS = 5_000_000_000L;

    private BodyReader() {
    }

    /** The whole body, or 413 / 408 / 400 as described above. */
    static byte[] read(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        // sized for the declared body, unless that is over the limit (refused before a byte is read)
        CappedBuffer out = new CappedBuffer(declared, (int) Math.min(Integer.MAX_VALUE, limit));
        transfer(ctx, limit, out);
        return out.toByteArray();
    }

    /**
     * Reads and discards what is left of a body that was refused unread (429, 401, a wrong content type), so that
     * the connection can carry the client's next request: a server that closes a connection with request bytes still
     * unread makes the kernel reset it, and the client may lose the response it was about to read.
     *
     * @return whether the body ended within the limit and the minimum rate; if not, the connection must close
     */
    static boolean drain(Context ctx, long limit) {
        try {
            transfer(ctx, limit, OutputStream.nullOutputStream());
            return true;
        } catch (ApiException refused) {
            return false;
        }
    }

    /**
     * Reads and discards the rest of a body refused as too large, when what is left is at most
     * {@link #LINGER_FACTOR} times the limit, before the connection closes. A client that writes its whole body
     * before it reads the response would otherwise have its last writes reset by the closed socket and lose the 413
     * it was sent. That includes a client that asked first ({@code Expect: 100-continue}): reading the body tells it
     * to go on, and the JDK 17 HttpClient cannot take a final answer in place of {@code 100 Continue} (it waits
     * forever, JDK-8286171), so asking for the body and reading it is the answer every client gets. A body declared
     * larger than the bound is not worth the reading: it is refused without a byte read, so a client that asked
     * first is not told to send it, and one that did not may lose the response.
     */
    static void lingerAfterTooLarge(Context ctx, long limit) {
        long bound = limit * LINGER_FACTOR;
        if (ctx.req().getContentLengthLong() <= bound) {
            drain(ctx, bound);
        }
    }

    private static void transfer(Context ctx, long limit, OutputStream out) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            throw tooLarge(declared + " bytes", limit);
        }
        long start = System.nanoTime();
        try (InputStream in = ctx.req().getInputStream()) {
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
                if (total > limit) {
                    throw tooLarge("more than " + limit + " bytes", limit);
                }
                out.write(buffer, 0, n);
                requireRate(total, System.nanoTime() - start);
            }
        } catch (IOException e) {
            if (e.getCause() instanceof TimeoutException) {
                throw tooSlow("stopped arriving (" + e.getMessage() + ")");
            }
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    private static void requireRate(long bytes, long elapsedNanos) {
        if (elapsedNanos > GRACE_NANOS && bytes * 1_000_000_000.0 / elapsedNanos < MIN_BYTES_PER_SECOND) {
            throw tooSlow("arrived at " + Math.round(bytes * 1e9 / elapsedNanos) + " bytes/s");
        }
    }

    private static ApiException tooSlow(String what) {
        return ApiException.http(408, "REQUEST_TIMEOUT", "the body " + what + "; after the first "
                + GRACE_NANOS / 1_000_000_000L + " s a body must arrive at " + MIN_BYTES_PER_SECOND
                + " bytes/s or more");
    }

    private static ApiException tooLarge(String size, long limit) {
        return ApiException.payloadTooLarge("the body has " + size + "; the limit is " + limit
                + " bytes (from SAM3_MAX_MESSAGE_BYTES)");
    }
}
