package io.sam3stream.text;

/** A BPE vocabulary could not be found or read, or its content is not a CLIP vocabulary. */
public final class BpeVocabularyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BpeVocabularyException(String message) {
        super(message);
    }

    public BpeVocabularyException(String message, Throwable cause) {
        super(message, cause);
    }
}
