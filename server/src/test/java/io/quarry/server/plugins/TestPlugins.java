package io.quarry.server.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A test plugin, {@code p.<name>.TestPlugin}, of commands written as a {@code CommandDefinition}'s
 * parts, installed into a plugins directory (compiled with javac and jarred: {@link PluginJars}):
 * what the tests that load a third-party plugin over a real server share around their commands' own
 * logic ({@code ThirdPartyOverlayPageCutTest}, {@code StreamFailureTest}, {@code
 * TransformingPluginTest}).
 */
public final class TestPlugins {
  private TestPlugins() {}

  /**
   * One command of a test plugin.
   *
   * @param kind a {@code CommandKind} constant ({@code STREAMING}, {@code TRANSFORMING} …)
   * @param arguments the Java expression of its {@code List<ArgumentSpec>}
   * @param bind the body of its {@code bind(CommandArguments arguments)}, returning its {@code
   *     BoundCommand}
   */
  public record Command(
      String name, String description, String kind, String arguments, String bind) {
    String source() {
      return "new CommandDefinition() {\n"
          + "  public String name() { return \""
          + name
          + "\"; }\n"
          + "  public String description() { return \""
          + description
          + "\"; }\n"
          + "  public CommandKind kind() { return CommandKind."
          + kind
          + "; }\n"
          + "  public List<ArgumentSpec> arguments() { return "
          + arguments
          + "; }\n"
          + "  public BoundCommand bind(CommandArguments arguments) {\n"
          + bind
          + "\n  }\n}";
    }
  }

  /**
   * The source of plugin {@code name}: its {@code commands}, besides the plugin API's packages and
   * {@code java.util.List} and {@code Set} the classes {@code imports} names, and {@code members}
   * (helper methods and classes of the plugin class; empty for none).
   */
  public static String source(
      String name, List<String> imports, List<Command> commands, String members) {
    StringBuilder source = new StringBuilder();
    source.append("package p.").append(name).append(";\n\n");
    for (String type :
        List.of(
            "io.quarry.plugin.api.QuarryPlugin",
            "io.quarry.plugin.api.command.*",
            "io.quarry.plugin.api.data.*",
            "java.util.List",
            "java.util.Set")) {
      source.append("import ").append(type).append(";\n");
    }
    imports.forEach(type -> source.append("import ").append(type).append(";\n"));
    source
        .append("\npublic final class TestPlugin implements QuarryPlugin {\n")
        .append("  @Override\n  public List<CommandDefinition> commands() {\n    return List.of(")
        .append(commands.stream().map(Command::source).collect(Collectors.joining(", ")))
        .append(");\n  }\n")
        .append(members)
        .append("\n}\n");
    return source.toString();
  }

  /**
   * Installs plugin {@code name} ({@link #source}) into {@code plugins}, in directory {@code name}
   * with its descriptor (SPI 1.0); returns that directory.
   */
  public static Path install(
      Path plugins, String name, List<String> imports, List<Command> commands, String members)
      throws IOException {
    String main = "p." + name + ".TestPlugin";
    return PluginJars.write(
        plugins,
        name,
        PluginJars.descriptor(name, "1.0"),
        Map.of(main, source(name, imports, commands, members)),
        main);
  }
}
