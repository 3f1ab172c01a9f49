package io.quarry.server.hec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventFields;
import io.quarry.server.config.HecToken;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestService;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parses the body of {@code /services/collector/event}: JSON envelopes {@code
 * {"time","host","source","sourcetype","index","event","fields"}} one after another (not an array).
 * Parsing stops at the first bad envelope; the events before it are returned with the error, which
 * names its number ({@code invalid-event-number}). The caller stores none of a body with an error
 * (Splunk stores the envelopes before the bad one; Quarry refuses the body whole, so a client may
 * fix it and resend it all without storing any event twice).
 */
public final class HecEventParser {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  /**
   * The good events and metric data points of a body, and the error that stopped parsing, if any.
   */
  public record Result(
      List<IndexedEvent> events,
      Map<String, io.quarry.codecs.metricstore.MetricBatch> points,
      Optional<HecException> error) {
    /** Number of metric data points. */
    public int pointCount() {
      return points.values().stream()
          .mapToInt(io.quarry.codecs.metricstore.MetricBatch::size)
          .sum();
    }
  }

  private final HecToken token;
  private final IngestService indexes;
  private final String defaultHost;
  private final Instant now;
  private boolean autoExtractTimestamp;
  private io.quarry.server.metricindex.MetricIngest metricIndexes;
  private final io.quarry.server.metricindex.HecMetricBatches points =
      new io.quarry.server.metricindex.HecMetricBatches();

  /**
   * The metric indexes: envelopes for them are metric data points ({@link
   * io.quarry.server.metricindex.HecMetricEnvelope}); without this every metric envelope is an
   * error.
   */
  public HecEventParser metricIndexes(io.quarry.server.metricindex.MetricIngest metrics) {
    this.metricIndexes = metrics;
    return this;
  }

  /**
   * Splunk's {@code auto_extract_timestamp=true}: an envelope without {@code time} gets the time
   * its sourcetype's timestamp rule finds in the event (else the receive time).
   */
  public HecEventParser autoExtractTimestamp(boolean enabled) {
    this.autoExtractTimestamp = enabled;
    return this;
  }

  public HecEventParser(HecToken token, IngestService indexes, String defaultHost, Instant now) {
    this.token = requireNonNull(token, "token is null");
    this.indexes = requireNonNull(indexes, "indexes is null");
    this.defaultHost = requireNonNull(defaultHost, "defaultHost is null");
    this.now = requireNonNull(now, "now is null");
  }

  /**
   * The events of a body. An {@code event} string that is ASCII without escapes is taken from the
   * body's bytes (the event holds them, {@link Event#asciiArray}) and stored as they are.
   */
  public Result parse(byte[] body) throws IOException {
    List<IndexedEvent> events = new ArrayList<>();
    int[] number = {0};
    try {
      return parse(body, events, number);
    } catch (java.io.CharConversionException e) {
      // bytes that are no text in the encoding Jackson detected (UTF-8, or UTF-16/32 by their
      // leading zero bytes): the client's fault, answered like any other malformed body
      return new Result(
          events,
          points.batches(),
          Optional.of(
              HecException.invalidFormat(
                  number[0], "the body is not JSON text in UTF-8: " + e.getMessage())));
    }
  }

  private Result parse(byte[] body, List<IndexedEvent> events, int[] counter) throws IOException {
    int number = 0;
    HecEnvelope envelope = new HecEnvelope(JSON, body);
    try (JsonParser parser = FACTORY.createParser(body)) {
      while (true) {
        JsonToken next;
        try {
          next = parser.nextToken();
        } catch (JsonProcessingException e) {
          return new Result(
              events,
              points.batches(),
              Optional.of(HecException.invalidFormat(number, describe(e))));
        }
        if (next == null) {
          break;
        }
        if (next != JsonToken.START_OBJECT) {
          return new Result(
              events,
              points.batches(),
              Optional.of(
                  HecException.invalidFormat(
                      number, "event " + number + " is not a JSON object but " + next)));
        }
        try {
          envelope.read(parser);
        } catch (JsonProcessingException e) {
          return new Result(
              events,
              points.batches(),
              Optional.of(HecException.invalidFormat(number, describe(e))));
        }
        try {
          IndexedEvent event = toEvent(envelope, number);
          if (event != null) {
            events.add(event);
          }
        } catch (HecException e) {
          return new Result(events, points.batches(), Optional.of(e));
        }
        number++;
        counter[0] = number;
      }
    }
    if (events.isEmpty() && points.isEmpty()) {
      return new Result(events, points.batches(), Optional.of(HecException.noData()));
    }
    return new Result(events, points.batches(), Optional.empty());
  }

  private IndexedEvent toEvent(HecEnvelope read, int number) {
    JsonNode event = read.member("event");
    if (event == null || event.isNull()) {
      throw HecException.eventRequired(number);
    }
    String raw = event.isTextual() ? event.textValue() : event.toString();
    byte[] asciiRaw = read.eventAscii(); // set only when event is a string
    if (raw.isBlank()) {
      throw HecException.eventBlank(number);
    }
    String index = memberText(read.member("index"), "index", number).orElse(token.defaultIndex());
    boolean metricIndex = metricIndexes != null && metricIndexes.hasIndex(index);
    boolean metricEvent = io.quarry.server.metricindex.HecMetricEnvelope.isMetric(read);
    if (metricIndex || metricEvent) {
      addPoints(read, index, metricIndex, metricEvent, number);
      return null;
    }
    JsonNode envelope = read.toTree();
    requireWritable(indexes, token, index, number);
    long time = time(envelope.get("time"), number);
    String sourcetype = text(envelope, "sourcetype", number).orElse("httpevent");
    io.quarry.server.sourcetype.Sourcetype rules = indexes.sourcetypes().forName(sourcetype);
    // the sourcetype's index-time extractions run on the event; the envelope's fields win
    Map<String, List<String>> fast =
        asciiRaw == null ? null : rules.asciiIndexFields(asciiRaw, 0, asciiRaw.length);
    Map<String, List<String>> fields =
        new LinkedHashMap<>(fast != null ? fast : rules.indexFields(raw));
    fields.putAll(fields(envelope.get("fields"), number));
    String source = text(envelope, "source", number).orElse("http:" + token.name());
    JsonNode given = envelope.get("time");
    if (autoExtractTimestamp && (given == null || given.isNull())) {
      time = rules.timestamp(raw, source, fields, now).orElse(time);
    }
    String host = text(envelope, "host", number).orElse(defaultHost);
    Event parsed =
        asciiRaw != null
            ? Event.ofAscii(
                time, asciiRaw, 0, asciiRaw.length, raw, host, source, sourcetype, fields)
            : new Event(time, raw, host, source, sourcetype, fields);
    String problem = indexes.problem(index, parsed);
    if (problem != null) {
      throw HecException.invalidFormat(number, problem);
    }
    return new IndexedEvent(index, parsed);
  }

  /**
   * A metric envelope's points for a metric index; HEC code 7 naming the index when a metric goes
   * to an event index or an event to a metric index.
   */
  private void addPoints(
      HecEnvelope envelope, String index, boolean metricIndex, boolean metricEvent, int number) {
    if (!metricIndex) {
      requireWritable(indexes, token, index, number); // an index that does not exist says so
      throw HecException.incorrectIndex(
          number,
          "index '"
              + index
              + "' is an event index: a metric data point (\"event\":\"metric\" with"
              + " fields metric_name) must go to an index declared datatype: metric");
    }
    if (!metricEvent) {
      throw HecException.incorrectIndex(
          number,
          "index '"
              + index
              + "' is a metric index: send metric data points (\"event\":\"metric\", fields"
              + " metric_name and _value, or \"metric_name:<name>\": <value>), not events");
    }
    if (!token.mayWrite(index)) {
      throw HecException.incorrectIndex(
          number, "token '" + token.name() + "' may not write to index '" + index + "'");
    }
    long time = time(envelope.member("time"), number);
    String host = memberText(envelope.member("host"), "host", number).orElse(defaultHost);
    String source =
        memberText(envelope.member("source"), "source", number).orElse("http:" + token.name());
    String sourcetype =
        memberText(envelope.member("sourcetype"), "sourcetype", number).orElse("httpevent");
    points.add(envelope, index, time, host, source, sourcetype, number);
  }

  /** HEC code 7 unless {@code index} exists and the token may write it. */
  static void requireWritable(IngestService indexes, HecToken token, String index, int number) {
    if (!indexes.hasIndex(index)) {
      throw HecException.incorrectIndex(number, "index '" + index + "' does not exist");
    }
    if (!token.mayWrite(index)) {
      throw HecException.incorrectIndex(
          number, "token '" + token.name() + "' may not write to index '" + index + "'");
    }
  }

  private static Optional<String> text(JsonNode envelope, String name, int number) {
    return memberText(envelope.get(name), name, number);
  }

  private static Optional<String> memberText(JsonNode value, String name, int number) {
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isValueNode() || value.isBoolean()) {
      throw HecException.invalidFormat(number, "'" + name + "' must be a string");
    }
    String text = value.asText();
    return text.isBlank() ? Optional.empty() : Optional.of(text);
  }

  private long time(JsonNode value, int number) {
    if (value == null || value.isNull()) {
      return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
    double seconds;
    if (value.isNumber()) {
      seconds = value.doubleValue();
    } else if (value.isTextual()) {
      try {
        seconds = Double.parseDouble(value.textValue().strip());
      } catch (NumberFormatException e) {
        throw HecException.invalidFormat(
            number, "'time' must be epoch seconds, not '" + value.textValue() + "'");
      }
    } else {
      throw HecException.invalidFormat(number, "'time' must be epoch seconds");
    }
    if (!Double.isFinite(seconds) || seconds < 0 || seconds > 253_402_300_799d) {
      throw HecException.invalidFormat(number, "'time' is out of range: " + value);
    }
    return Math.round(seconds * 1_000_000d);
  }

  private static Map<String, List<String>> fields(JsonNode value, int number) {
    if (value == null || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      throw HecException.invalidFormat(number, "'fields' must be an object");
    }
    Map<String, List<String>> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      if (name.isEmpty() || EventFields.DEFAULT_FIELDS.contains(name) || name.startsWith("_")) {
        throw HecException.invalidFormat(
            number,
            "'fields' may not set '" + name + "': default and underscore fields are reserved");
      }
      List<String> values = new ArrayList<>();
      JsonNode node = field.getValue();
      if (node.isArray()) {
        for (JsonNode item : node) {
          values.add(scalar(item, name, number));
        }
      } else {
        values.add(scalar(node, name, number));
      }
      fields.put(name, values);
    }
    return fields;
  }

  private static String scalar(JsonNode node, String name, int number) {
    if (!node.isValueNode() || node.isNull()) {
      throw HecException.invalidFormat(
          number, "field '" + name + "' must be a string or a list of strings");
    }
    return node.asText();
  }

  private static String describe(JsonProcessingException e) {
    String location =
        e.getLocation() == null
            ? ""
            : " at line "
                + e.getLocation().getLineNr()
                + ", column "
                + e.getLocation().getColumnNr();
    return "malformed JSON" + location + ": " + e.getOriginalMessage();
  }
}
