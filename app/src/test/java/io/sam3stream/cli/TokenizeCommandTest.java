package io.sam3stream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.text.TokenizerGolden;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TokenizeCommandTest {

    @Test
    void printsOneJsonArrayOfGoldenIdsPerPhrase() {
        List<String> phrases = TokenizerGolden.phrases();
        List<String> args = new ArrayList<>(List.of("tokenize", "--"));
        args.addAll(phrases);
        StringWriter out = new StringWriter();

        int exitCode = run(args, out, new StringWriter());

        assertEquals(0, exitCode);
        String[] lines = out.toString().split("\n");
        assertEquals(phrases.size(), lines.length);
        for (int i = 0; i < phrases.size(); i++) {
            assertEquals(TokenizerGolden.idsByPhrase().get(phrases.get(i)).toString().replace(",", ", "), lines[i],
                    phrases.get(i));
        }
    }

    @Test
    void missingVocabularyIsReportedWithExitCodeOne(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        Path missing = dir.resolve("none.txt.gz");

        int exitCode = run(List.of("tokenize", "--bpe", missing.toString(), "a dog"), new StringWriter(), err);

        assertEquals(1, exitCode);
        assertTrue(err.toString().contains(missing.toString()), err.toString());
    }

    private static int run(List<String> args, StringWriter out, StringWriter err) {
        CommandLine commandLine = Sam3Command.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args.toArray(String[]::new));
    }
}
