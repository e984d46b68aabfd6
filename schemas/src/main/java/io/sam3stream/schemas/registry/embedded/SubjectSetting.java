package io.sam3stream.schemas.registry.embedded;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A setting with a registry-wide value that single subjects may override, as Confluent's compatibility level
 * ({@code /config}) and mode ({@code /mode}) are. Not thread-safe: {@link RegistryState} guards it.
 *
 * @param <T> the setting's values
 */
final class SubjectSetting<T> {

    private final T defaultValue;
    private final Function<String, RegistryApiException> notConfigured;
    private final Map<String, T> bySubject = new TreeMap<>();
    private T global;

    /**
     * @param defaultValue the global value until one is set, and again after the global value is deleted
     * @param notConfigured the error for reading or deleting the value of a subject that has none of its own
     */
    SubjectSetting(T defaultValue, Function<String, RegistryApiException> notConfigured) {
        this.defaultValue = defaultValue;
        this.notConfigured = notConfigured;
        this.global = defaultValue;
    }

    /**
     * The global value ({@code subject} null), or the subject's own; a subject without one answers the global
     * value with {@code defaultToGlobal} and the not-configured error without.
     */
    T get(String subject, boolean defaultToGlobal) {
        if (subject == null) {
            return global;
        }
        T own = bySubject.get(subject);
        if (own == null && !defaultToGlobal) {
            throw notConfigured.apply(subject);
        }
        return own != null ? own : global;
    }

    /** The value in force for {@code subject}: its own, else the global one. */
    T inForce(String subject) {
        return bySubject.getOrDefault(subject, global);
    }

    /** Sets the global value ({@code subject} null) or the subject's own. */
    void set(String subject, T value) {
        if (subject == null) {
            global = value;
        } else {
            bySubject.put(subject, value);
        }
    }

    /**
     * Deletes the subject's own value, which then follows the global one, or resets the global value to the
     * default ({@code subject} null); returns the value deleted.
     */
    T delete(String subject) {
        if (subject == null) {
            T previous = global;
            global = defaultValue;
            return previous;
        }
        T previous = bySubject.remove(subject);
        if (previous == null) {
            throw notConfigured.apply(subject);
        }
        return previous;
    }

    /** Drops the subject's own value, if any (its subject is gone). */
    void forget(String subject) {
        bySubject.remove(subject);
    }

    /** The subjects' own values. */
    Map<String, T> bySubject() {
        return new TreeMap<>(bySubject);
    }

    /** Replaces everything with a saved state; absent parts take the defaults. */
    void restore(T savedGlobal, Map<String, T> savedBySubject) {
        global = Optional.ofNullable(savedGlobal).orElse(defaultValue);
        bySubject.clear();
        if (savedBySubject != null) {
            bySubject.putAll(savedBySubject);
        }
    }
}
