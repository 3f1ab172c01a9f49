package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;

/**
 * {@code count} (rows) of a {@code stats} that also has a numeric function ({@code sum}, {@code
 * avg}, {@code min}, {@code max}, {@code range}): answered from the rows that function counts in
 * its own slot per group ({@link NumericFunction#withRows}), so both are kept in one cache line per
 * group instead of two arrays ({@link GroupingFunction#all} pairs them). This holds no state: it
 * adds and merges nothing (its host adds a row for every position added to a group, and merges its
 * rows with its other states) and takes no bytes per group. Both always come in pairs made by the
 * same {@link GroupingFunction#all}, so a merge meets a host with rows on either side.
 */
final class RowCount implements GroupingFunction {
  private final NumericFunction host;

  RowCount(NumericFunction host) {
    this.host = host;
  }

  @Override
  public boolean orderMatters() {
    return false; // a count adds up whatever the order
  }

  @Override
  public void grow(int groups) {
    // the host's slots hold the rows
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    return 0; // the host adds the row
  }

  @Override
  public long addPage(int[] groups, int count, Block values, long[] times) {
    return 0; // the host adds the rows
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    return 0; // the host merges the rows
  }

  @Override
  public long mergePage(int[] groups, int count, GroupingFunction other, int otherFrom) {
    return 0; // the host merges the rows
  }

  @Override
  public Object result(int group) {
    return host.rows(group);
  }

  @Override
  public long bytesPerGroup() {
    return 0; // a lane of the host's slot, counted there
  }
}
