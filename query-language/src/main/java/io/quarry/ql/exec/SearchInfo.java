package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

/**
 * What a search knows about itself, for {@code addinfo}: its time range as planned (epoch
 * microseconds, {@link Long#MIN_VALUE}/{@link Long#MAX_VALUE} when unbounded) and its search id
 * ({@code ""} when it runs outside an admitted search: a tool's, a test's).
 */
public record SearchInfo(long earliestMicros, long latestMicros, String sid) {

  /** A search over all time without an id. */
  public static final SearchInfo NONE = new SearchInfo(Long.MIN_VALUE, Long.MAX_VALUE, "");

  public SearchInfo {
    requireNonNull(sid, "sid is null");
  }
}
