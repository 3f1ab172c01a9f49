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
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code replace <old> WITH <new> [, <old> WITH <new>]… [IN <field> …]}: a value equal to {@code
 * old} (whole value, case-sensitive; {@code *} matches any text) becomes {@code new}, whose {@code
 * *}s take what the old pattern's matched, in order; the first pair that matches wins. Every value
 * of a multivalue is replaced on its own. Without {@code IN}, every field but the internal ones
 * ({@code _raw}, {@code _time} …). The pairs are kept as (old, new) and then the fields in the
 * field list of {@link CommandArguments}, with the field count as an option.
 */
final class ReplaceCommand implements CommandDefinition, CustomSyntax {

  /** One {@code old WITH new}, its wildcard pattern compiled. */
  record Pair(String from, String to, Pattern pattern) {
    static Pair of(String from, String to) {
      StringBuilder regex = new StringBuilder();
      int start = 0;
      for (int i = 0; i < from.length(); i++) {
        if (from.charAt(i) == '*') {
          regex.append(Pattern.quote(from.substring(start, i))).append("(.*)");
          start = i + 1;
        }
      }
      regex.append(Pattern.quote(from.substring(start)));
      return new Pair(from, to, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    /** The replacement of {@code value}, or null when this pair does not match it. */
    String apply(String value) {
      Matcher m = pattern.matcher(value);
      if (!m.matches()) {
        return null;
      }
      StringBuilder out = new StringBuilder();
      int group = 1;
      for (int i = 0; i < to.length(); i++) {
        char c = to.charAt(i);
        if (c == '*' && group <= m.groupCount()) {
          out.append(m.group(group++));
        } else {
          out.append(c);
        }
      }
      return out.toString();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Pair that && from.equals(that.from) && to.equals(that.to);
    }

    @Override
    public int hashCode() {
      return from.hashCode() * 31 + to.hashCode();
    }
  }

  @Override
  public String name() {
    return "replace";
  }

  @Override
  public String description() {
    return "Replaces whole field values (with * wildcards) by new values, in the named fields or"
        + " every field.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "replace <old> WITH <new> [, <old> WITH <new>]... [IN <field>...]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("pairs", ArgumentType.LONG, "how many old WITH new pairs"),
        ArgumentSpec.required(
            "replacements",
            ArgumentType.FIELD_LIST,
            "<old> WITH <new> pairs (* wildcards), then IN and the fields (default: every field)"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    List<String> values = new ArrayList<>();
    long pairs = 0;
    while (true) {
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "<old> WITH <new>");
      }
      Token from = reader.readValue("the value to replace");
      Token with = reader.peek();
      if (!with.isWord("with")) {
        throw reader.unexpected(with, "WITH after '" + from.text() + "'");
      }
      reader.next();
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "the new value after WITH");
      }
      Token to = reader.readValue("the new value after WITH");
      if (Fields.stars(to.text()) > Fields.stars(from.text())) {
        throw reader.error(
            to,
            "'" + to.text() + "' has more wildcards than '" + from.text() + "'",
            "a new value with at most as many * as the old one");
      }
      values.add(from.text());
      values.add(to.text());
      pairs++;
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      break;
    }
    if (reader.peek().isWord("in")) {
      Token in = reader.next();
      int before = values.size();
      while (!reader.atCommandEnd()) {
        if (reader.at(TokenType.COMMA)) {
          reader.next();
          continue;
        }
        values.add(reader.readValue("a field name").text());
      }
      if (values.size() == before) {
        throw reader.unexpected(reader.peek(), "at least one field after " + in.text());
      }
    } else if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "',', IN <fields>, '|' or the end of the query");
    }
    return new CommandArguments(Map.of("pairs", pairs), values);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    int pairs = (int) arguments.getLong("pairs");
    List<String> values = arguments.fields();
    List<Pair> replacements = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      replacements.add(Pair.of(values.get(2 * i), values.get(2 * i + 1)));
    }
    return new Bound(replacements, List.copyOf(values.subList(2 * pairs, values.size())));
  }

  record Bound(List<Pair> pairs, List<String> fields)
      implements BoundCommand, WritesOwnSpl, io.quarry.ql.command.FieldWise {
    @Override
    public boolean fieldWise() {
      return true; // every value replaced in its own field
    }

    @Override
    public Set<String> requiredFields() {
      for (String field : fields) {
        if (Fields.stars(field) > 0) {
          return ALL_FIELDS;
        }
      }
      return fields.isEmpty() ? ALL_FIELDS : new LinkedHashSet<>(fields);
    }

    @Override
    public Set<String> producedFields() {
      return new LinkedHashSet<>(fields);
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      for (Pair pair : pairs) {
        parts.add(
            SplText.word(pair.from(), Set.of("with", "in"))
                + " WITH "
                + SplText.word(pair.to(), Set.of("with", "in")));
      }
      String text = String.join(", ", parts);
      if (!fields.isEmpty()) {
        List<String> names = new ArrayList<>();
        for (String field : fields) {
          names.add(SplText.value(field));
        }
        text += " IN " + String.join(", ", names);
      }
      return text;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          return replace(factory, input);
        }
      };
    }

    private Page replace(BlockFactory factory, Page page) {
      List<String> names = Cells.fieldNames(page);
      Set<String> targets = new LinkedHashSet<>();
      if (fields.isEmpty()) {
        targets.addAll(Fields.matching("*", names));
      } else {
        for (String field : fields) {
          targets.addAll(Fields.matching(field, names));
        }
      }
      List<String> changedFields = new ArrayList<>();
      List<Cells.Column> changedColumns = new ArrayList<>();
      for (String field : targets) {
        Block block = page.block(field);
        Cells.Column column = new Cells.Column();
        boolean changed = false;
        for (int p = 0; p < page.positionCount(); p++) {
          List<Object> values = Cells.values(block, p);
          List<Object> replaced = new ArrayList<>(values.size());
          for (Object value : values) {
            String text = Cells.text(value);
            String result = null;
            for (Pair pair : pairs) {
              result = pair.apply(text);
              if (result != null) {
                break;
              }
            }
            changed |= result != null;
            replaced.add(result == null ? value : result);
          }
          column.add(replaced);
        }
        if (changed) {
          changedFields.add(field);
          changedColumns.add(column);
        }
      }
      return Cells.withColumns(factory, page, changedFields, changedColumns);
    }
  }
}
