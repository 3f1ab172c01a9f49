package io.quarry.server.search;

import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Which forms of the commands after an event listing {@link ListedFields} replays exactly, and the
 * fields they set where that depends on more than the command's text: a {@code rename}'s pairs, a
 * {@code lookup}'s outputs.
 */
final class ListedCommands {
  private ListedCommands() {}

  /**
   * Whether a literal {@code rename} replays exactly, pair by pair (its stage marks where each pair
   * moved a value, a new name given twice too), no name renamed to itself. A name a pair moved a
   * value from or to and that no later pair left a value under has none — {@code b} in {@code a AS
   * b, b AS c}, {@code a} in {@code a AS c, b AS c} — no column on the page (Splunk renames pair by
   * pair, left to right), so a later command may read it. A wildcard renames every field an event
   * has, extracted ones too: not replayed here ({@code RenameOverEvents}, {@link EveryFieldPlan}).
   */
  static boolean renamedExactly(RenameCommand rename) {
    return rename.renames().stream()
        .noneMatch(
            r ->
                Wildcard.hasWildcard(r.from())
                    || Wildcard.hasWildcard(r.to())
                    || r.from().equals(r.to()));
  }

  /**
   * A lookup's output fields: those named, else the table's columns but its keys; null when the
   * table is unknown.
   */
  static List<String> outputs(LookupCommand lookup, Function<String, List<String>> tableColumns) {
    if (!lookup.outputs().isEmpty()) {
      return lookup.outputs().stream().map(LookupCommand.FieldMapping::field).distinct().toList();
    }
    List<String> columns = tableColumns.apply(lookup.table());
    if (columns == null) {
      return null;
    }
    List<String> outputs = new ArrayList<>();
    for (String column : columns) {
      if (lookup.keys().stream().noneMatch(key -> key.column().equals(column))
          && !outputs.contains(column)) {
        outputs.add(column);
      }
    }
    return outputs;
  }
}
