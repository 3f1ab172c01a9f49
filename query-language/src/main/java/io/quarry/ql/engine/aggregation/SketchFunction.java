package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.DistinctSketch;
import java.util.Arrays;

/**
 * {@code estdc}: a HyperLogLog sketch of a group's value texts (4 KiB, made on its first value).
 */
final class SketchFunction implements GroupingFunction {
  private DistinctSketch[] sketches = new DistinctSketch[0];

  @Override
  public boolean orderMatters() {
    return false; // a sketch of the distinct values
  }

  @Override
  public void grow(int groups) {
    if (groups > sketches.length) {
      sketches = Arrays.copyOf(sketches, Math.max(groups, sketches.length * 2));
    }
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (values == null || values.getValueCount(position) == 0) {
      return 0;
    }
    long grown = 0;
    DistinctSketch sketch = sketches[group];
    if (sketch == null) {
      sketch = sketches[group] = new DistinctSketch();
      grown = DistinctSketch.BYTES;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    for (int i = first; i < end; i++) {
      sketch.add(BlockValues.text(values, i));
    }
    return grown;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    DistinctSketch theirs = ((SketchFunction) other).sketches[otherGroup];
    if (theirs == null) {
      return 0;
    }
    if (sketches[group] == null) {
      sketches[group] = new DistinctSketch();
      sketches[group].merge(theirs);
      return DistinctSketch.BYTES;
    }
    sketches[group].merge(theirs);
    return 0;
  }

  @Override
  public Object result(int group) {
    return sketches[group] == null ? 0L : sketches[group].estimate();
  }

  @Override
  public long bytesPerGroup() {
    return 8;
  }
}
