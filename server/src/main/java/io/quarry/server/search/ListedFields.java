package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.exec.ListingMarks;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How the row-local commands after an event listing change the fields each row lists, so that
 * {@link EventListing} lays out {@code index=web | eval kb=bytes/1024} by the fields each row
 * lists: an {@code eval} lays its assignments over the event (a field set to a value is listed —
 * after the row's own fields when it is new —, one set to null is no longer listed and has no
 * value), {@code rex} sets the fields it finds a value for (never to null), {@code bin} with a span
 * its as-field where the field has a value, {@code lookup} its outputs where the key matched (with
 * {@code OUTPUTNEW}, those the row has no value of), a literal {@code rename a AS b} moves {@code
 * a} to {@code b} where {@code a} has a value ({@code b} takes {@code a}'s place, or goes last when
 * {@code a} was not listed; {@code a} no longer has a value), {@code fields -} of literal names
 * hides those fields (no longer listed, no value), {@code fields} of literal names lists those (in
 * its order, then {@code _time} and {@code _raw} where listed) and hides every other, and {@code
 * eventstats}/{@code streamstats} set their results where the row fell in a group ({@link
 * EventOverlays}, replayed in command order among the others). A field a row does not list but
 * another row of its page does has no value on it (a plain listing, Splunk's fast mode: what a row
 * lists never depends on its page's other rows, {@link ListingLayout}); one the row's commands
 * removed has none ({@link #apply}'s {@code cleared}), nor has, past a {@code fields} of names
 * ({@link #keeps}: the row's list is final), any field the row does not list. A field {@code rex}
 * sets is listed by every event with a value of its own, matched or not ({@link #extracted}).
 *
 * <p>The changes are replayed per row at the end from the answer's columns, not tracked stage by
 * stage: whether an assignment left a value is read off the field's final column, and where {@code
 * rex}, {@code lookup} and {@code rename} set a field off the column their stage marks it in
 * ({@link ListingMarks#setColumn}); where a later command sets a field again, whether a command
 * left it a value is read off the column the page after its stage marks that in ({@link
 * ListingMarks#valueColumn}) — so too where a row fell in an {@code eventstats}/{@code streamstats}
 * group, and whether its result had a value, where another command sets a result or a later one a
 * by-field. Where a command changes {@code _raw} or {@code sourcetype}, the extraction reads the
 * event's own, carried in hidden columns ({@link ListingColumns#withEventText}). A {@code rename}
 * replays pair by pair (an old name an earlier pair renamed away is read as the row came, as {@code
 * FieldStages}' stage reads it); a wildcard rename (every field an event has, extracted ones too)
 * is not replayed here ({@code RenameOverEvents}), nor is any other pipeline.
 */
final class ListedFields {
  /** Fields of one {@code rex} replayed exactly: below a {@code HashMap}'s first resize. */
  private static final int MAX_EXTRACTED = 12;

  private final List<ListedChange> changes;
  private final Set<String> changed;
  private final Set<String> extracted; // in command order
  private final Set<String> loaded;

  private ListedFields(List<ListedChange> changes, Set<String> loaded) {
    this.changes = List.copyOf(changes);
    Set<String> fields = new LinkedHashSet<>();
    changes.forEach(change -> fields.addAll(change.fields()));
    this.changed = Set.copyOf(fields);
    Set<String> found = new LinkedHashSet<>();
    changes.stream()
        .filter(change -> change.kind() == ListedChange.Kind.EXTRACT)
        .forEach(change -> found.addAll(change.fields()));
    this.extracted = java.util.Collections.unmodifiableSet(found);
    this.loaded = Set.copyOf(loaded);
  }

  /** As {@link #of(List, Function)}, for commands without a {@code lookup} lacking OUTPUT. */
  static ListedFields of(List<Command> commands) {
    return of(commands, table -> null);
  }

  /**
   * The changes of the commands after an event listing, or null when one of them is neither a
   * command that keeps the events ({@link ListedCommands#keepsEvents}) nor a change this replays.
   * Empty for a plain listing.
   *
   * @param tableColumns a lookup table's columns by its name (null: no such table), for a {@code
   *     lookup} without {@code OUTPUT} (its outputs: every column but the keys)
   */
  static ListedFields of(List<Command> commands, Function<String, List<String>> tableColumns) {
    return of(commands, tableColumns, -1);
  }

  /**
   * As above, the command at {@code passed} (an {@code outputlookup} inside the listing, {@link
   * EventTable}: it hands each row on as it came) changing nothing; -1 for none.
   */
  static ListedFields of(
      List<Command> commands, Function<String, List<String>> tableColumns, int passed) {
    List<ListedChange> changes = new ArrayList<>();
    Set<String> loaded = new HashSet<>(); // fields the source must read for a stage to see them
    for (int at = 0; at < commands.size(); at++) {
      Command command = commands.get(at);
      if (at == passed) {
        continue;
      }
      List<ListedChange> made =
          switch (command) {
            case EvalCommand eval -> {
              Set<String> fields = new LinkedHashSet<>(); // first-assigned order, as the row's map
              eval.assignments().forEach(assignment -> fields.add(assignment.field()));
              yield List.of(new ListedChange(ListedChange.Kind.ASSIGN, List.copyOf(fields), at));
            }
            case RexCommand rex when rex.sed() != null ->
                List.of(new ListedChange(ListedChange.Kind.EXTRACT, List.of(rex.field()), at));
            case RexCommand rex -> {
              List<String> fields =
                  rex.groups().stream().map(RexCommand.Group::field).distinct().toList();
              yield fields.size() > MAX_EXTRACTED
                  ? null
                  : List.of(new ListedChange(ListedChange.Kind.EXTRACT, fields, at));
            }
            case LookupCommand lookup -> {
              List<String> fields = ListedCommands.outputs(lookup, tableColumns);
              if (fields != null && lookup.outputNew()) {
                loaded.addAll(fields); // whether the row has a value: the event's own too
              }
              yield fields == null || fields.isEmpty()
                  ? null
                  : List.of(new ListedChange(ListedChange.Kind.LOOKUP, fields, at));
            }
            case RenameCommand rename ->
                ListedCommands.renamedExactly(rename) ? renames(rename, at, loaded) : null;
            case BinCommand bin when bin.rowLocal() ->
                List.of(new ListedChange(ListedChange.Kind.LOOKUP, List.of(bin.as()), at));
            case EventStatsCommand eventstats -> overlay(eventstats, at);
            case StreamStatsCommand streamstats -> overlay(streamstats, at);
            case ProjectCommand project when project.kind() != ProjectCommand.Kind.TABLE ->
                project.patterns().stream().anyMatch(Wildcard::hasWildcard)
                    ? null
                    : List.of(
                        new ListedChange(
                            project.kind() == ProjectCommand.Kind.REMOVE
                                ? ListedChange.Kind.REMOVE
                                : ListedChange.Kind.KEEP,
                            project.patterns(),
                            at));
            case io.quarry.ql.ast.SubsearchCommand join
                when io.quarry.ql.exec.PageCommands.joinedFields(join) != null -> {
              // join sets each subsearch column as eval would (the row's own value where the
              // subsearch has none): the source reads them, so its column holds the row's own
              List<String> fields = io.quarry.ql.exec.PageCommands.joinedFields(join);
              loaded.addAll(fields);
              yield List.of(new ListedChange(ListedChange.Kind.ASSIGN, fields, at));
            }
            default -> ListedCommands.keepsEvents(command) ? List.of() : null;
          };
      if (made == null) {
        return null;
      }
      for (ListedChange change : made) {
        if (!change.fields().isEmpty()) {
          changes.add(change);
        }
      }
    }
    // a field eval or lookup sets that a later command sets again: whether it left the field a
    // value is marked after its stage (rex and rename are replayed from their own marks)
    for (int i = 0; i < changes.size(); i++) {
      ListedChange change = changes.get(i);
      if (change.kind() != ListedChange.Kind.ASSIGN && change.kind() != ListedChange.Kind.LOOKUP) {
        continue;
      }
      Set<String> valued = new LinkedHashSet<>();
      for (ListedChange later : changes.subList(i + 1, changes.size())) {
        change.fields().stream().filter(later.fields()::contains).forEach(valued::add);
      }
      if (!valued.isEmpty()) {
        changes.set(
            i, new ListedChange(change.kind(), change.fields(), change.stage(), valued, null, -1));
      }
    }
    // an overlay's result another command sets too, or its by-field a later one sets: whether the
    // row fell in a group and whether a result had a value are marked after its stage
    for (int i = 0; i < changes.size(); i++) {
      ListedChange change = changes.get(i);
      if (change.kind() != ListedChange.Kind.OVERLAY) {
        continue;
      }
      Set<String> valued = new LinkedHashSet<>();
      Set<String> groupBy = change.overlay().groupBy();
      for (int j = 0; j < changes.size(); j++) {
        for (String field : changes.get(j).fields()) {
          if (j != i && change.fields().contains(field) || j > i && groupBy.contains(field)) {
            valued.add(field);
          }
        }
      }
      if (!valued.isEmpty()) {
        changes.set(
            i,
            new ListedChange(
                ListedChange.Kind.OVERLAY,
                change.fields(),
                change.stage(),
                valued,
                change.overlay(),
                -1));
      }
    }
    return new ListedFields(changes, loaded);
  }

  /**
   * A literal {@code rename}'s pairs, in order: each moves its old name's value to its new name
   * where its stage marked it; the old names are loaded (moved where they have a value, the event's
   * own too).
   */
  private static List<ListedChange> renames(RenameCommand rename, int at, Set<String> loaded) {
    List<ListedChange> moves = new ArrayList<>();
    for (int pair = 0; pair < rename.renames().size(); pair++) {
      RenameCommand.Rename r = rename.renames().get(pair);
      loaded.add(r.from());
      moves.add(
          new ListedChange(
              ListedChange.Kind.RENAME, List.of(r.from(), r.to()), at, Set.of(), null, pair));
    }
    return moves;
  }

  /**
   * An {@code eventstats}/{@code streamstats} laid over the events ({@link EventOverlays} of the
   * one command), or null when that has no exact replay.
   */
  private static List<ListedChange> overlay(Command command, int at) {
    EventOverlays overlay = EventOverlays.of(List.of(command));
    return overlay == null
        ? null
        : List.of(
            new ListedChange(
                ListedChange.Kind.OVERLAY,
                List.copyOf(overlay.fields()),
                at,
                Set.of(),
                overlay,
                -1));
  }

  /**
   * The fields whose value after a stage the listing reads ({@link ListingMarks#valueColumn}), by
   * the stage's number.
   */
  Map<Integer, List<String>> valuesMarked() {
    Map<Integer, List<String>> marked = new HashMap<>();
    for (ListedChange change : changes) {
      if (!change.valued().isEmpty()) {
        marked.computeIfAbsent(change.stage(), stage -> new ArrayList<>()).addAll(change.valued());
      }
    }
    return marked;
  }

  /**
   * These changes of commands that run as stages {@code first}, … of the search (not {@code 0}, …):
   * the marks their stages make are named by those numbers ({@link ListingMarks}).
   */
  ListedFields fromStage(int first) {
    return new ListedFields(changes.stream().map(change -> change.movedBy(first)).toList(), loaded);
  }

  /**
   * These changes, then {@code later}'s (numbered by the stages they run as): the commands of one
   * listing that run in two runs with other commands between them ({@link PluginOverEvents}), taken
   * apart again by {@link #stagesBefore} and {@link #stagesFrom}.
   */
  ListedFields followedBy(ListedFields later) {
    List<ListedChange> all = new ArrayList<>(changes);
    all.addAll(later.changes);
    Set<String> loads = new HashSet<>(loaded);
    loads.addAll(later.loaded);
    return new ListedFields(all, loads);
  }

  /**
   * The changes of the commands run as stages before {@code stage} (the fields to load: all of
   * them, {@link #loaded}): those an {@code outputlookup} there sees ({@link EventTable}).
   */
  ListedFields stagesBefore(int stage) {
    return new ListedFields(
        changes.stream().filter(change -> change.stage() < stage).toList(), loaded);
  }

  /** The changes of the commands run as stages {@code stage} and after. */
  ListedFields stagesFrom(int stage) {
    return new ListedFields(
        changes.stream().filter(change -> change.stage() >= stage).toList(), loaded);
  }

  /**
   * The fields the source must read besides those the commands read: a rename's old names and an
   * {@code OUTPUTNEW} lookup's outputs, whose stages must see every event's value.
   */
  Set<String> loaded() {
    return loaded;
  }

  /** Whether a command changes the extraction's inputs, {@code _raw} or {@code sourcetype}. */
  boolean changesEventText() {
    return changed.contains(EventFields.RAW) || changed.contains(EventFields.SOURCETYPE);
  }

  /**
   * Whether any of the commands is a {@code fields} of names (a {@link ListedChange.Kind#KEEP}):
   * past it an event row's field list is final, every other field cleared ({@link ListingLayout}).
   * Without an {@code append}, a search runs it as a stage fixing the columns instead (the answer
   * no listing: {@link TimeOrderedShapes}).
   */
  boolean keeps() {
    return changes.stream().anyMatch(change -> change.kind() == ListedChange.Kind.KEEP);
  }

  /** Whether no command changes a row's fields (a plain listing). */
  boolean isEmpty() {
    return changes.isEmpty();
  }

  /**
   * The fields a {@code rex} sets where it finds a value: every event that has a value of its own
   * lists them too ({@link EventListing}), whether or not the rex matched it or another row of its
   * page — so that what a row lists does not hang on where the pages part.
   */
  Set<String> extracted() {
    return extracted;
  }

  /** Whether a command sets or removes {@code field}: its column is not the event's own. */
  boolean changes(String field) {
    return changed.contains(field);
  }

  /**
   * Replays the changes on a row's field names (the event's, in its order), in command order.
   *
   * @param hasValue whether the row's answer column of a field holds a value
   * @param cleared takes the fields the row no longer has: no value, not even the event's own
   */
  void apply(List<String> names, Predicate<String> hasValue, Set<String> cleared) {
    boolean kept = false; // past a fields of names: a field a later one lists has no value
    for (ListedChange change : changes) {
      if (kept && change.kind() == ListedChange.Kind.KEEP) {
        change.fields().stream().filter(field -> !names.contains(field)).forEach(cleared::add);
      }
      change.replay(names, hasValue, cleared);
      kept |= change.kind() == ListedChange.Kind.KEEP;
    }
  }

  /**
   * A field set on a row: listed (last when new) with a value, else no longer listed nor valued
   * (also how {@link EventOverlays} lays a result over a row).
   */
  static void set(String field, boolean hasValue, List<String> names, Set<String> cleared) {
    if (hasValue) {
      cleared.remove(field);
      if (!names.contains(field)) {
        names.add(field);
      }
    } else {
      names.remove(field);
      cleared.add(field);
    }
  }
}
