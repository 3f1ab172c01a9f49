package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the row-local commands after an event listing change the fields each row lists, so that
 * {@link EventListing} lays out {@code index=web | eval kb=bytes/1024} as the row engine's
 * collector pages the rows: on rows an {@code eval} lays its assignments over the event ({@code
 * AssignedRow}: a field set to a value is listed — after the row's own fields when it is new —, one
 * set to null is no longer listed and has no value), {@code rex} sets the fields it finds a value
 * for (never to null), and {@code fields -} of literal names hides those fields (no longer listed,
 * no value). A field a row does not list but another row of its page does is, on rows, asked of the
 * event (its search-time value); one the row's commands removed has none ({@link #apply}'s {@code
 * cleared}).
 *
 * <p>The changes are replayed per row at the end from the answer's columns, not tracked stage by
 * stage: whether an assignment left a value is read off the field's final column, so each field is
 * set by one command at most ({@code fields -} of it before or after is fine), no command touches a
 * default field (whose column {@link EventListing} lists for every row, and whose {@code _raw} and
 * {@code sourcetype} the extraction reads), and a field {@code rex} extracts is not one the source
 * reads (then its column holds a value only where the row lists it or {@code rex} set it). Any
 * other pipeline runs on rows.
 */
final class ListedFields {
  /** How a command changes the fields it names at a row (see {@link #apply}). */
  private enum Kind {
    /** {@code eval}: each field set at every row; a null is no field at all. */
    ASSIGN,
    /**
     * {@code rex}: each field set where it found a value (never to null), the new ones listed in
     * the order of the row command's {@code HashMap} of them.
     */
    EXTRACT,
    /**
     * {@code lookup}: where its key matched ({@code marker}'s column holds a value), each output
     * field set to the table's value, null included; elsewhere nothing.
     */
    LOOKUP,
    /** {@code fields -}: each field no longer listed and without a value. */
    REMOVE
  }

  /** One command's change to a row's fields ({@code marker}: a lookup's matched column). */
  private record Change(Kind kind, List<String> fields, String marker) {
    Change(Kind kind, List<String> fields) {
      this(kind, fields, null);
    }
  }

  /** A command that keeps the events and their fields. */
  private static final Change KEEPS = new Change(Kind.REMOVE, List.of());

  /** Fields of one {@code rex} replayed exactly: below a {@code HashMap}'s first resize. */
  private static final int MAX_EXTRACTED = 12;

  private final List<Change> changes;
  private final Set<String> changed;

  private ListedFields(List<Change> changes) {
    this.changes = List.copyOf(changes);
    Set<String> fields = new LinkedHashSet<>();
    changes.forEach(change -> fields.addAll(change.fields()));
    this.changed = Set.copyOf(fields);
  }

  /**
   * The changes of the commands after an event listing, or null when one of them is neither a
   * command that keeps the events ({@link TimeOrderedPages#keepsEvents}) nor a change this replays.
   * Empty for a plain listing.
   */
  static ListedFields of(List<Command> commands) {
    List<Change> changes = new ArrayList<>();
    Set<String> unread = new HashSet<>(); // fields the source must not read (see below)
    Set<String> seen = new HashSet<>(); // each field set by one command at most
    for (int at = 0; at < commands.size(); at++) {
      Command command = commands.get(at);
      Change change =
          switch (command) {
            case EvalCommand eval -> {
              Set<String> fields = new LinkedHashSet<>(); // first-assigned order, as the row's map
              eval.assignments().forEach(assignment -> fields.add(assignment.field()));
              yield new Change(Kind.ASSIGN, List.copyOf(fields));
            }
            case RexCommand rex when rex.sed() != null ->
                new Change(Kind.EXTRACT, List.of(rex.field()));
            case RexCommand rex -> {
              List<String> fields =
                  rex.groups().stream().map(RexCommand.Group::field).distinct().toList();
              unread.addAll(fields);
              yield fields.size() > MAX_EXTRACTED ? null : new Change(Kind.EXTRACT, fields);
            }
            case LookupCommand lookup -> {
              // its outputs named (else the table's columns decide them), not OUTPUTNEW (which
              // asks the row for the event's search-time value)
              List<String> fields =
                  lookup.outputs().stream()
                      .map(LookupCommand.FieldMapping::field)
                      .distinct()
                      .toList();
              unread.addAll(fields);
              yield fields.isEmpty() || lookup.outputNew()
                  ? null
                  : new Change(Kind.LOOKUP, fields, PageReduce.lookupMatchedColumn(at));
            }
            case ProjectCommand project when project.kind() == ProjectCommand.Kind.REMOVE ->
                project.patterns().stream().anyMatch(Wildcard::hasWildcard)
                    ? null
                    : new Change(Kind.REMOVE, project.patterns());
            default -> TimeOrderedPages.keepsEvents(command) ? KEEPS : null;
          };
      if (change == null) {
        return null;
      }
      for (String field : change.fields()) {
        if (change.kind() != Kind.REMOVE && !seen.add(field)
            || EventListing.DEFAULT_ORDER.contains(field)) {
          return null;
        }
      }
      if (!change.fields().isEmpty()) {
        changes.add(change);
      }
    }
    // a field the source reads holds every event's value, listed or not: where rex or lookup did
    // not set it, its column would hold the event's search-time value, and whether they set it
    // could not be told from the column
    Set<String> read = PageChain.inputFields(commands, List.of());
    return unread.stream().anyMatch(read::contains) ? null : new ListedFields(changes);
  }

  /** Whether no command changes a row's fields (a plain listing). */
  boolean isEmpty() {
    return changes.isEmpty();
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
    for (Change change : changes) {
      switch (change.kind()) {
        case ASSIGN -> change.fields().forEach(f -> set(f, hasValue.test(f), names, cleared));
        case EXTRACT -> {
          // a field rex did not set holds a value only where the row lists it already (the
          // source does not read it), so the new names are those it set, in its map's order
          // (RexExtraction's maps: default capacity, filled in group order, then copied by put)
          Map<String, Object> found = new HashMap<>();
          for (String field : change.fields()) {
            if (hasValue.test(field)) {
              found.put(field, field);
            }
          }
          Map<String, Object> assigned = new HashMap<>();
          found.forEach(assigned::put);
          for (String field : assigned.keySet()) {
            cleared.remove(field);
            if (!names.contains(field)) {
              names.add(field);
            }
          }
        }
        case LOOKUP -> {
          if (hasValue.test(change.marker())) { // as eval, at the rows whose key matched
            change.fields().forEach(f -> set(f, hasValue.test(f), names, cleared));
          }
        }
        case REMOVE -> {
          for (String field : change.fields()) {
            names.remove(field);
            cleared.add(field);
          }
        }
      }
    }
  }

  /**
   * A field set on a row: listed (last when new) with a value, else no longer listed nor valued.
   */
  private static void set(String field, boolean hasValue, List<String> names, Set<String> cleared) {
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
