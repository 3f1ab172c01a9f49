package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.MpreviewCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code mpreview} with nothing after it: the points kept column by column (time, value, and which
 * series) and handed on as typed pages — the pages {@code PageBuilder} would have made of its rows
 * ({@code _time} a timestamp, {@code metric_name}, {@code _value} a double, {@code index}, then the
 * dimensions as strings in the order first met in the page, null where a series has no such
 * dimension), without a row object per point.
 */
final class PreviewPages {
  private final MpreviewCommand preview;
  private final long maxRows;
  private final BooleanSupplier stopped;
  private final List<SeriesKey> series = new ArrayList<>();
  private final List<String> seriesIndex = new ArrayList<>();
  private long[] times = new long[256];
  private double[] values = new double[256];
  private int[] seriesOf = new int[256];
  private int size;

  PreviewPages(MpreviewCommand preview, long maxRows, BooleanSupplier stopped) {
    this.preview = preview;
    this.maxRows = maxRows;
    this.stopped = stopped;
  }

  /** The visitor of one index's scan. */
  MetricScanVisitor visitor(String index) {
    java.util.Map<SeriesKey, long[]> taken = new java.util.HashMap<>(); // id, points taken
    return new MetricScanVisitor() {
      @Override
      public Points series(SeriesKey key) {
        long[] count = taken.get(key);
        if (count == null) {
          count = new long[] {series.size(), 0};
          taken.put(key, count);
          series.add(key);
          seriesIndex.add(index);
        }
        long[] counted = count;
        int id = (int) count[0];
        return (time, value) -> {
          if ((preview.targetPerSeries() > 0 && counted[1] >= preview.targetPerSeries())
              || size >= maxRows) {
            return;
          }
          counted[1]++;
          add(id, time, value);
        };
      }

      @Override
      public boolean stopped() {
        return stopped.getAsBoolean() || size >= maxRows;
      }
    };
  }

  private void add(int id, long time, double value) {
    if (size == times.length) {
      times = Arrays.copyOf(times, size * 2);
      values = Arrays.copyOf(values, size * 2);
      seriesOf = Arrays.copyOf(seriesOf, size * 2);
    }
    times[size] = time;
    values[size] = value;
    seriesOf[size] = id;
    size++;
  }

  /** The points as pages of at most {@code pageSize} rows. */
  List<Page> pages(int pageSize) {
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < size; from += pageSize) {
      int to = Math.min(size, from + pageSize);
      Set<String> dimensions = new LinkedHashSet<>();
      int last = -1;
      for (int r = from; r < to; r++) {
        if (seriesOf[r] != last) {
          last = seriesOf[r];
          SeriesKey key = series.get(last);
          for (int d = 0; d < key.size(); d++) {
            dimensions.add(key.name(d));
          }
        }
      }
      dimensions.removeAll(List.of("_time", "metric_name", "_value", "index"));
      List<Schema.Column> schema = new ArrayList<>();
      List<Block> blocks = new ArrayList<>();
      LongBlock.Builder time = LongBlock.builder(DataType.TIMESTAMP, to - from);
      BytesBlock.Builder name = BytesBlock.builder(to - from);
      DoubleBlock.Builder value = DoubleBlock.builder(to - from);
      BytesBlock.Builder index = BytesBlock.builder(to - from);
      for (int r = from; r < to; r++) {
        SeriesKey key = series.get(seriesOf[r]);
        time.append(times[r]);
        // as in a row of the point: a dimension of the same name replaces the field's value
        String metricName = key.dimension("metric_name");
        name.append(metricName != null ? metricName : key.metricName());
        value.append(values[r]);
        String indexName = key.dimension("index");
        index.append(indexName != null ? indexName : seriesIndex.get(seriesOf[r]));
      }
      schema.add(new Schema.Column("_time", DataType.TIMESTAMP));
      blocks.add(time.build());
      schema.add(new Schema.Column("metric_name", DataType.STRING));
      blocks.add(name.build());
      schema.add(new Schema.Column("_value", DataType.DOUBLE));
      blocks.add(value.build());
      schema.add(new Schema.Column("index", DataType.STRING));
      blocks.add(index.build());
      for (String dimension : dimensions) {
        BytesBlock.Builder column = BytesBlock.builder(to - from);
        for (int r = from; r < to; r++) {
          column.appendNullable(series.get(seriesOf[r]).dimension(dimension));
        }
        schema.add(new Schema.Column(dimension, DataType.STRING));
        blocks.add(column.build());
      }
      pages.add(new Page(new Schema(schema), blocks));
    }
    return pages;
  }
}
