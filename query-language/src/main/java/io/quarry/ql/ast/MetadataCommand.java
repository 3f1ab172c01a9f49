package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code | metadata type=hosts|sources|sourcetypes [index=<name>]…}: one row per host, source or
 * sourcetype of the indexes, with {@code firstTime}, {@code lastTime}, {@code recentTime} (epoch
 * seconds) and {@code totalCount}. Planned as a {@code tstats} over the index.
 *
 * @param field {@code host}, {@code source} or {@code sourcetype}
 * @param type the {@code type=} as given ({@code hosts}, …), the rows' {@code type} value
 * @param indexes the {@code index=} values (names or patterns); none: the default indexes
 */
public record MetadataCommand(String field, String type, List<String> indexes, Position position)
    implements Command {
  public MetadataCommand {
    requireNonNull(field, "field is null");
    requireNonNull(type, "type is null");
    indexes = List.copyOf(indexes);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "metadata";
  }
}
