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
 * the fields. The hint names the command it is about and says "may": the refusal is of the whole
 * combination, and the command named is the usual cause, not a proven one. Null where neither is in
 * the search: the message then gives no hint.
 */
final class RefusalHints {
  private RefusalHints() {}

  /** The hint for {@code commands}, null when none fits. */
  static String of(List<Command> commands) {
    if (commands.stream().anyMatch(RefusalHints::joinsOnCommonFields)) {
      return "the join without fields may be the cause: naming the fields it matches on"
          + " (join host [search …]) may let the search run";
    }
    if (commands.stream().anyMatch(RefusalHints::renamesByWildcard)) {
      return "the wildcard rename may be the cause: naming the fields it renames instead"
          + " may let the search run";
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
