package io.sam3stream.schemas.registry;

/**
 * Constants of the Confluent Schema Registry REST API that both {@link SchemaRegistryClient} and the embedded
 * registry speak: the media type and the {@code error_code} values of the error body
 * {@code {"error_code": N, "message": "..."}}.
 */
public final class RegistryApi {

    /** Media type of every request and response body. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    /** 404: the subject has never been registered. */
    public static final int SUBJECT_NOT_FOUND = 40401;

    /** 404: the subject exists but has no such version. */
    public static final int VERSION_NOT_FOUND = 40402;

    /** 404: no schema with that id, or the schema is not registered under that subject. */
    public static final int SCHEMA_NOT_FOUND = 40403;

    /** 404: every version of the subject is soft-deleted (a permanent delete is the next step). */
    public static final int SUBJECT_SOFT_DELETED = 40404;

    /** 404: a permanent delete of a subject that was not soft-deleted first. */
    public static final int SUBJECT_NOT_SOFT_DELETED = 40405;

    /** 404: the version is soft-deleted already. */
    public static final int VERSION_SOFT_DELETED = 40406;

    /** 404: a permanent delete of a version that was not soft-deleted first. */
    public static final int VERSION_NOT_SOFT_DELETED = 40407;

    /** 404: the subject has no compatibility level of its own. */
    public static final int SUBJECT_LEVEL_NOT_CONFIGURED = 40408;

    /** 404: the subject has no mode of its own. */
    public static final int SUBJECT_LEVEL_MODE_NOT_CONFIGURED = 40409;

    /** 409: the schema breaks the subject's compatibility level. */
    public static final int INCOMPATIBLE_SCHEMA = 409;

    /** 422: the schema text does not parse, or is not an Avro schema. */
    public static final int INVALID_SCHEMA = 42201;

    /** 422: a version is neither a positive integer nor {@code latest}. */
    public static final int INVALID_VERSION = 42202;

    /** 422: an unknown compatibility level. */
    public static final int INVALID_COMPATIBILITY_LEVEL = 42203;

    /** 422: an unknown mode. */
    public static final int INVALID_MODE = 42204;

    /** 422: the registry's or the subject's mode forbids the operation (a write in READONLY, say). */
    public static final int OPERATION_NOT_PERMITTED = 42205;

    /** 422: the version cannot be deleted while other schemas reference it. */
    public static final int REFERENCE_EXISTS = 42206;

    /** 500: the registry could not persist its state. */
    public static final int BACKEND_STORE_ERROR = 50001;

    private RegistryApi() {
    }
}
