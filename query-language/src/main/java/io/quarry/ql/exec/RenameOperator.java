package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RenameCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rename}: each row is seen under new field names. A literal name renames that field whether
 * or not the row lists it (search-time fields of events are found on demand); a wildcard renames
 * every listed field it matches, the {@code *} part carried over. A renamed field replaces a field
 * that already had the new name, as in Splunk. {@code _time} renamed is epoch seconds, and a number
 * renamed to {@code _time} is read as epoch seconds ({@link TimeField}).
 */
public final class RenameOperator implements RowSink {
  private final List<RenameCommand.Rename> renames;
  private final List<Pattern> patterns;
  private final boolean hasWildcard;
  private final RowSink downstream;

  public RenameOperator(RenameCommand command, RowSink downstream) {
    this.renames = requireNonNull(command, "command is null").renames();
    this.patterns =
        renames.stream()
            .map(r -> Pattern.compile(Pattern.quote(r.from()).replace("*", "\\E(.*)\\Q")))
            .toList();
    this.hasWildcard = renames.stream().anyMatch(r -> r.from().contains("*"));
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    // new name -> old name, applied in order (a later rename sees the earlier one's result)
    Map<String, String> sourceOf = new LinkedHashMap<>();
    // a wildcard matches search-time fields too (an event's are found only when asked for)
    List<String> names =
        new ArrayList<>(hasWildcard ? row.discoverableFieldNames() : row.fieldNames());
    for (String name : names) {
      sourceOf.put(name, name);
    }
    for (int i = 0; i < renames.size(); i++) {
      RenameCommand.Rename rename = renames.get(i);
      Map<String, String> moves = new HashMap<>();
      if (rename.from().contains("*")) {
        for (String name : sourceOf.keySet()) {
          Matcher matcher = patterns.get(i).matcher(name);
          if (matcher.matches()) {
            moves.put(name, rename.to().replace("*", matcher.group(1)));
          }
        }
      } else if (sourceOf.containsKey(rename.from()) || !row.values(rename.from()).isEmpty()) {
        moves.put(rename.from(), rename.to());
      }
      if (!moves.isEmpty()) {
        sourceOf = moved(sourceOf, moves);
      }
    }
    return downstream.accept(new Renamed(row, sourceOf));
  }

  /**
   * The names after one rename: a renamed field keeps its place (Splunk's column order), one that
   * already had the new name is replaced, and a field found only on demand goes last.
   */
  private static Map<String, String> moved(
      Map<String, String> sourceOf, Map<String, String> moves) {
    Map<String, String> next = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : sourceOf.entrySet()) {
      String name = entry.getKey();
      String to = moves.get(name);
      if (to != null) {
        next.remove(to);
        next.put(to, entry.getValue());
      } else if (!moves.containsValue(name) && !next.containsKey(name)) {
        next.put(name, entry.getValue());
      }
    }
    for (Map.Entry<String, String> move : moves.entrySet()) {
      if (!sourceOf.containsKey(move.getKey())) {
        next.remove(move.getValue());
        next.put(move.getValue(), move.getKey());
      }
    }
    return next;
  }

  @Override
  public void finish() {
    downstream.finish();
  }

  /** A row whose fields are looked up under new names. */
  private record Renamed(Row row, Map<String, String> sourceOf) implements Row {
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
      // a field of the row that was renamed away has no value under its old name
      return sourceOf.containsValue(field) || row.fieldNames().contains(field)
          ? List.of()
          : row.values(field);
    }

    @Override
    public List<String> fieldNames() {
      return new ArrayList<>(sourceOf.keySet());
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return row.matchesTerm(term);
    }
  }
}
