package io.quarry.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.client.QuarryClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code quarry ingest --metrics}: files of metric data points sent to a metric index as HEC metric
 * envelopes, 5,000 points a request.
 *
 * <ul>
 *   <li>CSV ({@code .csv}, {@code .csv.gz}): a header naming {@code metric_name}, {@code _value}
 *       and the time ({@code _time}, {@code time} or Splunk's {@code metric_timestamp}: epoch
 *       seconds, fractions allowed); every other column is a dimension ({@code host} the point's
 *       host); an empty cell is no dimension. Quoted cells as RFC 4180 (no line breaks inside).
 *   <li>JSON lines (anything else): one object a line, the same names, or the multi-metric form
 *       ({@code "metric_name:cpu.user": 12.5}); other members are dimensions.
 * </ul>
 *
 * A line that does not parse stops the file with its number; what was sent before stays.
 */
final class MetricFileIngest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int BATCH = 5_000;

  private MetricFileIngest() {}

  static long send(QuarryClient client, List<Path> files, String index, PrintStream out)
      throws IOException {
    long total = 0;
    for (Path file : files) {
      long sent = sendFile(client, file, index);
      out.println(file + ": " + sent + " metric envelopes sent to index " + index);
      total += sent;
    }
    return total;
  }

  private static long sendFile(QuarryClient client, Path file, String index) throws IOException {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean csv = name.endsWith(".csv") || name.endsWith(".csv.gz");
    var input = Files.newInputStream(file);
    if (name.endsWith(".gz")) {
      input = new java.util.zip.GZIPInputStream(input);
    }
    long sent = 0;
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
      List<String> header = null;
      List<Map<String, Object>> batch = new ArrayList<>();
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        Map<String, Object> envelope;
        if (csv) {
          List<String> cells = csvCells(line, number, file);
          if (header == null) {
            header = cells;
            for (String required : List.of("metric_name", "_value")) {
              if (!header.contains(required)) {
                throw problem(file, number, "the CSV header has no " + required + " column");
              }
            }
            continue;
          }
          envelope = fromCsv(header, cells, index, number, file);
        } else {
          envelope = fromJson(line, index, number, file);
        }
        batch.add(envelope);
        if (batch.size() >= BATCH) {
          client.sendEvents(batch);
          sent += batch.size();
          batch.clear();
        }
      }
      if (!batch.isEmpty()) {
        client.sendEvents(batch);
        sent += batch.size();
      }
    }
    return sent;
  }

  private static Map<String, Object> fromCsv(
      List<String> header, List<String> cells, String index, int number, Path file) {
    if (cells.size() != header.size()) {
      throw problem(
          file, number, cells.size() + " cells where the header has " + header.size() + " columns");
    }
    Map<String, Object> envelope = envelope(index);
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < header.size(); i++) {
      put(envelope, fields, header.get(i), cells.get(i), number, file);
    }
    envelope.put("fields", fields);
    return envelope;
  }

  private static Map<String, Object> fromJson(String line, String index, int number, Path file) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (IOException e) {
      throw problem(file, number, "not JSON: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw problem(file, number, "a line is one JSON object");
    }
    Map<String, Object> envelope = envelope(index);
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> member = it.next();
      if (!member.getValue().isValueNode() || member.getValue().isNull()) {
        throw problem(file, number, member.getKey() + " is not a string or a number");
      }
      put(envelope, fields, member.getKey(), member.getValue().asText(), number, file);
    }
    envelope.put("fields", fields);
    return envelope;
  }

  private static Map<String, Object> envelope(String index) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("event", "metric");
    envelope.put("index", index);
    return envelope;
  }

  private static void put(
      Map<String, Object> envelope,
      Map<String, Object> fields,
      String name,
      String value,
      int number,
      Path file) {
    switch (name) {
      case "_time", "time", "metric_timestamp" -> {
        try {
          envelope.put("time", Double.parseDouble(value));
        } catch (NumberFormatException e) {
          throw problem(file, number, name + " '" + value + "' is not epoch seconds");
        }
      }
      case "host", "source", "sourcetype" -> {
        if (!value.isEmpty()) {
          envelope.put(name, value);
        }
      }
      default -> {
        if (!value.isEmpty()) {
          fields.put(name, value);
        }
      }
    }
  }

  /** One CSV line's cells: commas outside double quotes split, {@code ""} is a quote. */
  static List<String> csvCells(String line, int number, Path file) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    if (quoted) {
      throw problem(file, number, "a quote is not closed");
    }
    cells.add(cell.toString());
    return cells;
  }

  private static IllegalArgumentException problem(Path file, int number, String message) {
    return new IllegalArgumentException(file + " line " + number + ": " + message);
  }
}
