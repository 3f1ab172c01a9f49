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
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.command.EvalParser;
import io.quarry.ql.exec.PageEval;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code foreach <field-pattern>… [fieldstr=…] [matchstr=…] [matchseg1..3=…] [eval … | eval …]}:
 * for each field of the results a pattern matches ({@code *} wildcards; in name order, pattern
 * after pattern), runs the bracketed {@code eval}s with the templates replaced as text: {@code
 * <<FIELD>>} by the field's name, {@code <<MATCHSTR>>} by what the wildcards matched, {@code
 * <<MATCHSEGn>>} by what the n-th wildcard matched. The eval text is parsed once per field (and
 * checked when the query is parsed, with each template as a field name of its length). {@code
 * mode=multivalue} and {@code mode=json_array} run the evals once per value or JSON array element
 * of one field ({@link ForeachValues}).
 */
final class ForeachCommand implements CommandDefinition, CustomSyntax {
  static final List<String> TEMPLATES =
      List.of("fieldstr", "matchstr", "matchseg1", "matchseg2", "matchseg3", "itemstr");
  static final Map<String, String> DEFAULT_TOKENS =
      Map.of(
          "fieldstr", "<<FIELD>>",
          "matchstr", "<<MATCHSTR>>",
          "matchseg1", "<<MATCHSEG1>>",
          "matchseg2", "<<MATCHSEG2>>",
          "matchseg3", "<<MATCHSEG3>>",
          "itemstr", "<<ITEM>>");

  @Override
  public String name() {
    return "foreach";
  }

  @Override
  public String description() {
    return "Runs eval templates once for each field that matches wildcard field names.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "foreach <field-pattern>... [fieldstr=<s>] [matchstr=<s>] [matchseg1=<s>]"
        + " [matchseg2=<s>] [matchseg3=<s>] [eval <<FIELD>>=... | eval ...]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    List<ArgumentSpec> specs = new ArrayList<>();
    specs.add(
        ArgumentSpec.optional(
            "mode",
            ArgumentType.STRING,
            "multifield",
            "multifield (the default), multivalue or json_array"));
    for (String template : TEMPLATES) {
      specs.add(
          ArgumentSpec.optional(
              template,
              ArgumentType.STRING,
              DEFAULT_TOKENS.get(template),
              "the text in the evals that stands for it"));
    }
    specs.add(
        ArgumentSpec.required(
            "patterns", ArgumentType.LONG, "how many field patterns come first in the list"));
    specs.add(
        ArgumentSpec.required(
            "fields",
            ArgumentType.FIELD_LIST,
            "field names with * wildcards, then the bracketed evals"));
    return specs;
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    Map<String, Object> options = new HashMap<>();
    options.put("mode", "multifield");
    options.putAll(DEFAULT_TOKENS);
    List<String> patterns = new ArrayList<>();
    while (!reader.at(TokenType.LBRACKET)) {
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "field names, then evals in '[ ]'");
      }
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      } else if (Syntax.atOption(reader)) {
        Token key = reader.next();
        reader.next();
        Token value = reader.readValue("a value for " + key.text());
        String option = key.text().toLowerCase(Locale.ROOT);
        if (option.equals("mode")) {
          String mode = value.text().toLowerCase(Locale.ROOT);
          if (!mode.equals("multifield")
              && !mode.equals("multivalue")
              && !mode.equals("json_array")) {
            throw reader.error(
                value,
                "foreach mode="
                    + value.text()
                    + " is not supported (only multifield, multivalue, json_array)",
                "mode=multifield, mode=multivalue or mode=json_array");
          }
          options.put("mode", mode);
        } else if (!TEMPLATES.contains(option)) {
          throw reader.error(
              key,
              "Unknown option '" + key.text() + "' for foreach",
              "one of mode, " + String.join(", ", TEMPLATES));
        } else if (value.text().isEmpty()) {
          throw reader.error(value, option + " cannot be empty", "a non-empty text");
        } else {
          options.put(option, value.text());
        }
      } else {
        patterns.add(reader.readValue("a field name or pattern").text());
      }
    }
    if (patterns.isEmpty()) {
      throw reader.error(reader.peek(), "foreach needs at least one field name", "a field name");
    }
    if (!options.get("mode").equals("multifield")
        && (patterns.size() != 1 || Fields.stars(patterns.get(0)) > 0)) {
      throw reader.error(
          name,
          "foreach mode=" + options.get("mode") + " takes one field (no wildcards)",
          "one field");
    }
    List<String> segments = evals(reader, options);
    List<String> fields = new ArrayList<>(patterns);
    fields.addAll(segments);
    options.put("patterns", (long) patterns.size());
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after ']'");
    }
    return new CommandArguments(options, fields);
  }

  /**
   * The text after each {@code eval} of the bracketed pipeline, checked by parsing it with every
   * template as a field name of its own length (so errors point into the query).
   */
  private static List<String> evals(TokenReader reader, Map<String, Object> options) {
    Token open = reader.next();
    String query = reader.query();
    List<int[]> ranges = new ArrayList<>();
    int depth = 1;
    int segmentStart = -1;
    while (true) {
      Token token = reader.next();
      if (token.type() == TokenType.EOF) {
        throw reader.error(open, "foreach's '[' has no matching ']'", "']' after the evals");
      }
      if (token.type() == TokenType.LBRACKET) {
        depth++;
      } else if (token.type() == TokenType.RBRACKET && --depth == 0
          || depth == 1 && token.type() == TokenType.PIPE) {
        if (segmentStart < 0) {
          throw reader.error(token, "foreach needs an eval here", "eval <assignments>");
        }
        ranges.add(new int[] {segmentStart, token.position().offset()});
        segmentStart = -1;
        if (token.type() == TokenType.RBRACKET) {
          break;
        }
        continue;
      }
      if (segmentStart < 0) {
        if (!token.isWord("eval")) {
          throw reader.error(
              token,
              "foreach runs only eval in its brackets, not '" + token.text() + "'",
              "eval <assignments>");
        }
        segmentStart = token.end();
      }
    }
    String checked = query;
    boolean multivalue = !options.get("mode").equals("multifield");
    for (String template : TEMPLATES) {
      if (template.equals("itemstr") != multivalue) {
        continue; // <<ITEM>> belongs to mode=multivalue, the others to multifield
      }
      String token = (String) options.get(template);
      checked = checked.replace(token, "x".repeat(token.length()));
    }
    List<String> segments = new ArrayList<>();
    for (int i = 0; i < ranges.size(); i++) {
      int[] range = ranges.get(i);
      try {
        EvalParser.assignments(checked, range[0], range[1]);
      } catch (QueryParseException e) {
        throw new QueryParseException(e.getMessage(), query, e.position(), e.token(), e.expected());
      }
      segments.add(query.substring(range[0], range[1]).strip());
    }
    return segments;
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    int count = (int) arguments.getLong("patterns");
    List<String> fields = arguments.fields();
    Map<String, String> tokens = new LinkedHashMap<>();
    for (String template : TEMPLATES) {
      tokens.put(template, arguments.getString(template));
    }
    return new Bound(
        arguments.getString("mode"),
        List.copyOf(fields.subList(0, count)),
        tokens,
        List.copyOf(fields.subList(count, fields.size())));
  }

  record Bound(String mode, List<String> patterns, Map<String, String> tokens, List<String> evals)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(); // named by the templates, known once the fields are
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      if (!mode.equals("multifield")) {
        parts.add("mode=" + mode);
      }
      for (String pattern : patterns) {
        parts.add(SplText.value(pattern));
      }
      tokens.forEach(
          (template, token) -> {
            if (!token.equals(DEFAULT_TOKENS.get(template))) {
              parts.add(template + "=" + SplText.quote(token));
            }
          });
      List<String> commands = new ArrayList<>();
      for (String eval : evals) {
        commands.add("eval " + eval);
      }
      parts.add("[" + String.join(" | ", commands) + "]");
      return String.join(" ", parts);
    }

    /** The evals' assignments for one field: the templates replaced, parsed. */
    List<EvalCommand.Assignment> assignments(String pattern, String field) {
      List<String> segments = Fields.wildcards(pattern, field);
      Map<String, String> values = new LinkedHashMap<>();
      values.put(tokens.get("fieldstr"), field);
      values.put(tokens.get("matchstr"), String.join("", segments));
      for (int i = 1; i <= 3; i++) {
        values.put(tokens.get("matchseg" + i), segments.size() >= i ? segments.get(i - 1) : "");
      }
      List<EvalCommand.Assignment> assignments = new ArrayList<>();
      for (String eval : evals) {
        String text = eval;
        for (Map.Entry<String, String> value : values.entrySet()) {
          text = text.replace(value.getKey(), value.getValue());
        }
        try {
          assignments.addAll(EvalParser.assignments(text, 0, text.length()));
        } catch (QueryParseException e) {
          throw new IllegalArgumentException(
              "foreach: for field '"
                  + field
                  + "' the eval '"
                  + text
                  + "' does not parse: "
                  + e.getMessage(),
              e);
        }
      }
      return assignments;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      if (!mode.equals("multifield")) {
        return ForeachValues.operator(
            patterns.get(0), tokens.get("itemstr"), evals, mode.equals("json_array"), context);
      }
      BlockFactory factory = context.blockFactory();
      PageEval eval = PageEval.of(context);
      Map<String, List<EvalCommand.Assignment>> byField = new HashMap<>();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          List<String> names = Cells.fieldNames(input);
          List<EvalCommand.Assignment> assignments = new ArrayList<>();
          Set<String> done = new HashSet<>();
          for (String pattern : patterns) {
            for (String field : new TreeSet<>(Fields.matching(pattern, names))) {
              if (done.add(field)) {
                assignments.addAll(
                    byField.computeIfAbsent(
                        pattern + "\u0000" + field, k -> assignments(pattern, field)));
              }
            }
          }
          if (assignments.isEmpty()) {
            return input;
          }
          Page out = input;
          for (Map.Entry<String, List<List<Object>>> column :
              eval.assign(input, assignments).entrySet()) {
            Cells.Column cells = new Cells.Column();
            column.getValue().forEach(cells::add);
            out = factory.withColumn(out, column.getKey(), cells.build(factory, column.getKey()));
          }
          return out;
        }
      };
    }
  }
}
