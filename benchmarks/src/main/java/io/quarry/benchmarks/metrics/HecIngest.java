package io.quarry.benchmarks.metrics;

import io.quarry.server.QuarryServer;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@link MetricBench}'s HEC ingest: the dataset's points sent to {@code /services/collector/event}
 * of a server in this JVM, as multi-metric envelopes or as events, from several senders over
 * keep-alive sockets, with the CPU the senders and the server spent.
 */
final class HecIngest {
  private HecIngest() {}

  /** Part 2: the points over HEC as multi-metric envelopes; the report line. */
  static String metrics(QuarryServer server, MetricDataset dataset, int threads) throws Exception {
    EnvelopeStream bodies =
        new EnvelopeStream(
            dataset,
            stepsPerRequest(dataset),
            ",\"event\":\"metric\",\"host\":\"",
            "\",\"fields\":{\"region\":\"",
            "metric_name:");
    long cpuBefore = MetricBench.processCpuNanos();
    double[] senderCpu = new double[1];
    double seconds = send(server, bodies, threads, senderCpu);
    double serverCpu = (MetricBench.processCpuNanos() - cpuBefore) / 1e9 - senderCpu[0];
    return String.format(
        "HEC ingest (multi-metric envelopes, %,d points per request, %d senders over keep-alive"
            + " sockets, %,d MB of JSON made as sent): %,.0f points/s (%.1f s); CPU: senders %.1f"
            + " s (%.1f s of it making bodies), the rest of the JVM (the server) %.1f s = %,.0f"
            + " points per server CPU second",
        stepsPerRequest(dataset) * dataset.hosts * dataset.metrics,
        threads,
        bodies.bytes() >> 20,
        dataset.pointCount() / seconds,
        seconds,
        senderCpu[0],
        bodies.generatingSeconds(),
        serverCpu,
        dataset.pointCount() / serverCpu);
  }

  /** Time steps per HEC request: about 10,000 points. */
  private static int stepsPerRequest(MetricDataset dataset) {
    return Math.max(1, 10_000 / (dataset.hosts * dataset.metrics));
  }

  /** The same points over HEC as events of index {@code e}; the report line. */
  static String events(QuarryServer server, MetricDataset dataset, int threads) throws Exception {
    EnvelopeStream bodies =
        new EnvelopeStream(
            dataset,
            stepsPerRequest(dataset),
            ",\"index\":\"e\",\"sourcetype\":\"_json\",\"host\":\"",
            "\",\"event\":{\"region\":\"",
            "");
    double seconds = send(server, bodies, threads, new double[1]);
    return String.format(
        "the same points as events over HEC: %,.0f points/s, %,.0f events/s (%.1f s)",
        dataset.pointCount() / seconds,
        dataset.pointCount() / (double) dataset.metrics / seconds,
        seconds);
  }

  /**
   * Sends the bodies to HEC /event from {@code threads} senders, each over one keep-alive socket
   * speaking HTTP/1.1 itself (the JDK's client cost the two-core machine as much CPU as the server
   * spent ingesting); returns the seconds taken.
   */
  private static double send(
      QuarryServer server, EnvelopeStream bodies, int threads, double[] senderCpuSeconds)
      throws Exception {
    URI url = URI.create(server.url());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long started = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                try (HttpSocket socket =
                    new HttpSocket(
                        url.getHost(),
                        url.getPort(),
                        "/services/collector/event",
                        "Splunk bench",
                        "application/json")) {
                  byte[] body;
                  while ((body = bodies.next()) != null) {
                    socket.exchange(body);
                  }
                }
                double cpu =
                    java.lang.management.ManagementFactory.getThreadMXBean()
                            .getCurrentThreadCpuTime()
                        / 1e9;
                synchronized (senderCpuSeconds) {
                  senderCpuSeconds[0] += cpu;
                }
                return null;
              }));
    }
    for (Future<?> future : done) {
      future.get();
    }
    pool.shutdown();
    return (System.nanoTime() - started) / 1e9;
  }
}
