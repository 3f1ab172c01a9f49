package io.quarry.server.search;

import io.quarry.plugin.api.data.MemoryAccount;

/**
 * The memory searches may hold: each search's operators at most search.maxMemoryBytes, and all
 * running searches, the rows of subsearches not yet spliced in and kept job results together under
 * the breaker (search.maxTotalMemoryBytes); past either the search that asked fails ({@link
 * SearchFailures}: 422 over its own limit, 503 {@code SEARCH_MEMORY_BREAKER} at the breaker).
 */
final class SearchMemory {
  /** The breaker's name, as an exceeded account names its owner. */
  static final String BREAKER = "all running searches (search.maxTotalMemoryBytes)";

  private final long maxMemory;

  /** Every running search's memory account reserves here too; null: no breaker. */
  private final MemoryAccount breaker;

  /**
   * @param maxMemory what one search may hold (search.maxMemoryBytes)
   * @param maxTotalMemory what all may hold together ({@code Long.MAX_VALUE}: no breaker)
   */
  SearchMemory(long maxMemory, long maxTotalMemory) {
    this.maxMemory = maxMemory;
    this.breaker =
        maxTotalMemory == Long.MAX_VALUE ? null : new MemoryAccount(BREAKER, maxTotalMemory);
  }

  /** What one search may hold (search.maxMemoryBytes). */
  long maxMemory() {
    return maxMemory;
  }

  /** The breaker over all searches, or null without one. */
  MemoryAccount breaker() {
    return breaker;
  }

  /** A new account for one search's operators; closing it gives back what they still hold. */
  MemoryAccount search() {
    return new MemoryAccount("search (search.maxMemoryBytes)", maxMemory, breaker);
  }

  /** {@link SearchService#keptResultsAccount}. */
  MemoryAccount keptResults() {
    return breaker == null ? null : new MemoryAccount("kept job results", Long.MAX_VALUE, breaker);
  }
}
