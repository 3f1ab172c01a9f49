package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats range(_time), count}: no column reads the texts, so each block's times are read from
 * its journal block's first bytes ({@code PrefixTimes}) and no journal block is decoded whole, as
 * the job reports it ({@code scan.journalPrefixBlocks}, {@code scan.journalBlocks}). Events of ~300
 * bytes: each block document (1000 events) is past a journal block's 128 KiB, so it is its journal
 * block's only document, the case a prefix read is taken for.
 */
class PrefixTimesSearchTest {
  private static final String PASSWORD = "prefix-times-pw";
  private static final int LINES = 6_000;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(root.resolve("data"), PASSWORD);
    StringBuilder events = new StringBuilder();
    String padding = "x".repeat(260);
    for (int i = 0; i < LINES; i++) {
      // z2 only in the first half; the second half's i % 3 == 2 are z0
      String zone = i % 3 == 2 && i >= LINES / 2 ? "z0" : "z" + i % 3;
      events.append(
          String.format(
              "{\"time\":%d,\"event\":\"event %d msg=%s\",\"fields\":{\"zone\":\"%s\"}}%n",
              1_767_225_600L + i, i, padding, zone));
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
  }

  @Test
  void theTimesOfEveryBlockAreReadByPrefix() throws Exception {
    JsonNode scan =
        PrefixThenWholeDecodeTest.scan(
            server, PASSWORD, "search index=main | stats range(_time) AS span, count");
    assertThat(scan.get("rows").asText()).isEqualTo("{\"span\":\"5999\",\"count\":\"6000\"}");
    assertThat(scan.get("journalPrefixBlocks").asLong()).as(scan.toString()).isEqualTo(6);
    assertThat(scan.get("journalBlocks").asLong()).as(scan.toString()).isZero();
  }

  /**
   * An index-time field every event has ({@code zone}) beside {@code _time}: its values come from
   * each block's ordinals in doc values, its times by prefix, every event by run and no journal
   * block decoded whole. Expected by hand: z1 is i ≡ 1 (mod 3), 1..5998; z2 is i ≡ 2 below 3000,
   * 2..2999; z0 is i ≡ 0, 0..5997, and i ≡ 2 from 3000, 3002..5999.
   */
  @Test
  void anIndexTimeFieldOfEveryEventReadsNoText() throws Exception {
    JsonNode scan =
        PrefixThenWholeDecodeTest.scan(
            server, PASSWORD, "search index=main | stats range(_time) AS span, count by zone");
    assertThat(scan.get("rows").asText())
        .isEqualTo(
            "{\"zone\":\"z0\",\"span\":\"5999\",\"count\":\"3000\"};"
                + "{\"zone\":\"z1\",\"span\":\"5997\",\"count\":\"2000\"};"
                + "{\"zone\":\"z2\",\"span\":\"2997\",\"count\":\"1000\"}");
    assertThat(scan.get("journalPrefixBlocks").asLong()).as(scan.toString()).isEqualTo(6);
    assertThat(scan.get("journalBlocks").asLong()).as(scan.toString()).isZero();
    assertThat(scan.get("eventsByRun").asLong()).as(scan.toString()).isEqualTo(LINES);
  }

  /** With the texts read, the same blocks are decoded whole and none by prefix. */
  @Test
  void readingTheTextsDecodesEveryBlockWhole() throws Exception {
    JsonNode scan =
        PrefixThenWholeDecodeTest.scan(
            server, PASSWORD, "search index=main | stats range(_time) AS span, dc(_raw) AS texts");
    assertThat(scan.get("rows").asText()).isEqualTo("{\"span\":\"5999\",\"texts\":\"6000\"}");
    assertThat(scan.get("journalPrefixBlocks").asLong()).as(scan.toString()).isZero();
    assertThat(scan.get("journalBlocks").asLong()).as(scan.toString()).isEqualTo(6);
  }
}
