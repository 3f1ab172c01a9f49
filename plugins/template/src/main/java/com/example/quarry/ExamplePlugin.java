package com.example.quarry;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** The plugin's entry point, named in META-INF/services/io.quarry.plugin.api.QuarryPlugin. */
public final class ExamplePlugin implements QuarryPlugin {
  @Override
  public List<CommandDefinition> commands() {
    return List.of(new MaskCommand(), new ValueCountCommand());
  }
}
