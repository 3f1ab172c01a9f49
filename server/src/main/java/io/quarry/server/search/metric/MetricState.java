package io.quarry.server.search.metric;

import io.quarry.ql.ast.MetricAggregation;
import java.util.Arrays;

/**
 * The state of one {@code mstats} aggregation for one group and time bucket: points go in, one
 * value comes out. NaN values are counted by {@code count} and ignored by every other function (as
 * a missing measurement); ±Infinity take part as IEEE arithmetic has it.
 */
abstract class MetricState {
  abstract void add(long time, double value);

  /**
   * Takes in {@code later}, a state of the same function whose points came after this one's (a fork
   * of a parallel scan, reading later series): afterwards this state answers as if it had received
   * those points itself — exactly for counts, extremes, earliest/latest and percentiles; sums,
   * variances and rates up to rounding (two partial sums are added, not the points one by one).
   */
  abstract void merge(MetricState later);

  /** The answer: a {@code Long} for counts, a {@code Double} otherwise; null when none. */
  abstract Object result();

  /** A fresh state for {@code aggregation}, not counted anywhere. */
  static MetricState of(MetricAggregation aggregation) {
    return of(aggregation, io.quarry.plugin.api.data.MemoryAccount.unbounded("mstats"));
  }

  /** A fresh state for {@code aggregation}; a percentile counts its values on {@code memory}. */
  static MetricState of(
      MetricAggregation aggregation, io.quarry.plugin.api.data.MemoryAccount memory) {
    return switch (aggregation.function()) {
      case COUNT -> new Count();
      case SUM, AVG, MIN, MAX, RANGE -> new Numeric(aggregation.function());
      case VAR, VARP, STDEV, STDEVP -> new Variance(aggregation.function());
      case MEDIAN, PERCENTILE -> new Percentile(aggregation.percentile(), memory);
      case EARLIEST -> new TimeOrdered(false);
      case LATEST -> new TimeOrdered(true);
      case RATE, RATE_AVG, RATE_SUM -> new Rates(aggregation.function());
    };
  }

  static final class Count extends MetricState {
    private long count;

    @Override
    void add(long time, double value) {
      count++;
    }

    /** Points counted from a chunk's header. */
    void add(long points) {
      count += points;
    }

    @Override
    void merge(MetricState later) {
      count += ((Count) later).count;
    }

    @Override
    Object result() {
      return count;
    }
  }

  static final class Numeric extends MetricState {
    private final io.quarry.ql.ast.MetricFunction function;
    private long count;
    private double sum;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    Numeric(io.quarry.ql.ast.MetricFunction function) {
      this.function = function;
    }

    @Override
    void add(long time, double value) {
      if (Double.isNaN(value)) {
        return;
      }
      count++;
      sum += value;
      min = Math.min(min, value);
      max = Math.max(max, value);
    }

    @Override
    void merge(MetricState later) {
      Numeric other = (Numeric) later;
      if (other.count == 0) {
        return;
      }
      sum += other.sum;
      count += other.count;
      min = Math.min(min, other.min);
      max = Math.max(max, other.max);
    }

    /** Appends {@link #result} to {@code column} unboxed (a null when there is none). */
    void appendTo(io.quarry.plugin.api.data.DoubleBlock.Builder column) {
      if (count == 0) {
        column.appendNull();
        return;
      }
      column.append(
          switch (function) {
            case SUM -> sum;
            case AVG -> sum / count;
            case MIN -> min;
            case MAX -> max;
            case RANGE -> max - min;
            default -> throw new IllegalStateException(function.name());
          });
    }

    @Override
    Object result() {
      if (count == 0) {
        return null;
      }
      return switch (function) {
        case SUM -> sum;
        case AVG -> sum / count;
        case MIN -> min;
        case MAX -> max;
        case RANGE -> max - min;
        default -> throw new IllegalStateException(function.name());
      };
    }
  }

  /** Welford's running mean and sum of squared deviations. */
  static final class Variance extends MetricState {
    private final io.quarry.ql.ast.MetricFunction function;
    private long count;
    private double mean;
    private double squares;

    Variance(io.quarry.ql.ast.MetricFunction function) {
      this.function = function;
    }

    @Override
    void add(long time, double value) {
      if (Double.isNaN(value)) {
        return;
      }
      count++;
      double delta = value - mean;
      mean += delta / count;
      squares += delta * (value - mean);
    }

    /** Chan et al.'s pairwise update of the mean and the sum of squared deviations. */
    @Override
    void merge(MetricState later) {
      Variance other = (Variance) later;
      if (other.count == 0) {
        return;
      }
      if (count == 0) {
        count = other.count;
        mean = other.mean;
        squares = other.squares;
        return;
      }
      long total = count + other.count;
      double delta = other.mean - mean;
      mean += delta * other.count / total;
      squares += other.squares + delta * delta * ((double) count * other.count / total);
      count = total;
    }

    @Override
    Object result() {
      boolean sample =
          function == io.quarry.ql.ast.MetricFunction.VAR
              || function == io.quarry.ql.ast.MetricFunction.STDEV;
      long divisor = sample ? count - 1 : count;
      if (divisor <= 0) {
        return null;
      }
      double variance = squares / divisor;
      return function == io.quarry.ql.ast.MetricFunction.VAR
              || function == io.quarry.ql.ast.MetricFunction.VARP
          ? variance
          : Math.sqrt(variance);
    }
  }

  /** Exact: every value kept; the rank {@code p/100 · (n-1)} interpolated, as stats does. */
  static final class Percentile extends MetricState {
    private final double percent;
    private final io.quarry.plugin.api.data.MemoryAccount memory;
    private double[] values = new double[8];
    private int count;

    Percentile(double percent, io.quarry.plugin.api.data.MemoryAccount memory) {
      this.percent = percent;
      this.memory = memory;
    }

    @Override
    void add(long time, double value) {
      if (Double.isNaN(value)) {
        return;
      }
      if (count == values.length) {
        memory.reserve((long) count * Double.BYTES, "mstats percentile values");
        values = Arrays.copyOf(values, count * 2);
      }
      values[count++] = value;
    }

    @Override
    void merge(MetricState later) {
      Percentile other = (Percentile) later;
      if (other.count == 0) {
        return;
      }
      if (count + other.count > values.length) {
        int size = Math.max(count + other.count, values.length * 2);
        memory.reserve((long) (size - values.length) * Double.BYTES, "mstats percentile values");
        values = Arrays.copyOf(values, size);
      }
      System.arraycopy(other.values, 0, values, count, other.count);
      count += other.count;
    }

    @Override
    Object result() {
      if (count == 0) {
        return null;
      }
      double[] sorted = Arrays.copyOf(values, count);
      Arrays.sort(sorted);
      double rank = percent / 100 * (count - 1);
      int low = (int) Math.floor(rank);
      int high = (int) Math.ceil(rank);
      return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
    }
  }

  /** {@code earliest} (the value at the first time) or {@code latest} (at the last). */
  static final class TimeOrdered extends MetricState {
    private final boolean latest;
    private boolean any;
    private long time;
    private double value;

    TimeOrdered(boolean latest) {
      this.latest = latest;
    }

    @Override
    void add(long pointTime, double pointValue) {
      if (Double.isNaN(pointValue)) {
        return;
      }
      if (!any || (latest ? pointTime >= time : pointTime < time)) {
        any = true;
        time = pointTime;
        value = pointValue;
      }
    }

    @Override
    void merge(MetricState later) {
      TimeOrdered other = (TimeOrdered) later;
      if (other.any) {
        add(other.time, other.value); // a later point at the same time wins for latest, as in add
      }
    }

    @Override
    Object result() {
      return any ? value : null;
    }
  }

  /**
   * The rate functions: each series' points in the bucket go through a {@link RateTracker}; the
   * group's state gets the series' rates when the scan ends.
   */
  static final class Rates extends MetricState {
    private final io.quarry.ql.ast.MetricFunction function;
    private double sum;
    private long series;

    Rates(io.quarry.ql.ast.MetricFunction function) {
      this.function = function;
    }

    @Override
    void add(long time, double value) {
      throw new IllegalStateException("rates take whole series (addRate)");
    }

    void addRate(double rate) {
      sum += rate;
      series++;
    }

    @Override
    void merge(MetricState later) {
      Rates other = (Rates) later;
      if (other.series == 0) {
        return;
      }
      sum += other.sum;
      series += other.series;
    }

    @Override
    Object result() {
      if (series == 0) {
        return null;
      }
      return function == io.quarry.ql.ast.MetricFunction.RATE_AVG ? sum / series : sum;
    }
  }

  /**
   * One series' counter over one time bucket: the increase between consecutive points, a drop taken
   * as a reset (the value after it is all increase, Prometheus' rule), over the time from its first
   * to its last point, per second. Fewer than two points, or no time between them, give no rate.
   */
  static final class RateTracker {
    private long points;
    private long firstTime;
    private long lastTime;
    private double firstValue;
    private double lastValue;
    private double increase;

    void add(long time, double value) {
      if (Double.isNaN(value)) {
        return;
      }
      if (points == 0) {
        firstTime = time;
        firstValue = value;
      } else {
        increase += value >= lastValue ? value - lastValue : value;
      }
      lastTime = time;
      lastValue = value;
      points++;
    }

    /** Takes in the points of the same series and bucket that came after this tracker's. */
    void merge(RateTracker later) {
      if (later.points == 0) {
        return;
      }
      if (points == 0) {
        firstTime = later.firstTime;
        firstValue = later.firstValue;
        increase = later.increase;
      } else {
        double step = later.firstValue;
        increase += (step >= lastValue ? step - lastValue : step) + later.increase;
      }
      lastTime = later.lastTime;
      lastValue = later.lastValue;
      points += later.points;
    }

    /** The rate, or NaN when there is none. */
    double rate() {
      if (points < 2 || lastTime == firstTime) {
        return Double.NaN;
      }
      return increase / ((lastTime - firstTime) / 1e6);
    }
  }
}
