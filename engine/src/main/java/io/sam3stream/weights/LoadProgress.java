package io.sam3stream.weights;

import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A weight source that reports how far the model's build has read it: the bytes of the tensors handed out so far,
 * against the checkpoint's size where it is a file. A 3.45 GB checkpoint takes a minute or more to read, and a
 * start-up that prints nothing for that long looks hung. A line is reported at every tenth of the way (or every
 * 256 MiB where the total is unknown), so that a log gets a handful of lines, not thousands.
 */
public final class LoadProgress implements WeightSource {

    private static final long STEP_WITHOUT_TOTAL = 256L << 20;

    private final WeightSource inner;
    private final long totalBytes;
    private final Consumer<String> progress;
    private long readBytes;
    private long nextReport;

    /**
     * @param inner      the weights being read
     * @param totalBytes the checkpoint's size in bytes, or 0 when it is not one file (generated weights)
     * @param progress   receives the lines
     */
    public LoadProgress(WeightSource inner, long totalBytes, Consumer<String> progress) {
        this.inner = inner;
        this.totalBytes = totalBytes;
        this.progress = progress;
        this.nextReport = step();
    }

    @Override
    public Set<String> names() {
        return inner.names();
    }

    @Override
    public boolean contains(String name) {
        return inner.contains(name);
    }

    @Override
    public RawTensor get(String name) {
        RawTensor tensor = inner.get(name);
        readBytes += tensor.data().remaining();
        if (readBytes >= nextReport) {
            while (nextReport <= readBytes) {
                nextReport += step();
            }
            progress.accept(totalBytes > 0
                    ? "Loading checkpoint: " + size(readBytes) + " of " + size(totalBytes) + " read ("
                            + Math.min(100, 100 * readBytes / totalBytes) + " %)"
                    : "Loading weights: " + size(readBytes) + " read");
        }
        return tensor;
    }

    private static String size(long bytes) {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private long step() {
        return totalBytes > 0 ? Math.max(1, totalBytes / 10) : STEP_WITHOUT_TOTAL;
    }

    @Override
    public String description() {
        return inner.description();
    }

    @Override
    public void close() {
        inner.close();
    }
}
