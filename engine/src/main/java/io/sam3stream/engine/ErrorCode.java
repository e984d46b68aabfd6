package io.sam3stream.engine;

/**
 * Why a request was not answered with instances. The symbols are those of the result contract's {@code ErrorCode}
 * (the Avro enum of the {@code schemas} module, which also gives each its HTTP status), so that a refusal keeps its
 * name from the engine through the worker's result to the HTTP answer; the message says which rule was broken.
 * Symbols only the services raise (too many requests, no worker ready) are not the engine's and are not listed.
 */
public enum ErrorCode {
    /** The request cannot be served as asked: an image that does not decode or is too large, a missing or blank
     * prompt, more prompts than allowed. */
    BAD_REQUEST,
    /** A field has a value outside its range or a form the contract does not allow. */
    UNPROCESSABLE_ENTITY,
    /** The request (or the image it points to) is larger than the configured limit. */
    PAYLOAD_TOO_LARGE,
    /** The request's deadline passed before it was taken up. */
    DEADLINE_EXCEEDED,
    /** A failure nobody foresaw; its details are logged, not returned. */
    INTERNAL_ERROR
}
