package io.sam3stream.kafka;

import io.sam3stream.config.ConfigException;
import io.sam3stream.engine.ErrorCode;
import io.sam3stream.engine.RequestRejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the image of a claim-check request: a {@code file://} URI that must resolve, symbolic links followed,
 * inside the configured image root. The root is the whole trust boundary (a request must not make the worker read
 * its own configuration or keys), so every other scheme, a remote host, a path that leaves the root and a file
 * larger than any acceptable image are refused before a byte is read.
 */
public final class ClaimCheck {

    /** The root as configured and as resolved (the two differ when the configured path runs through a link). */
    private record Root(Path configured, Path real) {}

    private final Optional<Root> root;
    private final long maxBytes;

    /**
     * @param root     folder the images must lie under; empty refuses every claim check
     * @param maxBytes largest file accepted
     * @throws ConfigException when the root is not an existing folder
     */
    public ClaimCheck(Optional<Path> root, long maxBytes) {
        this.root = root.map(r -> new Root(r.toAbsolutePath().normalize(), realFolder(r)));
        this.maxBytes = maxBytes;
    }

    /**
     * The bytes of the file {@code uri} names.
     *
     * @throws RequestRejectedException {@link ErrorCode#BAD_IMAGE} for a URI that is refused or names no readable
     *     file under the root, {@link ErrorCode#PAYLOAD_TOO_LARGE} for a file over the size limit
     */
    public byte[] read(String uri) {
        Path file = resolveInsideRoot(uri);
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                throw new RequestRejectedException(ErrorCode.PAYLOAD_TOO_LARGE,
                        "image_uri " + uri + " names a file of " + size + " bytes; at most " + maxBytes + " accepted");
            }
            // the path was resolved above; not following a link here keeps a link swapped in since then out
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                return in.readNBytes((int) size);
            }
        } catch (IOException e) {
            throw refused(uri, "cannot be read: " + e.getMessage());
        }
    }

    private Path resolveInsideRoot(String uri) {
        if (root.isEmpty()) {
            throw refused(uri, "claim checks are disabled (SAM3_IMAGE_ROOT is not set)");
        }
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw refused(uri, "is not a URI: " + e.getMessage());
        }
        if (parsed.getScheme() == null || !parsed.getScheme().toLowerCase(Locale.ROOT).equals("file")) {
            throw refused(uri, "has scheme " + parsed.getScheme() + "; only file:// URIs are accepted");
        }
        String host = parsed.getAuthority();
        if (host != null && !host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
            throw refused(uri, "names host " + host + "; only local files are accepted");
        }
        if (parsed.getPath() == null || parsed.getPath().isEmpty()) {
            throw refused(uri, "has no path");
        }
        // judged on the path as written first, so that the answer says nothing about files outside the root
        Path written = Path.of(parsed.getPath()).normalize();
        if (!written.startsWith(root.get().configured()) && !written.startsWith(root.get().real())) {
            throw refused(uri, "lies outside the image root");
        }
        try {
            Path file = written.toRealPath();
            if (!file.startsWith(root.get().real())) {
                throw refused(uri, "lies outside the image root");
            }
            if (!Files.isRegularFile(file)) {
                throw refused(uri, "is not a file");
            }
            return file;
        } catch (NoSuchFileException e) {
            throw refused(uri, "names no file");
        } catch (IOException e) {
            throw refused(uri, "cannot be resolved: " + e.getMessage());
        }
    }

    private static Path realFolder(Path folder) {
        try {
            Path real = folder.toRealPath();
            if (!Files.isDirectory(real)) {
                throw new ConfigException("SAM3_IMAGE_ROOT=" + folder + " is not a folder");
            }
            return real;
        } catch (IOException e) {
            throw new ConfigException("SAM3_IMAGE_ROOT=" + folder + " cannot be resolved: " + e);
        }
    }

    private static RequestRejectedException refused(String uri, String why) {
        return new RequestRejectedException(ErrorCode.BAD_REQUEST, "image_uri " + uri + " " + why);
    }
}
