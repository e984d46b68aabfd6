package io.sam3stream.label;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.EncodedMask;
import io.sam3stream.engine.EngineFactory;
import io.sam3stream.engine.MaskFormat;
import io.sam3stream.engine.ModelSource;
import io.sam3stream.engine.PromptSpec;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.engine.SegmentRequest;
import io.sam3stream.engine.SegmentResponse;
import io.sam3stream.imaging.BinaryMask;
import io.sam3stream.imaging.CocoRle;
import io.sam3stream.imaging.MaskDecoding;
import io.sam3stream.imaging.SyntheticPicture;
import io.sam3stream.kafka.TinyEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A test dataset (the repository's {@code media/} pictures and generated ones, some in a sub-folder) and the checks
 * every labelling mode's COCO file must pass against the engine's own answers.
 */
final class LabelledDataset {

    static final LabelQuery QUERY = new LabelQuery(List.of("cat", "person wearing a hat"), List.of("cat", "hatted"),
            0.05f, 5);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LabelledDataset() {}

    /** Writes the dataset into {@code dir}: the media pictures at the top, generated ones below {@code gen/}. */
    static Path create(Path dir, int generated) throws IOException {
        Path media = Path.of("..", "media"); // tests run in the module folder
        try (var files = Files.list(media)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".png") || p.toString().endsWith(".jpg")).toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Files.createDirectories(dir.resolve("gen"));
        for (int i = 0; i < generated; i++) {
            Files.write(dir.resolve("gen/picture-" + i + ".png"), SyntheticPicture.png(160 + 24 * i, 120 + 16 * i, i));
        }
        Files.writeString(dir.resolve("notes.txt"), "not an image: skipped");
        return dir;
    }

    /** The tiny engine with {@code settings}, as a test's reference. */
    static Sam3Segmenter engine(Settings settings) {
        return EngineFactory.create(settings, ModelSource.checkpoint(TinyEngine.checkpoint(),
                Optional.of(TinyEngine.config())), step -> {});
    }

    /**
     * Checks {@code cocoFile}: every image of {@code images} once, with its real size; one category per prompt;
     * every annotation's mask decoding to exactly the mask the reference engine gives that instance, with {@code
     * bbox} and {@code area} those of the decoded mask.
     */
    static void assertMatchesEngine(Path cocoFile, List<DatasetImage> images, Sam3Segmenter reference)
            throws IOException {
        JsonNode coco = MAPPER.readTree(cocoFile.toFile());
        assertEquals(QUERY.categories().size(), coco.get("categories").size());
        assertEquals(images.size(), coco.get("images").size(), "every image once");
        Map<Integer, JsonNode> byId = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (JsonNode image : coco.get("images")) {
            byId.put(image.get("id").asInt(), image);
            assertTrue(names.add(image.get("file_name").asText()), "twice: " + image);
        }
        Map<String, List<JsonNode>> annotationsByFile = new HashMap<>();
        for (JsonNode a : coco.get("annotations")) {
            annotationsByFile.computeIfAbsent(byId.get(a.get("image_id").asInt()).get("file_name").asText(),
                    k -> new ArrayList<>()).add(a);
        }
        int compared = 0;
        for (int i = 0; i < images.size(); i++) {
            DatasetImage image = images.get(i);
            JsonNode entry = byId.get(i + 1);
            assertEquals(image.fileName(), entry.get("file_name").asText());
            SegmentResponse expected = reference.segment(new SegmentRequest(Files.readAllBytes(image.path()),
                    QUERY.prompts().stream().map(PromptSpec::text).toList(), QUERY.threshold(), QUERY.maxInstances(),
                    MaskFormat.RLE));
            assertEquals(expected.width(), entry.get("width").asInt());
            assertEquals(expected.height(), entry.get("height").asInt());
            List<JsonNode> got = annotationsByFile.getOrDefault(image.fileName(), List.of());
            int k = 0;
            for (int p = 0; p < expected.results().size(); p++) {
                for (SegmentResponse.Instance instance : expected.results().get(p).instances()) {
                    EncodedMask.Rle rle = (EncodedMask.Rle) instance.mask();
                    if (instance.maskArea() == 0) {
                        continue; // left out of the COCO file
                    }
                    JsonNode a = got.get(k++);
                    assertEquals(p + 1, a.get("category_id").asInt());
                    assertEquals(instance.score(), a.get("score").floatValue(), 1e-6, "score");
                    assertEquals(0, a.get("iscrowd").asInt());
                    JsonNode seg = a.get("segmentation");
                    assertEquals(List.of(expected.height(), expected.width()),
                            List.of(seg.get("size").get(0).asInt(), seg.get("size").get(1).asInt()));
                    CocoRle decoded = CocoRle.fromCompressed(expected.height(), expected.width(),
                            seg.get("counts").asText());
                    assertArrayEquals(rle.counts(), decoded.counts(), image.fileName() + " instance " + k);
                    BinaryMask mask = MaskDecoding.fromRle(rle.height(), rle.width(), rle.counts());
                    assertEquals(pixels(mask), a.get("area").asLong(), "area");
                    int[] box = tightBox(mask);
                    for (int c = 0; c < 4; c++) {
                        assertEquals(box[c], a.get("bbox").get(c).asInt(), "bbox " + a.get("bbox"));
                    }
                    compared++;
                }
            }
            assertEquals(k, got.size(), "no annotation beyond the engine's instances for " + image.fileName());
        }
        assertTrue(compared > 0, "the dataset produced no instance to compare");
    }

    private static long pixels(BinaryMask mask) {
        long n = 0;
        for (int y = 0; y < mask.height(); y++) {
            for (int x = 0; x < mask.width(); x++) {
                n += mask.get(x, y) ? 1 : 0;
            }
        }
        return n;
    }

    /** [x, y, width, height] of the set pixels, found pixel by pixel. */
    private static int[] tightBox(BinaryMask mask) {
        int minX = Integer.MAX_VALUE;
        int minY = Integer.MAX_VALUE;
        int maxX = -1;
        int maxY = -1;
        for (int y = 0; y < mask.height(); y++) {
            for (int x = 0; x < mask.width(); x++) {
                if (mask.get(x, y)) {
                    minX = Math.min(minX, x);
                    maxX = Math.max(maxX, x);
                    minY = Math.min(minY, y);
                    maxY = Math.max(maxY, y);
                }
            }
        }
        return new int[] {minX, minY, maxX - minX + 1, maxY - minY + 1};
    }

    /**
     * Result lines of the log, by file name. Only complete lines count: a run that is still writing may have
     * appended part of its next line.
     */
    static Map<String, Integer> resultLinesPerFile(Path log) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        String content = Files.readString(log);
        List<String> lines = content.substring(0, content.lastIndexOf('\n') + 1).lines().toList();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            JsonNode json = MAPPER.readTree(line);
            if (json.has("result")) {
                counts.merge(json.get("file").asText(), 1, Integer::sum);
            }
        }
        return counts;
    }
}
