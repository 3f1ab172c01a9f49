package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code rex [field=f] [max_match=N] "regex"}: extracts the regex's named groups as fields (with
 * {@code max_match} other than 1, every match: multivalues; 0 means unlimited), or {@code rex
 * [field=f] mode=sed "s/regex/replacement/[g|N]"} / {@code "y/from/to/"}: rewrites the field.
 *
 * @param regex the Java regex, group names rewritten to Java-legal ones
 * @param groups the named groups, in order: Java group name and the field it fills
 */
public record RexCommand(
    String field, String regex, List<Group> groups, long maxMatch, Sed sed, Position position)
    implements Command {

  /** A sed expression: {@code s} (substitute the given or every occurrence) or {@code y}. */
  public record Sed(boolean transliterate, String from, String to, int occurrence) {
    /** {@code occurrence} 0: every one ({@code g}). */
    public Sed {
      requireNonNull(from, "from is null");
      requireNonNull(to, "to is null");
    }
  }

  public RexCommand {
    requireNonNull(field, "field is null");
    groups = List.copyOf(groups);
    requireNonNull(position, "position is null");
    if (sed == null) {
      requireNonNull(regex, "regex is null");
    }
  }

  /** A named group of the regex and the field it fills. */
  public record Group(String javaName, String field) {}

  @Override
  public String name() {
    return "rex";
  }
}
