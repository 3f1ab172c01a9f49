package io.quarry.plugin.api;

import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/**
 * The entry point of a plugin, found with {@link java.util.ServiceLoader}: a plugin jar lists its
 * implementation in {@code META-INF/services/io.quarry.plugin.api.QuarryPlugin}.
 *
 * <p>Every method has a default that contributes nothing, so later SPI versions can add kinds of
 * contributions without breaking plugins built against earlier ones. The server calls each method
 * once, when it loads the plugin; an exception there skips the plugin (the server still starts).
 * SPI 1.0 has commands; eval and stats functions are planned as further default methods.
 */
public interface QuarryPlugin {

  /**
   * Search commands ({@code | name args}). Names must not collide with built-ins or other plugins.
   */
  default List<CommandDefinition> commands() {
    return List.of();
  }
}
