package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The options {@code chart} and {@code timechart} share beyond {@code limit}/{@code useother}/
 * {@code usenull}/{@code otherstr}/{@code nullstr}: how a series column is named when there are
 * several aggregations ({@code sep}, {@code format} with {@code $AGG$} and {@code $VAL$}), whether
 * empty bins between the first and the last are shown ({@code cont}), and the {@code where} clause
 * choosing the series.
 *
 * @param sep between an aggregation's name and a series value ({@code ": "} by default)
 * @param format a column name template with {@code $AGG$} and {@code $VAL$}; wins over sep
 * @param cont whether rows for empty bins between the first and the last are filled in
 * @param where which series to keep; empty: the {@code limit} largest by sum
 */
public record SeriesLayout(
    String sep, Optional<String> format, boolean cont, Optional<SeriesFilter> where) {
  /** Splunk's defaults: {@code sep=": "}, no format, {@code cont=true}, no where clause. */
  public static final SeriesLayout DEFAULT =
      new SeriesLayout(": ", Optional.empty(), true, Optional.empty());

  public SeriesLayout {
    requireNonNull(sep, "sep is null");
    requireNonNull(format, "format is null");
    requireNonNull(where, "where is null");
  }

  /** The column of aggregation {@code aggregation} for the series {@code value}. */
  public String column(String aggregation, String value) {
    return format
        .map(f -> f.replace("$AGG$", aggregation).replace("$VAL$", value))
        .orElseGet(() -> aggregation + sep + value);
  }
}
