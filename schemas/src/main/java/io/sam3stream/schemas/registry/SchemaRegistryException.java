package io.sam3stream.schemas.registry;

/**
 * A schema-registry request that failed: either the registry answered with an error ({@link #httpStatus()} and
 * Confluent's {@link #errorCode()}, see {@link RegistryApi}) or it could not be reached ({@link #httpStatus()} 0).
 */
public final class SchemaRegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int errorCode;

    /** An error answer from the registry. */
    public SchemaRegistryException(int httpStatus, int errorCode, String message) {
        super(message + " (HTTP " + httpStatus + ", error_code " + errorCode + ")");
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /** The registry could not be reached or gave no usable answer. */
    public SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
        this.httpStatus = 0;
        this.errorCode = 0;
    }

    /** HTTP status of the registry's answer; 0 when there was none. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Confluent's {@code error_code} (for example {@link RegistryApi#SCHEMA_NOT_FOUND}); 0 when there was none. */
    public int errorCode() {
        return errorCode;
    }

    /** Whether the registry answered that a schema with the asked-for id or content does not exist. */
    public boolean isSchemaNotFound() {
        return errorCode == RegistryApi.SCHEMA_NOT_FOUND;
    }
}
