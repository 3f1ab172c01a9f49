package io.quarry.codecs.store;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The declared type of an index-time field. Every value is also indexed as a lower-cased keyword
 * term (so {@code f=value} is one term lookup whatever the type); typed fields add points (range
 * queries) and numeric doc values (columnar reads, sorting, aggregation).
 */
public enum IndexedFieldType {
  /** Text: a term and sorted-set doc values holding the value as sent. */
  KEYWORD,
  /** A 64-bit integer: a point and sorted-numeric doc values. */
  LONG,
  /** A 64-bit float: a point and sorted-numeric doc values (sortable-long encoded). */
  DOUBLE;

  /** The name used in configuration and in the segment's field attributes. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Resolves a configuration name; unknown names are an error listing the known ones. */
  public static IndexedFieldType fromName(String name) {
    for (IndexedFieldType type : values()) {
      if (type.configName().equals(name)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "unknown field type '"
            + name
            + "'; expected one of "
            + Arrays.stream(values())
                .map(IndexedFieldType::configName)
                .collect(Collectors.joining(", ")));
  }

  /**
   * Checks that a value can be stored as this type.
   *
   * @return the problem, or null when the value is acceptable
   */
  public String problem(String value) {
    switch (this) {
      case KEYWORD -> {
        return null;
      }
      case LONG -> {
        try {
          Long.parseLong(value.strip());
          return null;
        } catch (NumberFormatException e) {
          return "'" + value + "' is not a long";
        }
      }
      case DOUBLE -> {
        try {
          double parsed = Double.parseDouble(value.strip());
          return Double.isNaN(parsed) ? "NaN is not a storable double" : null;
        } catch (NumberFormatException e) {
          return "'" + value + "' is not a double";
        }
      }
      default -> throw new AssertionError(this);
    }
  }
}
