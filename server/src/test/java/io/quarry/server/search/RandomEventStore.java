package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.EnvelopeBuilder;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the event-listing tests search: a real server over {@link #EVENTS} random events ({@link
 * #loadRandomEvents}) — more than a page, with index-time fields or not (some multivalued),
 * key=value text naming fields other events hold at index time, JSON objects — whose texts the
 * tests keep to compute answers from, and the {@code regions.csv} lookup over their regions;
 * started once for a test class ({@code @RegisterExtension static}) in a directory of its own, and
 * closed after it.
 */
final class RandomEventStore
    implements org.junit.jupiter.api.extension.BeforeAllCallback,
        org.junit.jupiter.api.extension.AfterAllCallback {
  /** Events {@link #loadRandomEvents} sends: more than two pages. */
  static final int EVENTS = 2_600;

  /**
   * Sends {@link #EVENTS} random events drawn from {@code seed} over HEC; answers their texts, the
   * {@code n}th event's at {@code n} (its time the base plus {@code n} seconds).
   */
  static List<String> loadRandomEvents(QuarryServer server, long seed) throws Exception {
    Random random = new Random(seed);
    List<String> texts = new ArrayList<>(EVENTS);
    EnvelopeBuilder envelopes = new EnvelopeBuilder();
    for (int i = 0; i < EVENTS; i++) {
      String event =
          i % 13 == 0
              ? "{\"n\": " + i + ", \"status\": " + (200 + random.nextInt(3)) + "}"
              : "level="
                  + (random.nextBoolean() ? "INFO" : "WARN")
                  + " n="
                  + i
                  + (random.nextInt(5) == 0 ? " region=kv" + random.nextInt(3) : "")
                  + (random.nextInt(9) == 0 ? " team=t1 team=t2" : "");
      texts.add(event);
      String fields =
          switch (random.nextInt(12)) {
            case 0 -> ",\"fields\":{\"region\":\"eu\"}";
            case 1 -> ",\"fields\":{\"team\":[\"a\",\"b\"],\"region\":\"us\"}";
            case 2 -> ",\"fields\":{\"region\":\"us\",\"zone\":\"z" + random.nextInt(2) + "\"}";
            default -> "";
          };
      envelopes.add(i, random.nextInt(3), event, fields);
    }
    TestServers.postEvents(server, TestServers.TOKEN, envelopes.body());
    return List.copyOf(texts);
  }

  /** Uploads {@code regions.csv}: two rows for kv1, empty values, and none for us or kv2. */
  static void uploadRegions(QuarryServer server, String password) throws Exception {
    HttpResponse<String> uploaded =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/lookups/regions.csv"))
                    .header("Authorization", TestServers.basic(password))
                    .PUT(
                        HttpRequest.BodyPublishers.ofString(
                            "region,label,zone\neu,Europe,z9\nkv0,zero,\nkv1,one,z1\nkv1,uno,\n"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(uploaded.statusCode()).as(uploaded.body()).isLessThan(300);
  }

  private final String password;
  // -Dquarry.pages.events.seed=S: the events of an earlier run (a census's before and after)
  private final long seed =
      Long.getLong("quarry.pages.events.seed", new java.util.Random().nextLong());
  private java.nio.file.Path directory;
  private QuarryServer server;
  private List<String> texts;

  RandomEventStore(String password) {
    this.password = password;
  }

  @Override
  public void beforeAll(org.junit.jupiter.api.extension.ExtensionContext context) throws Exception {
    directory = java.nio.file.Files.createTempDirectory("engine-pages");
    // -Dquarry.pages.events.compactionIdleMillis=T: the bucket compacted once idle for T ms
    // (however few its bytes), its segments swapped for a compact one while the class searches
    Long compactionIdle = Long.getLong("quarry.pages.events.compactionIdleMillis");
    server =
        compactionIdle == null
            ? TestServers.start(directory, password)
            : TestServers.start(
                directory,
                password,
                settings ->
                    settings
                        .put("storage.compaction.idleMillis", compactionIdle)
                        .put("storage.compaction.idleMinBytes", 1L));
    texts = loadRandomEvents(server, seed);
    uploadRegions(server, password);
  }

  @Override
  public void afterAll(org.junit.jupiter.api.extension.ExtensionContext context) throws Exception {
    try {
      server.close();
    } finally {
      org.apache.lucene.util.IOUtils.rm(directory);
    }
  }

  QuarryServer server() {
    return server;
  }

  /** The events' texts as sent, the {@code n}th at {@code n}: what hand-computed answers read. */
  List<String> texts() {
    return texts;
  }

  /** The seed of the events, for a failure's message. */
  long seed() {
    return seed;
  }

  String password() {
    return password;
  }
}
