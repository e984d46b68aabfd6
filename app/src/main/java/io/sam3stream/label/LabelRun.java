package io.sam3stream.label;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One labelling run: every image of the dataset not already in the results log goes to the labeller, at most
 * {@link Labeller#concurrency()} at once; each answer is logged as it comes; then the COCO file is written from the
 * log. An image that fails is logged with its reason and the run goes on; a run started again retries it.
 */
public final class LabelRun {

    /** What a run did. */
    public record Summary(int images, int labelled, int resumed, List<String> failures, int annotations,
            int emptyMasksLeftOut) {}

    private final ObjectMapper mapper = new ObjectMapper();
    private final List<DatasetImage> images;
    private final LabelQuery query;
    private final Path cocoFile;

    /**
     * @param images   the dataset, in a stable order (its position gives each image its COCO id)
     * @param query    what each image is asked
     * @param cocoFile where the COCO file goes; the results log is {@link #logPath(Path)} beside it
     */
    public LabelRun(List<DatasetImage> images, LabelQuery query, Path cocoFile) {
        this.images = List.copyOf(images);
        this.query = query;
        this.cocoFile = cocoFile;
    }

    /** The results log beside a COCO file: its name with {@code .results.jsonl} added. */
    public static Path logPath(Path cocoFile) {
        return cocoFile.resolveSibling(cocoFile.getFileName() + ".results.jsonl");
    }

    /**
     * Labels what the log does not hold yet and writes the COCO file.
     *
     * @param progress told how far the run is
     */
    public Summary run(Labeller labeller, ProgressListener progress) throws IOException, InterruptedException {
        Path folder = cocoFile.toAbsolutePath().getParent();
        if (folder != null) {
            Files.createDirectories(folder);
        }
        try (ResultsLog log = ResultsLog.open(logPath(cocoFile), query, mapper)) {
            List<DatasetImage> todo = images.stream().filter(i -> !log.isDone(i.fileName())).toList();
            int resumed = images.size() - todo.size();
            AtomicLong done = new AtomicLong(resumed);
            AtomicLong errors = new AtomicLong();
            Semaphore slots = new Semaphore(labeller.concurrency());
            progress.start(images.size(), resumed);
            for (DatasetImage image : todo) {
                slots.acquire();
                labeller.label(image, query).whenComplete((json, error) -> {
                    try {
                        if (error == null) {
                            log.recordResult(image.fileName(), json);
                        } else {
                            errors.incrementAndGet();
                            log.recordFailure(image.fileName(), reason(error));
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException("writing " + log.path() + " failed", e);
                    } finally {
                        progress.update(done.incrementAndGet(), errors.get());
                        slots.release();
                    }
                });
            }
            slots.acquire(labeller.concurrency()); // every answer is in
            progress.finish(done.get(), errors.get());
            return writeCoco(log, resumed);
        }
    }

    private Summary writeCoco(ResultsLog log, int resumed) throws IOException {
        CocoDataset coco = new CocoDataset(mapper, query);
        List<String> failures = new ArrayList<>();
        int labelled = 0;
        for (int i = 0; i < images.size(); i++) {
            ResultsLog.Entry e = log.entry(images.get(i).fileName());
            if (e != null && e.done()) {
                coco.add(i + 1, e.fileName(), e.result());
                labelled++;
            } else if (e != null) {
                failures.add(e.fileName() + ": " + e.error());
            }
        }
        Path tmp = cocoFile.resolveSibling(cocoFile.getFileName() + ".tmp");
        Files.write(tmp, coco.toJson());
        Files.move(tmp, cocoFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return new Summary(images.size(), labelled, resumed, failures, coco.annotationCount(), coco.skippedEmpty());
    }

    private static String reason(Throwable error) {
        Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return t instanceof LabelFailure ? t.getMessage() : t.toString();
    }

    /** Told how far a run is; {@code done} counts the images of earlier runs too. */
    public interface ProgressListener {
        /** Tells nobody: for runs whose progress is not shown. */
        ProgressListener SILENT = new ProgressListener() {
            @Override
            public void start(long total, long alreadyDone) {}

            @Override
            public void update(long done, long errors) {}

            @Override
            public void finish(long done, long errors) {}
        };

        /** Before the first image: {@code alreadyDone} of {@code total} images were labelled by earlier runs. */
        void start(long total, long alreadyDone);

        /** After each image. */
        void update(long done, long errors);

        /** After the last image. */
        void finish(long done, long errors);
    }
}
