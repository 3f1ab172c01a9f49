package io.quarry.plugins.anomalydetection;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code anomalydetection field=<f> [method=zscore|iqr] [threshold=<n>] [by=<field>]}: the values
 * of a numeric field that are outliers within their group, one row per outlying value with how
 * often it occurs and the group's statistics.
 *
 * <ul>
 *   <li>{@code zscore} (default, threshold 3): a value is an outlier when {@code |v - mean| / stdev
 *       > threshold} (sample standard deviation over every occurrence);
 *   <li>{@code iqr} (threshold 1.5): when it lies outside {@code [Q1 - t·IQR, Q3 + t·IQR]},
 *       quartiles by linear interpolation between order statistics (numpy's default, Splunk's
 *       {@code exactperc}).
 * </ul>
 *
 * <p>Map side: each driver counts the values it sees per group and emits the counts as state pages
 * ({@link ValueCounts#STATE}); reduce side: the counts merge by adding, then the statistics and
 * outliers are computed. Values that are not numbers are ignored, as {@code stats avg} ignores
 * them.
 */
public final class AnomalyDetectionCommand implements CommandDefinition {
  @Override
  public String name() {
    return "anomalydetection";
  }

  @Override
  public String description() {
    return "Outlying values of a numeric field (z-score or IQR), per group, with their counts and"
        + " the group's mean, stdev and bounds.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.TRANSFORMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the numeric field to examine"),
        ArgumentSpec.optional("method", ArgumentType.STRING, "zscore", "zscore or iqr"),
        ArgumentSpec.optional(
            "threshold",
            ArgumentType.DOUBLE,
            null,
            "z-score above which (zscore, default 3), or IQRs beyond the quartiles (iqr, default"
                + " 1.5), a value is an outlier"),
        ArgumentSpec.optional("by", ArgumentType.FIELD, null, "compute per value of this field"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String method = arguments.getString("method").toLowerCase(Locale.ROOT);
    if (!method.equals("zscore") && !method.equals("iqr")) {
      throw new IllegalArgumentException("method must be zscore or iqr, not '" + method + "'");
    }
    double threshold =
        arguments.has("threshold")
            ? arguments.getDouble("threshold")
            : method.equals("zscore") ? 3.0 : 1.5;
    if (!(threshold > 0)) {
      throw new IllegalArgumentException("threshold must be positive");
    }
    String by = arguments.has("by") ? arguments.getString("by") : null;
    return new Bound(arguments.getString("field"), method.equals("iqr"), threshold, by);
  }

  private record Bound(String field, boolean iqr, double threshold, String by)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return by == null ? Set.of(field) : Set.of(field, by);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      if (by != null) {
        produced.add(by);
      }
      produced.add(field);
      produced.addAll(List.of("count", "mean", "stdev"));
      produced.addAll(iqr ? List.of("lower", "upper") : List.of("zscore"));
      return produced;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new MapOperator(this, context);
    }

    @Override
    public Operator createReduceOperator(OperatorContext context) {
      return new ReduceOperator(this, context);
    }
  }

  /** The q-quantile of counted values, interpolating linearly between order statistics. */
  static double quantile(TreeMap<Double, Long> values, long n, double q) {
    double h = (n - 1) * q;
    long below = (long) Math.floor(h);
    double fraction = h - below;
    double at = Double.NaN;
    double next = Double.NaN;
    long seen = 0;
    for (Map.Entry<Double, Long> e : values.entrySet()) {
      long end = seen + e.getValue(); // order statistics seen .. end-1 are this value
      if (Double.isNaN(at) && below < end) {
        at = e.getKey();
      }
      if (below + 1 < end) {
        next = e.getKey();
        break;
      }
      seen = end;
    }
    return Double.isNaN(next) ? at : at + fraction * (next - at);
  }

  /** Shared shape of both sides: take pages until finished, then hand out what was computed. */
  private abstract static class CountingOperator implements Operator {
    final ValueCounts counts;
    private final Queue<Page> output = new ArrayDeque<>();
    private boolean finishing;

    CountingOperator(OperatorContext context) {
      this.counts = new ValueCounts(context.blockFactory());
    }

    abstract List<Page> results();

    @Override
    public boolean needsInput() {
      return !finishing;
    }

    @Override
    public void finish() {
      if (!finishing) {
        finishing = true;
        output.addAll(results());
      }
    }

    @Override
    public boolean isFinished() {
      return finishing && output.isEmpty();
    }

    @Override
    public Page getOutput() {
      return output.poll();
    }

    @Override
    public void close() {
      counts.clear();
    }
  }

  private static final class MapOperator extends CountingOperator {
    private final Bound bound;
    private final BlockFactory factory;
    private final OperatorContext context;

    MapOperator(Bound bound, OperatorContext context) {
      super(context);
      this.bound = bound;
      this.factory = context.blockFactory();
      this.context = context;
    }

    @Override
    public void addInput(Page page) {
      context.checkCancelled();
      Block values = page.block(bound.field());
      Block groups = bound.by() == null ? null : page.block(bound.by());
      if (values != null) {
        for (int p = 0; p < page.positionCount(); p++) {
          double value = number(values, p);
          if (!Double.isNaN(value)) {
            Object group = groups == null ? null : groups.getObject(p);
            counts.add(group == null ? "" : group.toString(), value, 1);
          }
        }
      }
      factory.release(page); // nothing of it is passed on
    }

    @Override
    List<Page> results() {
      return counts.drainToPages();
    }

    /** The value as a number, or NaN when it is none. */
    private static double number(Block block, int position) {
      if (block.isNull(position)) {
        return Double.NaN;
      }
      return switch (block) {
        case LongBlock longs -> longs.getLong(position);
        case DoubleBlock doubles -> doubles.getDouble(position);
        default -> {
          try {
            double parsed = Double.parseDouble(block.getObject(position).toString().trim());
            yield Double.isFinite(parsed) ? parsed : Double.NaN;
          } catch (NumberFormatException e) {
            yield Double.NaN;
          }
        }
      };
    }
  }

  private static final class ReduceOperator extends CountingOperator {
    private final Bound bound;
    private final BlockFactory factory;

    ReduceOperator(Bound bound, OperatorContext context) {
      super(context);
      this.bound = bound;
      this.factory = context.blockFactory();
    }

    @Override
    public void addInput(Page state) {
      counts.addState(state);
    }

    @Override
    List<Page> results() {
      List<Object[]> outliers = new ArrayList<>();
      boolean integral = true;
      for (Map.Entry<String, TreeMap<Double, Long>> group : counts.sorted().entrySet()) {
        TreeMap<Double, Long> values = group.getValue();
        long n = 0;
        double sum = 0;
        for (Map.Entry<Double, Long> e : values.entrySet()) {
          n += e.getValue();
          sum += e.getKey() * e.getValue();
        }
        double mean = sum / n;
        double squares = 0;
        for (Map.Entry<Double, Long> e : values.entrySet()) {
          squares += e.getValue() * (e.getKey() - mean) * (e.getKey() - mean);
        }
        double stdev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        double lower;
        double upper;
        if (bound.iqr()) {
          double q1 = quantile(values, n, 0.25);
          double q3 = quantile(values, n, 0.75);
          lower = q1 - bound.threshold() * (q3 - q1);
          upper = q3 + bound.threshold() * (q3 - q1);
        } else {
          lower = stdev == 0 ? Double.NEGATIVE_INFINITY : mean - bound.threshold() * stdev;
          upper = stdev == 0 ? Double.POSITIVE_INFINITY : mean + bound.threshold() * stdev;
        }
        for (Map.Entry<Double, Long> e : values.entrySet()) {
          double v = e.getKey();
          boolean outlier =
              bound.iqr()
                  ? v < lower || v > upper
                  : Math.abs(v - mean) > bound.threshold() * stdev && stdev > 0;
          if (outlier) {
            integral &= v == Math.rint(v) && Math.abs(v) < 1e15;
            outliers.add(new Object[] {group.getKey(), v, e.getValue(), mean, stdev, lower, upper});
          }
        }
      }
      counts.clear();
      return outliers.isEmpty() ? List.of() : List.of(page(outliers, integral));
    }

    private Page page(List<Object[]> outliers, boolean integral) {
      int rows = outliers.size();
      List<Schema.Column> columns = new ArrayList<>();
      List<Block> blocks = new ArrayList<>();
      if (bound.by() != null) {
        BytesBlock.Builder groups = factory.newBytesBlockBuilder(rows);
        outliers.forEach(o -> groups.append((String) o[0]));
        columns.add(new Schema.Column(bound.by(), DataType.STRING));
        blocks.add(groups.build());
      }
      if (integral) {
        LongBlock.Builder values = factory.newLongBlockBuilder(rows);
        outliers.forEach(o -> values.append((long) (double) (Double) o[1]));
        columns.add(new Schema.Column(bound.field(), DataType.LONG));
        blocks.add(values.build());
      } else {
        columns.add(new Schema.Column(bound.field(), DataType.DOUBLE));
        blocks.add(doubles(outliers, 1));
      }
      LongBlock.Builder counts = factory.newLongBlockBuilder(rows);
      outliers.forEach(o -> counts.append((Long) o[2]));
      columns.add(new Schema.Column("count", DataType.LONG));
      blocks.add(counts.build());
      columns.add(new Schema.Column("mean", DataType.DOUBLE));
      blocks.add(doubles(outliers, 3));
      columns.add(new Schema.Column("stdev", DataType.DOUBLE));
      blocks.add(doubles(outliers, 4));
      if (bound.iqr()) {
        columns.add(new Schema.Column("lower", DataType.DOUBLE));
        blocks.add(doubles(outliers, 5));
        columns.add(new Schema.Column("upper", DataType.DOUBLE));
        blocks.add(doubles(outliers, 6));
      } else {
        DoubleBlock.Builder z = factory.newDoubleBlockBuilder(rows);
        outliers.forEach(o -> z.append(((Double) o[1] - (Double) o[3]) / (Double) o[4]));
        columns.add(new Schema.Column("zscore", DataType.DOUBLE));
        blocks.add(z.build());
      }
      return new Page(new Schema(columns), blocks, rows);
    }

    private DoubleBlock doubles(List<Object[]> rows, int index) {
      DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(rows.size());
      rows.forEach(o -> builder.append((Double) o[index]));
      return builder.build();
    }
  }
}
