package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code cmake/tt-metal-pin.txt} is the one place naming the tt-metal commit the ttnn sources are written against;
 * everything else that names it must agree: the container manifest ({@code tt-model.yaml}, which builds that tree),
 * this module's README, and the stand-in headers the compile check uses.
 */
class TtMetalPinTest {

    private static final Pattern COMMIT = Pattern.compile("\\b[0-9a-f]{40}\\b");
    private static final Path STAND_INS = Path.of("src/test/ttnn-stand-in");

    private static String read(Path path) throws IOException {
        return Files.readString(path, StandardCharsets.UTF_8);
    }

    private static String pin() throws IOException {
        String pin = read(Path.of("cmake/tt-metal-pin.txt")).trim();
        assertTrue(COMMIT.matcher(pin).matches(), "cmake/tt-metal-pin.txt: " + pin);
        return pin;
    }

    @Test
    void theContainerManifestBuildsThePinnedTree() throws IOException {
        Matcher ref = Pattern.compile("(?m)^  tt_metal:\\s*\\n(?:    .*\\n)*?    ref: (\\S+)")
                .matcher(read(Path.of("../tt-model.yaml")));
        assertTrue(ref.find(), "tt-model.yaml has no source.tt_metal.ref");
        assertEquals(pin(), ref.group(1));
    }

    @Test
    void everyFullCommitTheReadmeNamesIsThePin() throws IOException {
        String pin = pin();
        Matcher commits = COMMIT.matcher(read(Path.of("README.md")));
        int named = 0;
        while (commits.find()) {
            assertEquals(pin, commits.group(), "native/README.md names another full commit");
            named++;
        }
        assertTrue(named > 0, "native/README.md does not name the pinned commit");
    }

    @Test
    void theStandInsDeclareThePinnedCommitAndNameTheHeaderEachMirrors() throws IOException {
        assertTrue(read(STAND_INS.resolve("stand_in_pin.hpp")).contains('"' + pin() + '"'),
                "stand_in_pin.hpp asserts another commit than cmake/tt-metal-pin.txt");
        List<Path> headers;
        try (Stream<Path> files = Files.walk(STAND_INS)) {
            headers = files.filter(p -> p.toString().endsWith(".hpp"))
                    .filter(p -> !p.getFileName().toString().equals("stand_in_pin.hpp"))
                    .toList();
        }
        assertFalse(headers.isEmpty());
        for (Path header : headers) {
            String text = read(header);
            assertTrue(text.startsWith("// Stand-in for "), header + " does not name the upstream header it mirrors");
            assertTrue(text.contains("stand_in_pin.hpp"), header + " does not include stand_in_pin.hpp");
        }
    }
}
