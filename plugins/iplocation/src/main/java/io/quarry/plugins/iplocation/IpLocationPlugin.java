package io.quarry.plugins.iplocation;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** Adds {@code iplocation}. */
public final class IpLocationPlugin implements QuarryPlugin {
  @Override
  public List<CommandDefinition> commands() {
    return List.of(new IpLocationCommand());
  }
}
