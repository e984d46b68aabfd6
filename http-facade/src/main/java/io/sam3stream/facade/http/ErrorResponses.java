package io.sam3stream.facade.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become responses: every error, whether thrown by a handler, by Javalin itself
 * (404, 405) or carried by a failed future, is answered with its status and the JSON body
 * {@code {"error": ..., "detail": ...}}. Anything unexpected is a 500 whose detail is the exception's text.
 */
public final class ErrorResponses {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);

    /** Request attribute set once an error is answered, so that the status handlers do not answer it again. */
    private static final String ANSWERED = "sam3.error.answered";

    private ErrorResponses() {
    }

    /**
     * Registers the exception mapping, and JSON bodies for Javalin's own 404 and 405, on the routes.
     *
     * @param maxBodyBytes the body limit: a body refused unread is drained up to it (see {@link #keepAlive})
     */
    public static void install(RoutesConfig routes, long maxBodyBytes) {
        routes.exception(Exception.class, (e, ctx) -> respond(ctx, toApi(e), maxBodyBytes));
        routes.error(404, "*", ctx -> {
            if (ctx.attribute(ANSWERED) == null) { // a handler's own 404 (an unknown job) is answered already
                respond(ctx, ApiException.http(404, "NOT_FOUND", "no route " + ctx.method() + " " + ctx.path()),
                        maxBodyBytes);
            }
        });
        routes.error(405, "*", ctx -> respond(ctx, ApiException.http(405, "METHOD_NOT_ALLOWED",
                ctx.method() + " is not allowed on " + ctx.path()), maxBodyBytes));
    }

    /**
     * Whether the connection can carry the client's next request after this error. A body refused before it was
     * read (429, 401, a wrong content type) is drained first, so that the client does not lose the response to a
     * connection reset; one too slow (408) is not worth reading, and the response says the connection closes. One
     * too large (413) closes the connection too, after the rest of a body of moderate size has been read
     * ({@link BodyReader#lingerAfterTooLarge}), so that the client is reading when the response arrives.
     */
    private static boolean keepAlive(Context ctx, ApiException error, long maxBodyBytes) {
        if (error.status() == 408) {
            return false;
        }
        try {
            // a 413 is decided before the body's stream is opened here: opening it sends 100 Continue to a client
            // that asked first, which must be told to send only a body that the linger then reads
            if (error.status() == 413) {
                BodyReader.lingerAfterTooLarge(ctx, maxBodyBytes);
                return false;
            }
            return ctx.req().getInputStream().isFinished() || BodyReader.drain(ctx, maxBodyBytes);
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }

    /** The API error a failure stands for. */
    static ApiException toApi(Throwable failure) {
        Throwable e = failure;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof ApiException api) {
            return api;
        }
        if (e instanceof HttpResponseException http) {
            HttpStatus status = HttpStatus.forStatus(http.getStatus());
            String name = status.getMessage().toUpperCase(Locale.ROOT).replace(' ', '_');
            return ApiException.http(http.getStatus(), name, http.getMessage());
        }
        // the exception's text may name hosts, files or internals: it goes to the log under an id, the client
        // gets the id
        String errorId = UUID.randomUUID().toString();
        LOG.error("request failed unexpectedly (error id {})", errorId, e);
        return ApiException.internal("internal error " + errorId + " (the facade's log has the details)");
    }

    private static void respond(Context ctx, ApiException error, long maxBodyBytes) {
        ctx.attribute(ANSWERED, Boolean.TRUE);
        ctx.status(error.status());
        error.headers().forEach(ctx::header);
        if (!keepAlive(ctx, error, maxBodyBytes)) {
            ctx.header("Connection", "close");
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", error.error());
        body.put("detail", error.detail());
        ctx.json(body);
    }
}
