package io.quarry.benchmarks;

import io.quarry.codecs.store.EventStore;
import io.quarry.server.config.HecToken;
import io.quarry.server.hec.HecEventParser;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The writing thread's CPU per event of {@code /services/collector/event} after the HTTP layer:
 * each body of JSON envelopes ({@code {"time":…,"event":"<line>","fields":{"region":…}}}) parsed
 * ({@link HecEventParser}) and stored ({@link IngestService#write}). With {@code quotes} the lines
 * keep their double quotes, escaped in the JSON (the decoded-text path); without, they become
 * single quotes (ASCII without escapes: the body's bytes path). Several rounds into fresh stores;
 * read the least of rounds 2 on.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.quarry.benchmarks.HecEventCpu access.log [eventsPerRequest] [rounds] [quotes]
 * </pre>
 */
public final class HecEventCpu {
  private HecEventCpu() {}

  public static void main(String[] args) throws IOException {
    Path log = Path.of(args[0]);
    int perRequest = args.length > 1 ? Integer.parseInt(args[1]) : 16_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    boolean quotes = args.length > 3 && Boolean.parseBoolean(args[3]);
    List<byte[]> bodies = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    int events = 0;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String text =
          quotes ? line.replace("\\", "\\\\").replace("\"", "\\\"") : line.replace('"', '\'');
      body.append("{\"time\":")
          .append(1_700_000_000 + events % 86_400)
          .append(",\"event\":\"")
          .append(text)
          .append("\",\"fields\":{\"region\":\"r")
          .append(events % 7)
          .append("\"}}\n");
      if (++events % perRequest == 0) {
        bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
        body.setLength(0);
      }
    }
    if (body.length() > 0) {
      bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    HecToken token = new HecToken("t", "t", "main", List.of("main"), null);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] thread = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      Path directory = Files.createTempDirectory("quarry-hec-event-cpu");
      long thread0 = threads.getCurrentThreadCpuTime();
      long wall0 = System.nanoTime();
      try (EventStore store = EventStore.open(directory, List.of("main"))) {
        IngestService ingest =
            new IngestService(
                store, new ServerMetrics(), Sourcetypes.builtIn(), new IngestGate(1, 1 << 30));
        for (byte[] request : bodies) {
          HecEventParser.Result result =
              new HecEventParser(token, ingest, "bench", Instant.now()).parse(request);
          if (result.error().isPresent()) {
            throw new IllegalStateException(result.error().get().getMessage());
          }
          ingest.write(result.events());
        }
        thread[round] = (threads.getCurrentThreadCpuTime() - thread0) / 1e3 / events;
      }
      System.out.printf(
          "round %d: %,d events, writing thread %.2f µs of CPU per event, wall %.1f s%n",
          round + 1, events, thread[round], (System.nanoTime() - wall0) / 1e9);
      org.apache.lucene.util.IOUtils.rm(directory);
    }
    IngestCpu.printSettled(thread);
  }
}
