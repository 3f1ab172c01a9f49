package io.quarry.ql.exec;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.nio.charset.StandardCharsets;

/**
 * What the tests of entries handed whole ({@link HandedWholeCountTest}, {@link
 * HandedWholeScanShapeTest}) build on: a segment's dictionary of distinct session ids sorted by
 * bytes, and the search threads' partials merged into the final aggregation, as a search's end
 * merges them.
 */
final class SortedSessionPartials {
  private SortedSessionPartials() {}

  /** A dictionary of {@code count} distinct session ids sorted by bytes (a segment's). */
  static BytesBlock sortedDictionary(int count) {
    BytesBlock.Builder builder = BytesBlock.builder(count);
    for (int i = 0; i < count; i++) {
      builder.append("SD%06dSL".formatted(i).getBytes(StandardCharsets.UTF_8));
    }
    return builder.build();
  }

  /** Merges each of {@code partials} into {@code total}, in order, then closes them. */
  static void mergeAll(HashAggregationOperator total, HashAggregationOperator... partials) {
    for (HashAggregationOperator partial : partials) {
      total.merge(partial);
    }
    for (HashAggregationOperator partial : partials) {
      partial.close();
    }
  }
}
