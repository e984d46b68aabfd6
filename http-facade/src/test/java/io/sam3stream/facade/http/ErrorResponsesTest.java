package io.sam3stream.facade.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorResponsesTest {

    @Test
    void anUnexpectedFailureReachesTheClientAsAnErrorIdNotItsText() {
        IllegalStateException secret = new IllegalStateException("cannot open /srv/secrets/key.pem on db-7.internal");
        ApiException first = ErrorResponses.toApi(new CompletionException(secret));
        ApiException second = ErrorResponses.toApi(secret);
        assertEquals(500, first.status());
        assertFalse(first.detail().contains("secrets") || first.detail().contains("IllegalStateException"),
                first.detail());
        assertTrue(first.detail().matches("internal error [0-9a-f-]{36} \\(the facade's log has the details\\)"),
                first.detail());
        assertFalse(first.detail().equals(second.detail()), "each failure gets its own id");
    }

    @Test
    void anApiErrorKeepsItsOwnDetail() {
        ApiException refused = ApiException.badRequest("prompt 1 is empty");
        assertEquals(refused, ErrorResponses.toApi(new CompletionException(refused)));
    }
}
