package io.sam3stream.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sam3stream.imageheader.ImageHeader;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.ImageRejectedException;
import io.sam3stream.imaging.RgbImage;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.zip.CRC32;

/**
 * Fuzz target for the PNG and JPEG decoders, which see every client's image. Property: an input is either refused
 * with an {@link ImageRejectedException} or decodes to an image within the limits, of the size that the facade's
 * header check ({@link ImageHeader}, which sizes a request before it is queued) reads from the same bytes; no other exception escapes, no input takes longer than {@link #PER_INPUT_DEADLINE}, and decoding
 * allocates no more than the input and an image within the limits justify, so a decompression bomb is refused
 * before its pixels exist. Seeds: {@code ImageDecoderFuzzTestInputs/decode/} (tiny PNGs of every colour type and
 * bit depth, interlaced, and baseline, progressive and greyscale JPEGs).
 */
class ImageDecoderFuzzTest {

    /** Small limits keep the fuzzer's decodes fast; the checks they trigger are those of the service's limits. */
    private static final ImageLimits LIMITS = new ImageLimits(1024, 1 << 18);

    /** Room for a decoded image within the limits and its intermediate planes (16-bit samples, chroma, rows). */
    private static final long DECODED_IMAGE_BYTES = 32 * LIMITS.maxPixels();

    /** Generous for a small image; not JUnit's {@code @Timeout}, which in fuzzing mode bounds the whole run. */
    private static final Duration PER_INPUT_DEADLINE = Duration.ofSeconds(5);

    private static final ImageDecoder DECODER = new ImageDecoder(LIMITS);

    /**
     * PNG chunks carry a CRC, which random mutations break nearly always; the input's CRCs are recomputed first
     * so that mutated chunks reach the chunk parsers and the inflater instead of all failing the checksum.
     */
    @FuzzTest
    void decode(byte[] input) {
        byte[] data = withValidPngCrcs(input);
        assertTimeoutPreemptively(PER_INPUT_DEADLINE, () -> AllocationBudget.assertWithinInputBudget(data.length,
                DECODED_IMAGE_BYTES, () -> {
                    RgbImage image;
                    try {
                        image = DECODER.decode(data);
                    } catch (ImageRejectedException refused) {
                        return;
                    }
                    ImageHeader header = ImageHeader.read(data);
                    assertEquals(header.width(), image.width(), "width");
                    assertEquals(header.height(), image.height(), "height");
                    assertTrue(image.width() <= LIMITS.maxSide() && image.height() <= LIMITS.maxSide()
                            && (long) image.width() * image.height() <= LIMITS.maxPixels(), image.toString());
                    assertEquals(3L * image.width() * image.height(), image.pixels().length);
                }));
    }

    /** A copy of {@code data} in which every complete chunk after a PNG signature has its correct CRC. */
    private static byte[] withValidPngCrcs(byte[] data) {
        byte[] fixed = data.clone();
        if (fixed.length < 8 || (fixed[0] & 0xff) != 0x89 || fixed[1] != 'P' || fixed[2] != 'N' || fixed[3] != 'G') {
            return fixed;
        }
        ByteBuffer png = ByteBuffer.wrap(fixed); // big-endian, as PNG
        for (int at = 8; at + 12 <= fixed.length; ) {
            long length = png.getInt(at) & 0xffffffffL;
            if (length > fixed.length - at - 12) {
                break;
            }
            CRC32 crc = new CRC32();
            crc.update(fixed, at + 4, 4 + (int) length); // chunk type and data
            png.putInt(at + 8 + (int) length, (int) crc.getValue());
            at += 12 + (int) length;
        }
        return fixed;
    }
}
