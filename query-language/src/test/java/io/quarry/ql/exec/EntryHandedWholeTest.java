package io.quarry.ql.exec;

import static io.quarry.ql.exec.EntryGroupedStatsTest.EVERY_FUNCTION;
import static io.quarry.ql.exec.EntryGroupedStatsTest.answer;
import static io.quarry.ql.exec.EntryGroupedStatsTest.assertSameRows;
import static io.quarry.ql.exec.EntryGroupedStatsTest.page;
import static io.quarry.ql.exec.EntryGroupedStatsTest.stats;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code stats … by} one field whose every page refers to one dictionary (a search of one segment,
 * its threads' partials merged by entry): the final aggregation, empty until then, takes the
 * entries' groups whole — their texts as its keys, unhashed, and the partial's states as its own —
 * and answers in the dictionary's order where that is the natural order (a segment's dictionary is
 * sorted by bytes), else sorted as ever ({@code SortedEntries.handWhole}, {@code
 * groupsHandedWhole}). Answers are checked against a hand computation over the rows and against the
 * same rows in plain blocks.
 */
class EntryHandedWholeTest {

  /** A dictionary of {@code texts} sorted by their UTF-8 bytes, as a segment's is. */
  private static BytesBlock sortedDictionary(List<String> texts) {
    byte[][] sorted =
        texts.stream()
            .map(t -> t.getBytes(StandardCharsets.UTF_8))
            .sorted(Arrays::compareUnsigned)
            .toArray(byte[][]::new);
    BytesBlock.Builder builder = BytesBlock.builder(sorted.length);
    for (byte[] text : sorted) {
      builder.append(text);
    }
    return builder.build();
  }

  /** Session ids of the benchmark's shape, capitals and digits. */
  private static List<String> sessionIds(Random random, int count) {
    List<String> ids = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (ids.size() < count) {
      StringBuilder id = new StringBuilder("SD" + random.nextInt(10) + "SL");
      for (int i = 0; i < 8 + random.nextInt(8); i++) {
        id.append("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".charAt(random.nextInt(36)));
      }
      if (seen.add(id.toString())) {
        ids.add(id.toString());
      }
    }
    return ids;
  }

  /** Two partials fed alternate pages of {@code dictionary}, merged into a new final one. */
  private static HashAggregationOperator mergedOverOneDictionary(
      StatsCommand command, MemoryTracker memory, List<Page[]> pages, int form) {
    HashAggregationOperator total = new HashAggregationOperator(command, memory, 64);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    for (int p = 0; p < pages.size(); p++) {
      partials[p % 2].addInput(pages.get(p)[form]);
    }
    total.merge(partials[0]);
    total.merge(partials[1]);
    partials[0].close();
    partials[1].close();
    return total;
  }

  private static List<Page[]> pages(Random random, BytesBlock dictionary) {
    List<Page[]> pages = new ArrayList<>();
    for (int p = 0, row = 0; p < 4 + random.nextInt(6); p++) {
      int count = 1 + random.nextInt(1_000);
      pages.add(page(random, dictionary, count, row));
      row += count;
    }
    return pages;
  }

  /**
   * Per session of the plain pages (column 0 of each), in the natural order of its text as the test
   * computes it: count and range of {@code _time} in seconds.
   */
  private static List<String> byHand(List<Page[]> pages, java.util.Comparator<String> order) {
    Map<String, long[]> sessions = new TreeMap<>(order);
    for (Page[] page : pages) {
      for (Map<String, Object> row : TestPages.rows(List.of(page[0]))) {
        Object session = row.get("session");
        if (session == null) {
          continue;
        }
        long time = ((Number) row.get("_time")).longValue();
        long[] state =
            sessions.computeIfAbsent(
                session.toString(), s -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
        state[0]++;
        state[1] = Math.min(state[1], time);
        state[2] = Math.max(state[2], time);
      }
    }
    List<String> rows = new ArrayList<>();
    sessions.forEach(
        (session, state) ->
            rows.add(session + " count=" + state[0] + " d=" + (state[2] - state[1]) / 1e6));
    return rows;
  }

  private static List<String> asText(List<Map<String, Object>> answer) {
    List<String> rows = new ArrayList<>();
    for (Map<String, Object> row : answer) {
      rows.add(
          row.get("session")
              + " count="
              + row.get("count")
              + " d="
              + ((Number) row.get("d")).doubleValue());
    }
    return rows;
  }

  /**
   * Session ids (capitals and digits: byte order is the natural order): handed whole, answered in
   * the dictionary's order, every function as over plain blocks, count and range as computed here.
   */
  @Test
  void oneSortedDictionaryIsHandedWholeInItsOrder() {
    Random random = new Random(41);
    for (int round = 0; round < 6; round++) {
      BytesBlock dictionary = sortedDictionary(sessionIds(random, 1_500 + round * 700));
      List<Page[]> pages = pages(random, dictionary);
      HashAggregationOperator plain =
          mergedOverOneDictionary(
              stats(EVERY_FUNCTION), MemoryTracker.unbounded("plain"), pages, 0);
      HashAggregationOperator byEntry =
          mergedOverOneDictionary(
              stats(EVERY_FUNCTION), MemoryTracker.unbounded("entries"), pages, 1);
      List<Map<String, Object>> expected = answer(plain);
      List<Map<String, Object>> rows = answer(byEntry);
      assertThat(plain.groupsHandedWhole()).isZero();
      assertThat(byEntry.groupsHandedWhole()).as("round " + round).isEqualTo(expected.size());
      assertSameRows(rows, expected, "round " + round, true);

      HashAggregationOperator ranges =
          mergedOverOneDictionary(
              stats("stats count, range(_time) AS d by session"),
              MemoryTracker.unbounded("ranges"),
              pages,
              1);
      List<String> answered = asText(answer(ranges));
      assertThat(ranges.groupsHandedWhole()).isEqualTo(answered.size());
      assertThat(answered).isEqualTo(byHand(pages, String::compareTo));
    }
  }

  /**
   * A dictionary sorted by bytes whose order is not the answer's: numbers (numerically first),
   * capitals against {@code _} and {@code [}, non-ASCII. Handed whole all the same, and sorted.
   */
  @Test
  void aDictionaryOrderThatIsNotTheAnswersIsSorted() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 1_200; i++) {
      texts.add("z%04d".formatted(i));
    }
    texts.addAll(List.of("10", "9", "-1", "Ab", "ab", "B", "_x", "[y", "ba", "é1", "Z"));
    BytesBlock dictionary = sortedDictionary(texts);
    // numbers first, numerically; then texts folded ("[" 0x5B and "_" 0x5F before letters), a
    // folded tie by the exact bytes ("Ab" before "ab"), a shorter text first ("Z" before "z0000");
    // non-ASCII after
    List<String> natural =
        new ArrayList<>(List.of("-1", "9", "10", "[y", "_x", "Ab", "ab", "B", "ba", "Z"));
    for (int i = 0; i < 1_200; i++) {
      natural.add("z%04d".formatted(i));
    }
    natural.add("é1");
    Random random = new Random(43);
    for (int round = 0; round < 4; round++) {
      List<Page[]> pages = new ArrayList<>();
      for (int p = 0, row = 0; p < 6; p++) {
        Page[] page = page(random, dictionary, 1_000, row);
        pages.add(page);
        row += 1_000;
      }
      HashAggregationOperator total =
          mergedOverOneDictionary(
              stats("stats count, range(_time) AS d by session"),
              MemoryTracker.unbounded("total"),
              pages,
              1);
      List<String> answered = asText(answer(total));
      assertThat(total.groupsHandedWhole()).isEqualTo(answered.size());
      List<String> met =
          byHand(pages, java.util.Comparator.comparingInt(natural::indexOf)); // natural order
      assertThat(answered).isEqualTo(met);
    }
  }

  /**
   * A preview reads the final aggregation while partials are still to come: the groups handed whole
   * then, a later partial of the same dictionary merged by text into those unhashed keys — every
   * session once, as computed here — and the whole charge given back at the end.
   */
  @Test
  void aPreviewHandedWholeThenMoreEntries() {
    Random random = new Random(47);
    BytesBlock dictionary = sortedDictionary(sessionIds(random, 3_000));
    List<Page[]> pages = pages(random, dictionary);
    MemoryAccount account = new MemoryAccount("search", 1L << 30);
    StatsCommand command = stats("stats count, range(_time) AS d by session");
    HashAggregationOperator total =
        new HashAggregationOperator(command, new MemoryTracker(account, "stats"), 64);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    for (int p = 0; p < pages.size(); p++) {
      partials[p % 2].addInput(pages.get(p)[1]);
    }
    total.merge(partials[0]);
    List<String> preview = asText(TestPages.rows(total.snapshot()));
    assertThat(total.groupsHandedWhole()).isEqualTo(preview.size()).isPositive();
    assertThat(account.used()).isPositive();
    total.merge(partials[1]);
    partials[0].close();
    partials[1].close();
    List<String> answered = asText(answer(total));
    assertThat(answered).isEqualTo(byHand(pages, String::compareTo));
    assertThat(account.used()).isZero();
  }

  /**
   * The aggregation holds a few keys before the entries' groups are handed over (a page read before
   * the segment's dictionary was decoded whole, grouped by text): each key found among the entries
   * by a binary search, the other entries added unhashed — every function as over plain blocks fed
   * the same way, {@code list} in the same order; with a key that is no entry too.
   */
  @Test
  void aFewKeysBesideTheEntries() {
    Random random = new Random(53);
    for (int round = 0; round < 6; round++) {
      List<String> ids = sessionIds(random, 2_000 + round * 500);
      BytesBlock dictionary = sortedDictionary(ids);
      List<Page[]> pages = pages(random, dictionary);
      // plain in both forms: keys by text, some sessions of the dictionary, on odd rounds a
      // session that is no entry of it
      List<String> early = new ArrayList<>(ids.subList(0, 40));
      if (round % 2 == 1) {
        early.add("AAA-no-entry");
      }
      Page[] first = page(random, sortedDictionary(early), 60, 0);
      first[1] = first[0];
      pages.add(0, first);
      List<List<Map<String, Object>>> answers = new ArrayList<>();
      long handed = 0;
      for (int form = 0; form < 2; form++) {
        HashAggregationOperator operator =
            new HashAggregationOperator(
                stats(EVERY_FUNCTION), MemoryTracker.unbounded("stats"), 64);
        for (Page[] page : pages) {
          operator.addInput(page[form]);
        }
        answers.add(answer(operator));
        handed = operator.groupsHandedWhole();
      }
      assertThat(handed).as("round " + round).isPositive();
      assertSameRows(answers.get(1), answers.get(0), "round " + round, false);
    }
  }
}
