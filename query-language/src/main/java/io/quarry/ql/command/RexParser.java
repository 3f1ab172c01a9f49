package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code rex [field=f] [max_match=N] [mode=sed] "expression"}. Group names may use PCRE's {@code
 * (?P<name>…)} and underscores (Java allows neither), so groups are renamed {@code g1}, {@code g2},
 * … and mapped back to their fields.
 */
final class RexParser implements CommandParser {
  private static final Set<String> OPTIONS = Set.of("field", "max_match", "mode", "offset_field");
  private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?P?<([A-Za-z_][A-Za-z0-9_]*)>");

  @Override
  public Command parse(TokenReader reader, Token name) {
    String field = "_raw";
    long maxMatch = 1;
    boolean sed = false;
    Token expression = null;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "rex", OPTIONS);
        switch (option.name()) {
          case "field" -> field = option.value().text();
          case "max_match" -> maxMatch = Arguments.count(reader, option.value(), "rex max_match");
          case "mode" -> {
            if (!option.value().text().equalsIgnoreCase("sed")) {
              throw reader.error(option.value(), "rex mode must be sed", "sed");
            }
            sed = true;
          }
          default ->
              throw reader.error(
                  option.nameToken(),
                  "rex offset_field is not supported yet",
                  "field, max_match or mode");
        }
      } else if (expression == null) {
        expression = reader.expect(TokenType.QUOTED, "the regular expression in double quotes");
      } else {
        throw reader.unexpected(reader.peek(), "an option, '|' or the end of the query");
      }
    }
    if (expression == null) {
      throw reader.unexpected(reader.peek(), "the regular expression in double quotes");
    }
    if (sed) {
      return new RexCommand(
          field, null, List.of(), maxMatch, sed(reader, expression), name.position());
    }
    List<RexCommand.Group> groups = new ArrayList<>();
    Matcher named = NAMED_GROUP.matcher(expression.text());
    StringBuilder regex = new StringBuilder();
    while (named.find()) {
      String javaName = "g" + (groups.size() + 1);
      groups.add(new RexCommand.Group(javaName, named.group(1)));
      named.appendReplacement(regex, Matcher.quoteReplacement("(?<" + javaName + ">"));
    }
    named.appendTail(regex);
    if (groups.isEmpty()) {
      throw reader.error(
          expression,
          "rex needs at least one named group such as (?<field>…)",
          "a regex with a named group");
    }
    compile(reader, expression, regex.toString());
    return new RexCommand(
        field,
        regex.toString(),
        groups,
        maxMatch == 0 ? Long.MAX_VALUE : maxMatch,
        null,
        name.position());
  }

  /** {@code s/regex/replacement/flags} or {@code y/from/to/}. */
  private static RexCommand.Sed sed(TokenReader reader, Token expression) {
    String text = expression.text();
    if (text.length() < 2 || (text.charAt(0) != 's' && text.charAt(0) != 'y')) {
      throw reader.error(
          expression,
          "a sed expression starts with s/ or y/",
          "s/regex/replacement/ or y/from/to/");
    }
    char delimiter = text.charAt(1);
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    for (int i = 2; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == delimiter) {
        part.append(delimiter);
        i++;
      } else if (c == delimiter) {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString());
    if (parts.size() != 3) {
      throw reader.error(
          expression, "malformed sed expression '" + text + "'", "s/regex/replacement/flags");
    }
    if (text.charAt(0) == 'y') {
      if (parts.get(0).length() != parts.get(1).length()) {
        throw reader.error(expression, "y/// needs as many characters to as from", "equal lengths");
      }
      return new RexCommand.Sed(true, parts.get(0), parts.get(1), 0);
    }
    compile(reader, expression, parts.get(0));
    String flags = parts.get(2);
    int occurrence = 1;
    if (flags.equals("g")) {
      occurrence = 0;
    } else if (!flags.isEmpty()) {
      try {
        occurrence = Integer.parseInt(flags);
      } catch (NumberFormatException e) {
        throw reader.error(
            expression, "sed flags are g or a number, not '" + flags + "'", "g or a number");
      }
    }
    return new RexCommand.Sed(false, parts.get(0), parts.get(1), occurrence);
  }

  private static void compile(TokenReader reader, Token expression, String regex) {
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw reader.error(
          expression,
          "invalid regular expression: " + e.getDescription(),
          "a valid regular expression");
    }
  }
}
