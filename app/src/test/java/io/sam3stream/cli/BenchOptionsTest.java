package io.sam3stream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Out-of-range benchmark options are usage errors, refused before any model is built or any load is started. */
class BenchOptionsTest {

    @Test
    void eachOutOfRangeOptionIsAUsageErrorNamingTheOptionAndItsRange() {
        List<List<String>> refused = List.of(
                List.of("bench", "forward", "--extra-prompts", "6"),
                List.of("bench", "forward", "--passes", "0"),
                List.of("bench", "pipeline", "--requests", "0"),
                List.of("bench", "pipeline", "--threads", "-1"),
                List.of("bench", "blocks", "--runs", "0"),
                List.of("bench", "precision", "--threads", "0"),
                List.of("bench", "http", "--rate", "0"),
                List.of("bench", "http", "--seconds", "-5"),
                List.of("bench", "http", "--warmup-seconds", "NaN"),
                List.of("bench", "jobs", "--jobs", "0"),
                List.of("bench", "label", "--in-flight", "0"),
                List.of("bench", "prompt-path", "--runs", "0"),
                List.of("bench", "prompt-path", "--neighbour-lead", "-1"),
                List.of("bench", "prompt-path", "--requests", "0"),
                List.of("bench", "prompt-path", "--precision", "int8"),
                List.of("bench", "--threads", "300"));
        for (List<String> args : refused) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();

            int exitCode = run(args, out, err);

            String option = args.get(args.size() - 2);
            assertEquals(2, exitCode, args + ": " + err);
            assertTrue(err.toString().contains(option + " must be"), args + ": " + err);
            assertFalse(err.toString().contains("Exception"), args + " printed a stack trace: " + err);
            assertEquals("", out.toString(), args + " started measuring: " + out);
        }
    }

    @Test
    void theMessageGivesTheAllowedRangeAndTheValue() {
        StringWriter err = new StringWriter();

        run(List.of("bench", "forward", "--extra-prompts", "6"), new StringWriter(), err);

        assertTrue(err.toString().contains("--extra-prompts must be within 0..3, not 6"), err.toString());
    }

    private static int run(List<String> args, StringWriter out, StringWriter err) {
        CommandLine commandLine = Sam3Command.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args.toArray(String[]::new));
    }
}
