package io.quarry.server.search;

import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.exec.ListingMarks;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One command's change to a row's fields, as {@link ListedFields} replays it over a row's listed
 * names ({@link #replay}); {@code stage}: the command's position, for its marks; {@code valued}:
 * the fields a later command sets again, whose value after it its stage's page marks.
 */
record ListedChange(
    ListedChange.Kind kind,
    List<String> fields,
    int stage,
    Set<String> valued,
    EventOverlays overlay,
    int pair) {
  /** How a command changes the fields it names at a row (see {@link #replay}). */
  enum Kind {
    /** {@code eval}: each field set at every row; a null is no field at all. */
    ASSIGN,
    /**
     * {@code rex}: each field set where it found a value (never to null), the new ones listed in
     * the order of {@code rex}'s {@code HashMap} of them ({@code RexExtraction}).
     */
    EXTRACT,
    /**
     * {@code lookup}: each output field set where marked to the table's value, null included;
     * {@code bin} with a span: its as-field set where marked (its field had a value).
     */
    LOOKUP,
    /** {@code rename a AS b} ({@code fields}: a, b): a moved to b where marked. */
    RENAME,
    /** {@code fields -}: each field no longer listed and without a value. */
    REMOVE,
    /**
     * {@code fields} of literal names: the row lists those names in that order (with a value or
     * not, as the stage makes a column of each), then {@code _time} and {@code _raw} where it
     * listed them; every other field it listed no longer listed and without a value.
     */
    KEEP,
    /**
     * {@code eventstats}/{@code streamstats}: its results set where the row fell in a group, as
     * {@link EventOverlays} replays them ({@code fields}: the results).
     */
    OVERLAY
  }

  ListedChange(Kind kind, List<String> fields, int stage) {
    this(kind, fields, stage, Set.of(), null, -1);
  }

  /** The column in which the command's stage marks where it set {@code field}. */
  String mark(String field) {
    return ListingMarks.setColumn(
        stage, kind == Kind.RENAME ? ListingMarks.renamedPair(pair, field) : field);
  }

  /**
   * Whether {@code field} has a value after this command: where a later command sets it again, as
   * its stage's page marked; else as the answer's column holds it.
   */
  boolean hasValue(String field, Predicate<String> hasValue) {
    return hasValue.test(valued.contains(field) ? ListingMarks.valueColumn(stage, field) : field);
  }

  /** This change of a command that runs as stage {@code first + stage} of the search. */
  ListedChange movedBy(int first) {
    return new ListedChange(kind, fields, first + stage, valued, overlay, pair);
  }

  /**
   * Replays this change on a row's field names (the event's, in its order).
   *
   * @param hasValue whether the row's answer column of a field holds a value
   * @param cleared takes the fields the row no longer has: no value, not even the event's own
   */
  void replay(List<String> names, Predicate<String> hasValue, Set<String> cleared) {
    switch (kind) {
      case ASSIGN ->
          fields.forEach(f -> ListedFields.set(f, hasValue(f, hasValue), names, cleared));
      case EXTRACT -> {
        // the new names are those it set, in its map's order (RexExtraction's maps: default
        // capacity, filled in group order, then copied by put)
        Map<String, Object> found = new HashMap<>();
        for (String field : fields) {
          if (hasValue.test(mark(field))) {
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
      case LOOKUP -> { // as eval, in output order, where it set the field
        for (String field : fields) {
          if (hasValue.test(mark(field))) {
            ListedFields.set(field, hasValue(field, hasValue), names, cleared);
          }
        }
      }
      case RENAME -> {
        String from = fields.get(0);
        String to = fields.get(1);
        if (hasValue.test(mark(to))) { // in the old name's place, else last
          names.remove(to);
          int at = names.indexOf(from);
          if (at >= 0) {
            names.set(at, to);
          } else {
            names.add(to);
          }
          cleared.add(from);
          cleared.remove(to);
        }
      }
      case REMOVE -> {
        for (String field : fields) {
          names.remove(field);
          cleared.add(field);
        }
      }
      case KEEP -> {
        Set<String> kept = new LinkedHashSet<>(fields);
        ProjectCommand.KEPT_INTERNAL.stream().filter(names::contains).forEach(kept::add);
        names.stream().filter(name -> !kept.contains(name)).forEach(cleared::add);
        names.clear();
        names.addAll(kept);
      }
      case OVERLAY ->
          overlay.apply(names, field -> hasValue(field, hasValue), field -> List.of(), cleared);
    }
  }
}
