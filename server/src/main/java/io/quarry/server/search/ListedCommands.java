package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
   * moved a value, a new name given twice too), no name renamed to itself; and no later command
   * reads a name the row would ask its event for again, which the pages cannot: a name one pair
   * renames to and a later pair renames on ({@code b} in {@code a AS b, b AS c}), or the old name
   * of a pair whose new name a later pair gives again ({@code a} in {@code a AS c, b AS c}, where
   * {@code b} had a value) — {@code RenameOperator}'s row no longer maps it anywhere, and asks its
   * event for it where the event does not list it. A wildcard renames every field an event has,
   * extracted ones too: not replayed here ({@code RenameOverEvents}, {@link EveryFieldPlan}).
   */
  static boolean renamedExactly(RenameCommand rename, List<Command> later) {
    List<RenameCommand.Rename> renames = rename.renames();
    Set<String> to = new HashSet<>();
    Set<String> askedAgain = new HashSet<>();
    for (int i = 0; i < renames.size(); i++) {
      RenameCommand.Rename r = renames.get(i);
      if (Wildcard.hasWildcard(r.from())
          || Wildcard.hasWildcard(r.to())
          || r.from().equals(r.to())) {
        return false;
      }
      to.add(r.to());
      if (to.contains(r.from())) {
        askedAgain.add(r.from()); // renamed on
      }
      for (RenameCommand.Rename next : renames.subList(i + 1, renames.size())) {
        if (next.to().equals(r.to())) {
          askedAgain.add(r.from()); // its value replaced by a later pair's
        }
      }
    }
    if (askedAgain.isEmpty()) {
      return true;
    }
    if (later.stream().anyMatch(command -> command instanceof OutputLookupCommand)) {
      return false; // reads every field
    }
    Set<String> read = PageChain.inputFields(later, List.of());
    return askedAgain.stream().noneMatch(read::contains);
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
