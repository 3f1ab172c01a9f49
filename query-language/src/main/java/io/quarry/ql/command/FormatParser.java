package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.FormatCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code format [mvsep=s] [maxresults=n] ["rowPrefix" "colPrefix" "colSep" "colEnd" "rowSep"
 * "rowEnd"] [emptystr=s]}; the six delimiters come all together or not at all, as in Splunk.
 */
final class FormatParser implements CommandParser {
  private static final Set<String> OPTIONS = Set.of("mvsep", "maxresults", "emptystr");

  @Override
  public Command parse(TokenReader reader, Token name) {
    FormatCommand defaults = FormatCommand.defaults(name.position());
    String mvsep = defaults.mvsep();
    long maxResults = 0;
    String emptyStr = defaults.emptyStr();
    List<String> delimiters = new ArrayList<>();
    Token firstDelimiter = null;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "format", OPTIONS);
        switch (option.name()) {
          case "mvsep" -> mvsep = option.value().text();
          case "maxresults" -> maxResults = Arguments.count(reader, option.value(), "maxresults");
          default -> emptyStr = option.value().text();
        }
      } else if (reader.at(TokenType.QUOTED) && delimiters.size() < 6) {
        Token delimiter = reader.next();
        if (firstDelimiter == null) {
          firstDelimiter = delimiter;
        }
        delimiters.add(delimiter.text());
      } else {
        throw reader.unexpected(
            reader.peek(),
            "mvsep=, maxresults=, emptystr=, the six quoted delimiters, '|' or the end");
      }
    }
    if (!delimiters.isEmpty() && delimiters.size() != 6) {
      throw reader.error(
          firstDelimiter,
          "format takes all six delimiters or none: \"row prefix\" \"column prefix\" \"column"
              + " separator\" \"column end\" \"row separator\" \"row end\"",
          "six quoted strings");
    }
    return new FormatCommand(
        mvsep,
        maxResults,
        delimiters.isEmpty() ? FormatCommand.DEFAULT_DELIMITERS : delimiters,
        emptyStr,
        name.position());
  }
}
