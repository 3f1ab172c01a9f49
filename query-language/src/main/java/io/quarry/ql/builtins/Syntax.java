package io.quarry.ql.builtins;

import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.Locale;

/**
 * Pieces of syntax the built-ins that read their own arguments ({@link
 * io.quarry.ql.command.CustomSyntax}) share: {@code name=value} options, Splunk's booleans, bounded
 * whole numbers, each with a parse error at the offending token.
 */
final class Syntax {
  private Syntax() {}

  /** Whether the next tokens are {@code name=} written together (an option, not a value). */
  static boolean atOption(TokenReader reader) {
    return reader.peek().type() == TokenType.WORD
        && reader.peek(1).type() == TokenType.EQ
        && reader.peek(1).position().offset() == reader.peek().end();
  }

  /** Whether the next tokens are the option {@code name=}. */
  static boolean atOption(TokenReader reader, String name) {
    return atOption(reader) && reader.peek().text().equalsIgnoreCase(name);
  }

  /** Splunk's booleans: {@code true}/{@code t}/{@code 1}/{@code yes} and their opposites. */
  static boolean bool(TokenReader reader, Token token) {
    return switch (token.text().toLowerCase(Locale.ROOT)) {
      case "true", "t", "1", "yes" -> true;
      case "false", "f", "0", "no" -> false;
      default ->
          throw reader.error(token, "'" + token.text() + "' is not a boolean", "true or false");
    };
  }

  /** A whole number in {@code [min, max]}, named {@code what} in the error. */
  static long whole(TokenReader reader, Token token, String what, long min, long max) {
    try {
      long value = Long.parseLong(token.text());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw reader.error(
        token,
        what
            + " must be a whole number from "
            + min
            + " to "
            + max
            + ", not '"
            + token.text()
            + "'",
        "a whole number from " + min + " to " + max);
  }

  /** A field name, and the name after {@code AS} when one follows ({@code ""} when not). */
  record Renamed(Token field, String as) {
    String output(String fallback) {
      return as.isEmpty() ? fallback : as;
    }
  }

  /** {@code <field> [AS <newfield>]}. */
  static Renamed fieldAs(TokenReader reader, String what) {
    if (reader.atCommandEnd() || atOption(reader)) {
      throw reader.unexpected(reader.peek(), what);
    }
    Token field = reader.readValue(what);
    String as = "";
    if (reader.peek().isWord("as")) {
      reader.next();
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "a field name after AS");
      }
      as = reader.readValue("a field name after AS").text();
    }
    return new Renamed(field, as);
  }
}
