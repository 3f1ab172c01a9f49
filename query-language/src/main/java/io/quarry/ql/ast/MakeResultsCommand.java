package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code | makeresults [count=N] [annotate=true]}: a generating command — {@code count} rows (1 by
 * default) with {@code _time} set to the search's time, nothing else unless {@code annotate} adds
 * Splunk's default fields ({@code _raw}, {@code host}, {@code source}, {@code sourcetype}, {@code
 * splunk_server}, all empty but {@code _raw}). For trying eval expressions and pipelines without
 * data.
 */
public record MakeResultsCommand(long count, boolean annotate, Position position)
    implements Command {
  /** At most this many rows, like Splunk's default limit on generated results. */
  public static final long MAX_COUNT = 1_000_000;

  public MakeResultsCommand {
    if (count < 1 || count > MAX_COUNT) {
      throw new IllegalArgumentException("count must be 1.." + MAX_COUNT + ", not " + count);
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "makeresults";
  }
}
