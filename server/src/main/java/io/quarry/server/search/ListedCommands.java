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
   * Whether a literal {@code rename} replays exactly, pair by pair: each new name once (its stage
   * marks where it set it), no name renamed to itself; and a name one pair renames to and a later
   * pair renames on ({@code b} in {@code a AS b, b AS c}) read by no later command — {@code
   * RenameOperator}'s row asks its event for {@code b} again where the event does not list it,
   * which the pages cannot. A wildcard renames every field an event has, extracted ones too: on
   * rows.
   */
  static boolean renamedExactly(RenameCommand rename, List<Command> later) {
    Set<String> to = new HashSet<>();
    Set<String> renamedOn = new HashSet<>();
    for (RenameCommand.Rename r : rename.renames()) {
      if (Wildcard.hasWildcard(r.from())
          || Wildcard.hasWildcard(r.to())
          || r.from().equals(r.to())
          || !to.add(r.to())) {
        return false;
      }
      if (to.contains(r.from())) {
        renamedOn.add(r.from());
      }
    }
    if (renamedOn.isEmpty()) {
      return true;
    }
    if (later.stream().anyMatch(command -> command instanceof OutputLookupCommand)) {
      return false; // reads every field
    }
    Set<String> read = PageChain.inputFields(later, List.of());
    return renamedOn.stream().noneMatch(read::contains);
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
