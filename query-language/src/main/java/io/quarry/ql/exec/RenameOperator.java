package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RenameCommand;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code rename}: each row is seen under new field names. A literal name renames that field whether
 * or not the row lists it (search-time fields of events are found on demand); a wildcard renames
 * every listed field it matches, the {@code *} part carried over. A renamed field replaces a field
 * that already had the new name, as in Splunk; the pairs apply left to right, so a name a pair
 * moved a value from or to and that no later pair left a value under has none, not even the event's
 * own ({@code rename a AS b, b AS c}: no {@code b}). Every other field of the row stays, as
 * Splunk's reference says: a command asking for every field ({@code table *}, {@code transaction},
 * {@code fillnull}) gets the event's extracted ones too, renamed where a pair names them. {@code
 * _time} renamed is epoch seconds, and a number renamed to {@code _time} is read as epoch seconds
 * ({@link TimeField}).
 */
public final class RenameOperator implements RowSink {
  private static final String RAW = "_raw";

  private final RenamedNames renamed;
  private final boolean hasWildcard;
  private final RowSink downstream;

  public RenameOperator(RenameCommand command, RowSink downstream) {
    this.renamed = new RenamedNames(requireNonNull(command, "command is null"));
    this.hasWildcard = renamed.hasWildcard();
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    // a wildcard matches search-time fields too (an event's are found only when asked for)
    List<String> names = hasWildcard ? row.discoverableFieldNames() : row.fieldNames();
    Set<String> moved = new HashSet<>();
    Map<String, String> sourceOf =
        renamed.sourceOf(names, field -> !row.values(field).isEmpty(), moved); // new -> old
    return downstream.accept(new Renamed(row, sourceOf, moved, hasWildcard ? null : renamed));
  }

  @Override
  public void finish() {
    downstream.finish();
  }

  /**
   * A row whose fields are looked up under new names; {@code moved}: the names a pair moved a value
   * from or to; {@code literal}: the renames, to rename its every field when asked (null: a
   * wildcard's, which renamed them all already).
   */
  private record Renamed(
      Row row, Map<String, String> sourceOf, Set<String> moved, RenamedNames literal)
      implements Row {
    @Override
    public List<Object> values(String field) {
      String source = sourceOf.get(field);
      if (source != null) {
        List<Object> values = row.values(source);
        if (TimeField.is(source) != TimeField.is(field)) {
          return TimeField.is(source) ? TimeField.seconds(values) : TimeField.micros(values);
        }
        return values;
      }
      // a field of the row that was renamed away, or replaced, has no value under its old name
      return moved.contains(field)
              || sourceOf.containsValue(field)
              || row.fieldNames().contains(field)
          ? List.of()
          : row.values(field);
    }

    @Override
    public List<String> fieldNames() {
      return new ArrayList<>(sourceOf.keySet());
    }

    /** Every field the row can yield, its extracted ones too, renamed as its listed ones are. */
    @Override
    public List<String> discoverableFieldNames() {
      if (literal == null) {
        return fieldNames();
      }
      return new ArrayList<>(
          literal.sourceOf(row.discoverableFieldNames(), f -> !row.values(f).isEmpty()).keySet());
    }

    /**
     * A bare word searches the row's {@code _raw} (Splunk's search reference: keywords are matched
     * against {@code _raw}): the event's text while the row has one, none once a pair renamed
     * {@code _raw} away and none put a value back under it ({@code rename _raw AS r}, {@code rename
     * _r* AS x*}) — as a row that {@code fields - _raw} left without it.
     */
    @Override
    public boolean matchesTerm(SearchTerm term) {
      return !(moved.contains(RAW) && !sourceOf.containsKey(RAW)) && row.matchesTerm(term);
    }
  }
}
