package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code makecontinuous [<field>] span=<span> [start=<num>] [end=<num>]}: the x-axis field ({@code
 * _time} by default) made continuous, as after {@code chart}/{@code timechart}: each result's value
 * becomes its bucket's start ({@code span} a number or a time span; time buckets aligned as {@code
 * bin} aligns them), the results come in bucket order (ties in their order), and each bucket
 * between the first and the last (or {@code start} and {@code end}) without a result gets one
 * holding only the field. Results outside {@code [start, end]} are dropped; those whose field is
 * not a number follow, as they came. Centralized: it holds every result.
 */
final class MakeContinuousCommand implements CommandDefinition, CustomSyntax {
  /** More buckets than this are not filled (a warning says so). */
  static final int MAX_BUCKETS = 100_000;

  @Override
  public String name() {
    return "makecontinuous";
  }

  @Override
  public String description() {
    return "Fills the gaps of a numeric or time x-axis field with empty results, one per bucket.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "makecontinuous [<field>] span=<span> [start=<num>] [end=<num>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("field", ArgumentType.FIELD, "_time", "the x-axis field"),
        ArgumentSpec.required("span", ArgumentType.STRING, "the bucket size: 10, 30s, 1h, 1d …"),
        ArgumentSpec.optional("start", ArgumentType.DOUBLE, null, "the first bucket's value"),
        ArgumentSpec.optional("end", ArgumentType.DOUBLE, null, "the last bucket's value"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    Map<String, Object> values = new HashMap<>();
    values.put("field", TimeField.NAME);
    Token field = null;
    while (!reader.atCommandEnd()) {
      if (!Syntax.atOption(reader)) {
        if (field != null) {
          throw reader.unexpected(reader.peek(), "span=, start= or end=");
        }
        field = reader.readValue("the x-axis field");
        values.put("field", field.text());
        continue;
      }
      Token key = reader.next();
      reader.next(); // =
      Token value = reader.readValue("a value for " + key.text());
      String option = key.text().toLowerCase(Locale.ROOT);
      switch (option) {
        case "span" -> {
          if (Span.parse(value.text()).isEmpty()) {
            throw reader.error(
                value,
                "'" + value.text() + "' is not a span",
                "a span such as 10, 30s, 5m, 1h, 1d, 1w or 1mon");
          }
          values.put("span", value.text());
        }
        case "start", "end" -> {
          double number = Values.toNumber(value.text());
          if (Double.isNaN(number)) {
            throw reader.error(
                value, option + " must be a number, not '" + value.text() + "'", "a number");
          }
          values.put(option, number);
        }
        case "bins" ->
            throw reader.error(
                key, "makecontinuous bins= is not supported: give span=", "span=<span>");
        default ->
            throw reader.error(
                key, "makecontinuous has no option '" + key.text() + "'", "span=, start= or end=");
      }
    }
    if (!values.containsKey("span")) {
      throw reader.error(name, "makecontinuous needs span=<span>", "span=<span>");
    }
    if (values.containsKey("start")
        && values.containsKey("end")
        && (double) values.get("start") > (double) values.get("end")) {
      throw reader.error(name, "makecontinuous start is after end", "start at most end");
    }
    return new CommandArguments(values, List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(
        arguments.getString("field"),
        arguments.getString("span"),
        arguments.has("start") ? arguments.getDouble("start") : Double.NaN,
        arguments.has("end") ? arguments.getDouble("end") : Double.NaN);
  }

  /** {@code start}, {@code end}: NaN when not given. */
  record Bound(String field, String spanText, double start, double end)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS; // every result passes, reordered
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(field);
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      parts.add(SplText.word(field, Set.of("span", "start", "end")));
      parts.add("span=" + spanText);
      if (!Double.isNaN(start)) {
        parts.add("start=" + Values.toText(start));
      }
      if (!Double.isNaN(end)) {
        parts.add("end=" + Values.toText(end));
      }
      return String.join(" ", parts);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      Axis axis = new Axis(field, Span.parse(spanText).orElseThrow(), context.zone());
      Set<String> fields = new LinkedHashSet<>();
      List<Map<String, List<Object>>> rows = new ArrayList<>();
      return new QueueOperator(factory, "makecontinuous") {
        @Override
        protected void process(Page page) {
          List<String> names = Cells.fieldNames(page);
          fields.addAll(names);
          for (int p = 0; p < page.positionCount(); p++) {
            Map<String, List<Object>> row = Cells.row(page, names, p, true); // _time: micros
            reserve(Cells.bytes(row));
            rows.add(row);
          }
          factory.release(page);
        }

        @Override
        protected void onFinish() {
          fields.add(field);
          List<Map<String, List<Object>>> out =
              axis.fill(rows, start, end, context::warn, row -> reserve(Cells.bytes(row)));
          List<String> names = new ArrayList<>(fields);
          List<Cells.Column> columns = new ArrayList<>(names.size());
          for (String name : names) {
            Cells.Column column = new Cells.Column();
            for (Map<String, List<Object>> row : out) {
              column.add(row.getOrDefault(name, List.of()));
            }
            columns.add(column);
          }
          if (!out.isEmpty()) {
            emit(Cells.page(names, Cells.build(factory, names, columns), out.size()));
          }
          releaseReserved();
        }
      };
    }
  }
}
