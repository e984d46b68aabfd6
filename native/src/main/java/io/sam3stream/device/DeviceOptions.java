package io.sam3stream.device;

/**
 * How to open the islands' device ({@code sam3n_open_options}); each implementation ignores what it does not use.
 *
 * @param deviceId        ttnn: the card's device id ({@code TT_DEVICE_ID})
 * @param l1SmallSize     ttnn: bytes of L1_SMALL per core; 0 = ttnn's default ({@code SAM3_L1_SMALL_SIZE})
 * @param traceRegionSize ttnn: DRAM bytes reserved for metal traces ({@code SAM3_TRACE_REGION_SIZE})
 * @param numThreads      host: compute threads; 0 = every hardware thread
 * @param fused           ttnn: run the fused paths, with the encoder as one captured trace ({@code TT_FUSED})
 */
public record DeviceOptions(int deviceId, long l1SmallSize, long traceRegionSize, int numThreads, boolean fused) {

    public DeviceOptions {
        if (deviceId < 0 || l1SmallSize < 0 || traceRegionSize < 0 || numThreads < 0) {
            throw new IllegalArgumentException("device options must not be negative: " + deviceId + ", "
                    + l1SmallSize + ", " + traceRegionSize + ", " + numThreads);
        }
    }

    /** Options for the host implementation with the given number of threads (0 = all). */
    public static DeviceOptions host(int numThreads) {
        return new DeviceOptions(0, 0, 0, numThreads, false);
    }
}
