package io.sam3stream.backend.nativebridge;

import io.sam3stream.config.Knob;
import io.sam3stream.config.Settings;
import io.sam3stream.device.DeviceOptions;

/** The device knobs of the configuration, as the native islands take them at open. */
public final class DeviceSettings {

    private DeviceSettings() {}

    /**
     * {@code TT_DEVICE_ID}, {@code SAM3_L1_SMALL_SIZE}, {@code SAM3_TRACE_REGION_SIZE}, {@code TT_FUSED} for the
     * card; {@code SAM3_NUM_THREADS} for the host implementation, where 0 means the processors this JVM may use
     * (which, unlike the hardware thread count, honours container CPU limits).
     */
    public static DeviceOptions options(Settings settings) {
        int threads = settings.getInt(Knob.SAM3_NUM_THREADS, 0, 4096);
        return new DeviceOptions(settings.getInt(Knob.TT_DEVICE_ID, 0, 1023),
                settings.getLong(Knob.SAM3_L1_SMALL_SIZE, 0, Long.MAX_VALUE),
                settings.getLong(Knob.SAM3_TRACE_REGION_SIZE, 0, Long.MAX_VALUE),
                threads == 0 ? Runtime.getRuntime().availableProcessors() : threads,
                settings.getBoolean(Knob.TT_FUSED));
    }
}
