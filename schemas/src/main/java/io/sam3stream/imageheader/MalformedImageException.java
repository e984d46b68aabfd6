package io.sam3stream.imageheader;

/** Bytes that are not a readable PNG or JPEG header; the message says what is wrong. */
public class MalformedImageException extends RuntimeException {
    public MalformedImageException(String message) {
        super(message);
    }
}
