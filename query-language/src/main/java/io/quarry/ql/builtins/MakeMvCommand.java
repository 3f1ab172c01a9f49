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
import io.quarry.ql.exec.UserRegex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code makemv [delim=<string>|tokenizer=<regex>] [allowempty=<bool>] [setsv=<bool>] <field>}:
 * splits a field's text into a multivalue, on a delimiter (a space by default) or as the first
 * group of each match of a tokenizer regex.
 */
final class MakeMvCommand implements CommandDefinition {

  @Override
  public String name() {
    return "makemv";
  }

  @Override
  public String description() {
    return "Splits a field's value into a multivalue on a delimiter (a space by default) or by the"
        + " matches of a tokenizer regex.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the field to split").alsoPositional(),
        ArgumentSpec.optional(
            "delim", ArgumentType.STRING, null, "the delimiter (default: a space)"),
        ArgumentSpec.optional(
            "tokenizer",
            ArgumentType.STRING,
            null,
            "a regex whose first group, at each match, is a value (instead of delim)"),
        ArgumentSpec.optional(
            "allowempty", ArgumentType.BOOLEAN, "false", "keep empty values between delimiters"),
        ArgumentSpec.optional(
            "setsv",
            ArgumentType.BOOLEAN,
            "false",
            "keep the field single-valued: its values joined by the delimiter"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String delim = arguments.has("delim") ? arguments.getString("delim") : null;
    String tokenizer = arguments.has("tokenizer") ? arguments.getString("tokenizer") : null;
    if (delim != null && tokenizer != null) {
      throw new IllegalArgumentException("give delim or tokenizer, not both");
    }
    if (delim != null && delim.isEmpty()) {
      throw new IllegalArgumentException("delim cannot be empty");
    }
    if (tokenizer != null) {
      try {
        Pattern.compile(tokenizer);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "tokenizer is not a valid regular expression: " + e.getDescription());
      }
    }
    return new Bound(
        arguments.getString("field"),
        tokenizer == null ? (delim == null ? " " : delim) : null,
        tokenizer,
        arguments.getBoolean("allowempty"),
        arguments.getBoolean("setsv"));
  }

  record Bound(String field, String delim, String tokenizer, boolean allowEmpty, boolean setsv)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(field);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      UserRegex regex =
          tokenizer == null
              ? null
              : new UserRegex(Pattern.compile(tokenizer), UserRegex.stopSignal(context));
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block block = input.block(field);
          if (block == null) {
            return input;
          }
          BytesBlock.Builder out = factory.newBytesBlockBuilder(input.positionCount());
          for (int p = 0; p < input.positionCount(); p++) {
            List<String> parts = new ArrayList<>();
            for (Object value : Cells.values(block, p)) {
              String text = Cells.text(value);
              parts.addAll(regex == null ? split(text) : regex.tokens(text, allowEmpty));
            }
            if (parts.isEmpty()) {
              out.appendNull();
            } else if (setsv || parts.size() == 1) {
              out.append(String.join(delim == null ? " " : delim, parts));
            } else {
              out.beginPositionEntry();
              parts.forEach(out::append);
              out.endPositionEntry();
            }
          }
          return factory.withColumn(input, field, out.build());
        }
      };
    }

    private List<String> split(String text) {
      List<String> parts = new ArrayList<>();
      int from = 0;
      while (true) {
        int at = text.indexOf(delim, from);
        String part = at < 0 ? text.substring(from) : text.substring(from, at);
        if (allowEmpty || !part.isEmpty()) {
          parts.add(part);
        }
        if (at < 0) {
          return parts;
        }
        from = at + delim.length();
      }
    }
  }
}
