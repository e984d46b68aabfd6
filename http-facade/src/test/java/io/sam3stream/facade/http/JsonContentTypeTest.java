package io.sam3stream.facade.http;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The content types a {@code POST /predict} body is read as JSON under: the reference server's. */
class JsonContentTypeTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", "Application/JSON",
        "application/vnd.api+json", " application/json ;charset=UTF-8"})
    void absentOrJsonIsRead(String contentType) {
        assertDoesNotThrow(() -> JsonContentType.require(contentType));
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
        "text/json", "application/jsonp", "application/octet-stream"})
    void anythingElseIs422(String contentType) {
        ApiException refused = assertThrows(ApiException.class, () -> JsonContentType.require(contentType));

        assertEquals(422, refused.status());
        assertEquals("UNPROCESSABLE_ENTITY", refused.error());
    }
}
