package io.sam3stream.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code cmake/ttnn.cmake} finds (or refuses) a tt-metal tree, run through CMake's configure step against stand-in
 * trees (an empty {@code _ttnncpp.so} is enough to configure): a tree with its libraries in {@code build/lib64}, a
 * CPM cache with two versions of one package, an installed TT-NN package, and no tree at all.
 */
class TtnnCmakeFragmentTest {

    @TempDir
    Path dir;

    private record Configure(int status, String output) {}

    @Test
    void aTreeWithItsLibrariesInLib64Configures() throws Exception {
        Path tree = tree("lib64");
        Configure c = configure(tree);
        assertEquals(0, c.status(), c.output());
        assertTrue(c.output().contains("Generating done"), c.output());
    }

    @Test
    void twoVersionsOfAPackageInTheCpmCacheAreRefusedByName() throws Exception {
        Path tree = tree("lib");
        Files.createDirectories(tree.resolve(".cpmcache/fmt/1111/include"));
        Files.createDirectories(tree.resolve(".cpmcache/fmt/2222/include"));
        Configure c = configure(tree);
        assertNotEquals(0, c.status(), c.output());
        assertTrue(c.output().contains("2 versions of fmt") && c.output().contains("1111")
                && c.output().contains("2222"), c.output());
    }

    @Test
    void anInstalledTtNnPackageIsPreferredAndTheMessageSaysSo() throws Exception {
        Path prefix = dir.resolve("ttnn-install");
        Path library = Files.createDirectories(prefix.resolve("lib")).resolve("_ttnncpp.so");
        Files.createFile(library);
        packageConfig(prefix.resolve("lib/cmake/tt-metalium/TT-MetaliumConfig.cmake"), "TT::Metalium", library);
        packageConfig(prefix.resolve("lib/cmake/tt-nn/TT-NNConfig.cmake"), "TTNN::TTNN", library);
        Configure c = configure(dir.resolve("no-such-tree"), "-DCMAKE_PREFIX_PATH=" + prefix);
        assertEquals(0, c.status(), c.output());
        assertTrue(c.output().contains("against the installed TT-NN package"), c.output());
        assertFalse(c.output().contains("ttnn implementation skipped"), c.output());
    }

    @Test
    void aRequiredPackageThatIsMissingIsAnError() throws Exception {
        Configure c = configure(tree("lib"), "-DSAM3N_TTNN_PACKAGE=ON");
        assertNotEquals(0, c.status(), c.output());
        assertTrue(c.output().contains("SAM3N_TTNN_PACKAGE=ON but find_package found no TT-NN"), c.output());
    }

    @Test
    void withoutATreeOnlyTheHostImplementationIsBuiltAndTheWarningSaysSo() throws Exception {
        Configure c = configure(dir.resolve("no-such-tree"));
        assertEquals(0, c.status(), c.output());
        assertTrue(c.output().contains("CMake Warning") && c.output().contains("ttnn implementation skipped"),
                c.output());
    }

    private Path tree(String libdir) throws IOException {
        Path tree = dir.resolve("tt-metal");
        Files.createDirectories(tree.resolve("build").resolve(libdir));
        Files.createFile(tree.resolve("build").resolve(libdir).resolve("_ttnncpp.so"));
        Files.createDirectories(tree.resolve(".cpmcache/fmt/1111/include"));
        return tree;
    }

    /** A package config that defines its imported target, as an installed tt-metal's does. */
    private static void packageConfig(Path config, String target, Path library) throws IOException {
        Files.createDirectories(config.getParent());
        Files.writeString(config, "add_library(" + target + " SHARED IMPORTED)\n"
                + "set_target_properties(" + target + " PROPERTIES IMPORTED_LOCATION \"" + library + "\")\n");
    }

    private Configure configure(Path ttMetalHome, String... extraArguments) throws Exception {
        Path build = Files.createTempDirectory(dir, "build");
        List<String> command = new ArrayList<>(List.of("cmake", "-S", ".", "-B", build.toString(),
                "-DJAVA_HOME=" + System.getProperty("java.home"),
                "-DSAM3N_JNI_HEADERS=" + Path.of("target/jni-headers").toAbsolutePath()));
        command.addAll(List.of(extraArguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("TT_METAL_HOME", ttMetalHome.toString());
        builder.environment().remove("CPM_SOURCE_CACHE");
        Process p = builder.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "cmake did not finish");
        // CMake wraps its messages at spaces: one line, single spaces
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Configure(p.exitValue(), output.replaceAll("\\s+", " "));
    }
}
