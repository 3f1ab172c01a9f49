package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.exec.UserRegex;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code regex [<field>=|<field>!=]<regex>}: keeps the rows where the field ({@code _raw} by
 * default) matches the regular expression ({@code !=}: where it does not, or the field is absent).
 * A multivalue matches when any of its values does. Matching follows the project's regex safety
 * ({@link UserRegex}).
 */
final class RegexCommand implements CommandDefinition, CustomSyntax {

  @Override
  public String name() {
    return "regex";
  }

  @Override
  public String description() {
    return "Keeps the results whose field (_raw by default) matches a regular expression, or with !="
        + " those that do not.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "regex [<field>=|<field>!=]\"<regex>\"";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("field", ArgumentType.FIELD, "_raw", "the field to match"),
        ArgumentSpec.optional(
            "negate", ArgumentType.BOOLEAN, "false", "written field!=: keep the rows that fail"),
        ArgumentSpec.required(
            "regex", ArgumentType.STRING, "the regular expression (Java syntax)"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    String field = "_raw";
    boolean negate = false;
    Token first = reader.peek();
    Token second = reader.peek(1);
    if (first.type() == TokenType.WORD
        && (second.type() == TokenType.EQ || second.type() == TokenType.NE)
        && second.position().offset() == first.end()) {
      reader.next();
      reader.next();
      field = first.text();
      negate = second.type() == TokenType.NE;
    }
    if (reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "the regular expression in double quotes");
    }
    Token regex =
        reader.at(TokenType.QUOTED)
            ? reader.next()
            : reader.readValue("the regular expression in double quotes");
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(
          reader.peek(), "'|' or the end of the query after the regular expression");
    }
    String text = regex.text().replace("(?P<", "(?<"); // PCRE's named groups, as rex takes them
    try {
      Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw reader.error(
          regex, "invalid regular expression: " + e.getDescription(), "a valid regular expression");
    }
    return new CommandArguments(Map.of("field", field, "negate", negate, "regex", text), List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(
        arguments.getString("field"),
        arguments.getBoolean("negate"),
        Pattern.compile(arguments.getString("regex")));
  }

  record Bound(String field, boolean negate, Pattern pattern)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public String splArguments() {
      return field + (negate ? "!=" : "=") + SplText.quote(pattern.pattern());
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bound that
          && field.equals(that.field)
          && negate == that.negate
          && pattern.pattern().equals(that.pattern.pattern());
    }

    @Override
    public int hashCode() {
      return field.hashCode() * 31 + pattern.pattern().hashCode() + (negate ? 1 : 0);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      UserRegex regex = new UserRegex(pattern, UserRegex.stopSignal(context));
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block block = input.block(field);
          int[] kept = new int[input.positionCount()];
          int count = 0;
          for (int p = 0; p < input.positionCount(); p++) {
            if (matches(regex, block, p) != negate) {
              kept[count++] = p;
            }
          }
          if (count == 0) {
            factory.release(input);
            return null;
          }
          return BlockCopies.take(factory, input, kept, count);
        }
      };
    }

    private static boolean matches(UserRegex regex, Block block, int p) {
      if (block == null) {
        return false;
      }
      int first = block.getFirstValueIndex(p);
      int n = block.getValueCount(p);
      if (block instanceof BytesBlock bytes) {
        for (int i = first; i < first + n; i++) {
          if (regex.find(bytes.getStringValue(i))) {
            return true;
          }
        }
        return false;
      }
      for (Object value : Cells.values(block, p)) {
        if (regex.find(Cells.text(value))) {
          return true;
        }
      }
      return false;
    }
  }
}
