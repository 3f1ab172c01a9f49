package io.quarry.ql.exec;

import io.quarry.ql.ast.RenameCommand;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The field names a row lists after a {@code rename}, each with the name its value comes from — the
 * renaming of a row's names, replayed per row over an every-field listing's names ({@code
 * RenameOverEvents}). The pairs apply in order, a later one seeing the earlier ones' result: a
 * wildcard renames every listed name it matches, the {@code *} part carried over; a literal name
 * renames that field where the row lists it or holds a value of it. A renamed field keeps its place
 * and replaces a field that had the new name; one the row held without listing it goes last.
 */
public final class RenamedNames {
  private final List<RenameCommand.Rename> renames;
  private final List<Pattern> patterns;

  public RenamedNames(RenameCommand command) {
    this.renames = command.renames();
    this.patterns =
        renames.stream()
            .map(r -> Pattern.compile(Pattern.quote(r.from()).replace("*", "\\E(.*)\\Q")))
            .toList();
  }

  /** Whether a pair names fields by a wildcard (it then renames the row's every field). */
  public boolean hasWildcard() {
    return renames.stream().anyMatch(r -> r.from().contains("*"));
  }

  /**
   * The names after the renames, in order, each mapped to the name its value comes from.
   *
   * @param names the names the row lists, in its order
   * @param holds whether the row, as it came, holds a value of a name it does not list
   */
  public Map<String, String> sourceOf(List<String> names, Predicate<String> holds) {
    return sourceOf(names, holds, new java.util.HashSet<>());
  }

  /**
   * As above; {@code moved} takes every name a pair moved a value from or to — once moved, a name
   * that is not among the result's names has no value at all (Splunk renames pair by pair, left to
   * right: {@code rename a AS b, b AS c} leaves no {@code b}, not the event's own).
   */
  public Map<String, String> sourceOf(
      List<String> names, Predicate<String> holds, java.util.Set<String> moved) {
    Map<String, String> sourceOf = new LinkedHashMap<>();
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
      } else if (sourceOf.containsKey(rename.from()) || holds.test(rename.from())) {
        moves.put(rename.from(), rename.to());
      }
      if (!moves.isEmpty()) {
        moved.addAll(moves.keySet());
        moved.addAll(moves.values());
        sourceOf = moved(sourceOf, moves);
      }
    }
    return sourceOf;
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
}
