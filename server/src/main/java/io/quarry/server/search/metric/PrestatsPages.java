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
import io.quarry.ql.ast.MstatsCommand;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code mstats prestats=true} on pages: every point of the metrics its aggregations name, handed
 * on in typed pages of {@code pageSize} positions while the store is scanned (at most one page
 * held) — the fields {@link MetricSearch#prestats}' row of a point has: {@code _time} a timestamp
 * (floored to the span), the series' dimensions as strings (in the order first met in the page,
 * null where a series lacks one), {@code metric_name}, {@code index}, and one double column per
 * metric in the page, the point's value in its own metric's column and null in the others'. The
 * commands after it ({@code stats}, {@code timechart} …) aggregate these as any input pages.
 */
final class PrestatsPages {
  private static final Set<String> FIELDS = Set.of("_time", "metric_name", "index");

  private final MstatsCommand mstats;
  private final int pageSize;
  private final Consumer<Page> out;
  private final BooleanSupplier stopped;
  private final List<SeriesKey> series = new ArrayList<>();
  private final List<String> seriesIndex = new ArrayList<>();
  private final long[] times;
  private final double[] values;
  private final int[] seriesOf;
  private int size;

  /** Points into {@code out} (a page at a time); {@code stopped} asked between series. */
  PrestatsPages(MstatsCommand mstats, int pageSize, Consumer<Page> out, BooleanSupplier stopped) {
    this.mstats = mstats;
    this.pageSize = pageSize;
    this.out = out;
    this.stopped = stopped;
    this.times = new long[pageSize];
    this.values = new double[pageSize];
    this.seriesOf = new int[pageSize];
  }

  /** The visitor of one index's scan. */
  MetricScanVisitor visitor(String index) {
    return new MetricScanVisitor() {
      @Override
      public Points series(SeriesKey key) {
        int id = series.size();
        series.add(key);
        seriesIndex.add(index);
        return (time, value) -> {
          times[size] =
              mstats.span().isPresent() ? mstats.span().get().floor(time, ZoneOffset.UTC) : time;
          values[size] = value;
          seriesOf[size] = id;
          if (++size == pageSize) {
            flush();
          }
        };
      }

      @Override
      public boolean stopped() {
        return stopped.getAsBoolean();
      }
    };
  }

  /** The scan is over: the last, partial page on. */
  void finish() {
    if (size > 0) {
      flush();
    }
  }

  private void flush() {
    Page page = page();
    size = 0;
    out.accept(page);
  }

  private Page page() {
    Set<String> metrics = new LinkedHashSet<>();
    Set<String> dimensions = new LinkedHashSet<>();
    int last = -1;
    for (int r = 0; r < size; r++) {
      if (seriesOf[r] != last) {
        last = seriesOf[r];
        SeriesKey key = series.get(last);
        for (int d = 0; d < key.size(); d++) {
          dimensions.add(key.name(d));
        }
        metrics.add(key.metricName());
      }
    }
    dimensions.removeAll(FIELDS);
    dimensions.removeAll(metrics); // a metric's value replaces a dimension of its name
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    LongBlock.Builder time = LongBlock.builder(DataType.TIMESTAMP, size);
    for (int r = 0; r < size; r++) {
      time.append(times[r]);
    }
    schema.add(new Schema.Column("_time", DataType.TIMESTAMP));
    blocks.add(time.build());
    for (String dimension : dimensions) {
      BytesBlock.Builder column = BytesBlock.builder(size);
      for (int r = 0; r < size; r++) {
        column.appendNullable(series.get(seriesOf[r]).dimension(dimension));
      }
      schema.add(new Schema.Column(dimension, DataType.STRING));
      blocks.add(column.build());
    }
    BytesBlock.Builder name = BytesBlock.builder(size);
    BytesBlock.Builder index = BytesBlock.builder(size);
    for (int r = 0; r < size; r++) {
      name.append(series.get(seriesOf[r]).metricName());
      index.append(seriesIndex.get(seriesOf[r]));
    }
    schema.add(new Schema.Column("metric_name", DataType.STRING));
    blocks.add(name.build());
    schema.add(new Schema.Column("index", DataType.STRING));
    blocks.add(index.build());
    for (String metric : metrics) {
      DoubleBlock.Builder column = DoubleBlock.builder(size);
      for (int r = 0; r < size; r++) {
        if (series.get(seriesOf[r]).metricName().equals(metric)) {
          column.append(values[r]);
        } else {
          column.appendNull();
        }
      }
      schema.add(new Schema.Column(metric, DataType.DOUBLE));
      blocks.add(column.build());
    }
    return new Page(new Schema(schema), blocks);
  }
}
