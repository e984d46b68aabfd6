package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sam3stream.imageheader.ImageHeader;
import io.sam3stream.imageheader.MalformedImageException;
import java.time.Duration;

/**
 * Fuzz target for the image header reader, which sees every upload before anything else does. Property: it either
 * refuses the bytes with a {@link MalformedImageException} or returns a format and two positive sides; no other
 * exception escapes and no input takes longer than {@link #PER_INPUT_DEADLINE}. Seeds:
 * {@code ImageHeaderFuzzTestInputs/readHeader/} (tiny PNG and JPEG files).
 */
class ImageHeaderFuzzTest {

    /** Generous for a header scan; not JUnit's {@code @Timeout}, which in fuzzing mode bounds the whole run. */
    private static final Duration PER_INPUT_DEADLINE = Duration.ofSeconds(5);

    @FuzzTest
    void readHeader(byte[] data) {
        assertTimeoutPreemptively(PER_INPUT_DEADLINE, () -> {
            ImageHeader header;
            try {
                header = ImageHeader.read(data);
            } catch (MalformedImageException refused) {
                return;
            }
            assertNotNull(header.format());
            assertTrue(header.width() > 0 && header.height() > 0, header.toString());
        });
    }
}
