package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code stats … by} one field whose pages refer to dictionaries shared beyond a page (a scan's
 * segment dictionaries, each position a segment ordinal): the aggregation keeps the groups of a
 * dictionary's entries apart and hands them to its own groups by text when the pages move to
 * another dictionary or it is read or merged ({@code EntryPartial}). The same values in plain
 * blocks are the reference: every function answers the same, fed to one aggregation or to partials
 * merged as a search's threads' are; the dictionaries give the same text different entries (as
 * segments' sorted dictionaries do) and pages switch between them and back.
 */
class EntryGroupedStatsTest {
  static final String EVERY_FUNCTION =
      "stats count, count(n) AS cn, sum(n) AS s, avg(n) AS a, min(n) AS lo, max(n) AS hi,"
          + " range(_time) AS d, dc(n) AS k, values(n) AS vs, var(n) AS v, stdev(n) AS sd,"
          + " median(n) AS med, perc90(n) AS p, mode(n) AS mo, list(n) AS li, first(n) AS fi,"
          + " last(n) AS la, earliest(n) AS e, latest(n) AS l, earliest_time(n) AS et,"
          + " estdc(n) AS ed, sumsq(n) AS sq by session";

  static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  /** Three dictionaries of 1,500 to 3,000 texts, overlapping, each in its own (shuffled) order. */
  private static List<BytesBlock> dictionaries(Random random) {
    List<BytesBlock> dictionaries = new ArrayList<>();
    for (int d = 0; d < 3; d++) {
      List<String> texts = new ArrayList<>();
      int from = d * 700;
      int size = 1_500 + d * 750;
      for (int i = from; i < from + size; i++) {
        texts.add("s%05d".formatted(i));
      }
      Collections.shuffle(texts, random);
      BytesBlock.Builder builder = BytesBlock.builder(texts.size());
      texts.forEach(t -> builder.append(t.getBytes(StandardCharsets.UTF_8)));
      dictionaries.add(builder.build());
    }
    return dictionaries;
  }

  /** A page of {@code count} rows, session an entry of {@code dictionary} (none for one in 8). */
  static Page[] page(Random random, BytesBlock dictionary, int count, int firstRow) {
    List<Map<String, Object>> rows = new ArrayList<>();
    int[] entries = new int[count];
    for (int i = 0; i < count; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("_time", 1_000_000L * (firstRow + i) + random.nextInt(1000));
      // a few hundred entries often, so groups meet many rows; the rest anywhere
      entries[i] =
          random.nextInt(8) == 0
              ? -1
              : random.nextInt(dictionary.positionCount() / (random.nextBoolean() ? 1 : 8));
      if (entries[i] >= 0) {
        row.put("session", dictionary.getString(entries[i]));
      }
      if (random.nextInt(10) != 0) {
        row.put("n", (long) random.nextInt(50) - 10);
      }
      rows.add(row);
    }
    Page plain = TestPages.page(TestPages.cells(rows), List.of("_time", "session", "n"));
    BytesBlock.OrdinalBuilder ordinals = BytesBlock.ordinalBuilder(dictionary, count);
    for (int entry : entries) {
      if (entry < 0) {
        ordinals.appendNull();
      } else {
        ordinals.appendOrdinal(entry);
      }
    }
    return new Page[] {plain, plain.withColumn("session", ordinals.build())};
  }

  /** Pages in runs of one dictionary, then another, and back: [plain, by entry] per page. */
  private static List<Page[]> pages(Random random) {
    List<BytesBlock> dictionaries = dictionaries(random);
    List<Page[]> pages = new ArrayList<>();
    int row = 0;
    for (int run = 0; run < 6; run++) {
      BytesBlock dictionary = dictionaries.get(random.nextInt(dictionaries.size()));
      for (int p = 0; p < 1 + random.nextInt(4); p++) {
        int count = 1 + random.nextInt(random.nextBoolean() ? 40 : 1_000);
        pages.add(page(random, dictionary, count, row));
        row += count;
      }
    }
    return pages;
  }

  static List<Map<String, Object>> answer(HashAggregationOperator operator) {
    operator.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      out.add(page);
    }
    operator.close();
    return TestPages.rows(out);
  }

  /**
   * The variance family (its sum of squares too): merged from states, as a search's threads'
   * partials are, in other rounding.
   */
  private static final List<String> MERGED_IN_OTHER_ROUNDING = List.of("v", "sd", "sq");

  /**
   * Row by row, so a failure names the first group that differs; exactly, but for a variance's last
   * digits.
   */
  private static void assertSameRows(
      List<Map<String, Object>> answer, List<Map<String, Object>> expected, String what) {
    assertSameRows(answer, expected, what, false);
  }

  /**
   * As {@link #assertSameRows(List, List, String)}; {@code listInAnyOrder}: a {@code list}'s values
   * compared in any order — partials merged in another order (as a search's threads' partials are,
   * in no set order) append their values in that order.
   */
  static void assertSameRows(
      List<Map<String, Object>> answer,
      List<Map<String, Object>> expected,
      String what,
      boolean listInAnyOrder) {
    for (int row = 0; row < Math.min(answer.size(), expected.size()); row++) {
      Map<String, Object> exact = new LinkedHashMap<>(answer.get(row));
      Map<String, Object> exactExpected = new LinkedHashMap<>(expected.get(row));
      if (listInAnyOrder && exactExpected.get("li") instanceof List<?> values) {
        assertThat((List<Object>) List.copyOf((List<?>) exact.remove("li")))
            .as(what + ", row " + row + ", li")
            .containsExactlyInAnyOrderElementsOf(List.copyOf(values));
        exactExpected.remove("li");
      }
      for (String column : MERGED_IN_OTHER_ROUNDING) {
        Object value = exact.remove(column);
        Object expectedValue = exactExpected.remove(column);
        if (expectedValue instanceof Double number) {
          assertThat((Double) value)
              .as(what + ", row " + row + ", " + column)
              .isCloseTo(number, org.assertj.core.api.Assertions.withinPercentage(1e-9));
        } else {
          assertThat(value).as(what + ", row " + row + ", " + column).isEqualTo(expectedValue);
        }
      }
      assertThat(exact).as(what + ", row " + row).isEqualTo(exactExpected);
    }
    assertThat(answer).as(what).hasSameSizeAs(expected);
  }

  @Test
  void everyFunctionAnswersAsOverPlainBlocks() {
    Random random = new Random(21);
    StatsCommand command = stats(EVERY_FUNCTION);
    for (int round = 0; round < 12; round++) {
      List<Page[]> pages = pages(random);
      HashAggregationOperator plain =
          new HashAggregationOperator(command, MemoryTracker.unbounded("plain"), 64);
      HashAggregationOperator byEntry =
          new HashAggregationOperator(command, MemoryTracker.unbounded("entries"), 64);
      for (Page[] page : pages) {
        plain.addInput(page[0]);
        byEntry.addInput(page[1]);
      }
      assertThat(plain.groupsByEntry()).isZero();
      List<Map<String, Object>> expected = answer(plain);
      assertThat(byEntry.groupCount()).isEqualTo(expected.size()); // read before finished
      assertThat(byEntry.groupsByEntry()).as("round " + round).isPositive();
      assertSameRows(answer(byEntry), expected, "round " + round);
    }
  }

  /**
   * Two partials, each fed every other run of pages (a search's threads), merged into a final one,
   * one partial while it still holds entries' groups (a preview's merge), then both at the end.
   */
  @Test
  void partialsMergedAnswerAsOverPlainBlocks() {
    Random random = new Random(22);
    StatsCommand command = stats(EVERY_FUNCTION);
    for (int round = 0; round < 12; round++) {
      List<Page[]> pages = pages(random);
      List<List<Map<String, Object>>> answers = new ArrayList<>();
      for (int form = 0; form < 2; form++) {
        HashAggregationOperator total =
            new HashAggregationOperator(command, MemoryTracker.unbounded("total"), 64);
        HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
        for (int p = 0; p < pages.size(); p++) {
          partials[p * 2 < pages.size() ? 0 : 1].addInput(pages.get(p)[form]);
          if (p == pages.size() / 4) {
            total.merge(partials[0]);
          }
        }
        total.merge(partials[1]);
        total.merge(partials[0]);
        partials[0].close();
        partials[1].close();
        answers.add(answer(total));
      }
      assertSameRows(answers.get(1), answers.get(0), "round " + round, true);
    }
  }

  /**
   * Two partials fed alternate pages of one dictionary (a segment's slices on two threads): merged
   * by entry, so every group's key is looked up once, at the end — and the answer is as over plain
   * blocks fed the same way.
   */
  @Test
  void partialsOfOneDictionaryMergeByEntry() {
    Random random = new Random(25);
    StatsCommand command = stats(EVERY_FUNCTION);
    for (int round = 0; round < 8; round++) {
      BytesBlock dictionary = dictionaries(random).get(round % 3);
      List<Page[]> pages = new ArrayList<>();
      for (int p = 0, row = 0; p < 2 + random.nextInt(6); p++) {
        int count = 1 + random.nextInt(1_000);
        pages.add(page(random, dictionary, count, row));
        row += count;
      }
      List<List<Map<String, Object>>> answers = new ArrayList<>();
      long handedOver = 0;
      for (int form = 0; form < 2; form++) {
        HashAggregationOperator total =
            new HashAggregationOperator(command, MemoryTracker.unbounded("total"), 64);
        HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
        for (int p = 0; p < pages.size(); p++) {
          partials[p % 2].addInput(pages.get(p)[form]);
        }
        total.merge(partials[0]);
        total.merge(partials[1]);
        partials[0].close();
        partials[1].close();
        answers.add(answer(total));
        handedOver = total.groupsByEntry();
      }
      assertSameRows(answers.get(1), answers.get(0), "round " + round, true);
      assertThat(handedOver).as("round " + round).isEqualTo(answers.get(0).size());
    }
  }

  /**
   * While an aggregation holds a dictionary's groups, the dictionary and an int per entry are
   * charged to the search's memory (the scan may let the dictionary go first); once handed over and
   * closed, nothing is.
   */
  @Test
  void theHeldDictionaryIsChargedUntilHandedOver() {
    Random random = new Random(23);
    BytesBlock dictionary = dictionaries(random).get(2);
    MemoryAccount account = new MemoryAccount("search", 1L << 30);
    MemoryTracker memory = new MemoryTracker(account, "stats");
    HashAggregationOperator operator =
        new HashAggregationOperator(stats("stats count by session"), memory, 64);
    operator.addInput(page(random, dictionary, 100, 0)[1]);
    assertThat(account.used())
        .isGreaterThanOrEqualTo(dictionary.ramBytesUsed() + 4L * dictionary.positionCount());
    assertThat(answer(operator)).isNotEmpty();
    assertThat(account.used()).isZero();
  }

  /**
   * A dictionary the scan holds already (a search's segment dictionary block, held as shared) is
   * charged once however many partials hold it: under a limit that fits it once but not twice
   * besides the partials' maps, both partials still group by entry (before, each partial charged it
   * again, so the second was refused and grouped by text); once the scan lets it go and the
   * partials are merged, answered and closed, nothing is charged.
   */
  @Test
  void aDictionaryTheScanHoldsIsChargedOncePerSearch() {
    BytesBlock.Builder builder = BytesBlock.builder(100_000);
    for (int i = 0; i < 100_000; i++) {
      builder.append("session-%034d".formatted(i).getBytes(StandardCharsets.UTF_8));
    }
    BytesBlock dictionary = builder.build();
    long block = dictionary.ramBytesUsed();
    long maps = 4L * dictionary.positionCount(); // a partial's entry → group map
    MemoryAccount account = new MemoryAccount("search", block + block / 2);
    account.reserveShared(dictionary, block, "scan"); // the scan's slices hold the block
    HashAggregationOperator total =
        new HashAggregationOperator(
            stats("stats count by session"), new MemoryTracker(account, "stats"), 64);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    Random random = new Random(26);
    for (int p = 0; p < 4; p++) {
      partials[p % 2].addInput(page(random, dictionary, 1_000, p * 1_000)[1]);
    }
    assertThat(block + 2 * maps).isLessThan(account.limit());
    assertThat(2 * block).isGreaterThan(account.limit()); // charged twice, it would not fit
    account.releaseShared(dictionary, block); // the scan moved on; the partials still hold it
    assertThat(account.used()).isGreaterThanOrEqualTo(block);
    total.merge(partials[0]);
    total.merge(partials[1]);
    partials[0].close();
    partials[1].close();
    List<Map<String, Object>> rows = answer(total);
    assertThat(rows).isNotEmpty();
    assertThat(total.groupsByEntry()).isEqualTo(rows.size());
    assertThat(account.used()).isZero();
  }

  /** A dictionary of no more entries than a page holds: grouped by text per page, as before. */
  @Test
  void aSmallDictionaryIsNotGroupedByEntry() {
    Random random = new Random(24);
    BytesBlock.Builder builder = BytesBlock.builder(1_000);
    for (int i = 0; i < 1_000; i++) {
      builder.append("t%04d".formatted(i).getBytes(StandardCharsets.UTF_8));
    }
    BytesBlock small = builder.build();
    HashAggregationOperator operator =
        new HashAggregationOperator(
            stats("stats count by session"), MemoryTracker.unbounded("stats"), 64);
    HashAggregationOperator plain =
        new HashAggregationOperator(
            stats("stats count by session"), MemoryTracker.unbounded("stats"), 64);
    for (int p = 0; p < 3; p++) {
      Page[] page = page(random, small, 10, p * 10);
      operator.addInput(page[1]);
      plain.addInput(page[0]);
    }
    assertThat(operator.groupsByEntry()).isZero();
    assertThat(answer(operator)).isEqualTo(answer(plain));
  }
}
