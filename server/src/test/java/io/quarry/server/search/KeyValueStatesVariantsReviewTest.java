package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 44): the {@code stats} shapes around the fused key=value path's choice of timed
 * tables or tables of counts alone ({@link KeyStateTables}: timed only where a function reads
 * {@code _time}) answer on a real server, in both layouts, exactly as the page path (the same
 * search with a page stage before {@code stats}): a count alone followed by commands over its
 * answer ({@code where}, {@code sort}, {@code eval}), two counts, a count beside {@code
 * min(_time)}, a time extreme without a count. Lines: keys repeating over several thousand events,
 * some lines without the key, some with two values (the page path's), some past ASCII (the page
 * path's), times spread over hours.
 */
class KeyValueStatesVariantsReviewTest {
  private static final String PASSWORD = "kv-variants-review-pw";
  private static final int LINES = 7_000;

  private static final List<String> FUSED =
      List.of(
          " | stats count by k | where count > 180",
          " | stats count AS n by k | sort - n, k | head 5",
          " | stats count by k | eval twice=count*2",
          " | stats count, count AS c by k",
          " | stats count, min(_time) by k",
          " | stats min(_time) AS first by k",
          " | stats max(_time) AS last, range(_time) AS r by k | where r > 0");

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        FusedScanFixtures.startLoaded(
            dataDirectory,
            PASSWORD,
            LINES,
            i -> {
              int second = (i * 7919) % 36_000; // out of time order, over ten hours
              String time =
                  String.format(
                      "2026-01-02 %02d:%02d:%02d ", second / 3600, second / 60 % 60, second % 60);
              return time
                  + switch (i % 11) {
                    case 3 -> "no key here took=" + i;
                    case 5 -> "k=two" + (i % 5) + " k=values";
                    case 7 -> "caf\u00e9 k=v" + (i % 41);
                    default -> "GET /x?k=v" + (i % 41) + "&y=1";
                  };
            });
  }

  @Test
  void everyVariantIsAggregatedByTheScanInBlocks() throws Exception {
    FusedScanFixtures.assertAggregatedByKeyValue(
        server, FUSED.stream().map(stats -> "index=bl" + stats).toList(), "k");
  }

  @Test
  void everyVariantAnswersAsThePagePath() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      for (String stats : FUSED) {
        List<JsonNode> fused = results("index=" + index + stats);
        assertThat(fused).as(index + stats).isNotEmpty();
        assertThat(fused)
            .as(index + stats)
            .isEqualTo(results("index=" + index + FusedScanFixtures.PAGE_STAGE + stats));
      }
    }
  }

  private static List<JsonNode> results(String search) throws Exception {
    return EventRunSearchTest.results(server, PASSWORD, search);
  }
}
