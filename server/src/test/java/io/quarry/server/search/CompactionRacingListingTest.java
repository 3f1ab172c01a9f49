package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.IndexSummary;
import io.quarry.client.QuarryClient;
import io.quarry.server.EnvelopeBuilder;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.util.IOUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every-field listings over plugin commands and wildcard renames ({@code PluginOverEventsTest}'s,
 * issue 21's flake) answer each event's {@code region} — its index-time value where it has one,
 * else its text's {@code region=kv<k>} — in every search, while the hot bucket's compaction swaps
 * its fast segments for a compact one under them: a real server whose bucket is compacted as soon
 * as it is idle for 200 ms, its events sent in several requests (several fast segments), searched
 * again and again from before the compaction starts until after it ended. The expected value of
 * each event is worked out from the events as sent, not read from Quarry.
 *
 * <p>{@code -Dquarry.compaction.race.seeds=N} hunts N seeds in a row (one by default, a random one
 * unless {@code -Dquarry.compaction.race.seed=S}), {@code -Dquarry.compaction.race.rounds=R}
 * searches R rounds at least (within 60 + 15 R s), {@code -Dquarry.compaction.race.idleMillis=T}
 * compacts after T ms idle (an hour: segments that stay fast); a failure names its seed.
 */
class CompactionRacingListingTest {
  private static final int EVENTS = 2_600;

  private static final int REQUESTS = 4;

  /**
   * Searches whose every row of an event holds the event's text and its region under the field
   * named second (none where it has none): rows listing every field they can yield (a wildcard
   * rename's, a plugin command's reading every field), a column named by {@code table}. Not the
   * plain {@code * | mvexpand team}: its row lists its default, index-time and overlaid fields, and
   * a search-time value shows only in a column some row of its page lists ({@link #LISTED}).
   */
  private static final List<String[]> SEARCHES =
      List.of(
          new String[] {"* | rename re* AS x* | mvexpand team", "xgion"},
          new String[] {"* | mvexpand team | rename re* AS x*", "xgion"},
          new String[] {"* | rename re* AS x* | fillnull value=none", "xgion"},
          new String[] {"* | fillnull value=none", "region"},
          new String[] {"* | mvexpand team | table _raw team region", "region"},
          new String[] {"* | table _raw region", "region"});

  /**
   * The plain listing: each row's index-time region, and a search-time one only where its page has
   * the column (issue 21: PluginOverEventsTest compared it as if every row showed it).
   */
  private static final String LISTED = "* | mvexpand team";

  @ParameterizedTest
  @ValueSource(strings = {"blocks", "events"})
  void everySearchReadsEachEventsRegionWhileTheCompactionSwapsSegments(String format)
      throws Exception {
    long first = Long.getLong("quarry.compaction.race.seed", new Random().nextLong());
    int seeds = Integer.getInteger("quarry.compaction.race.seeds", 1);
    for (int s = 0; s < seeds; s++) {
      long seed = first + s;
      race(format, seed, format + " events seed " + seed + " (-Dquarry.compaction.race.seed)");
    }
  }

  private static void race(String format, long seed, String as) throws Exception {
    Path directory = Files.createTempDirectory("compaction-race");
    try (QuarryServer server =
        TestServers.start(
            directory,
            "pw",
            settings ->
                settings
                    .put("storage.format", format)
                    .put(
                        "storage.compaction.idleMillis",
                        Long.getLong("quarry.compaction.race.idleMillis", 200L))
                    .put("storage.compaction.idleMinBytes", 1L))) {
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      Map<String, String> regions = load(server, seed);
      int least = Integer.getInteger("quarry.compaction.race.rounds", 0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + 15L * least);
      int after = 0; // rounds of searches once the compaction ended
      int rounds = 0;
      for (; (after < 2 || rounds < least) && System.nanoTime() < deadline; rounds++) {
        IndexSummary main = main(client);
        if (main.compactions() > 0 && !main.compacting()) {
          after++;
        }
        assertRegions(
            EnginePages.rows(server, LISTED), "region", regions, as + ": " + LISTED, false);
        for (String[] search : SEARCHES) {
          assertRegions(
              EnginePages.rows(server, search[0]),
              search[1],
              regions,
              as + ", round " + rounds + ": " + search[0],
              true);
        }
        List<String> renamed = EnginePages.rows(server, SEARCHES.get(0)[0]);
        List<String> plain = EnginePages.rows(server, SEARCHES.get(4)[0]);
        assertThat(EnginePages.cells(renamed, "xgion"))
            .as(as + ", round " + rounds)
            .containsExactlyInAnyOrderElementsOf(EnginePages.cells(plain, "region"));
      }
      assertThat(after)
          .as(as + ": the compaction ended, %s", main(client))
          .isGreaterThanOrEqualTo(2);
    } finally {
      IOUtils.rm(directory);
    }
  }

  /**
   * Sends {@link #EVENTS} events of {@code seed} (those of {@link EnginePages#loadRandomEvents}'
   * kinds) in {@link #REQUESTS} requests, a search after each (a segment each); answers each
   * event's region by its {@code n}: the index-time value, else the text's, else none (absent).
   */
  private static Map<String, String> load(QuarryServer server, long seed) throws Exception {
    Random random = new Random(seed);
    Map<String, String> regions = new HashMap<>();
    int perRequest = EVENTS / REQUESTS;
    for (int request = 0; request < REQUESTS; request++) {
      EnvelopeBuilder envelopes = new EnvelopeBuilder();
      for (int i = request * perRequest; i < (request + 1) * perRequest; i++) {
        String textRegion = null;
        String event;
        if (i % 13 == 0) {
          event = "{\"n\": " + i + ", \"status\": " + (200 + random.nextInt(3)) + "}";
        } else {
          // drawn in loadRandomEvents' order: a seed gives the events PluginOverEventsTest's does
          String level = random.nextBoolean() ? "INFO" : "WARN";
          textRegion = random.nextInt(5) == 0 ? "kv" + random.nextInt(3) : null;
          event =
              "level="
                  + level
                  + " n="
                  + i
                  + (textRegion != null ? " region=" + textRegion : "")
                  + (random.nextInt(9) == 0 ? " team=t1 team=t2" : "");
        }
        String indexed = null;
        String fields =
            switch (random.nextInt(12)) {
              case 0 -> {
                indexed = "eu";
                yield ",\"fields\":{\"region\":\"eu\"}";
              }
              case 1 -> {
                indexed = "us";
                yield ",\"fields\":{\"team\":[\"a\",\"b\"],\"region\":\"us\"}";
              }
              case 2 -> {
                indexed = "us";
                yield ",\"fields\":{\"region\":\"us\",\"zone\":\"z" + random.nextInt(2) + "\"}";
              }
              default -> "";
            };
        String region = indexed != null ? indexed : textRegion;
        if (region != null) {
          regions.put(Integer.toString(i), region);
        }
        envelopes.add(i, random.nextInt(3), event, fields);
      }
      TestServers.postEvents(server, TestServers.TOKEN, envelopes.body());
      assertThat(EnginePages.rows(server, "* | stats count")).hasSize(1); // a segment
    }
    return regions;
  }

  /** The event's {@code n} in its text: {@code n=<i>}, or JSON's {@code "n": <i>}. */
  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("\\bn(?:=|\": )(\\d+)");

  /**
   * Every row of an event holds its region under {@code field} ("none" for fillnull's); unless
   * {@code every}, a region only its text gives may be missing (not another value).
   */
  private static void assertRegions(
      List<String> rows, String field, Map<String, String> regions, String as, boolean every) {
    List<String> wrong = new ArrayList<>();
    int events = 0;
    for (String row : rows) {
      Map<String, String> cells = cells(row);
      java.util.regex.Matcher number = NUMBER.matcher(cells.getOrDefault("_raw", ""));
      if (!number.find()) {
        continue;
      }
      String n = number.group(1);
      events++;
      String region = cells.get(field);
      String expected = regions.get(n);
      boolean right =
          expected == null
              ? region == null || region.equals("none")
              : expected.equals(region) || region == null && !every && expected.startsWith("kv");
      if (!right) {
        wrong.add(
            "n=" + n + ": " + field + "=" + region + ", expected " + expected + ", row " + cells);
      }
    }
    assertThat(events).as(as).isGreaterThanOrEqualTo(EVENTS);
    assertThat(wrong).as(as).isEmpty();
  }

  /** A row's cells by name, each value as {@link EnginePages#cells} writes it. */
  private static Map<String, String> cells(String row) {
    Map<String, String> cells = new HashMap<>();
    for (String cell : row.split("\u0001")) {
      int colon = cell.indexOf(':');
      if (colon > 0) {
        String name = cell.substring(0, colon);
        cells.put(name, EnginePages.cells(List.of(cell), name).getFirst());
      }
    }
    return cells;
  }

  private static IndexSummary main(QuarryClient client) throws Exception {
    return client.indexes().stream()
        .filter(index -> index.name().equals("main"))
        .findFirst()
        .orElseThrow();
  }
}
