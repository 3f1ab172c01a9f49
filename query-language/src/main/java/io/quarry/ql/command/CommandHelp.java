package io.quarry.ql.command;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.CommandKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code | help} and {@code GET /api/v1/plugins} show about a command.
 *
 * @param plugin the contributing plugin, or {@code "built-in"}
 * @param syntax a one-line synopsis
 * @param arguments declared arguments (plugins); built-ins describe theirs in {@code syntax}
 */
public record CommandHelp(
    String name,
    CommandKind kind,
    String plugin,
    String syntax,
    String description,
    List<ArgumentSpec> arguments) {

  public static final String BUILT_IN = "built-in";

  public CommandHelp {
    requireNonNull(name, "name is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(plugin, "plugin is null");
    requireNonNull(syntax, "syntax is null");
    requireNonNull(description, "description is null");
    arguments = List.copyOf(arguments);
  }

  /** A plugin command's help; the synopsis is made from its declared arguments. */
  static CommandHelp of(io.quarry.plugin.api.command.CommandDefinition definition, String plugin) {
    StringBuilder syntax = new StringBuilder(definition.name());
    for (ArgumentSpec spec : definition.arguments()) {
      String type = "<" + spec.type().name().toLowerCase(Locale.ROOT) + ">";
      String text =
          spec.type() == io.quarry.plugin.api.command.ArgumentType.FIELD_LIST
              ? "<" + spec.name() + ">..."
              : spec.positional() ? "[" + spec.name() + "=]" + type : spec.name() + "=" + type;
      syntax.append(' ').append(spec.required() ? text : "[" + text + "]");
    }
    return new CommandHelp(
        definition.name(),
        definition.kind(),
        plugin,
        definition instanceof CustomSyntax custom ? custom.syntax() : syntax.toString(),
        definition.description(),
        definition.arguments());
  }

  /** The rows of {@code | help name}: one per argument, or one when there are none. */
  public List<Map<String, Object>> rows() {
    List<Map<String, Object>> rows = new ArrayList<>();
    if (arguments.isEmpty()) {
      rows.add(summary());
    }
    for (ArgumentSpec spec : arguments) {
      Map<String, Object> row = summary();
      row.put("argument", spec.name());
      row.put("type", spec.type().name().toLowerCase(Locale.ROOT));
      row.put("required", spec.required());
      if (spec.defaultValue() != null) {
        row.put("default", spec.defaultValue());
      }
      if (spec.positional()) {
        row.put("positional", true);
      }
      row.put("argument_description", spec.description());
      rows.add(row);
    }
    return rows;
  }

  /** The row of this command in {@code | help}'s list of every command. */
  public Map<String, Object> summary() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("command", name);
    row.put("kind", kind.name().toLowerCase(Locale.ROOT));
    row.put("plugin", plugin);
    row.put("syntax", syntax);
    row.put("description", description);
    return row;
  }
}
