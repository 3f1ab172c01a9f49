package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code format [mvsep=s] [maxresults=n] ["rowPrefix" "colPrefix" "colSep" "colEnd" "rowSep"
 * "rowEnd"] [emptystr=s]}: the rows become one row whose {@code search} field is a search
 * expression matching them (Splunk's defaults: {@code ( ( a="1" AND b="2" ) OR ( … ) )}).
 *
 * @param mvsep what joins a multivalue's values ({@code OR})
 * @param maxResults how many rows are used, 0 for all
 * @param delimiters row prefix, column prefix, column separator, column end, row separator, row end
 * @param emptyStr the text when there is no row ({@code NOT( )})
 */
public record FormatCommand(
    String mvsep, long maxResults, List<String> delimiters, String emptyStr, Position position)
    implements Command {
  public static final List<String> DEFAULT_DELIMITERS = List.of("(", "(", "AND", ")", "OR", ")");
  public static final String DEFAULT_MVSEP = "OR";
  public static final String DEFAULT_EMPTY = "NOT( )";

  public FormatCommand {
    requireNonNull(mvsep, "mvsep is null");
    delimiters = List.copyOf(delimiters);
    if (delimiters.size() != 6) {
      throw new IllegalArgumentException("format takes six delimiters");
    }
    requireNonNull(emptyStr, "emptyStr is null");
    requireNonNull(position, "position is null");
  }

  /** Splunk's defaults. */
  public static FormatCommand defaults(Position position) {
    return new FormatCommand(DEFAULT_MVSEP, 0, DEFAULT_DELIMITERS, DEFAULT_EMPTY, position);
  }

  @Override
  public String name() {
    return "format";
  }
}
