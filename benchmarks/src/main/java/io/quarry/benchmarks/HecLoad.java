package io.quarry.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded HEC load generator: sends {@code --events} access-log events (the lines of {@code
 * access-sample.log}, cycled, as JSON envelopes) to {@code /services/collector/event} in batches of
 * {@code --batch}, over {@code --connections} concurrent requests, retrying 503s after their
 * Retry-After, and prints events/s and MB/s of event text. Every request is answered before it
 * exits; nothing runs unbounded.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.quarry.benchmarks.HecLoad \
 *     --url http://127.0.0.1:8088 --token $(cat data/.hec-token) \
 *     --events 1000000 --batch 100 --connections 8 [--index main] [--raw]
 * </pre>
 *
 * With {@code --raw} the batches go to {@code /services/collector/raw?sourcetype=access_combined}
 * as plain lines instead.
 */
public final class HecLoad {
  private HecLoad() {}

  public static void main(String[] args) throws Exception {
    String url = "http://127.0.0.1:8088";
    String token = System.getenv("QUARRY_HEC_TOKEN");
    long events = 1_000_000;
    int batch = 100;
    int connections = 8;
    String index = "main";
    boolean raw = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--url" -> url = args[++i];
        case "--token" -> token = args[++i];
        case "--events" -> events = Long.parseLong(args[++i]);
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--connections" -> connections = Integer.parseInt(args[++i]);
        case "--index" -> index = args[++i];
        case "--raw" -> raw = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (token == null) {
      throw new IllegalArgumentException("--token (or QUARRY_HEC_TOKEN) is required");
    }
    List<String> lines;
    try (InputStream in = HecLoad.class.getResourceAsStream("/access-sample.log")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    // a few distinct bodies, built once: the generator must not be what is measured
    List<byte[]> bodies = new ArrayList<>();
    long eventBytes = 0;
    for (int b = 0; b < 16; b++) {
      StringBuilder body = new StringBuilder();
      for (int e = 0; e < batch; e++) {
        String line = lines.get((b * batch + e) % lines.size());
        if (raw) {
          body.append(line).append('\n');
        } else {
          body.append("{\"time\":")
              .append(1_767_225_600L + b * batch + e)
              .append(",\"sourcetype\":\"access_combined\",\"index\":\"")
              .append(index)
              .append("\",\"event\":\"")
              .append(line.replace("\\", "\\\\").replace("\"", "\\\""))
              .append("\"}");
        }
      }
      bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    for (int e = 0; e < batch; e++) {
      eventBytes += lines.get(e % lines.size()).length();
    }
    String path =
        raw
            ? "/services/collector/raw?sourcetype=access_combined&index=" + index
            : "/services/collector/event";
    URI target = URI.create(url + path);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long requests = (events + batch - 1) / batch;
    AtomicLong next = new AtomicLong();
    AtomicLong retries = new AtomicLong();
    String authorization = "Splunk " + token;
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    long started = System.nanoTime();
    List<Future<?>> workers = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      workers.add(
          pool.submit(
              () -> {
                for (long r = next.getAndIncrement(); r < requests; r = next.getAndIncrement()) {
                  byte[] body = bodies.get((int) (r % bodies.size()));
                  send(http, target, authorization, body, retries);
                }
                return null;
              }));
    }
    for (Future<?> worker : workers) {
      worker.get();
    }
    pool.shutdown();
    double seconds = (System.nanoTime() - started) / 1e9;
    long sent = requests * batch;
    System.out.printf(
        Locale.ROOT,
        "%s: %d events in %d requests of %d over %d connections: %.1f s, %.0f events/s,"
            + " %.1f MB/s of event text, %d retries after 503%n",
        path,
        sent,
        requests,
        batch,
        connections,
        seconds,
        sent / seconds,
        sent * (eventBytes / (double) batch) / seconds / 1e6,
        retries.get());
  }

  private static void send(
      HttpClient http, URI target, String authorization, byte[] body, AtomicLong retries)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(target)
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    for (int attempt = 0; ; attempt++) {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 200) {
        return;
      }
      if (response.statusCode() == 503 && attempt < 100) {
        retries.incrementAndGet();
        long seconds = response.headers().firstValueAsLong("Retry-After").orElse(1);
        Thread.sleep(Math.min(seconds, 5) * 1000);
        continue;
      }
      throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
    }
  }
}
