package io.sam3stream.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code sam3 bench} subcommand in a JVM of its own, started the way the launcher starts one: the same Java, class
 * path and system properties as this process, the environment of this process plus the given variables. A fresh
 * process per measurement is what the documented figures use: each starts with an empty allocator and heap, so one
 * run's memory and pages do not carry into the next.
 */
final class BenchProcess {

    /** The main class of the {@code sam3} command line, which the launcher's jar names in its manifest. */
    private static final String MAIN_CLASS = "io.sam3stream.cli.Sam3Command";

    private BenchProcess() {}

    /**
     * The command line of a child JVM running {@code sam3 <arguments>}.
     *
     * @param heapOptions JVM memory options for the child in place of this process's (empty: keep this process's)
     * @param arguments   the {@code sam3} arguments, e.g. {@code bench forward --passes 1}
     */
    static List<String> command(List<String> heapOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            boolean memory = option.startsWith("-Xmx") || option.startsWith("-Xms")
                    || option.startsWith("-XX:MaxDirectMemorySize");
            if (!(memory && !heapOptions.isEmpty())) {
                command.add(option);
            }
        }
        command.addAll(heapOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.addAll(arguments);
        return command;
    }

    /**
     * Runs {@code sam3 <arguments> --rows-json <file>} to its end, its output going to this process's, and returns
     * the rows of its table.
     *
     * @throws IOException when the child fails or writes no rows
     */
    static List<ResultTable.Row> rows(List<String> heapOptions, Map<String, String> environment,
            List<String> arguments) throws IOException, InterruptedException {
        Path rows = Files.createTempFile("sam3-bench-rows-", ".json");
        try {
            List<String> withRows = new ArrayList<>(arguments);
            withRows.add("--rows-json=" + rows);
            ProcessBuilder builder = new ProcessBuilder(command(heapOptions, withRows)).inheritIO();
            builder.environment().putAll(environment);
            Process child = builder.start();
            int status;
            try {
                status = child.waitFor();
            } catch (InterruptedException e) {
                child.destroyForcibly();
                throw e;
            }
            if (status != 0 || Files.size(rows) == 0) {
                throw new IOException("sam3 " + String.join(" ", arguments) + " exited with status " + status
                        + (Files.size(rows) == 0 ? " and wrote no rows" : ""));
            }
            return ResultTable.readRows(rows);
        } finally {
            Files.deleteIfExists(rows);
        }
    }
}
