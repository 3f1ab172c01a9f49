package io.quarry.ql.command;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses a use of a plugin's command against its declared arguments: {@code name=value} options in
 * any order and, when the command declares a {@link ArgumentType#FIELD_LIST}, field names, or when
 * it declares a {@linkplain ArgumentSpec#alsoPositional() positional} argument, that argument's
 * value without its name ({@code iplocation clientip}); values are converted to their declared
 * types, defaults filled in, required arguments checked, and then the plugin binds the result.
 * Every problem is a {@code QueryParseException} at the offending token, as for a built-in.
 */
final class PluginCommandParser implements CommandParser {
  private final CommandDefinition definition;
  private final String plugin;
  private final Map<String, ArgumentSpec> options = new LinkedHashMap<>();
  private final ArgumentSpec fieldList;
  private final ArgumentSpec positional;

  PluginCommandParser(CommandDefinition definition, String plugin) {
    this.definition = requireNonNull(definition, "definition is null");
    this.plugin = requireNonNull(plugin, "plugin is null");
    ArgumentSpec list = null;
    ArgumentSpec bare = null;
    for (ArgumentSpec spec : definition.arguments()) {
      if (spec.type() == ArgumentType.FIELD_LIST) {
        if (list != null) {
          throw new IllegalArgumentException(
              "command '" + definition.name() + "' declares two field lists");
        }
        list = spec;
      } else if (options.put(spec.name().toLowerCase(Locale.ROOT), spec) != null) {
        throw new IllegalArgumentException(
            "command '" + definition.name() + "' declares argument '" + spec.name() + "' twice");
      }
      if (spec.positional()) {
        if (bare != null) {
          throw new IllegalArgumentException(
              "command '"
                  + definition.name()
                  + "' declares two positional arguments: '"
                  + bare.name()
                  + "' and '"
                  + spec.name()
                  + "'");
        }
        bare = spec;
      }
    }
    if (list != null && bare != null) {
      throw new IllegalArgumentException(
          "command '"
              + definition.name()
              + "' declares a field list and a positional argument ('"
              + bare.name()
              + "'): a bare word could be either");
    }
    this.fieldList = list;
    this.positional = bare;
  }

  CommandDefinition definition() {
    return definition;
  }

  String plugin() {
    return plugin;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    CommandArguments arguments =
        definition instanceof CustomSyntax custom
            ? custom.parseArguments(reader, name)
            : parseDeclared(reader, name);
    return bind(reader, name, arguments);
  }

  private CommandArguments parseDeclared(TokenReader reader, Token name) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<String> fields = new ArrayList<>();
    Token positionalGiven = null;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, definition.name(), options.keySet());
        ArgumentSpec spec = options.get(option.name());
        if (spec == positional && positionalGiven != null) {
          throw givenTwice(reader, option.nameToken(), positionalGiven);
        }
        values.put(spec.name(), convert(reader, spec, option.value()));
        if (spec == positional) {
          positionalGiven = option.nameToken();
        }
      } else if (fieldList != null) {
        fields.addAll(Arguments.fields(reader, Set.of()));
      } else if (positional != null) {
        Token value =
            reader.readValue(
                "the " + positional.name() + " (" + positional.description() + ") or an option");
        if (positionalGiven != null) {
          throw givenTwice(reader, value, positionalGiven);
        }
        values.put(positional.name(), convert(reader, positional, value));
        positionalGiven = value;
      } else {
        throw reader.unexpected(
            reader.peek(),
            options.isEmpty()
                ? "'|' or the end of the query (" + definition.name() + " takes no arguments)"
                : "an option: " + String.join("=…, ", new TreeSet<>(options.keySet())) + "=…");
      }
    }
    for (ArgumentSpec spec : options.values()) {
      if (values.containsKey(spec.name())) {
        continue;
      }
      if (spec.required()) {
        throw reader.error(
            name,
            definition.name() + " needs " + spec.name() + "=… (" + spec.description() + ")",
            spec.name() + "=<" + spec.type().name().toLowerCase(Locale.ROOT) + ">");
      }
      if (spec.defaultValue() != null) {
        values.put(spec.name(), convert(reader, spec, name, spec.defaultValue()));
      }
    }
    if (fieldList != null && fieldList.required() && fields.isEmpty()) {
      throw reader.error(
          name,
          definition.name() + " needs at least one field (" + fieldList.description() + ")",
          "field names");
    }
    return new CommandArguments(values, fields);
  }

  private Command bind(TokenReader reader, Token name, CommandArguments arguments) {
    BoundCommand bound;
    try {
      bound = definition.bind(arguments);
    } catch (IllegalArgumentException e) {
      throw reader.error(name, definition.name() + ": " + e.getMessage(), "valid arguments");
    } catch (RuntimeException e) {
      throw reader.error(
          name,
          "command '" + definition.name() + "' of plugin '" + plugin + "' failed to bind: " + e,
          "a working plugin");
    }
    return new PluginCommand(
        definition.name(),
        plugin,
        bound instanceof PerUseKind perUse ? perUse.kind() : definition.kind(),
        arguments,
        bound,
        name.position());
  }

  /** The positional argument given a second time, by name or without, at {@code again}. */
  private QueryParseException givenTwice(TokenReader reader, Token again, Token first) {
    return reader.error(
        again,
        definition.name()
            + ": "
            + positional.name()
            + " is already given at column "
            + first.position().column()
            + " (give it once: "
            + positional.name()
            + "=… or without its name)",
        "another option, '|' or the end of the query");
  }

  private static Object convert(TokenReader reader, ArgumentSpec spec, Token value) {
    return convert(reader, spec, value, value.text());
  }

  private static Object convert(TokenReader reader, ArgumentSpec spec, Token at, String text) {
    try {
      return switch (spec.type()) {
        case STRING, FIELD, FIELD_LIST -> text;
        case LONG -> Long.parseLong(text);
        case DOUBLE -> Double.parseDouble(text);
        case BOOLEAN ->
            switch (text.toLowerCase(Locale.ROOT)) {
              case "true", "t", "1", "yes" -> true;
              case "false", "f", "0", "no" -> false;
              default -> throw new NumberFormatException(text);
            };
      };
    } catch (NumberFormatException e) {
      throw reader.error(
          at,
          spec.name()
              + " must be a "
              + spec.type().name().toLowerCase(Locale.ROOT)
              + ", not '"
              + text
              + "'",
          "a " + spec.type().name().toLowerCase(Locale.ROOT));
    }
  }
}
