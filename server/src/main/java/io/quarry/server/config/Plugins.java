package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Command plugins: the directory whose subdirectories are plugins (default {@code plugins/} of the
 * distribution, else {@code ./plugins}; absent is fine).
 */
public record Plugins(@JsonProperty("dir") String dir) {
  public Plugins {
    if (dir == null) {
      String home = System.getProperty("quarry.home");
      dir = home == null ? "./plugins" : java.nio.file.Path.of(home, "plugins").toString();
    }
  }
}
