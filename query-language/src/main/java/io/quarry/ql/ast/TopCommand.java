package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code top} / {@code rare}: the most (least) common combinations of values of {@code fields}, per
 * group of {@code by}, with their count and percentage.
 *
 * @param rare true for {@code rare} (least common first)
 * @param limit combinations kept per group; 0 means all
 */
public record TopCommand(
    boolean rare,
    long limit,
    List<String> fields,
    List<String> by,
    String countField,
    String percentField,
    boolean showCount,
    boolean showPercent,
    Position position)
    implements Command {
  public static final long DEFAULT_LIMIT = 10;

  public TopCommand {
    fields = List.copyOf(fields);
    by = List.copyOf(by);
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("top needs at least one field");
    }
    requireNonNull(countField, "countField is null");
    requireNonNull(percentField, "percentField is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return rare ? "rare" : "top";
  }
}
