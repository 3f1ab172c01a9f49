package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.parser.Position;

/**
 * A use of a command a plugin contributed, bound to its checked arguments.
 *
 * @param name the command's name
 * @param plugin the name of the plugin that contributed it (named in its errors)
 * @param kind where the planner may run it
 * @param arguments the checked arguments (for explain and equality)
 * @param bound the plugin's bound command, which makes the operators
 */
public record PluginCommand(
    String name,
    String plugin,
    CommandKind kind,
    CommandArguments arguments,
    BoundCommand bound,
    Position position)
    implements Command {

  public PluginCommand {
    requireNonNull(name, "name is null");
    requireNonNull(plugin, "plugin is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(arguments, "arguments is null");
    requireNonNull(bound, "bound is null");
    requireNonNull(position, "position is null");
  }

  /** This use bound otherwise ({@code collect} to a writer, {@code map} to a runner). */
  public PluginCommand withBound(BoundCommand other) {
    return new PluginCommand(name, plugin, kind, arguments, other, position);
  }

  /** "command 'x' of plugin 'y'", for messages. */
  public String describe() {
    return plugin.equals("built-in")
        ? "command '" + name + "'"
        : "command '" + name + "' of plugin '" + plugin + "'";
  }
}
