package io.quarry.ql.command;

import io.quarry.ql.ast.SortKey;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Shared pieces of command syntax: counts, {@code name=value} options, field lists, sort keys. */
final class Arguments {
  private Arguments() {}

  /** Whether the next tokens are {@code name=} (an option, not a field). */
  /**
   * A lookup table's name, read and checked ({@code lookup}, {@code inputlookup}, {@code
   * outputlookup}).
   */
  static Token lookupTableName(TokenReader reader, String what) {
    Token table = reader.readValue(what);
    String problem = io.quarry.ql.exec.LookupTable.invalidName(table.text());
    if (problem != null) {
      throw reader.error(
          table, "'" + table.text() + "' cannot name a lookup table: " + problem, what);
    }
    return table;
  }

  static boolean atOption(TokenReader reader) {
    return reader.peek().type() == TokenType.WORD
        && reader.peek(1).type() == TokenType.EQ
        && reader.peek(1).position().offset() == reader.peek().end();
  }

  /** Reads {@code name=value} when {@link #atOption}; checks the name is one of {@code known}. */
  static Option option(TokenReader reader, String command, Set<String> known) {
    Token name = reader.next();
    String key = name.text().toLowerCase(Locale.ROOT);
    if (!known.contains(key)) {
      throw reader.error(
          name,
          "Unknown option '" + name.text() + "' for " + command,
          "one of " + String.join(", ", known.stream().sorted().toList()));
    }
    reader.next(); // =
    return new Option(key, name, reader.readValue("a value for " + name.text()));
  }

  /** One {@code name=value}. */
  record Option(String name, Token nameToken, Token value) {}

  /** A non-negative whole number. */
  static long count(TokenReader reader, Token token, String command) {
    try {
      long value = Long.parseLong(token.text());
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw reader.error(
        token,
        command + " needs a non-negative whole number, not '" + token.text() + "'",
        "a number");
  }

  static boolean isCount(Token token) {
    return token.type() == TokenType.WORD
        && !token.text().isEmpty()
        && token.text().chars().allMatch(Character::isDigit);
  }

  /** Splunk's booleans: {@code true}/{@code t}/{@code 1} and {@code false}/{@code f}/{@code 0}. */
  static boolean bool(TokenReader reader, Token token) {
    return switch (token.text().toLowerCase(Locale.ROOT)) {
      case "true", "t", "1", "yes" -> true;
      case "false", "f", "0", "no" -> false;
      default ->
          throw reader.error(token, "'" + token.text() + "' is not a boolean", "true or false");
    };
  }

  /**
   * Field names separated by spaces or commas, up to the end of the command, an option, or one of
   * the {@code stopWords}.
   */
  static List<String> fields(TokenReader reader, Set<String> stopWords) {
    List<String> fields = new ArrayList<>();
    while (!reader.atCommandEnd() && !atOption(reader) && !isStopWord(reader.peek(), stopWords)) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      fields.add(reader.readValue("a field name").text());
    }
    return fields;
  }

  private static boolean isStopWord(Token token, Set<String> stopWords) {
    return token.type() == TokenType.WORD
        && stopWords.contains(token.text().toLowerCase(Locale.ROOT));
  }

  /**
   * Sort keys: {@code [-|+]field}, {@code [-|+]num(field)}, {@code str(…)}, {@code auto(…)},
   * separated by spaces or commas; a final {@code d} or {@code desc} reverses every key.
   */
  static List<SortKey> sortKeys(TokenReader reader, Set<String> stopWords) {
    List<SortKey> keys = new ArrayList<>();
    while (!reader.atCommandEnd() && !atOption(reader) && !isStopWord(reader.peek(), stopWords)) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      Token token = reader.expect(TokenType.WORD, "a field to sort by");
      String text = token.text();
      if ((text.equalsIgnoreCase("d") || text.equalsIgnoreCase("desc"))
          && reader.atCommandEnd()
          && !keys.isEmpty()) {
        keys.replaceAll(k -> new SortKey(k.field(), !k.descending(), k.mode()));
        break;
      }
      boolean descending = false;
      if (text.startsWith("-") || text.startsWith("+")) {
        descending = text.startsWith("-");
        text = text.substring(1);
        if (text.isEmpty()) {
          token = reader.expect(TokenType.WORD, "a field after '" + token.text() + "'");
          text = token.text();
        }
      }
      SortKey.Mode mode = SortKey.Mode.AUTO;
      if (reader.at(TokenType.LPAREN) && reader.peek().position().offset() == token.end()) {
        mode =
            switch (text.toLowerCase(Locale.ROOT)) {
              case "num" -> SortKey.Mode.NUM;
              case "str" -> SortKey.Mode.STR;
              case "auto" -> SortKey.Mode.AUTO;
              default ->
                  throw reader.error(
                      token, "Unknown sort function '" + text + "'", "num(), str() or auto()");
            };
        reader.next();
        text = reader.readValue("a field name").text();
        reader.expect(TokenType.RPAREN, "')' after the field name");
      }
      keys.add(new SortKey(text, descending, mode));
    }
    return keys;
  }
}
