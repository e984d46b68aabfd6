package io.sam3stream.device;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Loads the native islands library once per JVM: the file named by {@code SAM3_NATIVE_LIB} if set (the ttnn
 * build on a p150 host), otherwise the host implementation packed in this jar under
 * {@code native/<platform>/libsam3native.so}, copied to a temporary file first because a library cannot be
 * loaded from inside a jar.
 */
public final class NativeLibrary {

    /** Environment variable naming a library file to load instead of the packed one. */
    public static final String PATH_VARIABLE = Knob.SAM3_NATIVE_LIB.name();

    /** The C API version this binding was written for ({@code SAM3N_API_VERSION}). */
    static final int API_VERSION = 2;

    private static final String LIBRARY_FILE = "libsam3native.so";

    private static boolean loaded;

    private NativeLibrary() {}

    /**
     * Makes sure the library is loaded.
     *
     * @throws DeviceException ({@link DeviceStatus#LIBRARY_UNAVAILABLE}) if it cannot be found or loaded, or is
     *     of another API version
     */
    public static synchronized void load() {
        if (loaded) {
            return;
        }
        String override = Settings.fromEnvironment().get(Knob.SAM3_NATIVE_LIB);
        String origin;
        try {
            if (override != null && !override.isBlank()) {
                origin = PATH_VARIABLE + "=" + override;
                System.load(Path.of(override).toAbsolutePath().toString());
            } else {
                origin = "the jar's " + resourcePath();
                loadPacked();
            }
        } catch (UnsatisfiedLinkError | IOException | SecurityException e) {
            throw new DeviceException(DeviceStatus.LIBRARY_UNAVAILABLE,
                    "cannot load the native islands library: " + e.getMessage(), e);
        }
        int version = NativeApi.apiVersion();
        if (version != API_VERSION) {
            throw new DeviceException(DeviceStatus.LIBRARY_UNAVAILABLE, "the native library from " + origin
                    + " implements API version " + version + ", this binding needs " + API_VERSION);
        }
        loaded = true;
    }

    /**
     * Asks the library a yes-or-no question about this machine (a native query of the library's own, such as
     * whether a kernel runs on this CPU): false where the library does not load, or predates the query
     * ({@code SAM3_NATIVE_LIB} naming an older build).
     */
    static boolean answersYes(BooleanSupplier query) {
        try {
            load();
            return query.getAsBoolean();
        } catch (DeviceException | UnsatisfiedLinkError e) {
            return false;
        }
    }

    /** Which implementation the loaded library contains: {@code host} or {@code ttnn}. */
    public static String implementation() {
        load();
        return NativeApi.implementation();
    }

    /** Folder of the packed library for this JVM's platform, e.g. {@code linux-x86_64}. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osName = os.startsWith("linux") ? "linux" : os.replaceAll("[^a-z0-9]", "");
        String archName = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return osName + "-" + archName;
    }

    private static String resourcePath() {
        return resourcePath(LIBRARY_FILE);
    }

    private static String resourcePath(String libraryFile) {
        return "/native/" + platform() + "/" + libraryFile;
    }

    private static void loadPacked() throws IOException {
        try {
            loadPacked(LIBRARY_FILE, file -> System.load(file.toAbsolutePath().toString()));
        } catch (NoSuchFileException e) {
            throw new IOException(e.getMessage() + "; build one and point " + PATH_VARIABLE + " at it", e);
        }
    }

    /** Something that loads a library file (and may fail with an {@link IOException} saying why not). */
    interface Loader {
        void load(Path file) throws IOException;
    }

    /**
     * Copies the library {@code libraryFile} packed in this jar for this platform to a temporary file, hands that
     * file to {@code loader}, and deletes it again: the loaded mapping outlives the file, so nothing is left behind in
     * the temp folder.
     *
     * @throws NoSuchFileException if the jar has no such library for this platform
     * @throws IOException         if the copy or the loader fails
     */
    static void loadPacked(String libraryFile, Loader loader) throws IOException {
        String resource = resourcePath(libraryFile);
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NoSuchFileException(resource, null, "no " + libraryFile + " for platform " + platform()
                        + " in the jar");
            }
            Path file = Files.createTempFile(libraryFile.replace(".so", ""), ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                loader.load(file);
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }
}
