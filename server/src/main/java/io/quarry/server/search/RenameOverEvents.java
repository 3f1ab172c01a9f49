package io.quarry.server.search;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.ReduceChain;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.RenamedNames;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A time-ordered event listing through a wildcard {@code rename} among other commands ({@code
 * index=web | rename *_ip AS ip_* | head 5}, {@code index=web | eval a_ip=1 | rename *_ip AS
 * ip_*}), on pages: the rename reads every field its row can yield ({@code discoverableFieldNames}:
 * an event's extracted fields too, laid over by the {@code eval}, {@code rex}, {@code lookup} …
 * before it) and the renamed row lists them all under their new names — which the commands after it
 * then filter, cut or change. The events as the commands before the rename leave them are laid out
 * with every field (an every-field {@link EventListing}, those commands' changes replayed by {@link
 * ListedFields}, carrying each row's every field name), the rename's stage renames those pages'
 * columns, and each row's names are renamed as {@code rename} renames a row's fields ({@link
 * RenamedNames}) into {@link ListingColumns#FIELD_NAMES} — the names it renamed away, and those the
 * commands before it left it without, in {@link ListingColumns#CLEARED}. The commands after it run
 * as stages marking what they set, and a listing replays their changes over those names and pages
 * the answer as the collector would ({@link EventListing#fromListedNames}), so a row lists the same
 * fields wherever a later command cuts or filters the pages. Among plugin commands (one after it,
 * or before it) the renames are a run of {@link PluginOverEvents}, which renames each row's names
 * with {@link #listedNames} too.
 */
final class RenameOverEvents {
  private final EventListing batches; // every field, as the commands before the rename leave it
  private final List<Command> pipeline;
  private final int at;
  private final ListedFields listed;
  private final Evaluator evaluator;
  private final EventListing answer; // the answer's pages
  private final PageResults results;

  /**
   * @param pipeline the search's commands
   * @param at the wildcard rename's index in it ({@link #at})
   * @param listed the changes of the commands after the renames ({@link ListedFields}, numbered by
   *     their stages)
   * @param listings makes the every-field batches (the rename is row by row: any size answers the
   *     same) and the answer's listing
   */
  RenameOverEvents(
      List<Command> pipeline,
      int at,
      ListedFields listed,
      EventListings listings,
      PageResults results) {
    this.pipeline = pipeline;
    this.at = at;
    this.listed = listed;
    this.evaluator = listings.evaluator();
    this.answer = listings.answer(listed, results);
    this.results = results;
    this.batches =
        listings
            .batches(true, before(pipeline, at))
            .carryingListedNames()
            .carryingDiscoveredNames();
  }

  /**
   * {@code before} (the stages of the commands before the rename, marking what they set) followed
   * by the every-field batches of their rows, the renames ({@link #renaming}) and the commands
   * after them, marking what they set: one pulled chain, the answer's listing its last step.
   */
  io.quarry.ql.exec.PageReduce chain(ReduceChain before) {
    int end = end(pipeline, at);
    try {
      before.then(batches);
      renaming(before, pipeline.subList(at, end), at, evaluator)
          .marking(pipeline.subList(end, pipeline.size()), end, listed.valuesMarked());
    } catch (RuntimeException e) {
      throw before.closeBuilt(e);
    }
    return before.then(answer).into(results::add);
  }

  /**
   * Adds to {@code chain} the steps of the run of renames {@code renames} (stages {@code
   * firstStage}, …): each page's columns renamed by their stages, and each row's every name renamed
   * as they rename a row's fields ({@link #listedNames}). Its input pages carry the events' own
   * {@code _raw} and {@code sourcetype} (added where no command before changed them): what the
   * listing extracts from and a bare word matches. A rename's stage hands on one page for each it
   * takes, in order, so the step after them pairs each renamed page with its input (checked: {@link
   * #inputOf}).
   */
  static ReduceChain renaming(
      ReduceChain chain, List<Command> renames, int firstStage, Evaluator evaluator) {
    List<RenamedNames> names =
        renames.stream().map(command -> new RenamedNames((RenameCommand) command)).toList();
    java.util.ArrayDeque<Page> inputs = new java.util.ArrayDeque<>(); // taken, not yet renamed
    chain.then(
        new PageTransformOperator() {
          @Override
          protected Page process(Page events) {
            Page input =
                events.block(ListingColumns.EVENT_RAW) != null
                    ? events
                    : ListingColumns.withEventText(events);
            inputs.addLast(input);
            return input;
          }
        });
    for (int i = 0; i < renames.size(); i++) {
      chain.then(PageChain.operator(renames.get(i), evaluator), firstStage + i);
    }
    return chain.then(
        new PageTransformOperator() {
          @Override
          protected Page process(Page renamed) {
            return listedNames(names, inputOf(inputs, renamed), renamed);
          }

          @Override
          public void close() {
            inputs.clear();
          }
        });
  }

  /**
   * The page the renames made {@code renamed} of: the oldest of {@code inputs} not yet paired,
   * which a rename's stage, one page out for each page in and row for row, keeps in step; a stage
   * that breaks that (a page held back, split or dropped) fails the search here rather than pair a
   * row with another's names.
   */
  static Page inputOf(java.util.Deque<Page> inputs, Page renamed) {
    Page input = inputs.pollFirst();
    if (input == null || input.positionCount() != renamed.positionCount()) {
      throw new IllegalStateException(
          "a rename stage did not hand on one page for each page it took: "
              + renamed.positionCount()
              + " rows renamed against "
              + (input == null ? "no page taken" : input.positionCount() + " rows taken"));
    }
    return input;
  }

  /**
   * The index of a wildcard {@code rename} that this runs on pages, else -1: one whose stage
   * renames exactly ({@code FieldStages}: one {@code *} in both names, {@code _time} renamed in
   * epoch seconds where it matches), with the renames right after it ({@link #end}) — where it
   * renames {@code _raw} away, a bare word or {@code searchmatch} after it asks each row's fields,
   * every one of which its pages hold ({@code io.quarry.ql.eval.FieldValueTerm}) —, preceded by
   * commands whose changes {@link ListedFields} replays (a literal rename too: its row keeps every
   * other field, extracted ones too; a change of {@code _raw} or {@code sourcetype} too: the pages
   * then carry the events' own text, which the listing extracts from as the row asks its event) —
   * not a {@code lookup} without {@code OUTPUT} — and followed by commands with page stages over
   * events. The caller checks that {@link ListedFields} replays the commands after it. A wildcard
   * rename ending a listing after commands that keep the events takes the plain every-field pages
   * ({@link EveryFieldPlan}).
   */
  static int at(List<Command> pipeline) {
    if (TimeOrderedShape.everyFieldPlan(pipeline)) {
      return -1;
    }
    int at = 0;
    while (at < pipeline.size() && !renamesByWildcard(pipeline.get(at))) {
      at++;
    }
    if (at == pipeline.size()) {
      return -1;
    }
    int end = end(pipeline, at);
    List<Command> earlier = pipeline.subList(0, at);
    List<Command> later = pipeline.subList(end, pipeline.size());
    ListedFields changes = ListedFields.of(earlier);
    boolean exact =
        end > at
            && changes != null
            && ReduceCoverage.supportsOverEvents(earlier)
            && ReduceCoverage.supportsOverEventsWithOwnText(later);
    return exact ? at : -1;
  }

  /**
   * The end (exclusive) of the run of renames from the wildcard one at {@code at}: each later
   * {@code rename} right after it whose stage renames exactly ({@code rename re* AS x* | rename x*
   * AS y*}) is renamed here too, each row's names renamed by each in turn as the {@code rename}s
   * rename them — a wildcard one reading the names the one before it left the row.
   */
  static int end(List<Command> pipeline, int at) {
    int end = at;
    while (end < pipeline.size()
        && pipeline.get(end) instanceof RenameCommand
        && PageChain.supports(List.of(pipeline.get(end)))) {
      end++;
    }
    return end;
  }

  /** The changes of the commands before the rename at {@code at}, numbered from stage 0. */
  static ListedFields before(List<Command> pipeline, int at) {
    return ListedFields.of(pipeline.subList(0, at));
  }

  static boolean renamesByWildcard(Command command) {
    return command instanceof RenameCommand rename
        && rename.renames().stream().anyMatch(r -> Wildcard.hasWildcard(r.from()));
  }

  /**
   * The page {@code names} (a run of renames) made of {@code input} (an every-field listing's page
   * carrying each row's every name, {@link ListingColumns#DISCOVERED_NAMES}, and those it lost,
   * {@link ListingColumns#CLEARED_NAMES}), with each row's names renamed as {@code rename} renames
   * them in {@link ListingColumns#FIELD_NAMES} and {@link ListingColumns#DISCOVERED_NAMES} (a
   * renamed row lists every field it has), and in {@link ListingColumns#CLEARED} the names it
   * renamed away and those the commands before it left the row without (no value, not even the
   * event's own).
   */
  static Page listedNames(List<RenamedNames> names, Page input, Page renamed) {
    // every field the row can yield (discoverableFieldNames), which the rename renames
    Block listed = input.block(ListingColumns.DISCOVERED_NAMES);
    Block lost = input.block(ListingColumns.CLEARED_NAMES);
    BytesBlock.Builder fieldNames = BytesBlock.builder(input.positionCount());
    BytesBlock.Builder cleared = BytesBlock.builder(input.positionCount());
    for (int p = 0; p < input.positionCount(); p++) {
      List<String> own = new ArrayList<>();
      listed.getValues(p).forEach(name -> own.add((String) name));
      int position = p;
      Set<String> gone = new LinkedHashSet<>();
      lost.getValues(p).forEach(name -> gone.add((String) name));
      gone.addAll(own);
      Set<String> moved = new java.util.HashSet<>(); // no value under these, not the event's own
      List<String> current = own;
      for (RenamedNames renames : names) {
        // a name an earlier rename moved a value from or to holds none but what it lists
        Set<String> before = Set.copyOf(moved);
        current =
            List.copyOf(
                renames
                    .sourceOf(
                        current,
                        field -> {
                          Block block = input.block(field);
                          return !before.contains(field)
                              && block != null
                              && !block.isNull(position);
                        },
                        moved)
                    .keySet());
        gone.addAll(current);
      }
      gone.removeAll(current);
      ListingColumns.appendAll(fieldNames, current);
      ListingColumns.appendAll(cleared, gone);
    }
    BytesBlock renamedNames = fieldNames.build();
    // the renamed row lists every field it can yield: its every name is what it lists
    return renamed
        .withColumn(ListingColumns.FIELD_NAMES, renamedNames)
        .withColumn(ListingColumns.DISCOVERED_NAMES, renamedNames)
        .withColumn(ListingColumns.CLEARED, cleared.build());
  }
}
