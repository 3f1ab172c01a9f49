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
 * Review b40: states in place (InPlaceEntries) through previews that merge partials mid-run (the
 * partials then go on), several sorted dictionaries (segments) in runs and back, plain pages
 * between (keys held: the hand-over by lookup or beside), a search account that must end at 0.
 */
class InPlaceReviewB40Test {
  private static BytesBlock dictionary(int from, int entries) {
    BytesBlock.Builder builder = BytesBlock.builder(entries);
    for (int i = from; i < from + entries; i++) {
      builder.append("s%05d".formatted(i).getBytes(StandardCharsets.UTF_8));
    }
    return builder.build();
  }

  private record Step(int partial, Page[] page, boolean preview) {}

  private static List<Step> steps(Random random) {
    List<BytesBlock> dictionaries =
        List.of(dictionary(0, 1_500), dictionary(600, 2_500), dictionary(100, 1_100));
    List<Step> steps = new ArrayList<>();
    int row = 0;
    for (int run = 0; run < 8; run++) {
      BytesBlock dictionary = dictionaries.get(random.nextInt(dictionaries.size()));
      int pages = 2 + random.nextInt(8);
      for (int p = 0; p < pages; p++) {
        int count = 1 + random.nextInt(random.nextBoolean() ? 50 : 1_000);
        Page[] page = EntryGroupedStatsTest.page(random, dictionary, count, row);
        if (random.nextInt(6) == 0) {
          page = new Page[] {page[0], page[0]}; // a plain page among them
        }
        steps.add(new Step(random.nextInt(2), page, random.nextInt(5) == 0));
        row += count;
      }
    }
    return steps;
  }

  private static List<Map<String, Object>> answer(
      StatsCommand command, List<Step> steps, int form, MemoryAccount account, long[] inPlace) {
    SearchResources resources = new SearchResources(account, () -> false, w -> {});
    HashAggregationOperator total =
        new HashAggregationOperator(command, resources.tracker("stats"), 64);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    for (Step step : steps) {
      partials[step.partial()].addInput(step.page()[form]);
      inPlace[0] += partials[step.partial()].pagesInPlace() > 0 ? 1 : 0;
      if (step.preview()) {
        // a preview: the partials merged into the final one, which answers; the partials go on
        total.merge(partials[0]);
        total.merge(partials[1]);
        assertThat(total.snapshot()).isNotNull();
      }
    }
    total.merge(partials[0]);
    total.merge(partials[1]);
    partials[0].close();
    partials[1].close();
    return EntryGroupedStatsTest.answer(total);
  }

  @Test
  void inPlaceThroughPreviewsDictionariesAndPlainPages() {
    for (String stats :
        List.of(
            EntryGroupedStatsTest.EVERY_FUNCTION,
            "stats count, range(_time) AS d by session",
            "stats range(n) AS r, count, max(n) AS hi, count(n) AS cn by session",
            "stats avg(n) AS a, count by session")) {
      StatsCommand command = EntryGroupedStatsTest.stats(stats);
      Random random = new Random(4040);
      for (int round = 0; round < 8; round++) {
        List<Step> steps = steps(random);
        long[] inPlace = new long[1];
        MemoryAccount plainAccount = new MemoryAccount("plain", Long.MAX_VALUE);
        List<Map<String, Object>> expected = answer(command, steps, 0, plainAccount, inPlace);
        assertThat(plainAccount.used()).as("plain given back").isZero();
        inPlace[0] = 0;
        MemoryAccount account = new MemoryAccount("entries", Long.MAX_VALUE);
        List<Map<String, Object>> got = answer(command, steps, 1, account, inPlace);
        assertThat(inPlace[0]).as(stats + " round " + round + ": pages in place").isPositive();
        EntryGroupedStatsTest.assertSameRows(got, expected, stats + " round " + round, true);
        assertThat(account.used()).as(stats + " round " + round + " given back").isZero();
      }
    }
  }
}
