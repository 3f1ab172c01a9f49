package io.quarry.plugin.api.command;

import static java.util.Objects.requireNonNull;

/**
 * One declared argument of a command: {@code name=value} options, or the positional field list.
 *
 * @param name the option name ({@code field} in {@code field=url}); for {@link
 *     ArgumentType#FIELD_LIST} only a label for {@code help}
 * @param type how the value is checked and converted
 * @param required whether the command fails to parse without it
 * @param defaultValue the value when absent (text, converted like a given value), or null for none
 * @param description one line for {@code | help}
 * @param positional whether the value may also be given without its name, as Splunk's commands take
 *     their main argument ({@code iplocation clientip} for {@code iplocation field=clientip}); see
 *     {@link #alsoPositional()}. Since SPI 1.2.
 */
public record ArgumentSpec(
    String name,
    ArgumentType type,
    boolean required,
    String defaultValue,
    String description,
    boolean positional) {

  public ArgumentSpec {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(description, "description is null");
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("argument name '" + name + "' is not a word");
    }
    if (required && defaultValue != null) {
      throw new IllegalArgumentException(
          "argument '" + name + "' is required, so it cannot have a default");
    }
    if (positional && type == ArgumentType.FIELD_LIST) {
      throw new IllegalArgumentException(
          "argument '" + name + "' is a field list, which is given without a name already");
    }
  }

  /** An argument given only as {@code name=value} (SPI 1.0's constructor). */
  public ArgumentSpec(
      String name, ArgumentType type, boolean required, String defaultValue, String description) {
    this(name, type, required, defaultValue, description, false);
  }

  /** A required argument. */
  public static ArgumentSpec required(String name, ArgumentType type, String description) {
    return new ArgumentSpec(name, type, true, null, description);
  }

  /** An optional argument with a default ({@code null}: absent unless given). */
  public static ArgumentSpec optional(
      String name, ArgumentType type, String defaultValue, String description) {
    return new ArgumentSpec(name, type, false, defaultValue, description);
  }

  /**
   * This argument, also accepted as a bare value after the command's name, in any place among the
   * options: with {@code optional("field", FIELD, "clientip", …).alsoPositional()}, {@code
   * iplocation src} means {@code iplocation field=src}. A command has at most one positional
   * argument, and none besides a {@link ArgumentType#FIELD_LIST} (both take bare words); giving it
   * both ways is a parse error. Since SPI 1.2.
   */
  public ArgumentSpec alsoPositional() {
    return new ArgumentSpec(name, type, required, defaultValue, description, true);
  }
}
