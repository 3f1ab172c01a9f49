package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.exec.ReduceCoverage;
import java.util.List;

/**
 * The shape a time-ordered search (no aggregation first: events newest first) takes on pages, as
 * {@link TimeOrderedPages} runs it: which leading {@code rex} commands the source runs, the fields
 * it reads, events per source page, whether the answer is an event listing ({@link EventListing},
 * {@link ListedFields}), every-field pages ({@link EveryFieldPlan}), or an aggregation after
 * commands that need time order. {@link #of} decides it from the pipeline ({@link
 * TimeOrderedShapes}), or answers null for a search it does not support.
 *
 * @param fused the leading {@code rex} commands the source runs
 * @param sourceFields the fields the source reads
 * @param pageSize events per page: the smallest {@code head} count before any {@code sort} when
 *     that is below the engine's page size (so {@code head 10} reads ten events, not a page)
 * @param listing whether the answer is the events themselves ({@link EventListing})
 * @param aggregateAt the index in the pipeline of an aggregation after commands that need events in
 *     time order ({@code head 100 | stats count}), run as a page aggregation; -1 for none
 * @param everyField whether the events carry every field, search-time extracted ones included
 *     ({@link EventListing}'s every-field pages): for a listing, its answer's pages (a subsearch's
 *     events); else the pages the commands from {@code listedAt} on take ({@link EveryFieldPlan})
 * @param listedAt when not a listing but {@code everyField}: how many leading commands (those that
 *     keep the events, or whose changes {@code listed} holds) run on the source's pages before the
 *     every-field listing lays them out
 * @param listed for a listing, how its commands change the fields its rows list; for every-field
 *     pages, how the commands before {@code listedAt} do ({@link
 *     EveryFieldPlan#pluginAfterChanges}; for plugin commands over events, those before and after
 *     them: {@link PluginOverEvents}); else empty
 * @param ownText when not a listing: whether the source's pages carry each event's own raw text
 *     ({@link io.quarry.ql.exec.EventText#withOwnText}) for a bare word after commands that change
 *     {@code _raw} or bring in other rows ({@code eval _raw=…}, {@code append}, {@code join})
 * @param appendAt for a listing: the index of its first {@code append} (-1: none), the commands
 *     from there on keeping the rows as they come ({@link ListedCommands#keepsListedRows}): the
 *     subsearch's rows go through them among the events and the listing lists them as they are
 *     ({@link EventListing#withOtherRows}), event rows and others paged alike
 * @param wordsOverEveryField whether the every-field pages go into all of the commands as plain
 *     stages ({@link TimeOrderedShapes#everyFieldForWords}): never through {@link PluginOverEvents}
 *     or {@link RenameOverEvents}, even where one of them would take a pipeline of that start
 */
record TimeOrderedShape(
    int fused,
    List<String> sourceFields,
    int pageSize,
    boolean listing,
    int aggregateAt,
    boolean everyField,
    int listedAt,
    ListedFields listed,
    boolean ownText,
    int appendAt,
    boolean wordsOverEveryField) {
  /**
   * A shape that is no listing, its source (its leading {@code fused} commands fused into it)
   * reading {@code sourceFields}, its pages carrying each event's own raw text where {@code
   * ownText} ({@link io.quarry.ql.exec.EventText#withOwnText}).
   */
  static TimeOrderedShape overFields(
      int fused, List<String> sourceFields, int pageSize, int aggregateAt, boolean ownText) {
    return new TimeOrderedShape(
        fused,
        sourceFields,
        pageSize,
        false,
        aggregateAt,
        false,
        0,
        ListedFields.of(List.of()),
        ownText,
        -1,
        false);
  }

  /** This listing with every field of its events in its answer (a subsearch's). */
  TimeOrderedShape withEveryField() {
    return new TimeOrderedShape(
        fused,
        sourceFields,
        pageSize,
        listing,
        aggregateAt,
        true,
        0,
        listed,
        ownText,
        appendAt,
        wordsOverEveryField);
  }

  /** The shape of {@code pipeline} on pages, or null when it is not supported. */
  static TimeOrderedShape of(List<Command> pipeline, int pageSize) {
    return of(pipeline, pageSize, table -> null);
  }

  /**
   * As above; {@code tableColumns} gives a lookup table's columns by name (null: none), the outputs
   * of a listing's {@code lookup} without {@code OUTPUT} ({@link ListedFields}).
   */
  static TimeOrderedShape of(
      List<Command> pipeline,
      int pageSize,
      java.util.function.Function<String, List<String>> tableColumns) {
    TimeOrderedShape shape = TimeOrderedShapes.shapeOf(pipeline, pageSize, tableColumns);
    return shape == null || !shape.sourceFields().contains("*")
        ? shape
        : TimeOrderedShapes.everyFieldForWords(pipeline, pageSize);
  }

  /** An event listing of the events themselves, {@code listed} laid over them. */
  static TimeOrderedShape listingOf(
      List<String> sourceFields, int pageSize, ListedFields listed, int appendAt) {
    return new TimeOrderedShape(
        0, sourceFields, pageSize, true, -1, false, 0, listed, false, appendAt, false);
  }

  /**
   * Every-field pages of the events themselves, taken by the commands from {@code listedAt} on,
   * {@code listed} the changes laid over them.
   */
  static TimeOrderedShape everyFieldPages(
      List<String> sourceFields, int pageSize, int listedAt, ListedFields listed) {
    return new TimeOrderedShape(
        0, sourceFields, pageSize, false, -1, true, listedAt, listed, false, -1, false);
  }

  /**
   * Whether a listing's commands search bare words after a command that changed {@code _raw} but
   * kept the rows events ({@code eval _raw=…}, {@code lookup} without {@code OUTPUT}): exact where
   * the listing's pages carry each event's own text ({@link ListingColumns#withEventText}), which a
   * term then matches rather than the changed {@code _raw}.
   */
  static boolean ownText(List<Command> pipeline) {
    return !ReduceCoverage.supportsOverEvents(pipeline)
        && ReduceCoverage.supportsOverEventsWithOwnText(pipeline);
  }

  /**
   * Whether the commands past the source take the every-field listing into their page stages
   * ({@link EveryFieldPlan}) — which comes before plugin commands over events ({@link
   * PluginOverEvents}) that also take every field.
   */
  static boolean everyFieldPlan(List<Command> staged) {
    return (EveryFieldPlan.readsEveryField(staged)
            || EveryFieldPlan.pluginAfterChanges(staged) >= 0)
        && ReduceCoverage.supportsOverEvents(staged);
  }
}
