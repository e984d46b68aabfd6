package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sam3stream.avro.Box;
import io.sam3stream.avro.BoxLabel;
import io.sam3stream.avro.ExemplarBox;
import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.engine.BoxExemplar;
import io.sam3stream.engine.ErrorCode;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.RequestRejectedException;
import io.sam3stream.engine.SegmentRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestTranslatorTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @TempDir
    Path root;

    private RequestTranslator translator() {
        return new RequestTranslator(new ClaimCheck(Optional.of(root), 1 << 20), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static SegmentationRequest.Builder request() {
        return SegmentationRequest.newBuilder()
                .setRequestId("r")
                .setImage(ByteBuffer.wrap(new byte[] {4, 5, 6}))
                .setPrompts(List.of(new Prompt("cat", List.of())));
    }

    @Test
    void mapsPromptsBoxesAndOptions() {
        SegmentationRequest avro = request()
                .setPrompts(List.of(new Prompt("cat", List.of(
                        new ExemplarBox(new Box(1f, 2f, 3f, 4f), BoxLabel.positive),
                        new ExemplarBox(new Box(5f, 6f, 7f, 8f), BoxLabel.negative))), new Prompt("dog", List.of())))
                .setThreshold(0.25f)
                .setMaxInstances(7)
                .setMaskFormat(io.sam3stream.avro.MaskFormat.rle_compressed)
                .build();

        SegmentRequest r = translator().toEngine(avro);

        assertArrayEquals(new byte[] {4, 5, 6}, r.image());
        assertEquals(List.of(
                new PromptSpec("cat", List.of(new BoxExemplar(1, 2, 3, 4, true), new BoxExemplar(5, 6, 7, 8, false))),
                PromptSpec.text("dog")), r.prompts());
        assertEquals(0.25f, r.threshold());
        assertEquals(7, r.maxInstances());
        assertEquals(MaskFormat.RLE_COMPRESSED, r.maskFormat());
    }

    @Test
    void readsTheImageOfAClaimCheck() throws IOException {
        Path image = Files.write(root.resolve("a.png"), new byte[] {8, 9});
        SegmentationRequest avro = request().setImage(null).setImageUri(image.toUri().toString()).build();
        assertArrayEquals(new byte[] {8, 9}, translator().toEngine(avro).image());
    }

    @Test
    void refusesARequestWithBothImageSourcesOrNeither() {
        RequestRejectedException both = assertThrows(RequestRejectedException.class,
                () -> translator().toEngine(request().setImageUri("file:///x.png").build()));
        RequestRejectedException neither = assertThrows(RequestRejectedException.class,
                () -> translator().toEngine(request().setImage(null).build()));
        assertEquals(ErrorCode.BAD_REQUEST, both.code());
        assertEquals(ErrorCode.BAD_REQUEST, neither.code());
    }

    @Test
    void aDeadlineThatHasPassedIsRefusedAndOneAheadIsNot() {
        RequestRejectedException late = assertThrows(RequestRejectedException.class,
                () -> translator().toEngine(request().setDeadline(NOW.minusMillis(1)).build()));
        assertEquals(ErrorCode.DEADLINE_EXCEEDED, late.code());
        assertThrows(RequestRejectedException.class,
                () -> translator().requireBeforeDeadline(request().setDeadline(NOW).build()));
        translator().requireBeforeDeadline(request().setDeadline(NOW.plusMillis(1)).build());
        translator().requireBeforeDeadline(request().build());
    }
}
