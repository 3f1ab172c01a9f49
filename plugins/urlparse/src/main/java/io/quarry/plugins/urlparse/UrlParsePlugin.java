package io.quarry.plugins.urlparse;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** Adds {@code urlparse}. */
public final class UrlParsePlugin implements QuarryPlugin {
  @Override
  public List<CommandDefinition> commands() {
    return List.of(new UrlParseCommand());
  }
}
