package io.sam3stream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.testing.TinyGolden;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code sam3 smoke --local}: the verdict line, and the note that explains a demo model's FAIL. */
class SmokeCommandTest {

    private static final String IMAGE = "../media/rocket.jpg";

    private record Run(int exitCode, String out, String err) {}

    private static Run smoke(String... modelArgs) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Sam3Command.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        String[] args = new String[3 + modelArgs.length];
        args[0] = "smoke";
        args[1] = "--local";
        args[2] = "--image=" + IMAGE;
        System.arraycopy(modelArgs, 0, args, 3, modelArgs.length);
        int rc = commandLine.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    @Test
    void aDemoModelsFailureSaysWhyItIsExpected() {
        Run run = smoke("--demo");
        assertEquals(1, run.exitCode(), run.out());
        assertTrue(run.out().startsWith("FAIL prompt='rocket'"), run.out());
        assertTrue(run.err().contains("note: the service runs the demo model"), run.err());
    }

    @Test
    void aCheckpointsVerdictCarriesNoDemoNote() {
        Run run = smoke("--checkpoint", TinyGolden.dir().resolve("sam3-tiny.pt").toString());
        assertTrue(run.out().startsWith(run.exitCode() == 0 ? "PASS" : "FAIL"), run.out());
        assertFalse(run.err().contains("demo model"), run.err());
    }
}
