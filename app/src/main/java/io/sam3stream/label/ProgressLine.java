package io.sam3stream.label;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a run for a person watching: on a terminal one line redrawn in place (a bar, images done of total,
 * rate, time left, errors); elsewhere (a log file, CI) a plain line every {@link #PLAIN_INTERVAL}, so that a log is
 * not flooded.
 */
public final class ProgressLine implements LabelRun.ProgressListener {

    /** How often a plain line is written when the output is not a terminal. */
    static final Duration PLAIN_INTERVAL = Duration.ofSeconds(10);

    private static final int BAR_WIDTH = 30;

    private final PrintWriter out;
    private final boolean terminal;
    private final String what;
    private final LongSupplier clock;
    private long total;
    private long startDone;
    private long startNanos;
    private long lastPlainNanos;

    /**
     * @param out       where progress goes (standard error)
     * @param terminal  redraw one line in place instead of writing periodic lines
     * @param what      the unit counted, e.g. "images"
     * @param clock     nanosecond clock
     */
    public ProgressLine(PrintWriter out, boolean terminal, String what, LongSupplier clock) {
        this.out = out;
        this.terminal = terminal;
        this.what = what;
        this.clock = clock;
    }

    /** Starts the clock of the rate: {@code alreadyDone} of {@code total} units were done by earlier runs. */
    @Override
    public synchronized void start(long total, long alreadyDone) {
        this.total = total;
        this.startDone = alreadyDone;
        this.startNanos = clock.getAsLong();
        this.lastPlainNanos = startNanos;
    }

    /** Shows {@code done} units (all runs) and {@code errors}; a plain line only when its interval has passed. */
    @Override
    public synchronized void update(long done, long errors) {
        long now = clock.getAsLong();
        if (terminal) {
            out.print("\r" + line(done, errors, now));
            out.flush();
        } else if (now - lastPlainNanos >= PLAIN_INTERVAL.toNanos()) {
            lastPlainNanos = now;
            out.println(line(done, errors, now));
            out.flush();
        }
    }

    /** The last line, always written, ending the redrawn one on a terminal. */
    @Override
    public synchronized void finish(long done, long errors) {
        String line = line(done, errors, clock.getAsLong());
        out.println(terminal ? "\r" + line : line);
        out.flush();
    }

    String line(long done, long errors, long now) {
        double seconds = (now - startNanos) / 1e9;
        long doneHere = done - startDone;
        double rate = seconds > 0 ? doneHere / seconds : 0;
        String eta = rate > 0 ? format(Duration.ofSeconds((long) Math.ceil((total - done) / rate))) : "?";
        int filled = total == 0 ? BAR_WIDTH : (int) (BAR_WIDTH * done / total);
        String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
        return String.format(Locale.ROOT, "[%s] %d/%d %s, %.2f/s, %s left, %d errors", bar, done, total, what, rate,
                eta, errors);
    }

    private static String format(Duration d) {
        long h = d.toHours();
        long m = d.toMinutesPart();
        long s = d.toSecondsPart();
        return h > 0 ? String.format(Locale.ROOT, "%dh%02dm", h, m) : String.format(Locale.ROOT, "%dm%02ds", m, s);
    }
}
