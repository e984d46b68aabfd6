package io.sam3stream.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's own files, read from the module folder Maven runs the tests in. */
final class RepositoryFiles {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final YAMLMapper YAML = new YAMLMapper();

    private RepositoryFiles() {}

    /** The repository root: the first folder upwards whose pom.xml lists modules. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && text(pom).contains("<modules>")) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no aggregator pom.xml above " + Path.of("").toAbsolutePath());
    }

    /** A file below the root. */
    static Path file(String relative) {
        return root().resolve(relative);
    }

    /** The text of a file below the root. */
    static String text(String relative) {
        return text(file(relative));
    }

    /**
     * A YAML file below the root as a tree. Anchors and merge keys are not resolved, so the files read this way
     * spell every value out.
     */
    static JsonNode yaml(String relative) {
        try {
            return YAML.readTree(file(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The modules the root pom builds. */
    static List<String> modules() {
        List<String> modules = new ArrayList<>();
        Matcher m = MODULE.matcher(text("pom.xml"));
        while (m.find()) {
            modules.add(m.group(1).trim());
        }
        return modules;
    }

    private static String text(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
