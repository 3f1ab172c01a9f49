package io.quarry.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a test server's {@code /metrics} answered (Prometheus' text format), read series by series:
 * a series' value ({@link #value}) named by a regex of its name and labels ({@link #series}, {@link
 * #outcome}, {@link #failures}), or every series of a metric summed ({@link #sum}). Its {@link
 * #toString} is the whole text, for an assertion's description.
 */
public final class PrometheusText {
  private final String text;

  private PrometheusText(String text) {
    this.text = text;
  }

  /** {@code GET /metrics} of {@code server} as admin. */
  public static PrometheusText scrape(QuarryServer server, String password) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
                  .header("Authorization", TestServers.basic(password))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError("/metrics answered " + response.statusCode() + ": " + response);
      }
      return new PrometheusText(response.body());
    }
  }

  /** The value of the series {@code series} (a regex of its name and labels); 0 when absent. */
  public double value(String series) {
    Matcher line = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(text);
    return line.find() ? Double.parseDouble(line.group(1)) : 0;
  }

  /** Every series of the metric {@code name} (with labels or without) summed; 0 when none. */
  public double sum(String name) {
    double sum = 0;
    Matcher line =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*\\})? (\\S+)$").matcher(text);
    while (line.find()) {
      sum += Double.parseDouble(line.group(1));
    }
    return sum;
  }

  /**
   * The regex of the series {@code name} with exactly the labels {@code namesAndValues} (a name,
   * its value, …) in that order — the exporter writes them by name.
   */
  public static String series(String name, String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("a label without a value: " + namesAndValues.length);
    }
    StringBuilder series = new StringBuilder(Pattern.quote(name)).append("\\{");
    for (int i = 0; i < namesAndValues.length; i += 2) {
      series.append(i == 0 ? "" : ",").append(Pattern.quote(namesAndValues[i])).append("=\"");
      series.append(Pattern.quote(namesAndValues[i + 1])).append('"');
    }
    return series.append("\\}").toString();
  }

  /** The series {@code name{outcome="<outcome>"}}: searches counted by how they ended. */
  public static String outcome(String name, String outcome) {
    return series(name, "outcome", outcome);
  }

  /** The series of {@code quarry_search_failures_total} with these labels. */
  public static String failures(String stage, String status, String code) {
    return series("quarry_search_failures_total", "code", code, "stage", stage, "status", status);
  }

  /** Every failed search's failure, over its stages, statuses and codes. */
  public double failures() {
    return sum("quarry_search_failures_total");
  }

  @Override
  public String toString() {
    return text;
  }
}
