package io.quarry.benchmarks.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What the harness reads from a server's {@code /metrics} page (Prometheus text): the CPU its
 * searches' own threads spent and its JIT's compilation time.
 */
final class MetricsPage {
  private final URI uri;
  private final HttpClient http = HttpClient.newHttpClient();

  /** The page of the server at {@code uri}. */
  MetricsPage(URI uri) {
    this.uri = java.util.Objects.requireNonNull(uri, "uri is null");
  }

  /**
   * The CPU the server's searches' own threads have spent so far, in nanoseconds: {@code
   * quarry_search_cpu_seconds_sum} on {@code /metrics} (each search's thread CPU, measured per
   * slice by the server, without the JIT's and the collector's threads), or -1 from a server that
   * does not report it (before session 41); summed over outcomes (session 42).
   */
  long searchCpuNanos() {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri.resolve("/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? searchCpuNanos(response.body()) : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * {@code quarry_search_cpu_seconds_sum} of a {@code /metrics} page in nanoseconds, summed over
   * its samples (from session 42 one per {@code outcome}: completed, failed, cancelled; before, one
   * without labels), or -1 where there is none.
   */
  static long searchCpuNanos(String metrics) {
    double seconds = 0;
    boolean found = false;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("quarry_search_cpu_seconds_sum ")
          || line.startsWith("quarry_search_cpu_seconds_sum{")) {
        seconds += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).strip());
        found = true;
      }
    }
    return found ? Math.round(seconds * 1e9) : -1;
  }

  /**
   * The server JVM's total JIT compilation time so far in milliseconds: the sum of {@code
   * jvm_compilation_time_ms_total} on {@code /metrics} (Micrometer's {@code JvmCompilationMetrics},
   * {@code CompilationMXBean.getTotalCompilationTime}).
   */
  long compilationMillis() {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri.resolve("/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException("/metrics answered " + response.statusCode());
      }
      return compilationMillis(response.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The sum of the {@code jvm_compilation_time_ms_total} samples of a Prometheus text page. */
  static long compilationMillis(String metrics) throws IOException {
    double total = 0;
    boolean found = false;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("jvm_compilation_time_ms_total")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        found = true;
      }
    }
    if (!found) {
      throw new IOException("/metrics has no jvm_compilation_time_ms_total (an older server?)");
    }
    return (long) total;
  }
}
