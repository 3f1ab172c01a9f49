package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A partial grouping by a shared dictionary's entries moves its states in place (a group per entry,
 * {@code InPlaceEntries}) once it has met a quarter of the entries: every function answers as over
 * plain blocks, whether every entry was met (the states handed over as they are) or some were not
 * (gathered into groups numbered from 0), through merges of partials in place and not, previews,
 * and a limit that refuses the move; the memory is given back exactly once.
 */
class InPlaceEntriesTest {
  private static final StatsCommand EVERY_FUNCTION =
      EntryGroupedStatsTest.stats(EntryGroupedStatsTest.EVERY_FUNCTION);

  /** {@code entries} texts, sorted (as a segment's dictionary is). */
  private static BytesBlock dictionary(int entries) {
    BytesBlock.Builder builder = BytesBlock.builder(entries);
    for (int i = 0; i < entries; i++) {
      builder.append("s%05d".formatted(i).getBytes(StandardCharsets.UTF_8));
    }
    return builder.build();
  }

  /** Pages of {@code dictionary}: [plain, by entry] each; {@code rows} rows in all. */
  private static List<Page[]> pages(Random random, BytesBlock dictionary, int rows) {
    List<Page[]> pages = new ArrayList<>();
    for (int row = 0; row < rows; ) {
      int count = Math.min(rows - row, 1 + random.nextInt(1_000));
      pages.add(EntryGroupedStatsTest.page(random, dictionary, count, row));
      row += count;
    }
    return pages;
  }

  /** The answer over one form of the pages, fed to two partials (alternate pages), merged. */
  private static List<Map<String, Object>> answer(
      List<Page[]> pages, int form, MemoryTracker memory, long[] inPlace) {
    HashAggregationOperator total = new HashAggregationOperator(EVERY_FUNCTION, memory, 64);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    for (int p = 0; p < pages.size(); p++) {
      partials[p % 2].addInput(pages.get(p)[form]);
      if (p == pages.size() / 2) {
        assertThat(total.snapshot()).isNotNull(); // a preview meanwhile: nothing handed over yet
      }
    }
    inPlace[0] = total.pagesInPlace(); // counted by the partials, shared with the total
    total.merge(partials[0]);
    total.merge(partials[1]);
    partials[0].close();
    partials[1].close();
    return EntryGroupedStatsTest.answer(total);
  }

  @Test
  void everyFunctionAnswersAsOverPlainBlocksWhetherEveryEntryWasMetOrNot() {
    Random random = new Random(44);
    // 2,000 entries: rows over the first 2,000 / 8 half the time, anywhere the rest, so 4,000
    // rows meet some but not all; 60,000 every one
    for (int rows : new int[] {4_000, 60_000}) {
      for (int round = 0; round < 3; round++) {
        List<Page[]> pages = pages(random, dictionary(2_000), rows);
        long[] inPlace = new long[1];
        List<Map<String, Object>> expected =
            answer(pages, 0, MemoryTracker.unbounded("plain"), inPlace);
        assertThat(inPlace[0]).isZero();
        List<Map<String, Object>> answer =
            answer(pages, 1, MemoryTracker.unbounded("entries"), inPlace);
        assertThat(inPlace[0]).as("pages added in place").isPositive();
        EntryGroupedStatsTest.assertSameRows(answer, expected, rows + " rows", true);
      }
    }
  }

  /**
   * One partial in place, the other not (it met few entries): merged by entry, the one in place
   * gathered first; the answer as over plain blocks.
   */
  @Test
  void aPartialInPlaceMergesWithOneThatIsNot() {
    Random random = new Random(45);
    BytesBlock dictionary = dictionary(4_000);
    List<Page[]> many = pages(random, dictionary, 20_000);
    Page[] few = EntryGroupedStatsTest.page(random, dictionary, 50, 20_000);
    List<List<Map<String, Object>>> answers = new ArrayList<>();
    for (int form = 0; form < 2; form++) {
      HashAggregationOperator total =
          new HashAggregationOperator(EVERY_FUNCTION, MemoryTracker.unbounded("total"), 64);
      HashAggregationOperator inPlace = total.newPartial();
      HashAggregationOperator inOrder = total.newPartial();
      for (Page[] page : many) {
        inPlace.addInput(page[form]);
      }
      long moved = total.pagesInPlace(); // shared by the total and its partials
      assertThat(moved > 0).isEqualTo(form == 1);
      inOrder.addInput(few[form]);
      assertThat(total.pagesInPlace())
          .as("a partial of few entries: none in place")
          .isEqualTo(moved);
      // merged into each other by entry (as a search's threads' partials of a segment are)
      total.merge(inOrder);
      total.merge(inPlace);
      inPlace.close();
      inOrder.close();
      answers.add(EntryGroupedStatsTest.answer(total));
    }
    EntryGroupedStatsTest.assertSameRows(answers.get(1), answers.get(0), "merged", true);
  }

  /**
   * The move is charged before it is made: a limit that holds the groups met but not a state per
   * entry keeps them as met, and the answer is the same; either way everything is given back once.
   */
  @Test
  void aLimitThatRefusesTheMoveKeepsTheGroupsAsMet() {
    Random random = new Random(46);
    StatsCommand command = EntryGroupedStatsTest.stats("stats count, range(_time) AS d by session");
    int entries = 400_000;
    long byEntry = 32L * entries; // count beside range(_time): one 32-byte slot per entry
    BytesBlock dictionary = dictionary(entries);
    // 200,000 rows over the first 400,000 / 8 entries half the time: ~125,000 entries met
    List<Page[]> pages = pages(random, dictionary, 200_000);
    long limit = Long.MAX_VALUE;
    List<List<Map<String, Object>>> answers = new ArrayList<>();
    long[] moved = new long[2];
    for (int run = 0; run < 2; run++) {
      MemoryAccount account = new MemoryAccount("search", limit);
      SearchResources resources = new SearchResources(account, () -> false, w -> {});
      HashAggregationOperator total =
          new HashAggregationOperator(command, resources.tracker("stats"), 1024);
      HashAggregationOperator partial = total.newPartial();
      long before = 0; // what the search held before the page at whose end the states moved
      long previous = 0;
      for (Page[] page : pages) {
        long used = account.used();
        partial.addInput(page[1]);
        if (partial.pagesInPlace() == 1) {
          before = previous; // this page was the first in place: the last one moved them
        }
        previous = used;
      }
      moved[run] = partial.pagesInPlace();
      total.merge(partial);
      partial.close();
      answers.add(EntryGroupedStatsTest.answer(total));
      assertThat(account.used()).as("given back, run " + run).isZero();
      // the second run: room for what was held then and most of the move, not all of it
      limit = before + byEntry * 9 / 10;
    }
    assertThat(moved[0]).as("unlimited: moved").isPositive();
    assertThat(moved[1]).as("limited: kept as met").isZero();
    EntryGroupedStatsTest.assertSameRows(answers.get(1), answers.get(0), "limited", false);
  }
}
