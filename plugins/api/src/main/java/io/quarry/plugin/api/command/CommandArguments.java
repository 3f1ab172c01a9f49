package io.quarry.plugin.api.command;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * The arguments of one use of a command, checked against its {@link ArgumentSpec}s and converted:
 * {@link ArgumentType#LONG} is a {@code Long}, {@code DOUBLE} a {@code Double}, {@code BOOLEAN} a
 * {@code Boolean}, {@code STRING} and {@code FIELD} a {@code String}; defaults are filled in.
 */
public final class CommandArguments {
  private final Map<String, Object> values;
  private final List<String> fields;

  /**
   * @param values option values by name (already converted)
   * @param fields the positional field list (empty when none was given)
   */
  public CommandArguments(Map<String, Object> values, List<String> fields) {
    this.values = Map.copyOf(requireNonNull(values, "values is null"));
    this.fields = List.copyOf(requireNonNull(fields, "fields is null"));
  }

  /** Whether the option was given or has a default. */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  public String getString(String name) {
    return get(name, String.class);
  }

  public long getLong(String name) {
    return get(name, Long.class);
  }

  public double getDouble(String name) {
    return get(name, Double.class);
  }

  public boolean getBoolean(String name) {
    return get(name, Boolean.class);
  }

  /** The positional field list. */
  public List<String> fields() {
    return fields;
  }

  /** Every option value by name. */
  public Map<String, Object> values() {
    return values;
  }

  private <T> T get(String name, Class<T> type) {
    Object value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException(
          "argument '" + name + "' was not given and has no default");
    }
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          "argument '"
              + name
              + "' is a "
              + value.getClass().getSimpleName()
              + ", not a "
              + type.getSimpleName());
    }
    return type.cast(value);
  }

  @Override
  public String toString() {
    return "CommandArguments" + values + (fields.isEmpty() ? "" : " " + fields);
  }
}
