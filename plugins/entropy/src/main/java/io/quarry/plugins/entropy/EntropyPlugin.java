package io.quarry.plugins.entropy;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** Adds {@code entropy}. */
public final class EntropyPlugin implements QuarryPlugin {
  @Override
  public List<CommandDefinition> commands() {
    return List.of(new EntropyCommand());
  }
}
