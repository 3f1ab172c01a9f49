package io.quarry.server.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.server.config.IndexStorage;
import io.quarry.server.config.Storage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The metric dataset of the golden specs ({@code metrics.spl-spec}): {@code data/spec_metrics.csv},
 * one data point per line ({@code _time} in epoch seconds, {@code metric_name}, {@code _value}, the
 * dimensions {@code host}, {@code region} and, where not empty, {@code dc}), declared as the metric
 * index {@value #INDEX} and sent as HEC metric envelopes ({@code "event":"metric"}, the
 * single-metric form) with source {@code spec_metrics.csv} and sourcetype {@code spec_metrics} —
 * the dimensions {@code gen_metrics_spec.py} computes with.
 */
final class MetricSpecData {
  static final String INDEX = "spec_metrics";
  private static final ObjectMapper JSON = new ObjectMapper();

  private MetricSpecData() {}

  /**
   * Storage settings whose event indexes store new buckets in {@code format} ({@code events} or
   * {@code blocks}) and that make {@value #INDEX} a metric index.
   */
  static Storage storage(String format) {
    Map<String, IndexStorage> indexes =
        Map.of(
            INDEX,
            new IndexStorage(null, null, null, null, "metric", null, null, null, null, null, null));
    return new Storage(null, null, null, null, format, indexes, null, null, null, null, null, null);
  }

  /** Sends every point of the CSV in {@code specDirectory} to the server's HEC endpoint. */
  static void load(String serverUrl, String token, Path specDirectory)
      throws IOException, InterruptedException {
    List<String> lines =
        Files.readAllLines(specDirectory.resolve("data/spec_metrics.csv"), StandardCharsets.UTF_8)
            .stream()
            .filter(line -> !line.isBlank() && !line.startsWith("#"))
            .toList();
    assertThat(lines.get(0)).isEqualTo("_time,metric_name,_value,host,region,dc");
    StringBuilder body = new StringBuilder();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      ObjectNode fields =
          JSON.createObjectNode()
              .put("metric_name", cells[1])
              .put("_value", Double.parseDouble(cells[2]))
              .put("region", cells[4]);
      if (!cells[5].isEmpty()) {
        fields.put("dc", cells[5]);
      }
      ObjectNode envelope =
          JSON.createObjectNode()
              .put("time", Long.parseLong(cells[0]))
              .put("index", INDEX)
              .put("event", "metric")
              .put("host", cells[3])
              .put("source", "spec_metrics.csv")
              .put("sourcetype", "spec_metrics");
      envelope.set("fields", fields);
      body.append(JSON.writeValueAsString(envelope)).append('\n');
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(serverUrl + "/services/collector/event"))
                    .header("Authorization", "Splunk " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }
}
