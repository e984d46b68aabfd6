package io.sam3stream.engine;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.model.config.Sam3Config;

/**
 * How many threads the model's operators are split across (libtorch's intra-op threads, and the native host
 * islands' threads), resolved from {@code SAM3_NUM_THREADS}, the cores this process may use and the model, with the
 * reason in words for the start-up log.
 *
 * <p>An explicit count is obeyed. {@code 0}, the default, gives a model of the released size every core: its
 * products are large enough that two threads nearly halve them. A narrow model (ViT width below
 * {@link #MIN_SPLIT_VIT_WIDTH}) gets one thread: its operators are too small to gain from a second one, and a
 * worker's host stages (decoding the next image, encoding the last one's masks) need the other cores, so each
 * operator's fork-join would wait for a thread the scheduler gave to them (the tiny model through the worker's
 * overlapped stages on two cores: 58.6 requests/s on one thread against 40.4-41.1 on two, in
 * {@code docs/PERFORMANCE.md}).
 *
 * @param count  the threads, at least one
 * @param reason why, naming the setting and, for {@code 0}, the cores or the model's width
 */
public record IntraOpThreads(int count, String reason) {

    /**
     * The narrowest ViT (token width) whose model {@code SAM3_NUM_THREADS=0} splits across every core: the released
     * model's is 1024, where a second thread nearly halves the forward; the tiny and demo models' is 64, where it
     * slows the worker by a third.
     */
    public static final int MIN_SPLIT_VIT_WIDTH = 512;

    /** Resolves the count from the settings, the cores this process may use and the model it will run. */
    public static IntraOpThreads of(Settings settings, Sam3Config model) {
        return resolve(settings.getInt(Knob.SAM3_NUM_THREADS), Runtime.getRuntime().availableProcessors(),
                model.vit().embedDim());
    }

    /**
     * @param setting  {@code SAM3_NUM_THREADS}: a count, or 0 to choose
     * @param cores    the processors this process may use (which, unlike the hardware thread count, honours
     *                 container CPU limits)
     * @param vitWidth the model's ViT token width
     */
    public static IntraOpThreads resolve(int setting, int cores, int vitWidth) {
        if (setting > 0) {
            return new IntraOpThreads(setting, Knob.SAM3_NUM_THREADS + "=" + setting);
        }
        if (vitWidth < MIN_SPLIT_VIT_WIDTH) {
            return new IntraOpThreads(1, Knob.SAM3_NUM_THREADS + "=0 and the model is small (ViT width " + vitWidth
                    + " < " + MIN_SPLIT_VIT_WIDTH + "): its operators are too small to split, the other cores serve"
                    + " the host stages");
        }
        return new IntraOpThreads(cores, Knob.SAM3_NUM_THREADS + "=0: every core this process may use");
    }
}
