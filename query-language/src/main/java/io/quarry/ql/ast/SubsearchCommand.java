package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Locale;

/**
 * A command that takes a subsearch's rows: {@code append}, {@code appendcols} or {@code join}. The
 * subsearch runs while the search is planned; until then {@link #result} is null.
 *
 * @param kind which command
 * @param maxOut the most subsearch rows kept (maxout; join's 50,000 is fixed)
 * @param maxTimeSeconds the longest the subsearch may run (maxtime)
 * @param join join's options, or null
 * @param override appendcols' override
 * @param subsearch the subsearch
 * @param result the subsearch's result once it ran, else null
 */
public record SubsearchCommand(
    Kind kind,
    long maxOut,
    long maxTimeSeconds,
    Join join,
    boolean override,
    Subsearch subsearch,
    SubsearchResult result,
    Position position)
    implements Command {

  /** The commands. */
  public enum Kind {
    APPEND(50_000),
    APPENDCOLS(50_000),
    JOIN(50_000);

    private final long defaultMaxOut;

    Kind(long defaultMaxOut) {
      this.defaultMaxOut = defaultMaxOut;
    }

    public long defaultMaxOut() {
      return defaultMaxOut;
    }
  }

  /** Subsearches run at most this long by default (Splunk's maxtime). */
  public static final long DEFAULT_MAX_TIME_SECONDS = 60;

  /** The join types; {@code outer} is {@code left}, as in Splunk. */
  public enum JoinType {
    INNER,
    LEFT,
    OUTER
  }

  /**
   * join's options.
   *
   * @param type inner (default), left or outer
   * @param max the most subsearch rows joined to one row (1; 0 for all)
   * @param overwrite whether the subsearch's values replace the row's (true)
   * @param fields the join fields; empty for every field both sides have
   */
  public record Join(JoinType type, long max, boolean overwrite, List<String> fields) {
    public Join {
      requireNonNull(type, "type is null");
      fields = List.copyOf(fields);
    }
  }

  public SubsearchCommand {
    requireNonNull(kind, "kind is null");
    requireNonNull(subsearch, "subsearch is null");
    requireNonNull(position, "position is null");
    if ((kind == Kind.JOIN) != (join != null)) {
      throw new IllegalArgumentException("join options go with join only");
    }
  }

  /** This command with its subsearch's result. */
  public SubsearchCommand withResult(SubsearchResult newResult) {
    return new SubsearchCommand(
        kind, maxOut, maxTimeSeconds, join, override, subsearch, newResult, position);
  }

  @Override
  public String name() {
    return kind.name().toLowerCase(Locale.ROOT);
  }
}
