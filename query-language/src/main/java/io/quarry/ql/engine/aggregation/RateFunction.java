package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.exec.TimeOrder;

/**
 * {@code rate(x)}: a group's latest and earliest value of x with their times (two {@link
 * TimeOrderedFunction}s), answered as (latest − earliest) / seconds between them.
 */
final class RateFunction implements GroupingFunction {
  private final TimeOrderedFunction latest;
  private final TimeOrderedFunction earliest;

  RateFunction(String field) {
    this.latest = new TimeOrderedFunction(AggregateFunction.LATEST, field);
    this.earliest = new TimeOrderedFunction(AggregateFunction.EARLIEST, field);
  }

  @Override
  public boolean orderMatters() {
    return true; // its two TimeOrderedFunctions: among values of one _time, the first seen
  }

  @Override
  public void grow(int groups) {
    latest.grow(groups);
    earliest.grow(groups);
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    return latest.add(group, values, position, time) + earliest.add(group, values, position, time);
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    RateFunction theirs = (RateFunction) other;
    return latest.merge(group, theirs.latest, otherGroup)
        + earliest.merge(group, theirs.earliest, otherGroup);
  }

  @Override
  public Object result(int group) {
    return TimeOrder.rate(
        latest.rawValue(group), latest.time(group), earliest.rawValue(group), earliest.time(group));
  }

  @Override
  public long bytesPerGroup() {
    return latest.bytesPerGroup() + earliest.bytesPerGroup();
  }
}
