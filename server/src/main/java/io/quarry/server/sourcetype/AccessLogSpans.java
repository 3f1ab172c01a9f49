package io.quarry.server.sourcetype;

/**
 * Where the fields of one access-log line lie, for a reader that copies a field's characters as
 * they are — the page source, which appends them to a block straight from the journal's bytes —
 * instead of asking {@link Sourcetype#extract} for a map of strings. The same one-pass parser
 * ({@link AccessLogParser}) decides, so a field found here is the field {@code extract} gives; a
 * line it does not know, or a field the line lacks, is for the ordinary extraction to answer.
 * Reused from line to line; not thread-safe.
 */
public final class AccessLogSpans {
  private final int[] bounds = new int[2 * AccessLogFields.NAMES.size()];
  private boolean parsed;

  /** The index of an access-log field by its name, or -1 when no access-log field has it. */
  public static int field(String name) {
    return AccessLogFields.NAMES.indexOf(name);
  }

  /** Parses a line; false when it is not a plain access-log line (then no field is known). */
  public boolean parse(CharSequence line) {
    parsed = AccessLogParser.bounds(line, bounds);
    return parsed;
  }

  /** Where field {@code field} starts in the last line parsed, or -1 when it has none. */
  public int start(int field) {
    return parsed ? bounds[2 * field] : -1;
  }

  /** Where field {@code field} ends in the last line parsed (see {@link #start}). */
  public int end(int field) {
    return bounds[2 * field + 1];
  }
}
