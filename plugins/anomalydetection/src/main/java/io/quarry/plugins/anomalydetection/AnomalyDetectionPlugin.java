package io.quarry.plugins.anomalydetection;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** Adds {@code anomalydetection}. */
public final class AnomalyDetectionPlugin implements QuarryPlugin {
  @Override
  public List<CommandDefinition> commands() {
    return List.of(new AnomalyDetectionCommand());
  }
}
