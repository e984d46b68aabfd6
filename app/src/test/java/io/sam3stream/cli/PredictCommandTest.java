package io.sam3stream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sam3stream.imaging.ImageDecoder;
import io.sam3stream.imaging.ImageLimits;
import io.sam3stream.imaging.RgbImage;
import io.sam3stream.testing.TinyGolden;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PredictCommandTest {

    @TempDir
    Path dir;

    @Test
    void writesTheReferenceJsonAndAnOverlayForADemoImage() throws Exception {
        Path image = Path.of("..", "media", "chelsea.png");
        Path json = dir.resolve("result.json");
        Path overlay = dir.resolve("overlay.png");
        int rc = Sam3Command.commandLine().execute("predict", "--checkpoint",
                TinyGolden.dir().resolve("sam3-tiny.pt").toString(), "--image", image.toString(), "--prompt", "cat",
                "--prompt", "a red car", "--out", json.toString(), "--overlay", overlay.toString());
        assertEquals(0, rc);

        JsonNode r = new ObjectMapper().readTree(json.toFile());
        RgbImage input = new ImageDecoder(ImageLimits.DEFAULT).decode(Files.readAllBytes(image));
        assertEquals(input.width(), r.get("width").asInt());
        assertEquals(input.height(), r.get("height").asInt());
        assertEquals(168, r.get("input_size").asInt());
        assertEquals("png", r.get("mask_format").asText());
        for (String field : new String[] {"decode", "preprocess", "forward", "forward_per_prompt", "postprocess",
            "total"}) {
            assertTrue(r.get("timing_ms").get(field).asDouble() >= 0, field);
        }
        assertEquals(2, r.get("results").size());
        for (JsonNode prompt : r.get("results")) {
            assertEquals(prompt.get("num_instances").asInt(), prompt.get("instances").size());
            for (JsonNode instance : prompt.get("instances")) {
                RgbImage mask = new ImageDecoder(ImageLimits.DEFAULT)
                        .decode(Base64.getDecoder().decode(instance.get("mask_png").asText()));
                assertEquals(input.width(), mask.width());
                assertTrue(instance.get("score").asDouble() > 0.5);
            }
        }
        RgbImage drawn = new ImageDecoder(ImageLimits.DEFAULT).decode(Files.readAllBytes(overlay));
        assertEquals(input.width(), drawn.width());
        assertEquals(input.height(), drawn.height());
    }
}
