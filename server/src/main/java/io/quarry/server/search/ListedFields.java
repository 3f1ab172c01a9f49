package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the row-local commands after an event listing change the fields each row lists, so that
 * {@link EventListing} lays out {@code index=web | eval kb=bytes/1024} as the row engine's
 * collector pages the rows: on rows an {@code eval} lays its assignments over the event ({@code
 * AssignedRow}: a field set to a value is listed — after the row's own fields when it is new —, one
 * set to null is no longer listed and has no value), and {@code fields -} of literal names hides
 * those fields (no longer listed, no value). A field a row does not list but another row of its
 * page does is, on rows, asked of the event (its search-time value); one the row's commands removed
 * has none ({@link #apply}'s {@code cleared}).
 *
 * <p>The changes are replayed per row at the end from the answer's columns, not tracked stage by
 * stage: whether an assignment left a value is read off the field's final column, so each field is
 * assigned by one {@code eval} at most, and no command touches a default field (whose column {@link
 * EventListing} lists for every row, and whose {@code _raw} and {@code sourcetype} the extraction
 * reads). Any other pipeline runs on rows.
 */
final class ListedFields {
  /** One change to a row's fields: a field assigned, or removed. */
  private record Change(String field, boolean removes) {}

  private final List<Change> changes;
  private final Set<String> assigned;

  private ListedFields(List<Change> changes) {
    this.changes = List.copyOf(changes);
    Set<String> fields = new LinkedHashSet<>();
    changes.forEach(change -> fields.add(change.field()));
    this.assigned = Set.copyOf(fields);
  }

  /**
   * The changes of the commands after an event listing, or null when one of them is neither a
   * command that keeps the events ({@link TimeOrderedPages#keepsEvents}) nor a change this replays.
   * Empty for a plain listing.
   */
  static ListedFields of(List<Command> commands) {
    List<Change> changes = new ArrayList<>();
    Set<String> evaluated = new HashSet<>();
    for (Command command : commands) {
      switch (command) {
        case EvalCommand eval -> {
          Set<String> fields = new LinkedHashSet<>(); // first-assigned order, as the row's map
          eval.assignments().forEach(assignment -> fields.add(assignment.field()));
          for (String field : fields) {
            if (!evaluated.add(field) || EventListing.DEFAULT_ORDER.contains(field)) {
              return null;
            }
            changes.add(new Change(field, false));
          }
        }
        case ProjectCommand project when project.kind() == ProjectCommand.Kind.REMOVE -> {
          for (String field : project.patterns()) {
            if (Wildcard.hasWildcard(field) || EventListing.DEFAULT_ORDER.contains(field)) {
              return null;
            }
            changes.add(new Change(field, true));
          }
        }
        default -> {
          if (!TimeOrderedPages.keepsEvents(command)) {
            return null;
          }
        }
      }
    }
    return new ListedFields(changes);
  }

  /** Whether no command changes a row's fields (a plain listing). */
  boolean isEmpty() {
    return changes.isEmpty();
  }

  /** Whether a command assigns or removes {@code field}: its column is not the event's own. */
  boolean changes(String field) {
    return assigned.contains(field);
  }

  /**
   * Replays the changes on a row's field names (the event's, in its order), in command order.
   *
   * @param hasValue whether the row's answer column of a field holds a value
   * @param cleared takes the fields the row no longer has: no value, not even the event's own
   */
  void apply(List<String> names, Predicate<String> hasValue, Set<String> cleared) {
    for (Change change : changes) {
      String field = change.field();
      if (!change.removes() && hasValue.test(field)) {
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
}
