package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.List;

/**
 * A command that stands for several ({@code multisearch}, {@code union}): its parser answers the
 * commands the {@link io.quarry.ql.parser.Parser} splices into the pipeline in its place.
 */
public interface PipelineParser {

  /**
   * Reads one use, from just after the command's name to the end of the command.
   *
   * @param first whether the command begins the query (after a leading {@code |})
   * @throws io.quarry.ql.parser.QueryParseException at the offending token
   */
  List<Command> parse(TokenReader reader, Token name, boolean first);
}
