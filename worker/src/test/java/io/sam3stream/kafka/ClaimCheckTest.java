package io.sam3stream.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.config.ConfigException;
import io.sam3stream.engine.ErrorCode;
import io.sam3stream.engine.RequestRejectedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaimCheckTest {

    @TempDir
    Path dir;

    private Path root;
    private Path outside;
    private ClaimCheck claimCheck;

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectories(dir.resolve("images"));
        Files.write(root.resolve("cat.png"), new byte[] {1, 2, 3});
        outside = Files.write(dir.resolve("secret.txt"), new byte[] {9});
        claimCheck = new ClaimCheck(Optional.of(root), 100);
    }

    @Test
    void readsAFileUnderTheRoot() {
        assertArrayEquals(new byte[] {1, 2, 3}, claimCheck.read(root.resolve("cat.png").toUri().toString()));
    }

    @Test
    void acceptsTheLocalhostAuthority() {
        assertArrayEquals(new byte[] {1, 2, 3}, claimCheck.read("file://localhost" + root.resolve("cat.png")));
    }

    @Test
    void refusesEveryUriWhenNoRootIsConfigured() {
        ClaimCheck disabled = new ClaimCheck(Optional.empty(), 100);
        assertRefused(ErrorCode.BAD_REQUEST, "disabled",
                () -> disabled.read(root.resolve("cat.png").toUri().toString()));
    }

    @Test
    void refusesOtherSchemes() {
        assertRefused(ErrorCode.BAD_REQUEST, "scheme http", () -> claimCheck.read("http://example.com/cat.png"));
        assertRefused(ErrorCode.BAD_REQUEST, "scheme null", () -> claimCheck.read(root.resolve("cat.png").toString()));
    }

    @Test
    void refusesARemoteHost() {
        assertRefused(ErrorCode.BAD_REQUEST, "host", () -> claimCheck.read("file://files.example.com" + root
                .resolve("cat.png")));
    }

    @Test
    void refusesAPathThatClimbsOutOfTheRoot() {
        assertRefused(ErrorCode.BAD_REQUEST, "outside the image root",
                () -> claimCheck.read("file://" + root + "/../secret.txt"));
    }

    @Test
    void refusesAPathOutsideTheRootWithoutSayingWhetherItExists() {
        RequestRejectedException existing = assertThrows(RequestRejectedException.class,
                () -> claimCheck.read(outside.toUri().toString()));
        RequestRejectedException missing = assertThrows(RequestRejectedException.class,
                () -> claimCheck.read(dir.resolve("nothing.txt").toUri().toString()));
        assertTrue(existing.getMessage().endsWith("lies outside the image root"), existing.getMessage());
        assertTrue(missing.getMessage().endsWith("lies outside the image root"), missing.getMessage());
    }

    @Test
    void refusesALinkInsideTheRootThatPointsOutOfIt() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("link.png"), outside);
        assertRefused(ErrorCode.BAD_REQUEST, "outside the image root", () -> claimCheck.read(link.toUri().toString()));
    }

    @Test
    void refusesAMissingFileUnderTheRoot() {
        assertRefused(ErrorCode.BAD_REQUEST, "names no file",
                () -> claimCheck.read(root.resolve("dog.png").toUri().toString()));
    }

    @Test
    void refusesAFolder() {
        assertRefused(ErrorCode.BAD_REQUEST, "not a file", () -> claimCheck.read(root.toUri().toString()));
    }

    @Test
    void refusesAFileLargerThanTheLimit() throws IOException {
        Path big = Files.write(root.resolve("big.png"), new byte[101]);
        assertRefused(ErrorCode.PAYLOAD_TOO_LARGE, "101 bytes", () -> claimCheck.read(big.toUri().toString()));
    }

    @Test
    void aRootThatDoesNotExistFailsAtConstruction() {
        assertThrows(ConfigException.class, () -> new ClaimCheck(Optional.of(dir.resolve("missing")), 100));
    }

    private static void assertRefused(ErrorCode code, String messagePart, Runnable read) {
        RequestRejectedException e = assertThrows(RequestRejectedException.class, read::run);
        assertEquals(code, e.code());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }
}
