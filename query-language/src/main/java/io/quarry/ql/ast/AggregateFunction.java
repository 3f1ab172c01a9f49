package io.quarry.ql.ast;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The aggregation functions {@code stats} knows, with Splunk's names and aliases. */
public enum AggregateFunction {
  COUNT("count", "c"),
  SUM("sum"),
  AVG("avg", "mean"),
  MIN("min"),
  MAX("max"),
  DISTINCT_COUNT("dc", "distinct_count");

  private final String functionName;
  private final List<String> aliases;

  AggregateFunction(String functionName, String... aliases) {
    this.functionName = functionName;
    this.aliases = List.of(aliases);
  }

  /** The canonical name, used for default output names such as {@code sum(bytes)}. */
  public String functionName() {
    return functionName;
  }

  public static Optional<AggregateFunction> byName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(f -> f.functionName.equals(lower) || f.aliases.contains(lower))
        .findFirst();
  }

  public static List<String> allNames() {
    return Arrays.stream(values()).map(AggregateFunction::functionName).toList();
  }
}
