package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats count by f} and {@code top f} over every event of segments whose every document has
 * an index-time {@code f}: counted from the term index (document frequencies) without reading a
 * document — unless two values differ in case only, when the doc values are counted instead. Either
 * way the answer equals the row path's.
 */
class WholeSegmentCountTest {
  private static final String PASSWORD = "pw";

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        SearchTestServer.start(
            root,
            PASSWORD,
            settings ->
                settings.put(
                    "sourcetypes",
                    java.util.Map.of(
                        "shop",
                        new io.quarry.server.sourcetype.SourcetypeSettings.Builder()
                            .indexExtractions(
                                List.of(
                                    new io.quarry.server.sourcetype.SourcetypeSettings
                                        .IndexExtractionSettings(
                                        "regex",
                                        "^\\S+ user=(?<user>\\w+) status=(?<status>\\d+)")))
                            .fields(java.util.Map.of("user", "keyword", "status", "keyword"))
                            .build())));
    for (int batch = 0; batch < 3; batch++) { // several segments
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 1500; i++) {
        // the second segment has "U1" beside "u1": the same term, so its doc values are counted
        String user = batch == 1 && i % 10 == 1 ? "U1" : "u" + (i % 7);
        lines.append(
            String.format(
                "2026-01-07T1%d:%02d:%02dZ user=%s status=%d%n",
                batch, i / 60 % 60, i % 60, user, i % 4 == 0 ? 404 : 200));
      }
      quarry.loadRaw("shop", lines.toString());
      // each batch its own segment: wait for it to be searchable before the next
      assertThat(search("index=main | stats count")).contains("\"count\":\"" + 1500 * (batch + 1));
    }
  }

  private static String search(String query) throws Exception {
    return quarry.search(query);
  }

  @Test
  void countsFromTheTermIndexEqualTheRowPath() throws Exception {
    for (String aggregation :
        List.of(
            "stats count by user",
            "stats count AS n by status",
            "top limit=3 user",
            "top status")) {
      assertThat(search("index=main | " + aggregation))
          .as(aggregation)
          .isEqualTo(search("index=main | eval x=1 | " + aggregation));
    }
    assertThat(search("index=main | stats count by user"))
        .contains("{\"user\":\"U1\",\"count\":\"150\"}")
        .contains("{\"user\":\"u0\",\"count\":\"623\"}");
  }

  /**
   * A time range holding every event of a bucket is left out of its query (so the term index still
   * counts it); one that cuts a bucket still cuts it.
   */
  @Test
  void aRangeHoldingEveryEventCountsAsNoRange() throws Exception {
    String byUser = " | stats count by user";
    assertThat(search("index=main earliest=0" + byUser)).isEqualTo(search("index=main" + byUser));
    assertThat(search("index=main earliest=0 | stats count")).contains("\"count\":\"4500\"");
    // the second batch's events are the only ones between 11:00 and 12:00
    String hour = "index=main earliest=01/07/2026:11:00:00 latest=01/07/2026:12:00:00";
    assertThat(search(hour + " | stats count")).contains("\"count\":\"1500\"");
    assertThat(search(hour + " status=404 | stats count")).contains("\"count\":\"375\"");
    assertThat(search(hour + byUser)).isEqualTo(search(hour + " | eval x=1" + byUser));
    assertThat(search("index=main earliest=01/07/2026:11:30:00 | stats count"))
        .contains("\"count\":\"1500\""); // the third batch, 12:00-12:24
  }
}
