package io.sam3stream.weights.procedural;

import io.sam3stream.weights.CheckpointException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names and shapes of a model's parameters, read from a text resource: one {@code name<TAB>d0,d1,...} line per
 * tensor, in state-dict order, with {@code #} comment lines. The bundled SAM3 image layout lists the upstream
 * image model's 1102 float32 parameters under canonical names.
 */
final class ParameterLayout {

    private static final String SAM3_IMAGE_RESOURCE = "sam3-image-parameters.tsv";
    private static final String DEMO_RESOURCE = "sam3-demo-parameters.tsv";

    private ParameterLayout() {}

    /** The full-size SAM3 image model's parameters (840,509,750 values), in upstream state-dict order. */
    static Map<String, long[]> sam3Image() {
        return read(SAM3_IMAGE_RESOURCE);
    }

    /** The demo model's parameters: the same names at the widths of {@code Sam3Config.demo()}. */
    static Map<String, long[]> demo() {
        return read(DEMO_RESOURCE);
    }

    private static Map<String, long[]> read(String resource) {
        try (InputStream in = ParameterLayout.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new CheckpointException("missing resource " + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            return parse(reader.lines().toList(), resource);
        } catch (IOException e) {
            throw new CheckpointException("cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    /** Parses layout lines; {@code source} names them in errors. */
    static Map<String, long[]> parse(List<String> lines, String source) {
        Map<String, long[]> shapes = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            if (fields.length != 2 || fields[0].isEmpty()) {
                throw new CheckpointException(source + " line " + (n + 1) + ": expected name<TAB>shape");
            }
            if (shapes.put(fields[0], parseShape(fields[1], source, n + 1)) != null) {
                throw new CheckpointException(source + " line " + (n + 1) + ": duplicate name " + fields[0]);
            }
        }
        return Collections.unmodifiableMap(shapes);
    }

    private static long[] parseShape(String text, String source, int lineNumber) {
        String[] dims = text.split(",", -1);
        long[] shape = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            try {
                shape[i] = Long.parseLong(dims[i]);
            } catch (NumberFormatException e) {
                shape[i] = -1;
            }
            if (shape[i] <= 0) {
                throw new CheckpointException(source + " line " + lineNumber + ": invalid dimension '" + dims[i]
                        + "'");
            }
        }
        return shape;
    }
}
