package io.sam3stream.config;

/** A configuration value that cannot be used; the message names the variable and what is wrong with it. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
