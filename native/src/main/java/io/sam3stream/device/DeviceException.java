package io.sam3stream.device;

/**
 * A failure of the native islands, carrying the native library's explanation. Every native failure arrives as
 * this exception: C++ exceptions never cross the JNI boundary and the library never aborts the JVM.
 */
public class DeviceException extends RuntimeException {

    private final DeviceStatus status;

    public DeviceException(DeviceStatus status, String message) {
        super(message);
        this.status = status;
    }

    public DeviceException(DeviceStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** Thrown from native code with the C API's status code. */
    DeviceException(int statusCode, String message) {
        this(DeviceStatus.ofCode(statusCode), message);
    }

    public DeviceStatus status() {
        return status;
    }
}
