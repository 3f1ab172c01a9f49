package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.parser.SubsearchParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code append [maxout=n] [maxtime=s] [ … ]}, {@code appendcols [override=b] [maxout=n]
 * [maxtime=s] [ … ]} and {@code join [type=inner|left|outer] [max=n] [overwrite=b] [field, …] [ …
 * ]}.
 */
final class SubsearchCommandParser implements CommandParser {
  private final SubsearchCommand.Kind kind;

  SubsearchCommandParser(SubsearchCommand.Kind kind) {
    this.kind = kind;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    String command = kind.name().toLowerCase(Locale.ROOT);
    Set<String> known =
        switch (kind) {
          case APPEND -> Set.of("maxout", "maxtime");
          case APPENDCOLS -> Set.of("maxout", "maxtime", "override");
          case JOIN -> Set.of("type", "max", "overwrite", "usetime", "earlier", "left", "right");
        };
    long maxOut = kind.defaultMaxOut();
    long maxTime = SubsearchCommand.DEFAULT_MAX_TIME_SECONDS;
    boolean override = false;
    SubsearchCommand.JoinType type = SubsearchCommand.JoinType.INNER;
    long max = 1;
    boolean overwrite = true;
    List<String> fields = new ArrayList<>();
    while (!SubsearchParser.at(reader)) {
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "a subsearch in '[ ]' for " + command);
      }
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, command, known);
        Token value = option.value();
        switch (option.name()) {
          case "maxout" -> maxOut = positive(reader, value, "maxout");
          case "maxtime" -> maxTime = positive(reader, value, "maxtime");
          case "override" -> override = Arguments.bool(reader, value);
          case "max" -> max = Arguments.count(reader, value, "join max");
          case "overwrite" -> overwrite = Arguments.bool(reader, value);
          case "type" -> type = joinType(reader, value);
          default ->
              throw reader.error(
                  option.nameToken(),
                  "join's " + option.name() + "= is not supported yet",
                  "type=, max=, overwrite=, the join fields and the subsearch");
        }
      } else if (kind == SubsearchCommand.Kind.JOIN) {
        if (reader.at(TokenType.COMMA)) {
          reader.next();
          continue;
        }
        fields.add(reader.readValue("a join field or the subsearch '[ … ]'").text());
      } else {
        throw reader.unexpected(
            reader.peek(), "one of " + String.join("=, ", known) + "= or the subsearch '[ … ]'");
      }
    }
    Subsearch subsearch = SubsearchParser.read(reader);
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after the subsearch");
    }
    SubsearchCommand.Join join =
        kind == SubsearchCommand.Kind.JOIN
            ? new SubsearchCommand.Join(type, max, overwrite, fields)
            : null;
    return new SubsearchCommand(
        kind, maxOut, maxTime, join, override, subsearch, null, name.position());
  }

  private static long positive(TokenReader reader, Token value, String what) {
    long number = Arguments.count(reader, value, what);
    if (number < 1) {
      throw reader.error(value, what + " must be at least 1", "a positive whole number");
    }
    return number;
  }

  private static SubsearchCommand.JoinType joinType(TokenReader reader, Token value) {
    return switch (value.text().toLowerCase(Locale.ROOT)) {
      case "inner" -> SubsearchCommand.JoinType.INNER;
      case "left" -> SubsearchCommand.JoinType.LEFT;
      case "outer" -> SubsearchCommand.JoinType.OUTER;
      default ->
          throw reader.error(
              value, "join type must be inner, left or outer, not '" + value.text() + "'", "inner");
    };
  }
}
