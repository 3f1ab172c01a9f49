package io.quarry.server.config;

/** A configuration that cannot be used; the message names the file or variable and the problem. */
public class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
