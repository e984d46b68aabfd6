package io.sam3stream.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sam3stream.worker.WorkerCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The Dockerfile builds from what the repository holds and yields the images docker-compose.yml asks for. */
class DockerfileTest {

    private static final Dockerfile DOCKERFILE = Dockerfile.load();
    private static final DockerIgnore IGNORED = DockerIgnore.load();

    @Test
    void copiesFromTheBuildContextOnlyWhatExistsAndIsNotIgnored() {
        for (Dockerfile.Stage stage : DOCKERFILE.stages()) {
            for (Dockerfile.Copy copy : stage.copies()) {
                if (copy.from().isPresent()) {
                    continue;
                }
                for (String source : copy.sources()) {
                    assertTrue(Files.exists(RepositoryFiles.root().resolve(source)),
                            "stage " + stage.name() + " copies " + source + ", which the repository lacks");
                    assertFalse(IGNORED.excludes(source),
                            "stage " + stage.name() + " copies " + source + ", which .dockerignore leaves out");
                }
            }
        }
    }

    @Test
    void everyModuleTheReactorBuildsReachesTheBuildContext() {
        for (String module : RepositoryFiles.modules()) {
            String pom = module + "/pom.xml";
            assertTrue(Files.isRegularFile(RepositoryFiles.file(pom)), pom);
            assertFalse(IGNORED.excludes(pom), ".dockerignore leaves out " + pom);
            assertFalse(IGNORED.excludes(module + "/src/main"), ".dockerignore leaves out " + module + "/src");
        }
    }

    @Test
    void dockerignoreKeepsHostBuildOutputsOut() {
        // a host CMake cache names the host's source folder, and CMake refuses to configure the copy with it
        assertTrue(IGNORED.excludes("native/target/cmake/CMakeCache.txt"));
        assertTrue(IGNORED.excludes("worker/target/sam3-worker.jar"));
        assertTrue(IGNORED.excludes(".git/HEAD"));
        assertFalse(IGNORED.excludes("native/src/main/cpp/core/c_api.cpp"));
        assertFalse(IGNORED.excludes("pom.xml"));
    }

    @Test
    void imagesCopyBuildOutputsOfReactorModules() {
        List<String> modules = RepositoryFiles.modules();
        List<String> stages = DOCKERFILE.stageNames();
        for (Dockerfile.Stage stage : DOCKERFILE.stages()) {
            for (Dockerfile.Copy copy : stage.copies()) {
                if (copy.from().isEmpty()) {
                    continue;
                }
                String from = copy.from().get();
                assertTrue(stages.indexOf(from) >= 0 && stages.indexOf(from) < stages.indexOf(stage.name()),
                        stage.name() + " copies from " + from + ", which is not an earlier stage");
                String workdir = DOCKERFILE.stage(from).workdir().map(w -> w.endsWith("/") ? w : w + "/").orElse("/");
                for (String source : copy.sources()) {
                    assertTrue(source.startsWith(workdir), source + " lies outside " + from + "'s " + workdir);
                    Path relative = Path.of(source.substring(workdir.length()));
                    assertTrue(modules.contains(relative.getName(0).toString()) && relative.getNameCount() > 2
                                    && relative.getName(1).toString().equals("target"),
                            source + " is not a build output (<module>/target/...) of a module in " + modules);
                }
            }
        }
    }

    @Test
    void composeBuildsStagesThisDockerfileDefines() {
        for (ComposeService service : ComposeFile.load().services().values()) {
            JsonNode build = service.build();
            if (build.isMissingNode()) {
                continue;
            }
            assertEquals(".", build.path("context").asText(), service.name() + " build context");
            assertEquals(Dockerfile.PATH, build.path("dockerfile").asText(Dockerfile.PATH), service.name());
            String target = build.path("target").asText();
            assertTrue(DOCKERFILE.stageNames().contains(target),
                    service.name() + " builds target '" + target + "'; stages are " + DOCKERFILE.stageNames());
        }
    }

    @Test
    void eachServiceImageRunsTheJarItCopies() {
        for (String stageName : List.of("worker", "facade")) {
            Dockerfile.Stage stage = DOCKERFILE.stage(stageName);
            List<String> entrypoint = stage.entrypoint();
            int jar = entrypoint.indexOf("-jar");
            assertTrue(jar >= 0 && jar + 1 < entrypoint.size(), stageName + " ENTRYPOINT " + entrypoint);
            Path runs = Path.of(entrypoint.get(jar + 1));
            boolean copied = stage.copies().stream().anyMatch(c -> c.sources().stream().anyMatch(source ->
                    Path.of(c.destination()).resolve(Path.of(source).getFileName()).equals(runs)));
            assertTrue(copied, stageName + " runs " + runs + ", which no COPY of the stage puts there");
        }
    }

    @Test
    void workerImageStartsTheWorkerCommandThatComposeExtends() {
        List<String> entrypoint = DOCKERFILE.stage("worker").entrypoint();
        assertEquals("-jar", entrypoint.get(entrypoint.size() - 2), "the worker jar ends the entrypoint: " + entrypoint);
        assertEquals("sam3-worker.jar", Path.of(entrypoint.get(entrypoint.size() - 1)).getFileName().toString());
        Matcher mainClass = Pattern.compile("<mainClass>([^<]+)</mainClass>").matcher(
                RepositoryFiles.text("worker/pom.xml"));
        assertTrue(mainClass.find(), "worker/pom.xml names the jar's main class");
        assertEquals(WorkerCommand.class.getName(), mainClass.group(1));
        // a supervisor without HTTP probes appends --ready-file to the entrypoint
        assertNotNull(new CommandLine(new WorkerCommand()).getCommandSpec().findOption("--ready-file"));
    }

    @Test
    void workerImagePreloadsTheJemallocItInstallsWithTheLaunchersSettings() {
        Dockerfile.Stage worker = DOCKERFILE.stage("worker");
        Map<String, String> env = worker.env();
        assertEquals("jemalloc", env.get("SAM3_ALLOCATOR"), "worker ENV " + env);
        assertEquals("libjemalloc.so.2", env.get("LD_PRELOAD"), "worker ENV " + env);
        assertTrue(worker.aptPackages().contains("libjemalloc2"),
                "the worker image preloads libjemalloc.so.2 but installs only " + worker.aptPackages());
        Matcher launcherDefault = Pattern.compile("MALLOC_CONF=\"\\$\\{MALLOC_CONF-([^}]*)}\"")
                .matcher(RepositoryFiles.text("sam3"));
        assertTrue(launcherDefault.find(), "the launcher sam3 sets a default MALLOC_CONF");
        assertEquals(launcherDefault.group(1), env.get("MALLOC_CONF"),
                "the image configures jemalloc as the launcher does");
        for (String glibcSetting : List.of("MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "GLIBC_TUNABLES",
                "OMP_WAIT_POLICY")) {
            Matcher launcher = Pattern.compile(glibcSetting + "=\"\\$\\{" + glibcSetting + ":?-([^}]*)}\"")
                    .matcher(RepositoryFiles.text("sam3"));
            assertTrue(launcher.find(), "the launcher sets " + glibcSetting);
            assertEquals(launcher.group(1), env.get(glibcSetting), glibcSetting + " as the launcher sets it");
        }
    }
}
