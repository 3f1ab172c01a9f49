package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

/**
 * One key of {@code sort} or {@code dedup sortby}: a field, its direction, and how its values
 * compare.
 */
public record SortKey(String field, boolean descending, Mode mode) {
  /** How values compare: Splunk's {@code auto()} (the default), {@code num()}, {@code str()}. */
  public enum Mode {
    /** Numbers numerically and before strings; strings lexicographically. */
    AUTO,
    /** Numbers numerically; values that are not numbers after all numbers. */
    NUM,
    /** Every value as a string, lexicographically. */
    STR
  }

  public SortKey {
    requireNonNull(field, "field is null");
    requireNonNull(mode, "mode is null");
  }
}
