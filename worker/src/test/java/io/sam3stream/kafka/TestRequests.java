package io.sam3stream.kafka;

import io.sam3stream.avro.Prompt;
import io.sam3stream.avro.SegmentationRequest;
import io.sam3stream.avro.SegmentationResult;
import io.sam3stream.schemas.registry.SchemaRegistryClient;
import io.sam3stream.schemas.serde.SpecificAvroDeserializer;
import io.sam3stream.testing.TinyGolden;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Requests and results as the tests write and read them. */
public final class TestRequests {

    private TestRequests() {}

    /** The golden image of the tiny model (200×150 RGB PNG). */
    public static byte[] goldenImage() {
        try {
            return Files.readAllBytes(TinyGolden.dir().resolve("image.png"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request for {@code image} with text prompts and the defaults for everything else. */
    public static SegmentationRequest.Builder request(String id, byte[] image, String... prompts) {
        return SegmentationRequest.newBuilder()
                .setRequestId(id)
                .setImage(ByteBuffer.wrap(image))
                .setPrompts(Arrays.stream(prompts).map(p -> new Prompt(p, List.of())).toList());
    }

    /** The golden image stretched to {@code width} × {@code height}, as a PNG. */
    public static byte[] goldenImage(int width, int height) {
        try {
            BufferedImage golden = ImageIO.read(TinyGolden.dir().resolve("image.png").toFile());
            BufferedImage scaled = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
            scaled.createGraphics().drawImage(golden, 0, 0, width, height, null);
            return encode(scaled);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A black RGB PNG of the given size. */
    public static byte[] png(int width, int height) {
        return encode(new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR));
    }

    private static byte[] encode(BufferedImage image) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Decodes result records with the test stack's registry. */
    public static List<SegmentationResult> results(List<ConsumerRecord<byte[], byte[]>> records) {
        return results(records, KafkaTestStack.registryClient());
    }

    /** Decodes result records with {@code registry}. */
    public static List<SegmentationResult> results(List<ConsumerRecord<byte[], byte[]>> records,
            SchemaRegistryClient registry) {
        SpecificAvroDeserializer<SegmentationResult> deserializer =
                new SpecificAvroDeserializer<>(registry, SegmentationResult.class);
        return records.stream().map(r -> deserializer.deserialize(r.topic(), r.value())).toList();
    }

    /** Results by request id; fails on a duplicate. */
    public static Map<String, SegmentationResult> byRequestId(List<SegmentationResult> results) {
        return results.stream().collect(Collectors.toMap(SegmentationResult::getRequestId, Function.identity()));
    }
}
