package io.sam3stream.schemas.registry.embedded;

import io.sam3stream.schemas.registry.RegistryApi;

/** An error answer of the registry API: HTTP status, Confluent error code and message. */
final class RegistryApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int errorCode;

    RegistryApiException(int httpStatus, int errorCode, String message) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    int httpStatus() {
        return httpStatus;
    }

    int errorCode() {
        return errorCode;
    }

    static RegistryApiException subjectNotFound(String subject) {
        return new RegistryApiException(404, RegistryApi.SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static RegistryApiException versionNotFound(String subject, int version) {
        return new RegistryApiException(404, RegistryApi.VERSION_NOT_FOUND,
                "Version " + version + " not found under subject '" + subject + "'.");
    }

    static RegistryApiException schemaNotFound(String what) {
        return new RegistryApiException(404, RegistryApi.SCHEMA_NOT_FOUND, what + " not found.");
    }

    static RegistryApiException subjectLevelNotConfigured(String subject) {
        return new RegistryApiException(404, RegistryApi.SUBJECT_LEVEL_NOT_CONFIGURED,
                "Subject '" + subject + "' does not have subject-level compatibility configured.");
    }

    static RegistryApiException incompatible(String subject, Iterable<String> problems) {
        return new RegistryApiException(409, RegistryApi.INCOMPATIBLE_SCHEMA,
                "Schema being registered is incompatible with an earlier schema for subject '" + subject
                        + "', details: " + String.join("; ", problems));
    }

    static RegistryApiException invalidSchema(String reason) {
        return new RegistryApiException(422, RegistryApi.INVALID_SCHEMA, "Invalid schema: " + reason);
    }

    static RegistryApiException invalidVersion(String version) {
        return new RegistryApiException(422, RegistryApi.INVALID_VERSION,
                "The specified version '" + version + "' is not a valid version id. Allowed values are between"
                        + " [1, 2^31-1] and the string \"latest\".");
    }

    static RegistryApiException invalidCompatibilityLevel(String level) {
        return new RegistryApiException(422, RegistryApi.INVALID_COMPATIBILITY_LEVEL,
                "Invalid compatibility level '" + level + "'.");
    }

    static RegistryApiException subjectSoftDeleted(String subject) {
        return new RegistryApiException(404, RegistryApi.SUBJECT_SOFT_DELETED, "Subject '" + subject
                + "' was soft deleted. Set permanent=true to delete permanently");
    }

    static RegistryApiException subjectNotSoftDeleted(String subject) {
        return new RegistryApiException(404, RegistryApi.SUBJECT_NOT_SOFT_DELETED, "Subject '" + subject
                + "' was not deleted first before being permanently deleted");
    }

    static RegistryApiException versionSoftDeleted(String subject, int version) {
        return new RegistryApiException(404, RegistryApi.VERSION_SOFT_DELETED, "Subject '" + subject
                + "' Version " + version + " was soft deleted. Set permanent=true to delete permanently");
    }

    static RegistryApiException versionNotSoftDeleted(String subject, int version) {
        return new RegistryApiException(404, RegistryApi.VERSION_NOT_SOFT_DELETED, "Subject '" + subject
                + "' Version " + version + " was not deleted first before being permanently deleted");
    }

    static RegistryApiException subjectModeNotConfigured(String subject) {
        return new RegistryApiException(404, RegistryApi.SUBJECT_LEVEL_MODE_NOT_CONFIGURED,
                "Subject '" + subject + "' does not have subject-level mode configured.");
    }

    static RegistryApiException invalidMode(String mode) {
        return new RegistryApiException(422, RegistryApi.INVALID_MODE, "Invalid mode '" + mode
                + "'. Valid values are READWRITE, READONLY and IMPORT.");
    }

    static RegistryApiException operationNotPermitted(String reason) {
        return new RegistryApiException(422, RegistryApi.OPERATION_NOT_PERMITTED, reason);
    }

    static RegistryApiException referenceExists(String subject, int version, Iterable<Integer> referrers) {
        return new RegistryApiException(422, RegistryApi.REFERENCE_EXISTS, "One or more references exist to"
                + " version " + version + " of subject '" + subject + "': schema ids " + referrers);
    }

    static RegistryApiException backendStore(String reason) {
        return new RegistryApiException(500, RegistryApi.BACKEND_STORE_ERROR, "Error in the backend data store: "
                + reason);
    }
}
