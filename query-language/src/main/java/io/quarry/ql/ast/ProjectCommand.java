package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code table f, …} (exactly these columns, in this order), {@code fields [+] f, …} (keep these,
 * and the internal {@code _time} and {@code _raw}) and {@code fields - f, …} (drop these). Names
 * may hold {@code *} wildcards.
 */
public record ProjectCommand(Kind kind, List<String> patterns, Position position)
    implements Command {
  public enum Kind {
    TABLE,
    KEEP,
    REMOVE
  }

  /**
   * The internal fields {@code fields} keeps where the row has them, in the order it lists them.
   */
  public static final List<String> KEPT_INTERNAL = List.of("_time", "_raw");

  public ProjectCommand {
    requireNonNull(kind, "kind is null");
    patterns = List.copyOf(patterns);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return kind == Kind.TABLE ? "table" : "fields";
  }
}
