package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The options {@code chart} and {@code timechart} share beyond {@code limit}/{@code useother}/
 * {@code usenull}/{@code otherstr}/{@code nullstr}: how a series column is named when there are
 * several aggregations ({@code sep}, {@code format} with {@code $AGG$} and {@code $VAL$}), whether
 * empty bins between the first and the last are shown ({@code cont}), the {@code where} clause
 * choosing the series, and the bins a numeric split field is cut into ({@code by f span=S} or
 * {@code bins=N}, as {@code bin} cuts it).
 *
 * @param sep between an aggregation's name and a series value ({@code ": "} by default)
 * @param format a column name template with {@code $AGG$} and {@code $VAL$}; wins over sep
 * @param cont whether rows for empty bins between the first and the last are filled in
 * @param where which series to keep; empty: the {@code limit} largest by sum
 * @param splitSpan the span the split field's values are binned by
 * @param splitBins without a span, the most bins the split field's range is cut into (0: none)
 */
public record SeriesLayout(
    String sep,
    Optional<String> format,
    boolean cont,
    Optional<SeriesFilter> where,
    Optional<Span> splitSpan,
    int splitBins) {
  /** Splunk's defaults: {@code sep=": "}, no format, {@code cont=true}, no where clause. */
  public static final SeriesLayout DEFAULT =
      new SeriesLayout(": ", Optional.empty(), true, Optional.empty());

  /** Without bins on the split field. */
  public SeriesLayout(
      String sep, Optional<String> format, boolean cont, Optional<SeriesFilter> where) {
    this(sep, format, cont, where, Optional.empty(), 0);
  }

  /** Whether the split field's values are cut into bins. */
  public boolean binsSplit() {
    return splitSpan.isPresent() || splitBins > 0;
  }

  public SeriesLayout {
    requireNonNull(sep, "sep is null");
    requireNonNull(format, "format is null");
    requireNonNull(where, "where is null");
    requireNonNull(splitSpan, "splitSpan is null");
    if (splitBins < 0) {
      throw new IllegalArgumentException("splitBins is negative: " + splitBins);
    }
  }

  /** The column of aggregation {@code aggregation} for the series {@code value}. */
  public String column(String aggregation, String value) {
    return format
        .map(f -> f.replace("$AGG$", aggregation).replace("$VAL$", value))
        .orElseGet(() -> aggregation + sep + value);
  }
}
