package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.TimeField;
import java.util.List;

/**
 * The pages a counting source ({@link CountShortcut}) hands an aggregation as intermediate input
 * ({@link PageAggregator#addIntermediateInput}) — ES|QL's {@code LuceneCountOperator} idea: state,
 * not rows. Each position stands for {@link #COUNT} rows with its key columns' values:
 *
 * <ul>
 *   <li>{@link #rows}: one position, no key column ({@code stats count});
 *   <li>{@link #values}: the counted field's values (a string column named as the field), and
 *       {@link #TOTAL}, the rows that had the field, on the first position (zero elsewhere): the
 *       base of {@code top}'s percentages, fewer than the counts' sum when a row has several
 *       values;
 *   <li>{@link #timed}: {@code _time} (a bucket's start, a timestamp) and the field's values;
 *   <li>{@link #groups}: one string column per by-field, a position per combination of values.
 * </ul>
 *
 * The aggregation adds a position's {@link #COUNT} to the state of its group — a count function
 * sums the column instead of counting positions — and merges it with the scanned rest as any
 * partial.
 */
public final class CountPages {
  /** The column of rows each position stands for. */
  public static final String COUNT = "\u0000count";

  /** The column of rows counted in all ({@link #values}), for {@code top}'s percentages. */
  public static final String TOTAL = "\u0000total";

  private CountPages() {}

  /** {@code rows} rows with no key. */
  public static Page rows(long rows) {
    return new Page(
        new Schema(List.of(new Schema.Column(COUNT, DataType.LONG))),
        List.of(LongBlock.builder(DataType.LONG, 1).append(rows).build()));
  }

  /**
   * Rows per value of {@code field}: {@code counts} rows have the value at the same position of
   * {@code values}; {@code rows} rows had the field in all.
   */
  public static Page values(String field, BytesBlock values, LongBlock counts, long rows) {
    requireNonNull(field, "field is null");
    checkSameLength(values, counts);
    int positions = values.positionCount();
    LongBlock.Builder totals = LongBlock.builder(DataType.LONG, positions);
    for (int p = 0; p < positions; p++) {
      totals.append(p == 0 ? rows : 0);
    }
    return new Page(
        new Schema(
            List.of(
                new Schema.Column(field, DataType.STRING),
                new Schema.Column(COUNT, DataType.LONG),
                new Schema.Column(TOTAL, DataType.LONG))),
        List.of(values, counts, totals.build()));
  }

  /**
   * Rows per value of {@code field} in the time bucket starting at {@code bucket} (epoch
   * microseconds): {@code counts} rows have the value at the same position of {@code values}.
   */
  public static Page timed(String field, long bucket, BytesBlock values, LongBlock counts) {
    requireNonNull(field, "field is null");
    checkSameLength(values, counts);
    int positions = values.positionCount();
    LongBlock.Builder starts = LongBlock.builder(DataType.TIMESTAMP, positions);
    for (int p = 0; p < positions; p++) {
      starts.append(bucket);
    }
    return new Page(
        new Schema(
            List.of(
                new Schema.Column(TimeField.NAME, DataType.TIMESTAMP),
                new Schema.Column(field, DataType.STRING),
                new Schema.Column(COUNT, DataType.LONG))),
        List.of(starts.build(), values, counts));
  }

  /**
   * Rows per combination of values of {@code fields}: {@code counts} rows have, for each field, the
   * value at the same position of its column in {@code values}.
   */
  public static Page groups(List<String> fields, List<BytesBlock> values, LongBlock counts) {
    if (fields.size() != values.size()) {
      throw new IllegalArgumentException(
          fields.size() + " fields but " + values.size() + " columns");
    }
    List<Schema.Column> columns = new java.util.ArrayList<>();
    List<Block> blocks = new java.util.ArrayList<>();
    for (int f = 0; f < fields.size(); f++) {
      checkSameLength(values.get(f), counts);
      columns.add(
          new Schema.Column(requireNonNull(fields.get(f), "field is null"), DataType.STRING));
      blocks.add(values.get(f));
    }
    columns.add(new Schema.Column(COUNT, DataType.LONG));
    blocks.add(counts);
    return new Page(new Schema(columns), blocks);
  }

  /**
   * Adds a counts page's counts to the groups of {@code keys} (each position's by-field values,
   * {@code keyBlocks}, pick its groups as a page's rows do) in {@code functions}, each a plain
   * {@code count} adding the position's count instead of one; {@code grow} makes room in the
   * functions for the groups the keys hold now and returns the bytes they take.
   *
   * @return the bytes the groups grew
   */
  static long addCounts(
      Page counts,
      io.quarry.plugin.api.data.Block[] keyBlocks,
      GroupKeys keys,
      GroupingFunction[] functions,
      java.util.function.LongSupplier grow) {
    LongBlock rows = counts(counts);
    long grown = 0;
    for (int p = 0; p < counts.positionCount(); p++) {
      int n = keys.groupsOf(keyBlocks, p);
      if (n == 0) {
        continue;
      }
      grown += grow.getAsLong();
      long count = count(rows, p);
      int[] ids = keys.ids();
      for (int i = 0; i < n; i++) {
        for (GroupingFunction function : functions) {
          ((CountFunction) function).addCount(ids[i], count);
        }
      }
    }
    return grown;
  }

  /** The {@link #COUNT} column of an intermediate page. */
  static LongBlock counts(Page page) {
    if (!(page.block(COUNT) instanceof LongBlock counts)) {
      throw new IllegalArgumentException("not a page of counts: " + page.schema());
    }
    return counts;
  }

  /** Position {@code position}'s single value of a count column (0 when it has none). */
  static long count(LongBlock counts, int position) {
    return counts.getValueCount(position) == 0
        ? 0
        : counts.getLongValue(counts.getFirstValueIndex(position));
  }

  private static void checkSameLength(Block values, Block counts) {
    if (values.positionCount() != counts.positionCount()) {
      throw new IllegalArgumentException(
          values.positionCount() + " values but " + counts.positionCount() + " counts");
    }
  }
}
