package io.quarry.server.hec.reference;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.codecs.metricstore.MetricPoint;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.server.hec.HecException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tree-based reading of HEC metric envelopes before the streaming one: the reference of {@code
 * HecStreamingParserTest}.
 *
 * <p>A HEC envelope that carries metric data points, as Splunk takes them: {@code "event":
 * "metric"} and {@code fields} holding either {@code metric_name} and {@code _value} (one point),
 * or any number of {@code "metric_name:<name>": <value>} (the multi-metric form, one point each),
 * or both. Every other field is a dimension (a string; a number is kept as its text), and the
 * envelope's {@code host}, {@code source} and {@code sourcetype} are dimensions too, as in Splunk.
 */
public final class TreeHecMetricEnvelope {
  static final String METRIC_NAME = "metric_name";
  static final String METRIC_NAME_PREFIX = "metric_name:";
  static final String VALUE = "_value";

  private TreeHecMetricEnvelope() {}

  /** Whether the envelope is a metric data point (what Splunk would index as one). */
  public static boolean isMetric(JsonNode envelope) {
    JsonNode event = envelope.get("event");
    JsonNode fields = envelope.get("fields");
    if (event == null || !event.isTextual() || !event.textValue().equals("metric")) {
      return false;
    }
    if (fields == null || !fields.isObject()) {
      return false;
    }
    for (Iterator<String> names = fields.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (name.equals(METRIC_NAME) || name.startsWith(METRIC_NAME_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The points of a metric envelope.
   *
   * @param number the envelope's position in the request, for error messages
   * @throws HecException code 6 naming the field when a value is not a number, a name is empty,
   *     {@code metric_name} comes without {@code _value} or a dimension is not a string
   */
  public static List<MetricPoint> points(
      JsonNode envelope,
      long timeMicros,
      String host,
      String source,
      String sourcetype,
      int number) {
    JsonNode fields = envelope.get("fields");
    if (fields == null || !fields.isObject()) {
      throw HecException.invalidFormat(
          number, "a metric event needs 'fields' with metric_name and _value");
    }
    Map<String, String> dimensions = new TreeMap<>();
    dimensions.put("host", host);
    dimensions.put("source", source);
    dimensions.put("sourcetype", sourcetype);
    List<String> names = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    String single = null;
    JsonNode singleValue = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      JsonNode node = field.getValue();
      if (name.equals(METRIC_NAME)) {
        single = text(node, name, number);
      } else if (name.equals(VALUE)) {
        singleValue = node;
      } else if (name.startsWith(METRIC_NAME_PREFIX)) {
        String metric = name.substring(METRIC_NAME_PREFIX.length());
        if (metric.isBlank()) {
          throw HecException.invalidFormat(number, "'" + name + "' names no metric");
        }
        names.add(metric);
        values.add(number(node, name, number));
      } else if (name.isEmpty() || name.startsWith("_")) {
        throw HecException.invalidFormat(
            number, "metric dimension '" + name + "': underscore fields are reserved");
      } else {
        dimensions.put(name, text(node, name, number));
      }
    }
    if (single != null) {
      if (singleValue == null) {
        throw HecException.invalidFormat(
            number, "metric '" + single + "' has no _value in 'fields'");
      }
      if (single.isBlank()) {
        throw HecException.invalidFormat(number, "'metric_name' is empty");
      }
      names.add(single);
      values.add(number(singleValue, VALUE, number));
    } else if (singleValue != null) {
      throw HecException.invalidFormat(number, "'_value' without 'metric_name' in 'fields'");
    }
    List<MetricPoint> points = new ArrayList<>(names.size());
    SeriesKey shared = names.isEmpty() ? null : SeriesKey.of(names.get(0), dimensions);
    for (int i = 0; i < names.size(); i++) {
      points.add(
          new MetricPoint(
              SeriesKey.withDimensionsOf(names.get(i), shared), timeMicros, values.get(i)));
    }
    return points;
  }

  private static String text(JsonNode node, String name, int number) {
    if (node == null || !node.isValueNode() || node.isNull()) {
      throw HecException.invalidFormat(
          number, "metric field '" + name + "' must be a string or a number");
    }
    return node.asText();
  }

  private static double number(JsonNode node, String name, int number) {
    if (node != null && node.isNumber()) {
      return node.doubleValue();
    }
    if (node != null && node.isTextual()) {
      String text = node.textValue().strip();
      try {
        return Double.parseDouble(text);
      } catch (NumberFormatException e) {
        // Splunk's spellings of the special values
        switch (text.toLowerCase(java.util.Locale.ROOT)) {
          case "nan":
            return Double.NaN;
          case "inf", "+inf", "infinity":
            return Double.POSITIVE_INFINITY;
          case "-inf", "-infinity":
            return Double.NEGATIVE_INFINITY;
          default:
            break;
        }
      }
    }
    throw HecException.invalidFormat(
        number, "metric value '" + name + "' is not a number: " + node);
  }
}
