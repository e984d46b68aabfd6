package io.sam3stream.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sam3stream.avro.ErrorCode;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorCodesTest {

    @Test
    void eachCodeRendersAsTheHttpStatusTheApiPromises() {
        Map<ErrorCode, Integer> expected = new EnumMap<>(Map.of(
                ErrorCode.BAD_REQUEST, 400,
                ErrorCode.PAYLOAD_TOO_LARGE, 413,
                ErrorCode.UNPROCESSABLE_ENTITY, 422,
                ErrorCode.TOO_MANY_REQUESTS, 429,
                ErrorCode.INTERNAL_ERROR, 500,
                ErrorCode.SERVICE_UNAVAILABLE, 503,
                ErrorCode.DEADLINE_EXCEEDED, 504));

        Map<ErrorCode, Integer> actual = new EnumMap<>(ErrorCode.class);
        for (ErrorCode code : ErrorCode.values()) {
            actual.put(code, ErrorCodes.httpStatus(code));
        }
        assertEquals(expected, actual);
    }
}
