package io.sam3stream.label;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Finds the images of a dataset: every PNG and JPEG below a folder, or the files a glob names. */
public final class DatasetImages {

    private DatasetImages() {}

    /**
     * The images {@code spec} names, sorted by file name so that every run sees them in the same order.
     *
     * @param spec a folder (searched recursively) or a glob such as {@code frames/**}{@code /*.jpg}, whose folder
     *             part before the first wildcard is the root that file names are relative to
     * @throws IllegalArgumentException when nothing matches
     */
    public static List<DatasetImage> find(String spec) throws IOException {
        int wildcard = firstWildcard(spec);
        Path root;
        PathMatcher matcher;
        if (wildcard < 0) {
            root = Path.of(spec);
            if (Files.isRegularFile(root)) {
                return List.of(new DatasetImage(root, root.getFileName().toString()));
            }
            matcher = p -> true;
        } else {
            int slash = spec.lastIndexOf('/', wildcard);
            root = Path.of(slash < 0 ? "." : spec.substring(0, slash + 1));
            String pattern = spec.substring(slash + 1);
            PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            matcher = glob::matches;
        }
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("no such folder: " + root);
        }
        Path base = root;
        try (Stream<Path> files = Files.walk(root)) {
            List<DatasetImage> images = files.filter(Files::isRegularFile)
                    .filter(DatasetImages::isImageName)
                    .filter(p -> matcher.matches(base.relativize(p)))
                    .map(p -> new DatasetImage(p, base.relativize(p).toString().replace('\\', '/')))
                    .sorted((a, b) -> a.fileName().compareTo(b.fileName()))
                    .toList();
            if (images.isEmpty()) {
                throw new IllegalArgumentException("no PNG or JPEG image in " + spec);
            }
            return images;
        }
    }

    private static boolean isImageName(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".png") || name.endsWith(".jpg") || name.endsWith(".jpeg");
    }

    private static int firstWildcard(String spec) {
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return i;
            }
        }
        return -1;
    }
}
