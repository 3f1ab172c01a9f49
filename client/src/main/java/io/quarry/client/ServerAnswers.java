package io.quarry.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's answers read into the client's types: the export endpoint's JSON lines as {@link
 * SearchResults} (a typed error after the rows began failing the read), a job's status, the index
 * list's summaries, an error body as a {@link QuarryClientException}, a busy answer's Retry-After.
 */
final class ServerAnswers {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ServerAnswers() {}

  static SearchResults readResults(BufferedReader reader) throws IOException {
    try (JsonParser parser = JSON.getFactory().createParser(reader)) {
      return readResults(parser);
    }
  }

  /** {@link #readResults(BufferedReader)} from the answer's UTF-8 bytes. */
  static SearchResults readResults(InputStream body) throws IOException {
    try (JsonParser parser = JSON.getFactory().createParser(body)) {
      return readResults(parser);
    }
  }

  /**
   * The export endpoint's lines — JSON objects one after another, whitespace and blank lines
   * between — read by one streaming parser over the whole answer: each {@code result}'s fields
   * straight into its row, with no {@code String} per line nor tree per row (a tree per line cost
   * the harness's client ~1.5 µs a row, a third of {@code sessions_range}'s wall at 200,000 rows,
   * session 45), and no tree per number either (session 46): a value reads as the tree it was read
   * as before would write it ({@link #scalarText}). The rarer parts of a line ({@code messages},
   * {@code error}, an object among the values) are read as trees, as before. A line with a row and
   * an error keeps the row, then fails, as a line read whole did.
   */
  private static SearchResults readResults(JsonParser parser) throws IOException {
    Set<String> fields = new LinkedHashSet<>();
    List<Map<String, String>> rows = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
      if (token != JsonToken.START_OBJECT) {
        parser.skipChildren(); // not a line of the export: nothing of it is read
        continue;
      }
      Map<String, String> row = null;
      JsonNode error = null;
      JsonNode lineMessages = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (name) {
          case "result" -> {
            if (value == JsonToken.START_OBJECT) {
              row = readRow(parser, fields);
            } else {
              parser.skipChildren();
              row = null;
            }
          }
          case "error" -> error = parser.readValueAsTree();
          case "messages" -> lineMessages = parser.readValueAsTree();
          default -> parser.skipChildren();
        }
      }
      if (row != null) {
        rows.add(row);
      }
      if (error != null && error.isObject()) {
        // the search failed after its answer began (docs/api.md): the rows so far are not all
        throw midStreamFailure(error, rows.size());
      }
      if (lineMessages != null && !lineMessages.isNull()) {
        for (JsonNode message : lineMessages) {
          messages.add(message.path("type").asText() + ": " + message.path("text").asText());
        }
      }
    }
    return new SearchResults(new ArrayList<>(fields), rows, messages);
  }

  /** A {@code result} object's fields, the parser at its start: each value as text. */
  private static Map<String, String> readRow(JsonParser parser, Set<String> fields)
      throws IOException {
    Map<String, String> row = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      String text = scalarText(parser, value);
      if (text == null) {
        text = value == JsonToken.START_ARRAY ? listText(parser) : treeText(parser);
      }
      row.put(name, text);
      fields.add(name);
    }
    return row;
  }

  /**
   * The text of the scalar at the parser's {@code token} as a tree node of it gives ({@link
   * JsonNode#asText}), without making the node: a string as it is; a whole number as its value
   * written back ({@code -0} is {@code 0}, a number past a long all its digits); a fraction as the
   * double it reads as ({@code 1.50} is {@code 1.5}, {@code 1e3} is {@code 1000.0}: Java's {@link
   * Double#toString}); {@code true}, {@code false}, {@code null}. Null for a list or an object.
   */
  private static String scalarText(JsonParser parser, JsonToken token) throws IOException {
    return switch (token) {
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT ->
          switch (parser.getNumberType()) {
            case INT -> Integer.toString(parser.getIntValue());
            case LONG -> Long.toString(parser.getLongValue());
            default -> parser.getBigIntegerValue().toString();
          };
      case VALUE_NUMBER_FLOAT -> Double.toString(parser.getDoubleValue());
      case VALUE_TRUE -> "true";
      case VALUE_FALSE -> "false";
      case VALUE_NULL -> "null";
      default -> null;
    };
  }

  /**
   * A multivalue (a list), the parser at its start: its values' texts joined by newlines, a list or
   * an object inside it as its tree's text (empty).
   */
  private static String listText(JsonParser parser) throws IOException {
    List<String> values = new ArrayList<>();
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_ARRAY;
        token = parser.nextToken()) {
      String text = scalarText(parser, token);
      values.add(text != null ? text : treeText(parser));
    }
    return String.join("\n", values);
  }

  /** The value at the parser, read as a tree: its text (an object's is empty). */
  private static String treeText(JsonParser parser) throws IOException {
    return ((JsonNode) parser.readValueAsTree()).asText();
  }

  /**
   * A search that failed after its streamed answer began, which ended the answer with its typed
   * error ({@code {"error":{"code","message"}}}) under the status line's 200.
   */
  static QuarryClientException midStreamFailure(JsonNode error, long rowsRead) {
    return new QuarryClientException(
        200,
        "the search failed after "
            + rowsRead
            + " rows: "
            + error.path("code").asText()
            + ": "
            + error.path("message").asText(),
        error.toString());
  }

  /** A job's status from its JSON ({@code GET /api/v1/jobs/{id}} and the job actions). */
  static JobStatus jobStatus(JsonNode node) {
    List<String> messages = new ArrayList<>();
    for (JsonNode message : node.path("messages")) {
      messages.add(message.asText());
    }
    if (node.has("error")) {
      messages.add(node.at("/error/code").asText() + ": " + node.at("/error/message").asText());
    }
    return new JobStatus(
        node.path("id").asText(),
        node.path("state").asText(),
        node.path("finalized").asBoolean(),
        node.path("eventsRead").asLong(),
        node.path("rows").asLong(),
        Duration.ofMillis(node.path("runDurationMs").asLong()),
        messages);
  }

  /** The event indexes of {@code GET /api/v1/indexes}' {@code indexes}. */
  static List<IndexSummary> indexSummaries(JsonNode indexes) {
    List<IndexSummary> summaries = new ArrayList<>();
    for (JsonNode index : indexes) {
      summaries.add(
          new IndexSummary(
              index.path("name").asText(),
              index.path("events").asLong(),
              index.path("buckets").size(),
              longOrNull(index, "earliestMicros"),
              longOrNull(index, "latestMicros"),
              index.path("bytesOnDisk").asLong(),
              index.path("journalRawBytes").asLong(),
              index.path("journalBytes").asLong(),
              index.path("quarantinedBuckets").asLong(),
              bytesByKind(index.path("bytesByKind")),
              index.path("compaction").path("pendingBytes").asLong(),
              index.path("compaction").path("running").asBoolean(),
              index.path("compaction").path("due").asBoolean(),
              index.path("compaction").path("compactions").asLong(),
              index.path("compaction").path("waitingSegments").asInt(),
              index.path("segments").asInt(),
              texts(index.path("layouts")),
              journal(index.path("journal")),
              buckets(index.path("buckets"))));
    }
    return summaries;
  }

  private static List<BucketSummary> buckets(JsonNode buckets) {
    List<BucketSummary> list = new ArrayList<>();
    for (JsonNode bucket : buckets) {
      list.add(
          new BucketSummary(
              bucket.path("id").asLong(),
              bucket.path("state").asText(),
              bucket.path("events").asLong(),
              bucket.path("bytes").asLong(),
              bucket.path("layout").asText(bucket.path("format").asText()),
              bucket.path("segments").asInt(),
              bucket.path("documents").asLong(),
              journal(bucket.path("journal"))));
    }
    return list;
  }

  private static List<JournalSummary> journal(JsonNode kinds) {
    List<JournalSummary> list = new ArrayList<>();
    for (JsonNode kind : kinds) {
      list.add(
          new JournalSummary(
              kind.path("codec").asText(),
              kind.path("level").asInt(-1),
              kind.path("compact").asBoolean(),
              kind.path("formatVersion").asInt(),
              kind.path("segments").asInt(),
              kind.path("bytes").asLong(),
              kind.path("rawBytes").asLong()));
    }
    return list;
  }

  private static List<String> texts(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(text -> list.add(text.asText()));
    return list;
  }

  /** The metric indexes of {@code GET /api/v1/indexes}' {@code metricIndexes}. */
  static List<MetricIndexSummary> metricIndexSummaries(JsonNode indexes) {
    List<MetricIndexSummary> summaries = new ArrayList<>();
    for (JsonNode index : indexes) {
      summaries.add(
          new MetricIndexSummary(
              index.path("name").asText(),
              index.path("points").asLong(),
              index.path("hotPoints").asLong(),
              longOrNull(index, "earliestMicros"),
              longOrNull(index, "latestMicros"),
              index.path("warmBuckets").asInt(),
              index.path("warmSeries").asLong(),
              index.path("warmChunks").asLong(),
              index.path("bytesOnDisk").asLong(),
              index.path("bytesPerPoint").isNumber() ? index.get("bytesPerPoint").asDouble() : null,
              bytesByKind(index.path("bytesByKind")),
              index.path("quarantinedBuckets").size()));
    }
    return summaries;
  }

  private static Long longOrNull(JsonNode node, String field) {
    return node.path(field).isNumber() ? node.get(field).asLong() : null;
  }

  private static Map<String, Long> bytesByKind(JsonNode kinds) {
    Map<String, Long> bytes = new java.util.LinkedHashMap<>();
    kinds.fields().forEachRemaining(kind -> bytes.put(kind.getKey(), kind.getValue().asLong()));
    return bytes;
  }

  /**
   * The server's message from an error body (Quarry's, HEC's or Splunk's shape), with the status.
   */
  static QuarryClientException failure(int status, String body) {
    String message = body;
    try {
      JsonNode node = JSON.readTree(body);
      if (node.has("error")) {
        JsonNode error = node.get("error");
        message = error.path("code").asText() + ": " + error.path("message").asText();
        if (error.has("context")) {
          message += "\n" + error.get("context").asText();
        }
      } else if (node.has("text")) {
        message = node.get("text").asText() + " (code " + node.path("code").asText() + ")";
        if (node.has("reason")) {
          message += ": " + node.get("reason").asText();
        }
      }
    } catch (JsonProcessingException notJson) {
      // keep the body as it is
    }
    return new QuarryClientException(status, "HTTP " + status + ": " + message, body);
  }

  /** The server's Retry-After, or an exponential backoff for the attempt. */
  static Duration retryAfter(HttpResponse<?> response, int attempt) {
    return retryAfter(response.headers().firstValue("Retry-After").orElse(null), attempt);
  }

  /** A {@code Retry-After} value (null: none) as a delay, else a backoff for the attempt. */
  static Duration retryAfter(String value, int attempt) {
    if (value == null) {
      return Duration.ofMillis(250L << attempt);
    }
    try {
      return Duration.ofSeconds(Long.parseLong(value.strip()));
    } catch (NumberFormatException e) {
      return Duration.ofSeconds(1);
    }
  }
}
