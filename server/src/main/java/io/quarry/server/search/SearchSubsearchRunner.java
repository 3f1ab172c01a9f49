package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.ql.plan.SubsearchRunner;
import io.quarry.server.auth.Access;
import io.quarry.server.http.ApiException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Runs a subsearch through the {@link SearchService} while the search holding it is planned: the
 * same user (their indexes and search filter), the same time range unless the subsearch names its
 * own, its rows collected up to the row limit (then it is finalized) and counted against a memory
 * account of the search's ceiling — under the breaker over all searches, until the runner is closed
 * (the rows spliced into the query). A subsearch that fails fails the search with {@code
 * SUBSEARCH_FAILED} (or the 400 of a query error) naming it; one whose rows would pass the breaker
 * with 503 {@code SEARCH_MEMORY_BREAKER}.
 */
final class SearchSubsearchRunner implements SubsearchRunner, AutoCloseable {
  private final SearchService search;
  private final String outerQuery;
  private final String earliest;
  private final String latest;
  private final Access access;
  private final boolean writeNothing;
  private final boolean readOnly;
  private final MemoryAccount memory;
  private final java.util.concurrent.atomic.AtomicLong collected =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.Set<String> collectIndexes =
      java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());

  SearchSubsearchRunner(
      SearchService search,
      String outerQuery,
      String earliest,
      String latest,
      Access access,
      boolean writeNothing,
      boolean readOnly,
      long maxMemory,
      MemoryAccount breaker) {
    this.writeNothing = writeNothing;
    this.readOnly = readOnly;
    this.search = search;
    this.outerQuery = outerQuery;
    this.earliest = earliest;
    this.latest = latest;
    this.access = access;
    this.memory =
        new MemoryAccount("subsearch results (search.maxMemoryBytes)", maxMemory, breaker);
  }

  /** Events the searches run so far wrote ({@code collect}), for the outer search's statistics. */
  long collected() {
    return collected.get();
  }

  /** What the searches run so far wrote: the events and the indexes. */
  io.quarry.ql.plan.Collected collectedSoFar() {
    synchronized (collectIndexes) {
      return new io.quarry.ql.plan.Collected(collected.get(), List.copyOf(collectIndexes));
    }
  }

  @Override
  public SubsearchResult run(Subsearch subsearch, long maxRows, Duration maxTime) {
    return run(subsearch, maxRows, maxTime, () -> false);
  }

  @Override
  public SubsearchResult run(
      Subsearch subsearch, long maxRows, Duration maxTime, BooleanSupplier outerStopped) {
    SearchPlan plan;
    try {
      plan =
          search.planSubsearch(subsearch.text(), earliest, latest, access, writeNothing, readOnly);
    } catch (QueryParseException e) {
      throw new QueryParseException(
          subsearch.describe() + ": " + e.getMessage(),
          outerQuery,
          subsearch.position(),
          "[",
          e.expected());
    } catch (ApiException e) {
      throw SearchFailures.subsearch(subsearch, e.status().code(), e.getMessage());
    }
    List<Page> pages = new ArrayList<>();
    long[] rows = {0};
    long[] bytes = {0};
    boolean[] cut = {false};
    SearchControl control =
        new SearchControl().everyEventField().stopWhen(outerStopped); // as the outer search
    SearchStats stats;
    try {
      stats =
          search.run(
              subsearch.text(),
              plan,
              maxTime,
              control,
              page -> {
                if (rows[0] >= maxRows) {
                  cut[0] = true;
                  control.finalizeSearch();
                  return;
                }
                Page kept = page;
                if (rows[0] + page.positionCount() > maxRows) {
                  kept = head(page, (int) (maxRows - rows[0]));
                  cut[0] = true;
                  control.finalizeSearch();
                }
                long size = ramBytes(kept);
                memory.reserve(size, "the rows of " + subsearch.describe());
                bytes[0] += size;
                rows[0] += kept.positionCount();
                pages.add(kept);
              });
    } catch (MemoryLimitExceededException e) {
      throw SearchMemory.BREAKER.equals(e.owner())
          ? SearchFailures.subsearchBreaker(subsearch, e.getMessage())
          : SearchFailures.subsearch(subsearch, 422, e.getMessage());
    } catch (ApiException e) {
      throw SearchFailures.BREAKER_CODE.equals(e.code())
          ? SearchFailures.subsearchBreaker(subsearch, e.getMessage())
          : SearchFailures.subsearch(subsearch, e.status().code(), e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw SearchFailures.subsearch(subsearch, 500, String.valueOf(e));
    }
    collected.addAndGet(stats.eventsCollected());
    if (!writeNothing) {
      collectIndexes.addAll(PlanCollected.indexes(plan));
    }
    List<String> messages = new ArrayList<>();
    for (String message : stats.messages()) {
      if (!message.startsWith("search finalized")) {
        messages.add(subsearch.describe() + ": " + message);
      }
    }
    if (cut[0]) {
      messages.add(
          subsearch.describe()
              + " has more than "
              + maxRows
              + " rows; only the first "
              + maxRows
              + " are used (maxout)");
    }
    if (control.stoppedByTimeLimit()) {
      messages.add(
          subsearch.describe()
              + " was finalized after "
              + Values.toText(maxTime.toMillis() / 1000.0)
              + " s (maxtime); its results cover only the events read until then");
    }
    return new SubsearchResult(pages, rows[0], bytes[0], messages);
  }

  /** Gives back to the breaker what the subsearches' rows were counted for. */
  @Override
  public void close() {
    memory.close();
  }

  /** The first {@code count} positions of a page. */
  private static Page head(Page page, int count) {
    List<Block> blocks = new ArrayList<>();
    List<Schema.Column> columns = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      Block block = page.block(c);
      List<List<Object>> cells = new ArrayList<>(count);
      for (int p = 0; p < count; p++) {
        List<Object> values = new ArrayList<>(Values.valuesOf(block, p));
        values.removeIf(java.util.Objects::isNull);
        cells.add(values);
      }
      String name = page.schema().column(c).name();
      Block cut = io.quarry.ql.exec.PageBuilder.column(name, cells);
      blocks.add(cut);
      columns.add(new Schema.Column(name, cut.dataType()));
    }
    return new Page(new Schema(columns), blocks, count);
  }

  private static long ramBytes(Page page) {
    long bytes = 0;
    for (Block block : page.blocks()) {
      bytes += block.ramBytesUsed();
    }
    return bytes;
  }
}
