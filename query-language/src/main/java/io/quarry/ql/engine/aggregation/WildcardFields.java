package io.quarry.ql.engine.aggregation;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wildcard fields of {@code stats} ({@code avg(*)}, {@code sum(*_ms) AS *_total}): which
 * aggregations name one, the field pattern as a regex, and the column a matched field's aggregation
 * is named by. Shared by {@link WildcardAggregation}, {@link GroupingFunction#supports} and the
 * parser (which refuses wildcards outside {@code stats}).
 */
public final class WildcardFields {
  /** A count kept when every aggregation is a wildcard, so groups exist: never shown. */
  public static final String GROUPS = "\u0000groups";

  private WildcardFields() {}

  /** Whether an aggregation names its field with a {@code *} wildcard (not an eval). */
  public static boolean isWildcard(Aggregation aggregation) {
    return aggregation.evaluated().isEmpty()
        && aggregation.field().map(f -> f.indexOf('*') >= 0).orElse(false);
  }

  /** Whether any of a stats command's aggregations is a wildcard. */
  public static boolean hasWildcards(StatsCommand command) {
    return command.aggregations().stream().anyMatch(WildcardFields::isWildcard);
  }

  /** The wildcard as a regex, each {@code *} a group. */
  public static Pattern pattern(String wildcard) {
    String[] parts = wildcard.split("\\*", -1);
    StringBuilder regex = new StringBuilder(Pattern.quote(parts[0]));
    for (int i = 1; i < parts.length; i++) {
      regex.append("(.*)").append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /**
   * The column of wildcard aggregation {@code wildcard} (its field's regex {@code compiled}) over
   * {@code field}: {@code f(field)}, or the AS name with each {@code *} replaced by what a wildcard
   * matched.
   */
  public static String outputName(Aggregation wildcard, Pattern compiled, String field) {
    String pattern = wildcard.field().orElseThrow();
    String written = wildcard.outputName();
    if (written.endsWith("(" + pattern + ")")) { // the default name, avg(*): avg(field)
      return written.substring(0, written.length() - pattern.length() - 1) + field + ")";
    }
    Matcher matcher = compiled.matcher(field);
    if (!matcher.matches()) {
      return written;
    }
    StringBuilder name = new StringBuilder();
    int group = 1;
    for (int i = 0; i < written.length(); i++) {
      char c = written.charAt(i);
      if (c == '*' && group <= matcher.groupCount()) {
        name.append(matcher.group(group++));
      } else {
        name.append(c);
      }
    }
    return name.toString();
  }
}
