package io.sam3stream.cli;

import io.sam3stream.config.Settings;
import io.sam3stream.text.BpeVocabulary;
import io.sam3stream.text.BpeVocabularyException;
import io.sam3stream.text.ClipTokenizer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sam3 tokenize}: the token ids SAM3's text encoder receives for each phrase. */
@Command(
        name = "tokenize",
        mixinStandardHelpOptions = true,
        description = {
            "Prints, for each phrase, one line holding the JSON array of the "
                    + ClipTokenizer.CONTEXT_LENGTH + " token ids SAM3's text encoder receives.",
            "Vocabulary: --bpe, else $SAM3_BPE_PATH, else the bundled copy of "
                    + BpeVocabulary.MERGES_FILE_NAME + "."
        })
public final class TokenizeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PHRASE", description = "Text prompts to tokenize.")
    private List<String> phrases;

    @Option(names = "--bpe", paramLabel = "<path>",
            description = "Upstream's " + BpeVocabulary.MERGES_FILE_NAME + ", or a folder holding it or a Hugging"
                    + " Face vocab.json + merges.txt.")
    private Path bpe;

    @Override
    public Integer call() {
        ClipTokenizer tokenizer;
        try {
            tokenizer = new ClipTokenizer(bpe != null ? BpeVocabulary.fromPath(bpe)
                    : BpeVocabulary.fromSettings(Settings.fromEnvironment(), Optional.empty()));
        } catch (BpeVocabularyException e) {
            spec.commandLine().getErr().println("sam3 tokenize: " + e.getMessage());
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String phrase : phrases) {
            out.println(toJsonArray(tokenizer.tokenize(phrase)));
        }
        out.flush();
        return 0;
    }

    private static String toJsonArray(int[] ids) {
        return IntStream.of(ids).mapToObj(Integer::toString).collect(Collectors.joining(", ", "[", "]"));
    }
}
