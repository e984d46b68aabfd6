package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Every demo image has its licence and its smoke-test expectations, described at its real size. */
class MediaCatalogueTest {

    private static final Pattern ROW = Pattern.compile("^\\| ([\\w.-]+\\.(?:png|jpg)) \\| (\\d+)x(\\d+)\\b(.*)$",
            Pattern.MULTILINE);
    private static final Pattern BOX = Pattern.compile("`\\[(\\d+), (\\d+), (\\d+), (\\d+)]`");

    /** One table row: the image it names, the size it states and the rest of the row. */
    private record Row(String file, int width, int height, String rest) {}

    @Test
    void everyImageHasALicenceAndAnExpectedOutput() throws IOException {
        Set<String> images = images();
        assertFalse(images.isEmpty());
        assertEquals(images, files(rows("media/SOURCES.md")), "SOURCES.md licence table");
        assertEquals(images, files(rows("media/README.md")), "README.md expected-output table");
    }

    @Test
    void tablesStateTheRealImageSizes() throws IOException {
        List<Row> rows = new ArrayList<>(rows("media/SOURCES.md"));
        rows.addAll(rows("media/README.md"));
        for (Row row : rows) {
            BufferedImage image = ImageIO.read(RepositoryFiles.file("media/" + row.file()).toFile());
            assertNotNull(image, row.file());
            assertEquals(image.getWidth() + "x" + image.getHeight(), row.width() + "x" + row.height(), row.file());
        }
    }

    @Test
    void expectedBoxesLieInsideTheirImages() {
        int boxes = 0;
        for (Row row : rows("media/README.md")) {
            Matcher box = BOX.matcher(row.rest());
            while (box.find()) {
                int x0 = Integer.parseInt(box.group(1));
                int y0 = Integer.parseInt(box.group(2));
                int x1 = Integer.parseInt(box.group(3));
                int y1 = Integer.parseInt(box.group(4));
                assertTrue(0 <= x0 && x0 < x1 && x1 <= row.width() && 0 <= y0 && y0 < y1 && y1 <= row.height(),
                        row.file() + " box " + box.group());
                boxes++;
            }
        }
        assertTrue(boxes > 0, "README.md gives expected boxes");
    }

    private static Set<String> images() throws IOException {
        try (Stream<Path> files = Files.list(RepositoryFiles.file("media"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches(".*\\.(png|jpg)"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<Row> rows(String table) {
        List<Row> rows = new ArrayList<>();
        Matcher m = ROW.matcher(RepositoryFiles.text(table));
        while (m.find()) {
            rows.add(new Row(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), m.group(4)));
        }
        return rows;
    }

    private static Set<String> files(List<Row> rows) {
        return rows.stream().map(Row::file).collect(Collectors.toCollection(TreeSet::new));
    }
}
