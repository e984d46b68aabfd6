package io.sam3stream.imaging;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The decoder fixtures of {@code src/test/resources/imaging}: small PNG and JPEG files covering every colour type,
 * bit depth, filter, interlacing and JPEG variant, each with the RGB bytes Pillow decodes it to (see
 * {@code make_fixtures.py} there).
 */
final class DecoderFixtures {

    /** One fixture: its file name, the size Pillow reports and Pillow's mode on opening it. */
    record Fixture(String file, int width, int height, String pillowMode) {
        byte[] encoded() {
            return resource(file);
        }

        /** {@code Image.open(file).convert("RGB").tobytes()}. */
        byte[] pillowRgb() {
            return resource(file.substring(0, file.lastIndexOf('.')) + ".rgb");
        }

        @Override
        public String toString() {
            return file + " (" + pillowMode + ")";
        }
    }

    private DecoderFixtures() {}

    static List<Fixture> all() {
        String manifest = new String(resource("expected.txt"), StandardCharsets.UTF_8);
        List<Fixture> fixtures = new ArrayList<>();
        for (String line : manifest.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split(" ");
            fixtures.add(new Fixture(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3]));
        }
        return fixtures;
    }

    static byte[] resource(String name) {
        try (InputStream in = DecoderFixtures.class.getResourceAsStream("/imaging/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource imaging/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
