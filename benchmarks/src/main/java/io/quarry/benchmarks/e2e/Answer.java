package io.quarry.benchmarks.e2e;

import io.quarry.client.SearchResults;
import java.util.Map;

/**
 * What the harness keeps of one answer to compare the engines: the rows, and the total of the
 * {@code count} column when the answer has one (-1 otherwise).
 */
record Answer(long rows, long countSum) {
  static Answer of(SearchResults results) {
    long sum = 0;
    boolean counted = false;
    for (Map<String, String> row : results.rows()) {
      String count = row.get("count");
      if (count != null && !count.isEmpty()) {
        sum += Long.parseLong(count);
        counted = true;
      }
    }
    return new Answer(results.rows().size(), counted ? sum : -1);
  }
}
