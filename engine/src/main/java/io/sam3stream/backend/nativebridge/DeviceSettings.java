package io.sam3stream.backend.nativebridge;

import io.sam3stream.config.ConfigException;
import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.device.DeviceOptions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The device knobs of the configuration, as the native islands take them at open. */
public final class DeviceSettings {

    /** The three ways the reference server accepts a mesh shape: {@code 1x1}, {@code (1, 1)} and {@code 1,1}. */
    private static final List<Pattern> MESH_SHAPES = List.of(Pattern.compile("(\\d{1,9})\\s*x\\s*(\\d{1,9})"),
            Pattern.compile("\\(\\s*(\\d{1,9})\\s*,\\s*(\\d{1,9})\\s*\\)"), Pattern.compile("(\\d{1,9})\\s*,\\s*(\\d{1,9})"));

    private DeviceSettings() {}

    /**
     * Checks {@code TT_MESH_SHAPE} at start, on every backend, as the reference server does: one chip is the only
     * shape served, written {@code 1x1}, {@code (1, 1)} or {@code 1,1}; anything else is refused rather than ignored.
     *
     * @return the shape as rows and columns ({1, 1})
     * @throws ConfigException for any other value, naming it
     */
    public static int[] meshShape(Settings settings) {
        String raw = settings.get(Knob.TT_MESH_SHAPE).trim();
        Matcher m = MESH_SHAPES.stream().map(p -> p.matcher(raw)).filter(Matcher::matches).findFirst()
                .orElseThrow(() -> new ConfigException(Knob.TT_MESH_SHAPE + "=" + raw
                        + " is not a mesh shape (write 1x1, (1, 1) or 1,1)"));
        int rows = Integer.parseInt(m.group(1));
        int cols = Integer.parseInt(m.group(2));
        if (rows != 1 || cols != 1) {
            throw new ConfigException(Knob.TT_MESH_SHAPE + "=" + raw + ": only a single chip (1x1) is supported");
        }
        return new int[] {rows, cols};
    }

    /**
     * {@code TT_DEVICE_ID}, {@code SAM3_L1_SMALL_SIZE}, {@code SAM3_TRACE_REGION_SIZE}, {@code TT_FUSED} for the
     * card, and the host implementation's threads.
     *
     * @param hostThreads the threads of the host implementation: the model's intra-op threads, as the engine
     *                    resolved them from {@code SAM3_NUM_THREADS}
     */
    public static DeviceOptions options(Settings settings, int hostThreads) {
        return new DeviceOptions(settings.getInt(Knob.TT_DEVICE_ID),
                settings.getLong(Knob.SAM3_L1_SMALL_SIZE),
                settings.getLong(Knob.SAM3_TRACE_REGION_SIZE),
                hostThreads,
                settings.getBoolean(Knob.TT_FUSED));
    }
}
