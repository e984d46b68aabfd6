package io.sam3stream.label;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sam3stream.cli.Sam3Command;
import io.sam3stream.config.Settings;
import io.sam3stream.engine.Sam3Segmenter;
import io.sam3stream.kafka.TinyEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sam3 label} with the engine in this process: the COCO file, the results log, and resuming. */
class LabelCommandTest {

    @TempDir
    Path dir;

    @Test
    void anInterruptedRunResumesWithoutLabellingAnImageTwice() throws Exception {
        Path images = Files.createDirectories(dir.resolve("images"));
        LabelledDataset.create(images, 4);
        List<DatasetImage> dataset = DatasetImages.find(images.toString());
        assertEquals(8, dataset.size(), "4 media pictures and 4 generated ones; notes.txt is not an image");
        Path coco = dir.resolve("labels.json");
        Settings settings = Settings.fromEnvironment();

        try (Sam3Segmenter reference = LabelledDataset.engine(settings)) {
            // first run: interrupted after three answers, as Ctrl-C would
            Thread first = new Thread(() -> {
                try (Labeller stopping = new StopsAfter(3, new InProcessLabeller(LabelledDataset.engine(settings)))) {
                    new LabelRun(dataset, LabelledDataset.QUERY, coco).run(stopping, LabelRun.ProgressListener.SILENT);
                } catch (InterruptedException expected) {
                    // the run stops where it is
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            first.start();
            Path log = LabelRun.logPath(coco);
            while ((!Files.exists(log) || LabelledDataset.resultLinesPerFile(log).size() < 3) && first.isAlive()) {
                Thread.sleep(50);
            }
            first.interrupt();
            first.join();
            assertEquals(3, LabelledDataset.resultLinesPerFile(log).size());
            // and a kill in the middle of writing a line
            Files.writeString(log, "{\"file\":\"gen/pict", StandardOpenOption.APPEND);

            StringWriter err = new StringWriter();
            int exit = command(err).execute("label", "--images", images.toString(), "--out", coco.toString(),
                    "--prompt", "cat", "--category", "cat", "--prompt", "person wearing a hat", "--category",
                    "hatted", "--threshold", "0.05", "--max-instances", "5",
                    "--checkpoint", TinyEngine.checkpoint().toString(), "--config", TinyEngine.config().toString());
            assertEquals(0, exit, err.toString());
            assertTrue(err.toString().contains("8 images (3 from an earlier run)"), err.toString());
            assertTrue(err.toString().contains("8/8 images"), err.toString());

            Map<String, Integer> lines = LabelledDataset.resultLinesPerFile(log);
            assertEquals(8, lines.size());
            lines.forEach((file, n) -> assertEquals(1, n, file + " labelled " + n + " times"));
            LabelledDataset.assertMatchesEngine(coco, dataset, reference);

            // a third run finds everything done and labels nothing
            StringWriter again = new StringWriter();
            assertEquals(0, command(again).execute("label", "--images", images.toString(), "--out", coco.toString(),
                    "--prompt", "cat", "--category", "cat", "--prompt", "person wearing a hat", "--category",
                    "hatted", "--threshold", "0.05", "--max-instances", "5",
                    "--checkpoint", TinyEngine.checkpoint().toString(), "--config", TinyEngine.config().toString()));
            assertTrue(again.toString().contains("8 images (8 from an earlier run)"), again.toString());
            assertEquals(lines, LabelledDataset.resultLinesPerFile(log));
        }
    }

    @Test
    void aLogOfOtherPromptsIsRefusedAndAFailingImageIsListedWithoutStoppingTheRun() throws Exception {
        Path images = Files.createDirectories(dir.resolve("images"));
        LabelledDataset.create(images, 2);
        Files.write(images.resolve("gen/broken.png"), "not a png at all".getBytes(StandardCharsets.UTF_8));
        Path coco = dir.resolve("labels.json");
        String[] common = {"label", "--images", images.toString(), "--out", coco.toString(), "--checkpoint",
            TinyEngine.checkpoint().toString(), "--config", TinyEngine.config().toString()};

        StringWriter err = new StringWriter();
        int exit = command(err).execute(concat(common, "--prompt", "cat"));
        assertEquals(3, exit, "a failed image makes the exit status 3\n" + err);
        assertTrue(err.toString().contains("failed: gen/broken.png: BAD_REQUEST"), err.toString());
        assertTrue(err.toString().contains("wrote " + coco + ": 6 images"), err.toString());

        StringWriter other = new StringWriter();
        assertEquals(2, command(other).execute(concat(common, "--prompt", "dog")));
        assertTrue(other.toString().contains("holds a run with other prompts or settings"), other.toString());

        StringWriter usage = new StringWriter();
        assertEquals(2, command(usage).execute("label", "--images", images.toString(), "--out", coco.toString()));
        assertTrue(usage.toString().contains("give at least one --prompt or a --prompts-file"), usage.toString());
        assertThrows(IllegalArgumentException.class, () -> DatasetImages.find(dir.resolve("none").toString()));
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static CommandLine command(StringWriter err) {
        CommandLine cli = Sam3Command.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli;
    }

    /** Answers the first {@code n} images, then never again: the run hangs until it is interrupted. */
    private static final class StopsAfter implements Labeller {
        private final AtomicInteger left;
        private final Labeller inner;

        StopsAfter(int n, Labeller inner) {
            this.left = new AtomicInteger(n);
            this.inner = inner;
        }

        @Override
        public CompletableFuture<byte[]> label(DatasetImage image, LabelQuery query) {
            return left.getAndDecrement() > 0 ? inner.label(image, query) : new CompletableFuture<>();
        }

        @Override
        public int concurrency() {
            return 1;
        }

        @Override
        public String describe() {
            return "stops";
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
