package io.quarry.ql.command;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.SeriesFilter;
import io.quarry.ql.ast.SeriesLayout;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What {@code chart} and {@code timechart} share while they are read: the series options ({@code
 * limit}, {@code useother}, {@code usenull}, {@code otherstr}, {@code nullstr}, allowed before the
 * aggregations and after the split field, as in Splunk; after it also {@code span}/{@code bins}
 * binning its values), the layout options ({@code sep}, {@code format}, {@code cont}) and the
 * {@code where} clause after the split field ({@code where <agg> in|notin top|bottom<N>}, {@code
 * where <agg> > <number>}).
 */
final class ChartSyntax {
  /** The options a split field may be followed by (Splunk's tc-options, bins among them). */
  static final Set<String> SERIES_OPTIONS =
      Set.of("limit", "useother", "usenull", "otherstr", "nullstr", "span", "bins");

  /** The options before the aggregations. */
  static final Set<String> LEADING_OPTIONS =
      Set.of("limit", "useother", "usenull", "otherstr", "nullstr", "sep", "format", "cont");

  private final String command;
  long limit = 10;
  boolean useOther = true;
  boolean useNull = true;
  String otherStr = TimechartCommand.OTHER;
  String nullStr = TimechartCommand.NULL;
  private String sep = ": ";
  private Optional<String> format = Optional.empty();
  private boolean cont = true;
  private Optional<SeriesFilter> where = Optional.empty();
  private Optional<io.quarry.ql.ast.Span> splitSpan = Optional.empty();
  private int splitBins;

  /** {@code limit=bottomN}: ranks by the smallest sums. */
  private boolean limitBottom;

  ChartSyntax(String command) {
    this.command = command;
  }

  /** Applies one option this class knows (one of {@link #LEADING_OPTIONS}); false otherwise. */
  boolean apply(TokenReader reader, Arguments.Option option) {
    Token value = option.value();
    switch (option.name()) {
      case "limit" -> limit(reader, value);
      case "useother" -> useOther = Arguments.bool(reader, value);
      case "usenull" -> useNull = Arguments.bool(reader, value);
      case "otherstr" -> otherStr = value.text();
      case "nullstr" -> nullStr = value.text();
      case "sep" -> sep = value.text();
      case "format" -> format = Optional.of(value.text());
      case "cont" -> cont = Arguments.bool(reader, value);
      default -> {
        return false;
      }
    }
    return true;
  }

  /** {@code limit=N}, {@code limit=topN} or {@code limit=bottomN}; 0 keeps every series. */
  private void limit(TokenReader reader, Token value) {
    String text = value.text().toLowerCase(Locale.ROOT);
    limitBottom = text.startsWith("bottom");
    String digits =
        text.startsWith("top") ? text.substring(3) : limitBottom ? text.substring(6) : text;
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
      throw reader.error(
          value,
          command + " limit needs a whole number, topN or bottomN, not '" + value.text() + "'",
          "limit=5, limit=top5 or limit=bottom5");
    }
    long n =
        Arguments.count(
            reader,
            new Token(TokenType.WORD, digits, value.position(), value.end()),
            command + " limit");
    limit = n == 0 ? Long.MAX_VALUE : n;
  }

  /** Reads the series options and the where clause after the split field, in any order. */
  void readSplitOptions(TokenReader reader) {
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option =
            Arguments.option(reader, command + " (after the split field)", SERIES_OPTIONS);
        if (option.name().equals("span")) {
          splitSpan = Optional.of(BinParser.span(reader, option.value()));
        } else if (option.name().equals("bins")) {
          long n = Arguments.count(reader, option.value(), command + " bins");
          if (n < 1) {
            throw reader.error(option.value(), command + " bins= must be at least 1", "bins=10");
          }
          splitBins = (int) Math.min(50_000, n);
        } else {
          apply(reader, option);
        }
      } else if (reader.peek().isWord("where") && where.isEmpty()) {
        where = Optional.of(where(reader));
      } else {
        return;
      }
    }
  }

  /** {@code where <agg> in|notin top|bottom<N>} or {@code where <agg> <|>|<=|>= <number>}. */
  private SeriesFilter where(TokenReader reader) {
    reader.next(); // where
    Token function =
        reader.expect(TokenType.WORD, "an aggregation such as sum, max or count after where");
    String name = function.text();
    AggregateFunction aggregate;
    double percentile = Double.NaN;
    Optional<AggregateFunction> named = AggregateFunction.byName(name);
    OptionalDouble percent = AggregateFunction.percentile(name);
    if (named.isPresent()) {
      aggregate = named.get();
      if (aggregate == AggregateFunction.MEDIAN) {
        percentile = 50;
      }
    } else if (percent.isPresent()) {
      aggregate = AggregateFunction.PERCENTILE;
      percentile = percent.getAsDouble();
    } else {
      throw reader.error(
          function,
          "'" + name + "' is not an aggregation for " + command + "'s where clause",
          "sum, max, min, avg, count or another stats function");
    }
    if (aggregate.perUnitSeconds() > 0) {
      throw reader.error(function, name + " cannot rank series", "sum, max, min, avg or count");
    }
    Token operator = reader.peek();
    if (operator.isWord("in") || operator.isWord("notin")) {
      reader.next();
      boolean in = operator.isWord("in");
      Token rank = reader.expect(TokenType.WORD, "topN or bottomN, e.g. top5");
      String text = rank.text().toLowerCase(Locale.ROOT);
      boolean top = text.startsWith("top");
      boolean bottom = text.startsWith("bottom");
      String digits = top ? text.substring(3) : bottom ? text.substring(6) : "";
      if (digits.isEmpty() && (top || bottom) && Arguments.isCount(reader.peek())) {
        digits = reader.next().text(); // "top 5"
      }
      if (!(top || bottom) || digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
        throw reader.error(
            rank,
            command + " where needs topN or bottomN after '" + operator.text() + "'",
            "top5 or bottom3");
      }
      SeriesFilter.Comparison comparison =
          top
              ? in ? SeriesFilter.Comparison.IN_TOP : SeriesFilter.Comparison.NOT_IN_TOP
              : in ? SeriesFilter.Comparison.IN_BOTTOM : SeriesFilter.Comparison.NOT_IN_BOTTOM;
      return new SeriesFilter(aggregate, percentile, name, comparison, Double.parseDouble(digits));
    }
    SeriesFilter.Comparison comparison =
        switch (operator.type()) {
          case GT -> SeriesFilter.Comparison.GREATER;
          case LT -> SeriesFilter.Comparison.LESS;
          case GE -> SeriesFilter.Comparison.GREATER_OR_EQUAL;
          case LE -> SeriesFilter.Comparison.LESS_OR_EQUAL;
          default ->
              throw reader.unexpected(
                  operator, "'in topN', 'notin bottomN', '>' or '<' after where " + name);
        };
    reader.next();
    Token number = reader.readValue("a number to compare " + name + " with");
    try {
      double threshold = Double.parseDouble(number.text());
      if (Double.isFinite(threshold)) {
        return new SeriesFilter(aggregate, percentile, name, comparison, threshold);
      }
    } catch (NumberFormatException notNumber) {
      // reported below
    }
    throw reader.error(number, "'" + number.text() + "' is not a number", "a number such as 10");
  }

  SeriesLayout layout() {
    Optional<SeriesFilter> filter = where;
    if (filter.isEmpty() && limitBottom && limit != Long.MAX_VALUE) {
      filter = Optional.of(SeriesFilter.bottom(limit));
    }
    return new SeriesLayout(sep, format, cont, filter, splitSpan, splitBins);
  }
}
