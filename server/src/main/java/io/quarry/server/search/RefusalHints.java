package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.exec.Wildcard;
import java.util.List;

/**
 * The rewrite a refused search ({@link SearchFailures#notSupported}) is told to try, by the form
 * that has no page stage yet (docs/design/row-engine-retirement.md, "What is refused now"): a
 * {@code join} without fields (on the fields both sides have) among commands it cannot follow or
 * precede — name its fields —, or a wildcard {@code rename} among commands it cannot precede — name
 * the fields. Null where neither is in the search: the message then gives no hint rather than a
 * wrong one.
 */
final class RefusalHints {
  private RefusalHints() {}

  /** The hint for {@code commands}, null when none fits. */
  static String of(List<Command> commands) {
    if (commands.stream().anyMatch(RefusalHints::joinsOnCommonFields)) {
      return "name the fields the join matches on (join host [search …])";
    }
    if (commands.stream().anyMatch(RefusalHints::renamesByWildcard)) {
      return "name the fields the rename renames instead of a wildcard";
    }
    return null;
  }

  private static boolean joinsOnCommonFields(Command command) {
    return command instanceof SubsearchCommand sub
        && sub.kind() == SubsearchCommand.Kind.JOIN
        && sub.join().fields().isEmpty();
  }

  private static boolean renamesByWildcard(Command command) {
    return command instanceof RenameCommand rename
        && rename.renames().stream().anyMatch(r -> Wildcard.hasWildcard(r.from()));
  }
}
