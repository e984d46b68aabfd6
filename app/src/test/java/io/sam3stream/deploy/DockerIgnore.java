package io.sam3stream.deploy;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * The .dockerignore rules: a path leaves the build context when the last pattern matching it or one of its parent
 * folders is an exclusion ({@code !pattern} re-includes). Like Docker, a leading {@code **}{@code /} also matches at
 * the root.
 */
final class DockerIgnore {

    static final String PATH = ".dockerignore";

    private record Rule(List<PathMatcher> matchers, boolean excludes) {
        boolean matches(Path path) {
            return matchers.stream().anyMatch(m -> m.matches(path));
        }
    }

    private final List<Rule> rules;

    private DockerIgnore(List<Rule> rules) {
        this.rules = rules;
    }

    static DockerIgnore load() {
        Path file = RepositoryFiles.file(PATH);
        return Files.isRegularFile(file) ? parse(RepositoryFiles.text(PATH)) : new DockerIgnore(List.of());
    }

    static DockerIgnore parse(String text) {
        List<Rule> rules = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean excludes = !line.startsWith("!");
            String pattern = (excludes ? line : line.substring(1)).replaceFirst("^/", "");
            List<PathMatcher> matchers = new ArrayList<>();
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
            if (pattern.startsWith("**/")) {
                matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3)));
            }
            rules.add(new Rule(matchers, excludes));
        }
        return new DockerIgnore(rules);
    }

    /** True when a path (relative to the build context) is left out of it. */
    boolean excludes(String relative) {
        boolean excluded = false;
        for (Rule rule : rules) {
            for (Path p = Path.of(relative); p != null; p = p.getParent()) {
                if (rule.matches(p)) {
                    excluded = rule.excludes();
                    break;
                }
            }
        }
        return excluded;
    }
}
