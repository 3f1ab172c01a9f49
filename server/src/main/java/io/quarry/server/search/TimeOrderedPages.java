package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.ScanStats;
import io.quarry.codecs.store.StoredEvent;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.exec.Wildcard;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Time-ordered mode (a search without an aggregation: events newest first) on pages, for a pipeline
 * whose answer has known columns: leading {@code rex} extractions the source runs itself, then
 * commands that all have page stages ({@link PageReduce}: {@code eval}, {@code where}, {@code
 * rename}, {@code bin}, streaming plugin commands, {@code sort}, {@code head}, {@code dedup},
 * {@code eventstats}, {@code streamstats} …) among which a {@code table} or {@code fields} of
 * literal names fixes the columns, or a {@code stats} reads only its fields (after commands that
 * need the events in order: {@code dedup}, {@code head}, {@code eventstats} …) — the commands
 * before it read only the fields {@link PageChain#inputFields} names. The events become pages of
 * only the fields those commands read ({@link EventPages}, one source over the whole time-ordered
 * scan), and pages go through the stages to the answer; a {@code head} that has its rows stops the
 * scan. Any other pipeline — a plain event listing shows every field an event has, which no page
 * source can know beforehand — runs on rows.
 */
final class TimeOrderedPages {
  /**
   * @param fused the leading {@code rex} commands the source runs
   * @param sourceFields the fields the source reads
   * @param pageSize events per page: the smallest {@code head} count before any {@code sort} when
   *     that is below the engine's page size (so {@code head 10} reads ten events, not a page)
   */
  record Shape(int fused, List<String> sourceFields, int pageSize) {}

  private TimeOrderedPages() {}

  /** The shape of {@code pipeline} on pages, or null when it runs on rows. */
  static Shape shape(List<Command> pipeline, int pageSize) {
    int fused = EventPages.fusedPrefix(pipeline);
    List<Command> staged = pipeline.subList(fused, pipeline.size());
    if (!PageReduce.supports(staged)) {
      return null;
    }
    for (int cut = 0; cut < staged.size(); cut++) {
      // a stats reads only its fields: the commands before it need only those
      boolean aggregates = staged.get(cut) instanceof StatsCommand;
      if (staged.get(cut) instanceof ProjectCommand project && fixesColumns(project)
          || aggregates) {
        List<Command> toCut = staged.subList(0, aggregates ? cut : cut + 1);
        if (!toCut.stream()
            .allMatch(
                c ->
                    c instanceof DedupCommand
                        || PageReduce.inOrder(c)
                        || c instanceof SortCommand
                        || c instanceof HeadCommand
                        || PageChain.supports(List.of(c)))) {
          return null; // a command before the columns are fixed whose reads are not known
        }
        Set<String> columns =
            new LinkedHashSet<>(
                aggregates
                    ? HashAggregationOperator.inputFields((StatsCommand) staged.get(cut))
                    : ((ProjectCommand) staged.get(cut)).patterns());
        if (staged.get(cut) instanceof ProjectCommand project
            && project.kind() == ProjectCommand.Kind.KEEP) {
          columns.add(EventFields.TIME); // fields keeps the internal fields, as the row command
          columns.add(EventFields.RAW);
        }
        long smallestHead = pageSize;
        for (Command command : staged) {
          if (command instanceof SortCommand
              || command instanceof EventStatsCommand
              || command instanceof StatsCommand) {
            break; // a sort (eventstats, stats) reads every event: a head after it sizes nothing
          }
          if (command instanceof HeadCommand head) {
            smallestHead = Math.min(smallestHead, head.limit());
          }
        }
        return new Shape(
            fused,
            List.copyOf(PageChain.inputFields(toCut, columns)),
            (int) Math.max(1, smallestHead));
      }
    }
    return null;
  }

  private static boolean fixesColumns(ProjectCommand project) {
    return project.kind() != ProjectCommand.Kind.REMOVE
        && project.patterns().stream().noneMatch(Wildcard::hasWildcard);
  }

  /** The scan that feeds a visitor: the store's time-ordered scan over the search's indexes. */
  @FunctionalInterface
  interface Scan {
    ScanStats run(EventVisitor visitor) throws IOException;
  }

  /**
   * Runs {@code pipeline} in {@code shape} over {@code scan}, its answer into {@code results};
   * {@code check} is the per-event filter of an inexact index query (null: none); {@code
   * skipSeenOf}, when not null, is the field of a leading {@code dedup} whose repeated values the
   * scan skips unread ({@link SeenValuesSkip}).
   */
  static ScanStats run(
      Shape shape,
      List<Command> pipeline,
      Sourcetypes sourcetypes,
      SearchControl control,
      Predicate<Row> check,
      boolean indexedFieldsOnly,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator,
      PageBatch.Results results,
      String skipSeenOf,
      Scan scan)
      throws IOException {
    SeenValuesSkip skip = skipSeenOf == null ? null : new SeenValuesSkip(skipSeenOf, control);
    // the same skip over blocks, sharing its values (a leading dedup: every event visited matches)
    BlockDedup blockSkip = skip == null ? null : new BlockDedup(skipSeenOf, skip.seen(), control);
    int fused = shape.fused();
    PageReduce stagesOnPages =
        new PageReduce(
            pipeline.subList(fused, pipeline.size()),
            evaluator,
            results::add,
            stages,
            fused,
            shape.pageSize());
    boolean[] done = {false};
    EventPages pages =
        new EventPages(
                shape.sourceFields(),
                pipeline.subList(0, fused),
                evaluator.stopped(),
                indexedFieldsOnly,
                sourcetypes,
                control,
                check,
                matched,
                shape.pageSize(),
                page -> {
                  for (int stage = 0; stage < fused; stage++) {
                    stages.counted(stage, page.positionCount(), 0);
                  }
                  done[0] = done[0] || !stagesOnPages.add(page);
                },
                () -> {},
                () -> {})
            .typedValues();
    try {
      ScanStats scanned =
          scan.run(
              new EventVisitor() {
                @Override
                public boolean visit(StoredEvent event) {
                  if (blockSkip != null) {
                    blockSkip.visited(event);
                  }
                  return !done[0] && pages.visit(event) && !done[0];
                }

                @Override
                public DocShortcut shortcut(org.apache.lucene.index.LeafReader reader)
                    throws IOException {
                  return skip == null ? null : skip.shortcut(reader);
                }

                @Override
                public BlockShortcut blockShortcut(org.apache.lucene.index.LeafReader reader)
                    throws IOException {
                  return blockSkip == null ? null : blockSkip.shortcut(reader);
                }

                @Override
                public void finish() {
                  pages.finish();
                }

                @Override
                public void close() {
                  pages.close();
                }
              });
      if (skip != null) { // the skipped events were the dedup's (stage 0's) input all the same
        stages.counted(0, skip.skipped() + blockSkip.skipped(), 0);
        matched.addAndGet(skip.skipped() + blockSkip.skipped());
        skip.reportRead();
      }
      stagesOnPages.finish();
      return scanned;
    } finally {
      stagesOnPages.close();
    }
  }
}
