package io.quarry.ql.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.PageEval;
import io.quarry.ql.exec.PageRow;
import io.quarry.ql.exec.RowEvaluator;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compiled evaluators answer as the row engine's {@link Evaluator} does, bit for bit (a {@code
 * Long} is not a {@code Double}, {@code -0.0} is not {@code 0.0}): random expressions over every
 * fast path and some fallbacks, on random pages of every block type with nulls, multivalues,
 * numbers written as text, absent fields and {@code _time}; whole {@code eval} commands (later
 * assignments reading earlier ones) against {@link PageEval#assign} typed by {@link PageBuilder};
 * {@code where} selections against {@link Evaluator#test}. The seed is in every failure message.
 */
class CompiledEvaluatorTest {
  private static final String[] FIELDS = {"l", "d", "b", "s", "n", "m", "_time", "absent"};
  private static final Object[] LITERALS = {
    0L,
    1L,
    -1L,
    2L,
    3L,
    7L,
    1024L,
    500L,
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    0.0,
    -0.0,
    0.5,
    2.5,
    -3.25,
    1e300,
    Double.POSITIVE_INFINITY,
    "",
    "a",
    "abc",
    "B",
    "10",
    "2.50",
    " 7 ",
    "1e3",
    "-4",
    "x%",
    "%b%",
    "%Y-%m-%d",
    "-1d@d",
    "10.0.0.0/8",
    "^a",
    "(",
    true,
    false,
    null
  };
  private static final String[] OPERATORS = {
    "+", "-", "*", "/", "%", ".", "=", "!=", "<", "<=", ">", ">=", "AND", "OR", "XOR", "LIKE"
  };
  private static final String[] FUNCTIONS = {
    "if",
    "case",
    "coalesce",
    "isnull",
    "isnotnull",
    "len",
    "lower",
    "upper",
    "tostring",
    "tonumber",
    "todouble",
    "toint",
    "tobool",
    "ismv",
    "substr",
    "round",
    "like",
    "match",
    "mvcount",
    "mvindex",
    "abs",
    "typeof",
    "max",
    "mvfilter",
    "mvmap",
    "sigfig",
    "replace",
    "strftime",
    "trim",
    "ltrim",
    "split",
    "urldecode",
    "mvjoin",
    "mvfind",
    "floor",
    "ceil",
    "log",
    "pow",
    "strptime",
    "relative_time",
    "cidrmatch",
    "md5",
    "sha256",
    "mvdedup",
    "in",
    "ceiling",
    "sqrt",
    "ln",
    "exp",
    "exact",
    "min",
    "isbool",
    "isdouble",
    "isarray",
    "validate",
    "sum",
    "avg",
    "ipmask",
    "bit_and",
    "bit_not",
    "bit_shift_left"
  };

  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-07T12:00:00Z"), ZoneOffset.UTC);

  /** The reference: the row-at-a-time walk the compiled evaluators replaced. */
  private final RowEvaluator rows = new RowEvaluator(evaluator);

  @Test
  void compiledExpressionsAnswerAsTheEvaluator() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    java.util.Set<Class<?>> compiledAs = new java.util.HashSet<>();
    for (int round = 0; round < 400; round++) {
      Page page = randomPage(random);
      for (int e = 0; e < 10; e++) {
        Expression expression = randomExpression(random, 4);
        ExpressionEvaluator compiled = compiler.compile(expression);
        compiledAs.add(compiled.getClass());
        ValueColumn column = compiled.eval(new Frame(page));
        assertThat(column.size()).isEqualTo(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          Object expected = rows.evaluate(expression, row.at(page, p));
          assertThat(column.get(p))
              .as("seed %d: %s at position %d of %s", seed, expression, p, describe(page, p))
              .isEqualTo(expected);
          assertThat(column.kind(p)).isEqualTo(ValueColumn.kindOf(expected));
          assertTyped(column, p, expected);
        }
      }
    }
    // every node was the root of some of the expressions checked
    assertThat(compiledAs)
        .as("seed %d", seed)
        .contains(
            FieldEvaluator.class,
            LiteralEvaluator.class,
            ArithmeticEvaluator.class,
            ConcatEvaluator.class,
            ComparisonEvaluator.class,
            LogicEvaluator.class,
            LikeEvaluator.class,
            NotEvaluator.class,
            NegateEvaluator.class,
            ConditionalEvaluator.class,
            CoalesceEvaluator.class,
            NullTestEvaluator.class,
            TextFunctionEvaluator.class,
            CallEvaluator.class,
            BoundCallEvaluator.class,
            MultivalueEvaluator.class,
            SigFigEvaluator.class);
  }

  /**
   * {@code searchmatch()} compiled ({@link SearchMatchEvaluator}: terms in the page's {@code _raw},
   * comparisons on its columns) answers as the evaluator over the same positions as rows, with the
   * same raw-text matcher.
   */
  @Test
  void searchmatchAnswersAsTheEvaluator() {
    io.quarry.ql.exec.RawTermMatcher matcher =
        (raw, term) -> raw.toLowerCase(java.util.Locale.ROOT).contains(term.lowerCase());
    Evaluator searching =
        new Evaluator(Instant.parse("2026-01-07T12:00:00Z"), ZoneOffset.UTC)
            .withRawTermMatcher(matcher);
    ExpressionCompiler compiler = new ExpressionCompiler(searching);
    PageRow row = new PageRow(Map.of(), matcher);
    List<String> searches =
        List.of(
            "a",
            "abc OR l=7",
            "NOT \"hello world\"",
            "s=a*",
            "B n>100",
            "l>1 d<2.5",
            "m=abc OR absent=1",
            "_time>1767744000 10",
            "s!=a x%y");
    for (long seed = 0; seed < 60; seed++) {
      Random random = new Random(seed);
      Page page = withRaw(randomPage(random), random);
      for (String search : searches) {
        Expression expression =
            new Expression.Call("searchmatch", List.of(new Expression.Literal(search)), 0);
        ExpressionEvaluator compiled = compiler.compile(expression);
        assertThat(compiled).isInstanceOf(SearchMatchEvaluator.class);
        ValueColumn column = compiled.eval(new Frame(page));
        for (int p = 0; p < page.positionCount(); p++) {
          assertThat(column.get(p))
              .as("seed %d: %s at position %d of %s", seed, search, p, describe(page, p))
              .isEqualTo(new RowEvaluator(searching).evaluate(expression, row.at(page, p)));
        }
      }
    }
  }

  /** The page with a {@code _raw} column of text made of the other columns' words (some null). */
  private static Page withRaw(Page page, Random random) {
    io.quarry.plugin.api.data.BytesBlock.Builder raw =
        io.quarry.plugin.api.data.BytesBlock.builder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      if (random.nextInt(8) == 0) {
        raw.appendNull();
      } else {
        raw.append(TEXTS[random.nextInt(TEXTS.length)] + " " + TEXTS[random.nextInt(TEXTS.length)]);
      }
    }
    List<Schema.Column> columns = new ArrayList<>(page.schema().columns());
    List<Block> blocks = new ArrayList<>(page.blocks());
    add(columns, blocks, "_raw", raw.build());
    return new Page(new Schema(columns), blocks, page.positionCount());
  }

  @Test
  void denseFastPathsAnswerAsTheEvaluator() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    String[] operators = {"+", "-", "*", "/", "%", "=", "!=", "<", "<=", ">", ">="};
    for (int round = 0; round < 50; round++) {
      int positions = 1 + random.nextInt(100);
      Block dense = denseLongs(random, positions);
      Page page =
          new Page(
              new Schema(List.of(new Schema.Column("l", DataType.LONG))),
              List.of(dense),
              positions);
      for (String operator : operators) {
        for (Object literal : LITERALS) {
          if (!(literal instanceof Long)) {
            continue;
          }
          Expression expression =
              new Expression.Binary(
                  operator, new Expression.Field("l"), new Expression.Literal(literal));
          ValueColumn column = compiler.compile(expression).eval(new Frame(page));
          for (int p = 0; p < positions; p++) {
            assertThat(column.get(p))
                .as("seed %d: %s at %s", seed, expression, describe(page, p))
                .isEqualTo(rows.evaluate(expression, row.at(page, p)));
          }
        }
      }
    }
  }

  @Test
  void whereKeepsThePositionsTheEvaluatorAccepts() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    for (int round = 0; round < 300; round++) {
      Page page = randomPage(random);
      Expression condition =
          new Expression.Binary(
              random.nextBoolean() ? "AND" : "OR",
              randomComparison(random),
              randomExpression(random, 2));
      int[] kept = new int[page.positionCount()];
      int count = Selection.trues(compiler.compile(condition).eval(new Frame(page)), kept);
      List<Integer> expected = new ArrayList<>();
      for (int p = 0; p < page.positionCount(); p++) {
        if (rows.test(condition, row.at(page, p))) {
          expected.add(p);
        }
      }
      List<Integer> actual = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        actual.add(kept[i]);
      }
      assertThat(actual).as("seed %d: where %s", seed, condition).isEqualTo(expected);
    }
  }

  @Test
  void compiledEvalMakesTheRowEnginesColumns() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    String[] targets = {"x", "y", "l", "s", "_time"};
    for (int round = 0; round < 300; round++) {
      Page page = randomPage(random);
      List<EvalCommand.Assignment> assignments = new ArrayList<>();
      for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
        Expression expression =
            random.nextInt(3) == 0
                ? new Expression.Binary(
                    pick(random, OPERATORS), new Expression.Field("x"), randomExpression(random, 1))
                : randomExpression(random, 3);
        assignments.add(new EvalCommand.Assignment(pick(random, targets), expression));
      }
      PageEval eval = new PageEval(evaluator);
      Map<String, List<List<Object>>> cells = assignByRows(page, assignments);
      Page expected =
          PageBuilder.toPage(
              List.copyOf(cells.keySet()), List.copyOf(cells.values()), page.positionCount());
      Page actual = eval.compile(assignments).apply(page);
      for (int c = 0; c < expected.schema().size(); c++) {
        String name = expected.schema().column(c).name();
        Block want = expected.block(c);
        Block got = actual.block(name);
        String message = "seed " + seed + ": eval " + assignments + " column " + name;
        assertThat(got.dataType()).as(message).isEqualTo(want.dataType());
        for (int p = 0; p < page.positionCount(); p++) {
          assertThat(got.getValues(p)).as(message + " at " + p).isEqualTo(want.getValues(p));
        }
      }
    }
  }

  /**
   * The reference for an eval: every position a row (the assigned values laid over the page's),
   * each assignment walked by the row evaluator in turn; each assigned field's cells, in the order
   * the fields were first assigned.
   */
  private Map<String, List<List<Object>>> assignByRows(
      Page page, List<EvalCommand.Assignment> assignments) {
    Map<String, Object> assigned = new java.util.HashMap<>();
    PageRow row = new PageRow(assigned);
    Map<String, List<List<Object>>> columns = new java.util.LinkedHashMap<>();
    for (EvalCommand.Assignment assignment : assignments) {
      columns.computeIfAbsent(assignment.field(), f -> new ArrayList<>());
    }
    for (int p = 0; p < page.positionCount(); p++) {
      assigned.clear();
      row.at(page, p);
      for (EvalCommand.Assignment assignment : assignments) {
        Object value = rows.evaluate(assignment.expression(), row);
        if (io.quarry.ql.exec.TimeField.is(assignment.field())) {
          Object seconds = io.quarry.ql.exec.EvalValues.number(value);
          value =
              seconds == null ? null : Math.round(((Number) seconds).doubleValue() * 1_000_000d);
        }
        assigned.put(assignment.field(), value);
      }
      for (Map.Entry<String, List<List<Object>>> column : columns.entrySet()) {
        column.getValue().add(io.quarry.ql.exec.EvalValues.values(assigned.get(column.getKey())));
      }
    }
    return columns;
  }

  @Test
  void sigfigAndMvmapCompileOverBlocks() {
    Page page = randomPage(new Random(7));
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    Expression sigfig =
        new Expression.Call(
            "sigfig",
            List.of(
                new Expression.Binary("*", new Expression.Field("d"), new Expression.Literal(3L)),
                new Expression.Literal(List.of("d*3"))),
            0);
    Expression mvmap =
        new Expression.Call(
            "mvmap",
            List.of(
                new Expression.Field("m"),
                new Expression.Binary(".", new Expression.Field("m"), new Expression.Literal("!"))),
            0);
    assertThat(compiler.compile(sigfig)).isInstanceOf(SigFigEvaluator.class);
    assertThat(compiler.compile(mvmap)).isInstanceOf(MultivalueEvaluator.class);
    for (Expression expression : List.of(sigfig, mvmap)) {
      ValueColumn column = compiler.compile(expression).eval(new Frame(page));
      for (int p = 0; p < page.positionCount(); p++) {
        assertThat(column.get(p)).isEqualTo(rows.evaluate(expression, row.at(page, p)));
      }
    }
  }

  /**
   * A part that throws (a function with no implementation: the evaluator's own failure) is
   * evaluated only where {@code Evaluator} evaluates it: an {@code if} branch not taken, the right
   * side of an {@code AND} after a false, a {@code coalesce} argument after a value — so the same
   * page throws or answers as the row-at-a-time evaluation does.
   */
  @Test
  void aPartThatMayThrowIsEvaluatedOnlyWhereTaken() {
    Expression bad = new Expression.Call("no_such_function", List.of(new Expression.Field("s")), 0);
    Expression lIsOne =
        new Expression.Binary("=", new Expression.Field("l"), new Expression.Literal(1L));
    List<Expression> expressions =
        List.of(
            new Expression.Call("if", List.of(lIsOne, bad, new Expression.Literal("no")), 0),
            new Expression.Binary("AND", lIsOne, bad),
            new Expression.Binary("OR", new Expression.Unary("NOT", lIsOne), bad),
            new Expression.Call("coalesce", List.of(new Expression.Field("x"), bad), 0),
            new Expression.Call(
                "case", List.of(lIsOne, bad, new Expression.Literal(true), lIsOne), 0));
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    for (long[] ls : new long[][] {{2, 3, 4}, {2, 1, 4}, {1, 1, 1}}) {
      Page page = textsAndLongs(ls);
      for (Expression expression : expressions) {
        ExpressionEvaluator compiled = compiler.compile(expression);
        boolean rowsThrow = false;
        Object[] expected = new Object[ls.length];
        try {
          for (int p = 0; p < ls.length; p++) {
            expected[p] = rows.evaluate(expression, row.at(page, p));
          }
        } catch (RuntimeException e) {
          rowsThrow = true;
        }
        String message = expression + " over l=" + java.util.Arrays.toString(ls);
        if (rowsThrow) {
          org.assertj.core.api.Assertions.assertThatThrownBy(() -> compiled.eval(new Frame(page)))
              .as(message)
              .isInstanceOf(RuntimeException.class);
        } else {
          ValueColumn column = compiled.eval(new Frame(page));
          for (int p = 0; p < ls.length; p++) {
            assertThat(column.get(p)).as(message + " at " + p).isEqualTo(expected[p]);
          }
        }
      }
    }
    // a page where no position takes the bad branch answers; one where one does, throws
    assertThat(
            compiler
                .compile(expressions.get(0))
                .eval(new Frame(textsAndLongs(new long[] {2, 3})))
                .get(1))
        .isEqualTo("no");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () ->
            compiler.compile(expressions.get(0)).eval(new Frame(textsAndLongs(new long[] {2, 1}))));
  }

  /**
   * Parts taken at some positions inside parts taken at some positions (each a selection of the one
   * around it, its fields read through both), and {@code mvmap} inside one, answer as the evaluator
   * does.
   */
  @Test
  void nestedLazyPartsReadTheirPositions() {
    Expression inner =
        new Expression.Call(
            "if",
            List.of(
                new Expression.Binary("=", new Expression.Field("n"), new Expression.Literal("1")),
                new Expression.Call(
                    "replace",
                    List.of(
                        new Expression.Field("s"),
                        new Expression.Literal("b"),
                        new Expression.Field("m")),
                    0),
                new Expression.Call(
                    "mvmap",
                    List.of(
                        new Expression.Field("m"),
                        new Expression.Call(
                            "match",
                            List.of(new Expression.Field("m"), new Expression.Field("s")),
                            0)),
                    0)),
            0);
    Expression outer =
        new Expression.Call(
            "case",
            List.of(
                new Expression.Binary(">", new Expression.Field("l"), new Expression.Literal(0L)),
                inner,
                new Expression.Call(
                    "match", List.of(new Expression.Field("s"), new Expression.Field("n")), 0),
                new Expression.Call("urldecode", List.of(new Expression.Field("m")), 0)),
            0);
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    PageRow row = new PageRow(Map.of());
    for (long seed = 0; seed < 200; seed++) {
      Page page = randomPage(new Random(seed));
      ValueColumn column = compiler.compile(outer).eval(new Frame(page));
      for (int p = 0; p < page.positionCount(); p++) {
        assertThat(column.get(p))
            .as("seed %d at %d of %s", seed, p, describe(page, p))
            .isEqualTo(rows.evaluate(outer, row.at(page, p)));
      }
    }
  }

  /** A page of {@code l} (the longs) and {@code s} ("abc" at each position). */
  private static Page textsAndLongs(long[] ls) {
    LongBlock.Builder longs = LongBlock.builder(DataType.LONG, ls.length);
    io.quarry.plugin.api.data.BytesBlock.Builder texts =
        io.quarry.plugin.api.data.BytesBlock.builder(ls.length);
    for (long l : ls) {
      longs.append(l);
      texts.append("abc");
    }
    return new Page(
        new Schema(
            List.of(
                new Schema.Column("l", DataType.LONG), new Schema.Column("s", DataType.STRING))),
        List.of(longs.build(), texts.build()),
        ls.length);
  }

  /**
   * A function of a dictionary-form string block and literals answers once per entry: its column
   * keeps the block's ordinals, a function of that column too, and the field written is a
   * dictionary block of the answers — the values the evaluator gives at each position.
   */
  @Test
  void aFunctionOverADictionaryAnswersPerEntryAndWritesADictionary() {
    BytesBlock.Builder entries = BytesBlock.builder(3);
    entries.append("/a%20b/c").append("/x/y").append("never read");
    BytesBlock.OrdinalBuilder ordinals = BytesBlock.ordinalBuilder(entries.build(), 6);
    ordinals.appendOrdinal(0).appendOrdinal(1).appendNull().appendOrdinal(1);
    ordinals.beginPositionEntry().appendOrdinal(1).appendOrdinal(0).endPositionEntry();
    ordinals.appendOrdinal(0);
    Page page =
        new Page(
            new Schema(List.of(new Schema.Column("s", DataType.STRING))),
            List.of(ordinals.build()),
            6);
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    Expression decoded = new Expression.Call("urldecode", List.of(new Expression.Field("s")), 0);
    Expression substr =
        new Expression.Call(
            "substr", List.of(decoded, new Expression.Literal(2L), new Expression.Literal(3L)), 0);
    ExpressionEvaluator compiled = compiler.compile(substr);
    assertThat(compiled).isInstanceOf(BoundCallEvaluator.class);
    ValueColumn column = compiled.eval(new Frame(page));
    assertThat(column).isInstanceOf(DictionaryColumn.class);
    PageRow row = new PageRow(Map.of());
    List<Object> expected = new ArrayList<>();
    for (int p = 0; p < 6; p++) {
      expected.add(rows.evaluate(substr, row.at(page, p)));
      assertThat(column.get(p)).as("at %d", p).isEqualTo(expected.get(p));
    }
    assertThat(expected).containsExactly("a b", "x/y", null, "x/y", "x/y", "a b");
    Block written = ColumnBlocks.block("x", column);
    assertThat(((BytesBlock) written).dictionary()).isNotNull();
    for (int p = 0; p < 6; p++) {
      assertThat(written.getValues(p))
          .isEqualTo(io.quarry.ql.exec.EvalValues.values(expected.get(p)));
    }
  }

  @Test
  void aFieldIsItsBlockAndALiteralOneConstant() {
    Page page = randomPage(new Random(3));
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    ValueColumn field = compiler.compile(new Expression.Field("l")).eval(new Frame(page));
    assertThat(field).isInstanceOf(BlockColumn.class);
    assertThat(((BlockColumn) field).block()).isSameAs(page.block("l"));
    assertThat(ColumnBlocks.block("l2", field)).isSameAs(page.block("l"));
    assertThat(compiler.compile(new Expression.Literal(5L)).eval(new Frame(page)))
        .isInstanceOf(ConstantColumn.class);
  }

  /** The typed accessor of a fast-path kind gives the value {@code get} gives. */
  private static void assertTyped(ValueColumn column, int p, Object expected) {
    switch (column.kind(p)) {
      case ValueColumn.LONG -> assertThat(column.getLong(p)).isEqualTo(expected);
      case ValueColumn.DOUBLE -> assertThat(column.getDouble(p)).isEqualTo(expected);
      case ValueColumn.BOOLEAN -> assertThat(column.getBoolean(p)).isEqualTo(expected);
      case ValueColumn.TEXT -> assertThat(column.getText(p)).isEqualTo(expected);
      default -> {}
    }
  }

  private static Expression randomExpression(Random random, int depth) {
    int kind = random.nextInt(depth <= 0 ? 2 : 6);
    return switch (kind) {
      case 0 -> new Expression.Field(pick(random, FIELDS));
      case 1 -> new Expression.Literal(pick(random, LITERALS));
      case 2, 3 ->
          new Expression.Binary(
              pick(random, OPERATORS),
              randomExpression(random, depth - 1),
              randomExpression(random, depth - 1));
      case 4 ->
          new Expression.Unary(
              random.nextBoolean() ? "NOT" : "-", randomExpression(random, depth - 1));
      default -> randomCall(random, depth);
    };
  }

  private static Expression randomComparison(Random random) {
    return new Expression.Binary(
        pick(random, new String[] {"=", "!=", "<", "<=", ">", ">="}),
        new Expression.Field(pick(random, FIELDS)),
        new Expression.Literal(pick(random, LITERALS)));
  }

  private static Expression randomCall(Random random, int depth) {
    String function = pick(random, FUNCTIONS);
    int arity =
        switch (function) {
          case "if" -> 3;
          case "case" -> 1 + random.nextInt(5);
          case "coalesce", "max", "min" -> 1 + random.nextInt(3);
          case "substr" -> 2 + random.nextInt(2);
          case "round", "tostring", "tonumber", "trim", "ltrim", "log", "todouble", "toint" ->
              1 + random.nextInt(2);
          case "in" -> 2 + random.nextInt(2);
          case "like", "match", "mvindex", "strftime", "split", "mvjoin", "mvfind", "pow" -> 2;
          case "strptime", "relative_time", "cidrmatch", "ipmask", "bit_shift_left" -> 2;
          case "validate" -> 2 * (1 + random.nextInt(2));
          case "sum", "avg", "bit_not" -> 1 + random.nextInt(2);
          case "bit_and" -> 2 + random.nextInt(2);
          case "replace" -> 3;
          default -> 1;
        };
    List<Expression> arguments = new ArrayList<>();
    if (function.equals("mvmap")) {
      arguments.add(new Expression.Field(pick(random, FIELDS)));
      arguments.add(randomExpression(random, depth - 1));
    } else if (function.equals("mvfilter")) {
      arguments.add(
          new Expression.Binary(
              "!=", new Expression.Field("m"), new Expression.Literal(pick(random, LITERALS))));
    } else {
      // one argument an expression, the others often literals: a function bound to them
      int subject = random.nextInt(arity);
      boolean literals = random.nextBoolean();
      for (int i = 0; i < arity; i++) {
        arguments.add(
            (function.equals("case") || function.equals("validate")) && i % 2 == 0
                    || function.equals("if") && i == 0
                ? (random.nextBoolean()
                    ? randomComparison(random)
                    : randomExpression(random, depth - 1))
                : literals && i != subject
                    ? new Expression.Literal(pick(random, LITERALS))
                    : randomExpression(random, depth - 1));
      }
    }
    return new Expression.Call(function, arguments, 0);
  }

  /**
   * A page of 1 to 40 positions: {@code l} longs (in a quarter of the pages dense: no null, no
   * multivalue), {@code d} doubles, {@code b} booleans, {@code s} texts (numbers written as text
   * among them), {@code n} numeric texts, {@code m} multivalued texts, {@code _time} microseconds;
   * each with nulls, some with multivalues; {@code absent} is never there.
   */
  static Page randomPage(Random random) {
    int positions = 1 + random.nextInt(40);
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    boolean multivalues = random.nextBoolean();
    boolean dense = random.nextInt(4) == 0; // l without nulls or multivalues: the dense fast paths
    add(
        columns,
        blocks,
        "l",
        dense
            ? denseLongs(random, positions)
            : longs(random, positions, multivalues, DataType.LONG));
    add(columns, blocks, "d", doubles(random, positions, multivalues));
    add(columns, blocks, "b", booleans(random, positions));
    add(columns, blocks, "s", form(random, texts(random, positions, multivalues, TEXTS)));
    add(columns, blocks, "n", form(random, texts(random, positions, false, NUMERIC_TEXTS)));
    add(columns, blocks, "m", form(random, texts(random, positions, true, TEXTS)));
    if (random.nextInt(4) > 0) {
      add(columns, blocks, "_time", longs(random, positions, false, DataType.TIMESTAMP));
    }
    return new Page(new Schema(columns), blocks, positions);
  }

  /**
   * A string block as it is (half the time), in dictionary form (its values' distinct texts in a
   * shuffled dictionary with entries no position reads, as a filtered copy keeps its source's, some
   * dictionaries larger than the page), or in constant form when every position holds the same
   * single text.
   */
  private static Block form(Random random, Block block) {
    BytesBlock texts = (BytesBlock) block;
    int positions = texts.positionCount();
    if (random.nextBoolean()) {
      return texts;
    }
    if (random.nextInt(4) == 0) {
      return BytesBlock.constant(TEXTS[random.nextInt(TEXTS.length)], positions);
    }
    List<String> entries = new ArrayList<>(List.of("unused", "unused too"));
    for (int i = random.nextBoolean() ? 60 : 0; i > 0; i--) {
      entries.add("unused " + i); // a dictionary larger than the page: a segment's
    }
    for (int p = 0; p < positions; p++) {
      for (Object value : texts.getValues(p)) {
        if (!entries.contains(value)) {
          entries.add((String) value);
        }
      }
    }
    java.util.Collections.shuffle(entries, random);
    BytesBlock.Builder dictionary = BytesBlock.builder(entries.size());
    entries.forEach(dictionary::append);
    BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(dictionary.build(), positions);
    for (int p = 0; p < positions; p++) {
      List<Object> values = texts.getValues(p);
      if (values.isEmpty()) {
        builder.appendNull();
      } else if (values.size() == 1) {
        builder.appendOrdinal(entries.indexOf(values.get(0)));
      } else {
        builder.beginPositionEntry();
        values.forEach(v -> builder.appendOrdinal(entries.indexOf(v)));
        builder.endPositionEntry();
      }
    }
    return builder.build();
  }

  private static final String[] TEXTS = {
    "",
    "a",
    "abc",
    "B",
    "10",
    "2.50",
    " 7 ",
    "1e3",
    "-4",
    "x%y",
    "9223372036854775807",
    "0x1F",
    "Hello World",
    "10.1.2.3",
    "a%20b",
    "2026-01-07"
  };
  private static final String[] NUMERIC_TEXTS = {
    "0", "1", "-1", "500", "404", "1024", "2048", "3.5", "-0.25", "1e2", "+3", "007", " 12 "
  };

  private static void add(
      List<Schema.Column> columns, List<Block> blocks, String name, Block block) {
    columns.add(new Schema.Column(name, block.dataType()));
    blocks.add(block);
  }

  private static Block longs(Random random, int positions, boolean multivalues, DataType type) {
    LongBlock.Builder builder = LongBlock.builder(type, positions);
    long[] choices = {0, 1, -1, 2, 7, 500, 1024, Long.MAX_VALUE, Long.MIN_VALUE, 1_767_744_000L};
    for (int p = 0; p < positions; p++) {
      int shape = random.nextInt(10);
      if (shape == 0) {
        builder.appendNull();
      } else if (type == DataType.TIMESTAMP) {
        long seconds = 1_767_744_000L + random.nextInt(100_000);
        builder.append(seconds * 1_000_000 + (random.nextBoolean() ? 0 : random.nextInt(1_000)));
      } else if (shape == 1 && multivalues) {
        builder.beginPositionEntry();
        builder.append(choices[random.nextInt(choices.length)]);
        builder.append(random.nextInt(2000) - 1000);
        builder.endPositionEntry();
      } else {
        builder.append(
            random.nextBoolean()
                ? choices[random.nextInt(choices.length)]
                : random.nextInt(4000) - 2000);
      }
    }
    return builder.build();
  }

  private static Block denseLongs(Random random, int positions) {
    LongBlock.Builder builder = LongBlock.builder(DataType.LONG, positions);
    long[] choices = {0, 1, -1, 7, 1024, Long.MAX_VALUE, Long.MIN_VALUE};
    for (int p = 0; p < positions; p++) {
      builder.append(
          random.nextInt(4) == 0
              ? choices[random.nextInt(choices.length)]
              : random.nextInt(4000) - 2000);
    }
    return builder.build();
  }

  private static Block doubles(Random random, int positions, boolean multivalues) {
    DoubleBlock.Builder builder = DoubleBlock.builder(positions);
    double[] choices = {0.0, -0.0, 0.5, 1.0, 2.5, -3.25, 1e300, 1e-9, Double.NaN, 3.0};
    for (int p = 0; p < positions; p++) {
      int shape = random.nextInt(10);
      if (shape == 0) {
        builder.appendNull();
      } else if (shape == 1 && multivalues) {
        builder.beginPositionEntry();
        builder.append(choices[random.nextInt(choices.length)]);
        builder.append(random.nextDouble() * 100);
        builder.endPositionEntry();
      } else {
        builder.append(
            random.nextBoolean()
                ? choices[random.nextInt(choices.length)]
                : (random.nextInt(2000) - 1000) / 8.0);
      }
    }
    return builder.build();
  }

  private static Block booleans(Random random, int positions) {
    BooleanBlock.Builder builder = BooleanBlock.builder(positions);
    for (int p = 0; p < positions; p++) {
      if (random.nextInt(6) == 0) {
        builder.appendNull();
      } else {
        builder.append(random.nextBoolean());
      }
    }
    return builder.build();
  }

  private static Block texts(Random random, int positions, boolean multivalues, String[] choices) {
    BytesBlock.Builder builder = BytesBlock.builder(positions);
    for (int p = 0; p < positions; p++) {
      int shape = random.nextInt(8);
      if (shape == 0) {
        builder.appendNull();
      } else if (shape <= 2 && multivalues) {
        builder.beginPositionEntry();
        for (int i = 0, n = 2 + random.nextInt(2); i < n; i++) {
          builder.append(choices[random.nextInt(choices.length)]);
        }
        builder.endPositionEntry();
      } else {
        builder.append(choices[random.nextInt(choices.length)]);
      }
    }
    return builder.build();
  }

  static <T> T pick(Random random, T[] choices) {
    return choices[random.nextInt(choices.length)];
  }

  static String describe(Page page, int p) {
    Map<String, Object> values = new HashMap<>();
    for (int c = 0; c < page.schema().size(); c++) {
      values.put(page.schema().column(c).name(), page.block(c).getValues(p));
    }
    return values.toString();
  }
}
