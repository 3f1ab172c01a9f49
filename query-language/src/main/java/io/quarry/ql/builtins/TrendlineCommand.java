package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code trendline (<sma|ema|wma><period>(<field>) [AS <newfield>])…}: moving averages over the
 * last {@code period} numeric values of a field, in result order, into {@code newfield} ({@code
 * sma5(foo)} by default). Results whose field is not a number are skipped (no output, not in the
 * window); the first output is at the {@code period}-th number. {@code sma} is the mean, {@code
 * wma} weighs the i-th oldest of the window by i, {@code ema} starts from the sma of the first
 * period and then adds each number with weight {@code 2/(period+1)}. The trends are kept as (type,
 * period, field, as) quadruples in the field list of {@link CommandArguments}.
 */
final class TrendlineCommand implements CommandDefinition, CustomSyntax {
  static final int MAX_PERIOD = 10_000;
  private static final Pattern TREND =
      Pattern.compile("(sma|ema|wma)(\\d+)", Pattern.CASE_INSENSITIVE);

  /** One moving average. */
  record Trend(String type, int period, String field, String output) {
    String defaultOutput() {
      return type + period + "(" + field + ")";
    }
  }

  @Override
  public String name() {
    return "trendline";
  }

  @Override
  public String description() {
    return "Computes simple, exponential or weighted moving averages of numeric fields.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "trendline (sma|ema|wma)<period>(<field>) [AS <newfield>] ...";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required(
            "trends",
            ArgumentType.FIELD_LIST,
            "<sma|ema|wma><period 2-10000>(<field>) [AS <newfield>]"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    List<String> quads = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      Token function = reader.expect(TokenType.WORD, "a trend such as sma5(field)");
      Matcher m = TREND.matcher(function.text());
      if (!m.matches()) {
        throw reader.error(
            function,
            "Unknown trend '" + function.text() + "'",
            "sma, ema or wma with a period, such as sma5");
      }
      int period = m.group(2).length() > 5 ? 0 : Integer.parseInt(m.group(2));
      if (period < 2 || period > MAX_PERIOD) {
        throw reader.error(
            function,
            "trendline period must be from 2 to " + MAX_PERIOD + ", not " + m.group(2),
            "a period from 2 to " + MAX_PERIOD);
      }
      reader.expect(TokenType.LPAREN, "'(' after " + function.text());
      Token field = reader.readValue("a field name");
      reader.expect(TokenType.RPAREN, "')' after the field");
      String as = "";
      if (reader.peek().isWord("as")) {
        reader.next();
        as = reader.readValue("a field name after AS").text();
      }
      quads.add(m.group(1).toLowerCase(Locale.ROOT));
      quads.add(String.valueOf(period));
      quads.add(field.text());
      quads.add(as);
    }
    if (quads.isEmpty()) {
      throw reader.error(name, "trendline needs a trend such as sma5(field)", "a trend");
    }
    return new CommandArguments(Map.of(), quads);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> quads = arguments.fields();
    List<Trend> trends = new ArrayList<>();
    for (int i = 0; i + 3 < quads.size(); i += 4) {
      String type = quads.get(i);
      int period = Integer.parseInt(quads.get(i + 1));
      String field = quads.get(i + 2);
      String as = quads.get(i + 3);
      trends.add(
          new Trend(type, period, field, as.isEmpty() ? type + period + "(" + field + ")" : as));
    }
    return new Bound(trends);
  }

  record Bound(List<Trend> trends) implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      Set<String> fields = new LinkedHashSet<>();
      trends.forEach(t -> fields.add(t.field()));
      return fields;
    }

    @Override
    public Set<String> producedFields() {
      Set<String> fields = new LinkedHashSet<>();
      trends.forEach(t -> fields.add(t.output()));
      return fields;
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      for (Trend trend : trends) {
        String text = trend.type() + trend.period() + "(" + SplText.value(trend.field()) + ")";
        if (!trend.output().equals(trend.defaultOutput())) {
          text += " AS " + SplText.word(trend.output(), Set.of("as"));
        }
        parts.add(text);
      }
      return String.join(" ", parts);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      List<Window> windows = new ArrayList<>();
      for (Trend trend : trends) {
        windows.add(new Window(trend.type(), trend.period()));
      }
      return new QueueOperator(factory, "trendline") {
        private boolean reserved;

        @Override
        protected void process(Page page) {
          if (!reserved) {
            windows.forEach(w -> reserve(8L * w.values.length + 64));
            reserved = true;
          }
          List<String> names = new ArrayList<>(trends.size());
          List<Cells.Column> columns = new ArrayList<>(trends.size());
          for (int t = 0; t < trends.size(); t++) {
            Trend trend = trends.get(t);
            Window window = windows.get(t);
            Block block = page.block(trend.field());
            Cells.Column column = new Cells.Column();
            for (int p = 0; p < page.positionCount(); p++) {
              double value =
                  block == null || block.isNull(p)
                      ? Double.NaN
                      : Values.toNumber(Cells.values(block, p).get(0));
              column.add(Double.isNaN(value) ? null : window.add(value));
            }
            names.add(trend.output());
            columns.add(column);
          }
          emit(Cells.withColumns(factory, page, names, columns));
        }
      };
    }
  }

  /** The last {@code period} numbers of one trend and its moving average. */
  static final class Window {
    private final String type;
    private final double[] values;
    private final double alpha;
    private long count;
    private double ema;

    Window(String type, int period) {
      this.type = type;
      this.values = new double[period];
      this.alpha = 2d / (period + 1);
    }

    /** Adds a number; the average once the window is full, else null. */
    Double add(double value) {
      int period = values.length;
      values[(int) (count % period)] = value;
      count++;
      if (count < period) {
        return null;
      }
      return switch (type) {
        case "sma" -> sum() / period;
        case "wma" -> {
          double weighted = 0;
          for (int i = 0; i < period; i++) {
            long oldestFirst = count - period + i; // the i-th oldest number's index
            weighted += (i + 1) * values[(int) (oldestFirst % period)];
          }
          yield weighted / (period * (period + 1) / 2d);
        }
        default -> {
          ema = count == period ? sum() / period : alpha * value + (1 - alpha) * ema;
          yield ema;
        }
      };
    }

    private double sum() {
      double sum = 0;
      for (double v : values) {
        sum += v;
      }
      return sum;
    }
  }
}
