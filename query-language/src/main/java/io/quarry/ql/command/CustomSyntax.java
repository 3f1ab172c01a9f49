package io.quarry.ql.command;

import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;

/**
 * A built-in command declared like a plugin's ({@link
 * io.quarry.plugin.api.command.CommandDefinition}) whose Splunk syntax does not fit declared {@code
 * name=value} arguments ({@code convert ctime(_time) AS t}, {@code regex field!="re"}): it reads
 * its own arguments into {@link CommandArguments}, which its {@code bind} then turns into a page
 * operator as for any other. Its bound command writes itself back as SPL ({@link
 * io.quarry.ql.ast.WritesOwnSpl}).
 */
public interface CustomSyntax {

  /**
   * Reads one use's arguments, from just after the command's name to the end of the command.
   *
   * @throws io.quarry.ql.parser.QueryParseException at the offending token
   */
  CommandArguments parseArguments(TokenReader reader, Token name);

  /** The one-line synopsis {@code | help} shows. */
  String syntax();
}
