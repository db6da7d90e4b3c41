package io.sluice.config;

/**
 * An application package that cannot be deployed. The message names file, line, element and the bad value
 * where they are known.
 */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

}
