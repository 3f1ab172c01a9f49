package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code dedup [N] f, … [keepempty=bool] [consecutive=bool] [sortby key, …]}: keeps the first
 * {@code count} results of each combination of values of the fields. Results missing a field are
 * dropped unless {@code keepEmpty}; with {@code consecutive} only adjacent duplicates are removed.
 */
public record DedupCommand(
    long count,
    List<String> fields,
    boolean keepEmpty,
    boolean consecutive,
    List<SortKey> sortBy,
    Position position)
    implements Command {
  public DedupCommand {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1: " + count);
    }
    fields = List.copyOf(fields);
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("dedup needs at least one field");
    }
    sortBy = List.copyOf(sortBy);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "dedup";
  }
}
