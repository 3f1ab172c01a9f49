package io.quarry.server.metricindex;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.hec.HecEnvelope;
import io.quarry.server.hec.HecException;

/**
 * A HEC envelope that carries metric data points, as Splunk takes them: {@code "event": "metric"}
 * and {@code fields} holding either {@code metric_name} and {@code _value} (one point), or any
 * number of {@code "metric_name:<name>": <value>} (the multi-metric form, one point each), or both.
 * Every other field is a dimension (a string; a number is kept as its text), and the envelope's
 * {@code host}, {@code source} and {@code sourcetype} are dimensions too, as in Splunk.
 *
 * <p>Read from a {@link HecEnvelope} (no JSON tree); the points go into a request's {@link
 * HecMetricBatches}, which finds each series once per request.
 */
public final class HecMetricEnvelope {
  static final String METRIC_NAME = "metric_name";
  static final String METRIC_NAME_PREFIX = "metric_name:";
  static final String VALUE = "_value";

  private HecMetricEnvelope() {}

  /** Whether the envelope is a metric data point (what Splunk would index as one). */
  public static boolean isMetric(HecEnvelope envelope) {
    JsonNode event = envelope.member("event");
    if (event == null || !event.isTextual() || !event.textValue().equals("metric")) {
      return false;
    }
    if (!envelope.hasFieldSlots()) {
      return false;
    }
    for (int i = 0; i < envelope.fieldCount(); i++) {
      String name = envelope.fieldName(i);
      if (name.equals(METRIC_NAME) || name.startsWith(METRIC_NAME_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code name} past the prefix is empty or white space only (as {@code isBlank}). */
  static boolean blankAfterPrefix(String name) {
    for (int i = METRIC_NAME_PREFIX.length(); i < name.length(); ) {
      int c = name.codePointAt(i);
      if (!Character.isWhitespace(c)) {
        return false;
      }
      i += Character.charCount(c);
    }
    return true;
  }

  /** A field's value as a dimension's text; code 6 when it is not a string or a number. */
  static String text(HecEnvelope envelope, int field, String name, int number) {
    if (envelope.fieldKind(field) == HecEnvelope.TEXT) {
      return envelope.fieldText(field);
    }
    JsonNode node = envelope.fieldNode(field);
    if (node == null || !node.isValueNode() || node.isNull()) {
      throw HecException.invalidFormat(
          number, "metric field '" + name + "' must be a string or a number");
    }
    return node.asText();
  }

  /** A field's value as a measurement; code 6 naming the field when it is not a number. */
  static double number(HecEnvelope envelope, int field, String name, int number) {
    switch (envelope.fieldKind(field)) {
      case HecEnvelope.INT, HecEnvelope.LONG, HecEnvelope.DOUBLE -> {
        return envelope.fieldNumber(field);
      }
      case HecEnvelope.TEXT -> {
        String text = envelope.fieldText(field).strip();
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
      default -> {
        JsonNode node = envelope.fieldNode(field);
        if (node != null && node.isNumber()) {
          return node.doubleValue();
        }
      }
    }
    throw HecException.invalidFormat(
        number, "metric value '" + name + "' is not a number: " + envelope.fieldNode(field));
  }
}
