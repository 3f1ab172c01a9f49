package io.quarry.server.cli;

import io.quarry.server.plugins.PluginManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code quarry plugins list}: what a server with this configuration would load. */
@Command(
    name = "plugins",
    mixinStandardHelpOptions = true,
    description = "Command plugins.",
    subcommands = {PluginsCommand.ListCommand.class})
final class PluginsCommand implements Runnable {
  @Override
  public void run() {
    picocli.CommandLine.usage(this, System.out);
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "Load the plugins the configuration names (plugins.dir) as the server would, and list",
        "each with its commands, or why it was not loaded. Exit status 1 when one failed."
      })
  static final class ListCommand implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Option(
        names = "--plugins-dir",
        paramLabel = "DIR",
        description = "The plugins directory (default: plugins.dir of the configuration).")
    Path pluginsDir;

    @Override
    public Integer call() throws Exception {
      Path dir = pluginsDir != null ? pluginsDir : Path.of(server.load().plugins().dir());
      // the table says what loaded; the loader's own log lines would repeat it
      java.util.logging.Logger.getLogger(PluginManager.class.getName())
          .setLevel(java.util.logging.Level.SEVERE);
      PluginManager plugins = PluginManager.load(dir, List.of());
      System.out.println("plugins directory: " + dir.toAbsolutePath().normalize());
      List<Map<String, String>> rows = new ArrayList<>();
      boolean failed = false;
      for (PluginManager.LoadedPlugin plugin : plugins.plugins()) {
        Map<String, String> row = new LinkedHashMap<>();
        row.put("plugin", plugin.name());
        row.put("version", plugin.version());
        row.put("spi", plugin.spiVersion());
        row.put("status", plugin.loaded() ? "loaded" : "NOT LOADED: " + plugin.error());
        row.put("commands", String.join(", ", plugin.commands()));
        rows.add(row);
        failed |= !plugin.loaded();
      }
      Table.print(System.out, List.of("plugin", "version", "spi", "status", "commands"), rows);
      return failed ? 1 : 0;
    }
  }
}
