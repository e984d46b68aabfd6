package io.sam3stream.device;

/** Why a call into the native islands failed: the C API's {@code sam3n_status}, plus failures to load it. */
public enum DeviceStatus {
    /** The native library could not be found or loaded; nothing reached the device. */
    LIBRARY_UNAVAILABLE(-1),
    /** A shape, dtype, byte size, name or value the call cannot accept. */
    INVALID_ARGUMENT(1),
    /** The handle is not open: closed already, or never opened. */
    INVALID_HANDLE(2),
    /** The call is not allowed now, e.g. running before the weights are committed. */
    INVALID_STATE(3),
    /** Committing found required weights that were never uploaded. */
    MISSING_WEIGHT(4),
    /** The accelerator or its runtime failed. */
    DEVICE_ERROR(5),
    /** Host or device memory ran out. */
    OUT_OF_MEMORY(6),
    /** An unexpected failure inside the native library. */
    INTERNAL(7);

    private final int code;

    DeviceStatus(int code) {
        this.code = code;
    }

    /** The C API's status code. */
    public int code() {
        return code;
    }

    /** The status of a C API code; codes this version does not know are {@link #INTERNAL}. */
    public static DeviceStatus ofCode(int code) {
        for (DeviceStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return INTERNAL;
    }
}
