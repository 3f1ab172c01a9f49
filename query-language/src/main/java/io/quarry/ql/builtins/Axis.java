package io.quarry.ql.builtins;

import io.quarry.ql.ast.Span;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code makecontinuous}'s x-axis: a field's values put in buckets of a span — a time span over
 * microseconds ({@code _time}'s own, another field's seconds), aligned by {@link Span#floor}; a
 * numeric one over {@code [k·w, (k+1)·w)} (seconds over {@code _time}) — and the buckets between
 * the first and the last filled.
 */
final class Axis {
  /** A number more spans than this from 0 has no bucket index (a long would saturate). */
  private static final double MAX_INDEX = 1e15;

  private final String field;
  private final Span span;
  private final ZoneId zone;

  Axis(String field, Span span, ZoneId zone) {
    this.field = field;
    this.span = span;
    this.zone = zone;
  }

  /**
   * {@code rows} (field to values; {@code _time} in microseconds) in bucket order, their field set
   * to their bucket, a row of only the field for each empty bucket from the first (or {@code
   * start}) to the last (or {@code end}); rows outside {@code [start, end]} (NaN: unbounded)
   * dropped, rows whose field is not a number last. Each filled row is handed to {@code filled}
   * before it is kept (the operator counts its memory).
   */
  List<Map<String, List<Object>>> fill(
      List<Map<String, List<Object>>> rows,
      double start,
      double end,
      Consumer<String> warn,
      Consumer<Map<String, List<Object>>> filled) {
    TreeMap<Long, List<Map<String, List<Object>>>> buckets = new TreeMap<>(); // by bucket index
    List<Map<String, List<Object>>> other = new ArrayList<>();
    boolean tooFar = false;
    for (Map<String, List<Object>> row : rows) {
      List<Object> values = row.get(field);
      double x = values == null ? Double.NaN : seconds(values.get(0));
      if (!Double.isNaN(x) && !span.isTime() && Math.abs(x / span.width()) > MAX_INDEX) {
        tooFar = true;
        x = Double.NaN; // no bucket index for it: it goes with the values that are not numbers
      }
      if (Double.isNaN(x)) {
        other.add(row);
      } else if (!(x < start) && !(x > end)) {
        buckets.computeIfAbsent(bucket(x), b -> new ArrayList<>()).add(row);
      }
    }
    if (tooFar) {
      warn.accept(
          "makecontinuous: a "
              + field
              + " more than 1e15 spans from 0 has no bucket; such results come last");
    }
    List<Map<String, List<Object>>> out = new ArrayList<>(rows.size());
    if (!buckets.isEmpty() || (!Double.isNaN(start) && !Double.isNaN(end))) {
      long first = Double.isNaN(start) ? buckets.firstKey() : bucket(start);
      long last = Double.isNaN(end) ? buckets.lastKey() : bucket(end);
      if (!buckets.isEmpty()) {
        first = Math.min(first, buckets.firstKey());
        last = Math.max(last, buckets.lastKey());
      }
      if (count(first, last) > Axis.limit()) {
        warn.accept(
            "makecontinuous: more than "
                + Axis.limit()
                + " buckets between the first and the last; the gaps were left unfilled");
        buckets.forEach((b, inBucket) -> inBucket.forEach(r -> out.add(at(r, b))));
      } else {
        long n = (long) count(first, last);
        long b = first;
        for (long i = 0; i < n; i++, b = following(b)) {
          List<Map<String, List<Object>>> inBucket = buckets.get(b);
          if (inBucket == null) {
            Map<String, List<Object>> empty = at(Map.of(), b);
            filled.accept(empty);
            out.add(empty);
          } else {
            for (Map<String, List<Object>> row : inBucket) {
              out.add(at(row, b));
            }
          }
        }
      }
    }
    out.addAll(other);
    return out;
  }

  private static int limit() {
    return MakeContinuousCommand.MAX_BUCKETS;
  }

  /** A value as seconds (or the number itself, for a numeric span); NaN when not a number. */
  private double seconds(Object value) {
    if (TimeField.is(field) && value instanceof Long micros) {
      return micros / 1e6;
    }
    return Values.toNumber(value);
  }

  /** The bucket of {@code x}: its start in microseconds (time), or its index (numeric). */
  private long bucket(double x) {
    return span.isTime()
        ? span.floor(Math.round(x * 1e6), zone)
        : (long) Math.floor(x / span.width());
  }

  private long following(long bucket) {
    return span.isTime() ? span.next(bucket, zone) : bucket + 1;
  }

  /** The buckets from {@code first} to {@code last}: counted in double (no overflow). */
  private double count(long first, long last) {
    if (!span.isTime()) {
      return (double) last - (double) first + 1;
    }
    long n = 0;
    for (long b = first; b <= last && n <= limit(); b = following(b)) {
      n++;
    }
    return n;
  }

  /** {@code row} with the field set to bucket {@code b}'s value. */
  private Map<String, List<Object>> at(Map<String, List<Object>> row, long b) {
    Map<String, List<Object>> copy = new HashMap<>(row);
    copy.put(field, List.of(value(b)));
    return copy;
  }

  private Object value(long b) {
    if (span.isTime()) {
      return TimeField.is(field) ? (Object) b : TimeField.secondsOf(b);
    }
    double start = span.multiple(b);
    if (TimeField.is(field)) {
      return Math.round(start * 1e6); // a numeric span over _time is seconds; _time microseconds
    }
    return start == Math.rint(start) && Math.abs(start) < 1e15 ? (Object) (long) start : start;
  }
}
