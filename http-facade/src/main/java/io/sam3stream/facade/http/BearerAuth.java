package io.sam3stream.facade.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;

/**
 * Optional bearer-token authentication (RFC 6750) of every route but the open ones: with {@code SAM3_API_KEYS}
 * set, a request needs {@code Authorization: Bearer <one of the keys>}, else 401. Keys are compared in constant
 * time so response timing does not reveal how much of a guess was right.
 */
public final class BearerAuth implements Handler {

    private static final String PREFIX = "Bearer ";

    private final List<byte[]> keys;
    private final Set<String> openPaths;

    /**
     * @param keys      accepted tokens (none: every request passes)
     * @param openPaths paths served without a token
     */
    public BearerAuth(List<String> keys, Set<String> openPaths) {
        this.keys = keys.stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
        this.openPaths = Set.copyOf(openPaths);
    }

    @Override
    public void handle(Context ctx) {
        if (keys.isEmpty() || openPaths.contains(ctx.path())) {
            return;
        }
        String authorization = ctx.header("Authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            throw ApiException.unauthorized("a bearer token is required (Authorization: Bearer <key>)");
        }
        byte[] token = authorization.substring(PREFIX.length()).trim().getBytes(StandardCharsets.UTF_8);
        boolean accepted = false;
        for (byte[] key : keys) {
            accepted |= MessageDigest.isEqual(key, token); // no early exit: every key is compared
        }
        if (!accepted) {
            throw ApiException.unauthorized("the bearer token is not accepted");
        }
    }
}
