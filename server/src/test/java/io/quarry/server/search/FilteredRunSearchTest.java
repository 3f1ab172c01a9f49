package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filtered scan over block runs ({@code EventPages.appendAdmitted}: each word's letters searched
 * for once over a run's texts lying back to back) against what the lines were made with, and
 * against the event-by-event path (under {@code head}): a word as a whole term in either case, the
 * same letters inside a longer term, a word that only the end of one text and the start of the next
 * would make, a phrase, {@code NOT}, {@code CASE()}, {@code TERM()}, a wildcard, a word with a
 * field comparison; lines past ASCII loaded apart (their blocks go event by event).
 */
class FilteredRunSearchTest {
  private static final String PASSWORD = "filtered-run-pw";
  private static final int LINES = 6_000;
  private static final int KINDS = 8;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  private static final int[] ofKind = new int[KINDS];
  private static final Map<String, Long> rarewordByWho = new TreeMap<>();

  /**
   * Line {@code i}: its kind is {@code i % KINDS}; lines past {@link #LINES} hold a non-ASCII word.
   */
  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600 % 24, i / 60 % 60, i % 60);
    String user = "who=" + (char) ('a' + i % KINDS) + (i % 5);
    String past = i >= LINES ? "café " : "";
    String text =
        switch (i % KINDS) {
          case 0 -> user + " action=login RAREWORD here";
          case 1 -> user + " action=view xRAREWORDx"; // inside a longer term
          case 2 -> user + " action=view the end"; // "end" + the next text's "2026": no END2026
          case 3 -> user + " marker END2026 x";
          case 4 -> user + " action=logout RareWord, said";
          case 5 -> user + " action=login nothing xrareword."; // bounded after, not before
          case 6 -> user + " rare word apart, xrareword-ish then Rareword"; // inside, then whole
          default -> user + " raRewoRD"; // the word last in the text
        };
    return time + past + text;
  }

  private static boolean rareword(int kind) {
    return kind == 0 || kind == 4 || kind == 6 || kind == 7;
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    List<Integer> ascii = new ArrayList<>();
    List<Integer> past = new ArrayList<>();
    for (int i = 0; i < LINES + LINES / 6; i++) {
      (i < LINES ? ascii : past).add(i);
      ofKind[i % KINDS]++;
      if (rareword(i % KINDS)) {
        rarewordByWho.merge("" + (char) ('a' + i % KINDS) + (i % 5), 1L, Long::sum);
      }
    }
    Random random = new Random(33);
    Collections.shuffle(ascii, random);
    Collections.shuffle(past, random);
    TestServers.loadRaw(server, EventRunSearchTest.lines(ascii, FilteredRunSearchTest::line));
    TestServers.loadRaw(server, EventRunSearchTest.lines(past, FilteredRunSearchTest::line));
  }

  private static List<JsonNode> results(String search) throws Exception {
    return EventRunSearchTest.results(server, PASSWORD, search);
  }

  private static long count(String search) throws Exception {
    List<JsonNode> results = results(search);
    assertThat(results).as(search).hasSize(1);
    return results.get(0).get("count").asLong();
  }

  private static long expected(IntPredicate kind) {
    long count = 0;
    for (int k = 0; k < KINDS; k++) {
      count += kind.test(k) ? ofKind[k] : 0;
    }
    return count;
  }

  /** The count of {@code filter} on runs and event by event (under {@code head}), as expected. */
  private static void counts(String filter, IntPredicate kind) throws Exception {
    assertThat(count("search " + filter + " | stats count")).as(filter).isEqualTo(expected(kind));
    assertThat(count("search " + filter + " | head 100000 | stats count"))
        .as(filter + " event by event")
        .isEqualTo(expected(kind));
  }

  @Test
  void aWordIsAWholeTermInEitherCase() throws Exception {
    counts("rareword", FilteredRunSearchTest::rareword);
    counts("RAREWORD", FilteredRunSearchTest::rareword);
  }

  @Test
  void aWordTheTextsMakeOnlyBackToBackMatchesNoEvent() throws Exception {
    counts("end2026", k -> k == 3);
  }

  @Test
  void phrasesNegationsAndDirectives() throws Exception {
    counts("\"rareword here\"", k -> k == 0);
    counts("NOT rareword", k -> !rareword(k));
    counts("CASE(RareWord)", k -> k == 4);
    counts("TERM(xRAREWORDx)", k -> k == 1);
    counts("rare*", FilteredRunSearchTest::rareword);
  }

  @Test
  void wordsWithFieldComparisons() throws Exception {
    counts("rareword OR action=view", k -> rareword(k) || k == 1 || k == 2);
    counts("rareword NOT rare", k -> k == 0 || k == 4 || k == 7);
    counts("rareword who=a*", k -> k == 0);
    counts("rareword NOT action=logout", k -> k == 0 || k == 6 || k == 7);
  }

  @Test
  void aFilteredPlanFillsItsColumnsByRun() throws Exception {
    Map<String, Long> byWho = new TreeMap<>();
    for (JsonNode result : results("search rareword | stats count by who")) {
      byWho.put(result.get("who").asText(), result.get("count").asLong());
    }
    assertThat(byWho).isEqualTo(rarewordByWho);
    assertThat(EventRunSearchTest.byRun(server, PASSWORD, "search rareword | stats count by who"))
        .isPositive();
    assertThat(
            EventRunSearchTest.byRun(
                server, PASSWORD, "search rareword | head 100000 | stats count by who"))
        .isZero();
  }
}
