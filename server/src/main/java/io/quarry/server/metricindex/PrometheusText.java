package io.quarry.server.metricindex;

import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Prometheus text exposition format (version 0.0.4), as exporters serve it and {@code
 * /api/v1/metrics/import/prometheus} takes it: one sample a line, {@code name{label="value",…}
 * value [timestamp_ms]}, {@code #} lines (HELP, TYPE, comments) and blank lines skipped. Labels are
 * dimensions; {@code extra} dimensions (the request's {@code host}, …) are added where a sample has
 * no label of that name. Values are Go floats ({@code NaN}, {@code +Inf}, {@code -Inf}); a sample
 * without a timestamp takes {@code defaultMicros}. Histograms and summaries are their sample lines
 * ({@code x_bucket{le="0.5"}}, {@code x_sum}, {@code x_count}), stored as they are.
 */
public final class PrometheusText {
  private PrometheusText() {}

  /** A line that does not parse: its number (from 1) and why. */
  public static final class ParseException extends IllegalArgumentException {
    private final int line;

    ParseException(int line, String message) {
      super("line " + line + ": " + message);
      this.line = line;
    }

    public int line() {
      return line;
    }
  }

  /** Every sample of {@code text}; nothing when a line is wrong (the exception names it). */
  public static List<MetricPoint> parse(
      String text, Map<String, String> extra, long defaultMicros) {
    List<MetricPoint> points = new ArrayList<>();
    int number = 0;
    int start = 0;
    while (start <= text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      number++;
      String line = text.substring(start, end).strip();
      start = end + 1;
      if (line.isEmpty() || line.startsWith("#")) {
        if (end == text.length()) {
          break;
        }
        continue;
      }
      points.add(sample(line, number, extra, defaultMicros));
      if (end == text.length()) {
        break;
      }
    }
    return points;
  }

  private static MetricPoint sample(
      String line, int number, Map<String, String> extra, long defaultMicros) {
    int at = 0;
    while (at < line.length() && isNameChar(line.charAt(at), at == 0)) {
      at++;
    }
    if (at == 0) {
      throw new ParseException(number, "a sample starts with a metric name: '" + line + "'");
    }
    String name = line.substring(0, at);
    Map<String, String> labels = new TreeMap<>();
    if (at < line.length() && line.charAt(at) == '{') {
      at = labels(line, at + 1, number, labels);
    }
    String[] rest = line.substring(at).strip().split("\\s+");
    if (rest.length < 1 || rest[0].isEmpty() || rest.length > 2) {
      throw new ParseException(number, "expected a value and an optional timestamp after " + name);
    }
    double value = value(rest[0], number);
    long micros = defaultMicros;
    if (rest.length == 2) {
      try {
        micros = Math.multiplyExact(Long.parseLong(rest[1]), 1000L);
      } catch (NumberFormatException | ArithmeticException e) {
        throw new ParseException(number, "the timestamp '" + rest[1] + "' is not milliseconds");
      }
    }
    extra.forEach(labels::putIfAbsent);
    return new MetricPoint(SeriesKey.of(name, labels), micros, value);
  }

  private static int labels(String line, int at, int number, Map<String, String> labels) {
    while (true) {
      while (at < line.length() && line.charAt(at) == ' ') {
        at++;
      }
      if (at < line.length() && line.charAt(at) == '}') {
        return at + 1;
      }
      int nameStart = at;
      while (at < line.length()
          && isNameChar(line.charAt(at), at == nameStart)
          && line.charAt(at) != ':') {
        at++;
      }
      if (at == nameStart || at >= line.length() || line.charAt(at) != '=') {
        throw new ParseException(number, "expected label=\"value\" at column " + (at + 1));
      }
      String label = line.substring(nameStart, at);
      at++;
      if (at >= line.length() || line.charAt(at) != '"') {
        throw new ParseException(number, "label " + label + ": the value must be quoted");
      }
      at++;
      StringBuilder value = new StringBuilder();
      while (true) {
        if (at >= line.length()) {
          throw new ParseException(number, "label " + label + ": unterminated value");
        }
        char c = line.charAt(at++);
        if (c == '"') {
          break;
        }
        if (c == '\\' && at < line.length()) {
          char escaped = line.charAt(at++);
          value.append(escaped == 'n' ? '\n' : escaped);
        } else {
          value.append(c);
        }
      }
      if (labels.put(label, value.toString()) != null) {
        throw new ParseException(number, "label " + label + " given twice");
      }
      while (at < line.length() && line.charAt(at) == ' ') {
        at++;
      }
      if (at < line.length() && line.charAt(at) == ',') {
        at++;
      }
    }
  }

  private static double value(String text, int number) {
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "+Inf", "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        try {
          return Double.parseDouble(text);
        } catch (NumberFormatException e) {
          throw new ParseException(number, "the value '" + text + "' is not a number");
        }
    }
  }

  private static boolean isNameChar(char c, boolean first) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c == '_'
        || c == ':'
        || !first && c >= '0' && c <= '9';
  }
}
