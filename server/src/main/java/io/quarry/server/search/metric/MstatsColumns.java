package io.quarry.server.search.metric;

import io.quarry.ql.ast.MetricAggregation;
import io.quarry.ql.ast.MetricFunction;
import io.quarry.ql.ast.MstatsCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The output columns of one {@code mstats}, numbered as the scan meets them: an aggregation of a
 * named metric is one column; of a pattern ({@code cpu.*}), one per metric name that matches; of
 * {@code _value}, one over every selected series. Shared by the forks of a parallel scan
 * (thread-safe), so a column has one number in all of them; each metric name's columns are worked
 * out once.
 */
final class MstatsColumns {
  /** An output column: an aggregation applied to one metric name (or {@code _value}). */
  record Column(int aggregation, String metric, String name, MetricFunction function) {}

  /** A metric name's columns, and whether they are all counts (chunk headers suffice). */
  record Of(int[] ids, boolean onlyCounts) {}

  private final MstatsCommand command;
  private final Pattern[] patterns;
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<Column> columns = new ArrayList<>();
  private final Map<String, Of> byMetric = new HashMap<>();
  private volatile int size;

  MstatsColumns(MstatsCommand command) {
    this.command = command;
    this.patterns = new Pattern[command.aggregations().size()];
    for (int i = 0; i < patterns.length; i++) {
      MetricAggregation aggregation = command.aggregations().get(i);
      if (aggregation.isWildcard()) {
        patterns[i] = glob(aggregation.metric());
      }
    }
  }

  /** Whether a series of metric {@code name} can matter: the store skips the others' chunks. */
  boolean wants(String name) {
    for (int a = 0; a < patterns.length; a++) {
      if (matches(a, name)) {
        return true;
      }
    }
    return false;
  }

  private boolean matches(int aggregation, String metricName) {
    String metric = command.aggregations().get(aggregation).metric();
    if (metric.equals(MetricAggregation.VALUE)) {
      return true;
    }
    return patterns[aggregation] != null
        ? patterns[aggregation].matcher(metricName).matches()
        : metric.equals(metricName);
  }

  /** The columns a series of metric {@code metricName} feeds (numbered on first sight). */
  synchronized Of of(String metricName) {
    Of known = byMetric.get(metricName);
    if (known != null) {
      return known;
    }
    List<Integer> found = new ArrayList<>();
    for (int a = 0; a < patterns.length; a++) {
      if (!matches(a, metricName)) {
        continue;
      }
      MetricAggregation aggregation = command.aggregations().get(a);
      String metric =
          aggregation.metric().equals(MetricAggregation.VALUE)
              ? MetricAggregation.VALUE
              : metricName;
      String name = aggregation.outputName(metric);
      Integer id = ids.get(name);
      if (id == null) {
        id = columns.size();
        ids.put(name, id);
        columns.add(new Column(a, metric, name, aggregation.function()));
        size = columns.size();
      }
      if (!found.contains(id)) {
        found.add(id);
      }
    }
    int[] array = found.stream().mapToInt(Integer::intValue).toArray();
    boolean onlyCounts = true;
    for (int id : array) {
      onlyCounts &= columns.get(id).function() == MetricFunction.COUNT;
    }
    Of of = new Of(array, onlyCounts);
    byMetric.put(metricName, of);
    return of;
  }

  /** The aggregation of every column numbered so far, by number. */
  synchronized MetricAggregation[] aggregations(MstatsCommand command) {
    MetricAggregation[] all = new MetricAggregation[columns.size()];
    for (int c = 0; c < all.length; c++) {
      all[c] = command.aggregations().get(columns.get(c).aggregation());
    }
    return all;
  }

  synchronized Column get(int id) {
    return columns.get(id);
  }

  int size() {
    return size;
  }

  /** Column numbers in output order: by aggregation, then (for a pattern) by metric name. */
  synchronized int[] order() {
    Integer[] order = new Integer[columns.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(
        order,
        Comparator.comparingInt((Integer c) -> columns.get(c).aggregation())
            .thenComparing(c -> columns.get(c).metric()));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  /** A metric name pattern: {@code *} any characters, everything else literal. */
  static Pattern glob(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (String part : pattern.split("\\*", -1)) {
      if (!regex.isEmpty() || pattern.startsWith("*")) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(part));
    }
    return Pattern.compile(regex.toString());
  }
}
