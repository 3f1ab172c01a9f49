package io.quarry.ql.parser;

import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.TimechartCommand;

/**
 * {@link SplText} for {@code timechart} and {@code chart}: their options (only those that are not
 * Splunk's defaults), aggregations, over- and split fields with their bins, and the where clause.
 */
final class ChartText {
  private ChartText() {}

  static String timechart(TimechartCommand timechart) {
    StringBuilder text = new StringBuilder("timechart");
    timechart.span().ifPresent(span -> text.append(" span=").append(SplText.span(span)));
    if (timechart.bins() != 100) {
      text.append(" bins=").append(timechart.bins());
    }
    chartOptions(text, timechart.limit(), timechart.useOther(), timechart.useNull());
    if (!timechart.otherStr().equals(TimechartCommand.OTHER)) {
      text.append(" otherstr=").append(SplText.value(timechart.otherStr()));
    }
    if (!timechart.nullStr().equals(TimechartCommand.NULL)) {
      text.append(" nullstr=").append(SplText.value(timechart.nullStr()));
    }
    layoutOptions(text, timechart.layout());
    text.append(' ').append(CommandText.aggregations(timechart.aggregations()));
    timechart.by().ifPresent(by -> text.append(" by ").append(SplText.value(by)));
    splitBins(text, timechart.layout());
    timechart.layout().where().ifPresent(where -> text.append(' ').append(where.spl()));
    return text.toString();
  }

  static String chart(ChartCommand chart) {
    StringBuilder text = new StringBuilder("chart");
    chartOptions(text, chart.limit(), chart.useOther(), chart.useNull());
    if (!chart.otherStr().equals(TimechartCommand.OTHER)) {
      text.append(" otherstr=").append(SplText.value(chart.otherStr()));
    }
    if (!chart.nullStr().equals(TimechartCommand.NULL)) {
      text.append(" nullstr=").append(SplText.value(chart.nullStr()));
    }
    layoutOptions(text, chart.layout());
    text.append(' ').append(CommandText.aggregations(chart.aggregations()));
    text.append(" over ").append(SplText.value(chart.over()));
    chart.overSpan().ifPresent(span -> text.append(" span=").append(SplText.span(span)));
    if (chart.overSpan().isEmpty() && chart.overBins() > 0) {
      text.append(" bins=").append(chart.overBins());
    }
    chart.by().ifPresent(by -> text.append(" by ").append(SplText.value(by)));
    splitBins(text, chart.layout());
    chart.layout().where().ifPresent(where -> text.append(' ').append(where.spl()));
    return text.toString();
  }

  /** {@code span=} or {@code bins=} after the split field. */
  private static void splitBins(StringBuilder text, io.quarry.ql.ast.SeriesLayout layout) {
    layout.splitSpan().ifPresent(span -> text.append(" span=").append(SplText.span(span)));
    if (layout.splitSpan().isEmpty() && layout.splitBins() > 0) {
      text.append(" bins=").append(layout.splitBins());
    }
  }

  /** {@code sep=}, {@code format=} and {@code cont=} when not Splunk's defaults. */
  private static void layoutOptions(StringBuilder text, io.quarry.ql.ast.SeriesLayout layout) {
    if (!layout.sep().equals(io.quarry.ql.ast.SeriesLayout.DEFAULT.sep())) {
      text.append(" sep=").append(SplText.value(layout.sep()));
    }
    layout.format().ifPresent(format -> text.append(" format=").append(SplText.value(format)));
    if (!layout.cont()) {
      text.append(" cont=false");
    }
  }

  private static void chartOptions(StringBuilder text, long limit, boolean other, boolean nulls) {
    if (limit != 10) {
      text.append(" limit=").append(limit == Long.MAX_VALUE ? 0 : limit);
    }
    if (!other) {
      text.append(" useother=false");
    }
    if (!nulls) {
      text.append(" usenull=false");
    }
  }
}
