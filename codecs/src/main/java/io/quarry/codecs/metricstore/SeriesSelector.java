package io.quarry.codecs.metricstore;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Predicate;

/**
 * Which series a query reads: every series must carry all of {@code requiredTerms} (postings terms,
 * {@link Postings#term}: found through the posting lists, not by looking at each series), and then
 * pass {@code test} (the full condition: wildcards, OR, NOT, metric name patterns).
 */
public record SeriesSelector(List<String> requiredTerms, Predicate<SeriesKey> test) {
  /** Every series. */
  public static final SeriesSelector ALL = new SeriesSelector(List.of(), key -> true);

  public SeriesSelector {
    requiredTerms = List.copyOf(requiredTerms);
    requireNonNull(test, "test is null");
  }
}
