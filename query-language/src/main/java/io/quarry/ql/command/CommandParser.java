package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;

/** Parses the arguments of one command, from just after its name up to the next {@code |}. */
@FunctionalInterface
public interface CommandParser {

  /**
   * @param reader positioned at the first argument
   * @param name the command's name token (for positions in errors)
   */
  Command parse(TokenReader reader, Token name);
}
