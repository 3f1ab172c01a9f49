package io.quarry.ql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.ql.plan.SearchPlanner;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link SplText} writes what the parser reads: explicit texts for the common cases, and for many
 * queries and random trees, writing then parsing gives the same tree (positions aside).
 */
class SplTextTest {
  /** A plugin command with options, a default and a positional argument, as iplocation. */
  private record Locate() implements CommandDefinition {
    @Override
    public String name() {
      return "locate";
    }

    @Override
    public String description() {
      return "for the round trip";
    }

    @Override
    public CommandKind kind() {
      return CommandKind.STREAMING;
    }

    @Override
    public List<ArgumentSpec> arguments() {
      return List.of(
          ArgumentSpec.optional("prefix", ArgumentType.STRING, "", "a prefix"),
          ArgumentSpec.optional("ratio", ArgumentType.DOUBLE, "0.5", "a ratio"),
          ArgumentSpec.optional("strict", ArgumentType.BOOLEAN, "false", "a flag"),
          ArgumentSpec.optional("field", ArgumentType.FIELD, "clientip", "the field")
              .alsoPositional());
    }

    @Override
    public BoundCommand bind(CommandArguments arguments) {
      return new BoundCommand() {
        @Override
        public Set<String> requiredFields() {
          return Set.of(arguments.getString("field"));
        }

        @Override
        public Set<String> producedFields() {
          return Set.of();
        }

        @Override
        public Operator createOperator(OperatorContext context) {
          throw new UnsupportedOperationException();
        }
      };
    }
  }

  private static final Position NOWHERE = new Position(0, 1, 1);

  private static final Parser PARSER =
      new Parser(CommandRegistry.builtIns().withPlugin("demo", List.of(new Locate())));

  private static SearchExpression search(String query) {
    return ((SearchCommand) PARSER.parse(query).commands().get(0)).expression().orElseThrow();
  }

  @Test
  void writesSearchExpressionsAsTheyAreTyped() {
    assertThat(SplText.search(search("status>=500"))).isEqualTo("status>=500");
    assertThat(SplText.search(search("status >= 500"))).isEqualTo("status>=500");
    assertThat(SplText.search(search("index=web status!=404 host<=b x<1 y>2")))
        .isEqualTo("index=web status!=404 host<=b x<1 y>2");
    assertThat(SplText.search(search("a AND b OR c"))).isEqualTo("a b OR c");
    assertThat(SplText.search(search("(a b) OR c"))).isEqualTo("(a b) OR c");
    assertThat(SplText.search(search("a (b c)"))).isEqualTo("a (b c)");
    assertThat(SplText.search(search("NOT (a OR b)"))).isEqualTo("NOT (a OR b)");
    assertThat(SplText.search(search("NOT a OR b"))).isEqualTo("NOT a OR b");
    assertThat(SplText.search(search("NOT NOT a"))).isEqualTo("NOT NOT a");
    assertThat(SplText.search(search("NOT (a b)"))).isEqualTo("NOT (a b)");
    assertThat(SplText.search(search("a OR (b OR c)"))).isEqualTo("a OR (b OR c)");
    assertThat(SplText.search(search("clientip IN (10.0.0.1,10.0.0.2, \"a b\")")))
        .isEqualTo("clientip IN (10.0.0.1, 10.0.0.2, \"a b\")");
    assertThat(SplText.search(search("NOT status IN (404, 500)")))
        .isEqualTo("NOT status IN (404, 500)");
    assertThat(SplText.search(search("\"GET /cart\" uri=/cart.do?action=view ip=10.0.0.0/8")))
        .isEqualTo("\"GET /cart\" uri=/cart.do?action=view ip=10.0.0.0/8");
    assertThat(SplText.search(search("msg=\"say \\\"hi\\\" to C:\\\\\" x=\"\"")))
        .isEqualTo("msg=\"say \\\"hi\\\" to C:\\\\\" x=\"\"");
    assertThat(SplText.search(search("host=\"web\" *fail* or")))
        .as("a quoted value stays quoted; lower-case or is a term")
        .isEqualTo("host=\"web\" *fail* or");
    assertThat(SplText.search(search("x (IN) ((a b) OR c)")))
        .as("the term IN before a group is not an IN list")
        .isEqualTo("x (IN) (a b) OR c");
  }

  @Test
  void writesEvalExpressionsByPrecedence() {
    assertThat(eval("x=a+b*c")).isEqualTo("eval x=a + b * c");
    assertThat(eval("x=(a+b)*c")).isEqualTo("eval x=(a + b) * c");
    assertThat(eval("x=a-(b-c)")).isEqualTo("eval x=a - (b - c)");
    assertThat(eval("x=a-b-c")).isEqualTo("eval x=a - b - c");
    assertThat(eval("x=-(a+1), y='odd name'.\"s\\\"q\""))
        .isEqualTo("eval x=-(a + 1), y='odd name' . \"s\\\"q\"");
    assertThat(eval("x=if(status>=500 AND NOT (a=1 OR b==2), \"err\", null())"))
        .isEqualTo("eval x=if(status >= 500 AND NOT (a = 1 OR b = 2), \"err\", null())");
    assertThat(eval("x=round(1.50, 2) . 3e2 . 'and'"))
        .isEqualTo("eval x=round(1.5, 2) . 300.0 . 'and'");
    assertThat(SplText.command(PARSER.parse("* | where a LIKE \"x%\" XOR b").commands().get(1)))
        .isEqualTo("where a LIKE \"x%\" XOR b");
  }

  private static String eval(String assignments) {
    return SplText.command(PARSER.parse("* | eval " + assignments).commands().get(1));
  }

  @Test
  void writesPipelinesWithTheirOptions() {
    assertThat(pipeline("index=web status>=500 | stats count by clientip | sort -count | head 10"))
        .isEqualTo(
            "search index=web status>=500 | stats count by clientip | sort -count | head 10");
    assertThat(pipeline("| makeresults count=3 | eval x=1 | table x, \"a b\""))
        .isEqualTo("| makeresults count=3 | eval x=1 | table x, \"a b\"");
    assertThat(pipeline("* | stats c, p95(bytes), avg(bytes) AS mean by host, status"))
        .isEqualTo(
            "search * | stats count, perc95(bytes) as \"p95(bytes)\", avg(bytes) as mean"
                + " by host, status");
    assertThat(pipeline("* | top limit=3 showperc=f uri by host | rare 0 x"))
        .isEqualTo("search * | top limit=3 showperc=false uri by host | rare limit=0 x");
    assertThat(pipeline("* | timechart span=1h count by status | bin span=0.5 x AS y"))
        .isEqualTo("search * | timechart span=1h count by status | bin span=0.5 x as y");
    assertThat(pipeline("* | rex field=uri \"(?P<path_1>/\\w+)\" | rex mode=sed \"s/a\\/b/c/g\""))
        .isEqualTo("search * | rex field=uri \"(?<path_1>/\\\\w+)\" | rex mode=sed \"s#a/b#c#g\"");
    assertThat(pipeline("* | dedup 2 host sortby -_time | transaction ip maxspan=5m"))
        .isEqualTo("search * | dedup 2 host sortby -_time | transaction ip maxspan=300s");
    assertThat(pipeline("* | locate src prefix=geo_"))
        .isEqualTo("search * | locate field=src prefix=geo_ ratio=0.5 strict=false");
    assertThat(pipeline("* | lookup users.csv uid AS user OUTPUTNEW dept | fields - _raw"))
        .isEqualTo("search * | lookup users.csv uid as user OUTPUTNEW dept | fields - _raw");
  }

  private static String pipeline(String query) {
    return SplText.pipeline(PARSER.parse(query).commands());
  }

  @Test
  void thePlannedPipelineIsWrittenAsPlanned() {
    SearchPlan plan =
        new SearchPlanner(Instant.EPOCH, ZoneOffset.UTC)
            .plan(
                PARSER.parse(
                    "index=web status>=500 | stats count by clientip | sort -count | head 5"),
                Long.MIN_VALUE,
                Long.MAX_VALUE);
    assertThat(SplText.search(plan.filter().orElseThrow())).isEqualTo("status>=500");
    assertThat(SplText.pipeline(plan.pipeline()))
        .isEqualTo("stats count by clientip | sort 5 -count | head 5");
  }

  /** Queries over every command and the lexical corners of values. */
  private static final List<String> QUERIES =
      List.of(
          "error",
          "search",
          "search search x",
          "index=web status>=500 | stats count by status",
          "a b OR c NOT d (e f) OR (g OR h) NOT (i OR j) NOT NOT k",
          "x IN (1, \"2 3\", a=b, OR) y!=\"\" z=* \"phrase with * and \\\"quotes\\\"\"",
          "uri=/cart.do?action=view&itemId=EST-1 a<=b c>=d e<f g>h ip=10.0.0.0/8",
          "w! =5 a!b=c IN=1 x (IN) (y z) p OR (IN) (q)",
          "\"AND\" \"OR\" \"NOT\" \"IN\" and or not in \"\" \"|\" \"(\" \"```\"",
          "* | search a b OR c | search NOT x=1",
          "* | stats count, c AS n, dc(ip), estdc(ip) AS e, avg(b), perc99.9(b), median(b),"
              + " exactperc50(b), p10(b) AS \"p 10\", values(u) by host, status",
          "* | eventstats max(b) AS m by h | streamstats current=f window=5 global=false count",
          "* | head | head 0 | head limit=7 | tail | tail 3 | reverse",
          "* | sort x | sort 0 -y, +z | sort limit=5 num(a), -str(b), auto(c) | sort 10000 5, d"
              + " | sort x, auto(desc) | sort a d",
          "* | top x | top 5 x, y by z | rare limit=0 countfield=c percentfield=p showcount=no x"
              + " | top limit=10 7",
          "* | table a, b*, \"c d\" | fields a | fields + b | fields - c | fields + -, x",
          "* | rename a AS b, \"c d\" AS e, f* AS g*, \"as\" AS h",
          "* | dedup x | dedup 3 x, y keepempty=true consecutive=t sortby -_time, num(z)"
              + " | dedup 1 5 | dedup \"sortby\"",
          "* | eval x=1, y=\"s\", z=a.b, w='odd field' , v=-x, u=NOT a, t=1.5e3, s=.5, r=0.25"
              + " | eval q=if(a>1 AND b<2 OR c XOR d, \"y\", null()), p=case(a=1, \"one\", true(),"
              + " \"other\"), o=a LIKE \"x%\", n=a == b, m=a != b, l=-(a + b) * -c % d / e",
          "* | eval 'and'=1, 'x y'=2 | where a>=1 AND NOT (b=2 OR c<3) | where len(x) > 3",
          "* | rex \"(?<a>\\d+) (?P<b_c>\\w+)\" | rex field=f max_match=0 \"(?<x>.)\""
              + " | rex max_match=3 field=\"a b\" \"(?<y>[|])\"",
          "* | rex mode=sed \"s/a/b/\" | rex mode=sed field=x \"s/a\\/b/c/2\""
              + " | rex mode=sed \"y/abc/xyz/\" | rex mode=sed \"s|/|#|g\"",
          "* | bin _time span=1h | bin x bins=10 | bin y span=5 AS z | bin z minspan=1m start=0"
              + " end=1000.5 | bucket w span=1mon | bin \"as\"",
          "* | timechart count | timechart span=5m bins=50 limit=0 useother=f usenull=f avg(x)"
              + " by y | timechart span=1w count AS n",
          "* | chart count over a | chart limit=3 sum(b) over a by c | chart count by a, b"
              + " | chart useother=false usenull=false count by a",
          "* | fieldsummary | fieldsummary maxvals=5",
          "* | lookup t.csv a | lookup \"my-table.csv\" a AS b, c OUTPUT d AS e, f"
              + " | lookup t a OUTPUTNEW \"output\"",
          "* | outputlookup out.csv | transaction a, b maxspan=30s maxpause=1h maxevents=5",
          "* | streamstats time_window=90s reset_on_change=t reset_before=\"(x>1)\""
              + " reset_after=\"(y=\\\"a\\\")\" count by g | streamstats window=3 time_window=2h count",
          "* | transaction u startswith=\"action=login\" endswith=eval(x > 1 AND y=\"a b\")"
              + " keepevicted=t | transaction endswith=logout",
          "| inputlookup users.csv | where dept=\"eng\"",
          "| makeresults count=2 annotate=true",
          "| makeresults annotate=true",
          "| help",
          "| help stats",
          "* | format | format mvsep=\"||\" maxresults=3 \"[\" \"[\" \"&&\" \"]\" \"||\" \"]\""
              + " emptystr=\"nothing\" | return x | return 5 a b=c $d",
          "| help locate",
          "* | locate | locate src | locate field=\"a b\" prefix=\"\" ratio=1 strict=yes",
          "* | locate prefix=x src ratio=0.25",
          "* | eval x=1e999999 + .5",
          // the built-in page commands (io.quarry.ql.builtins)
          "* | fillnull | fillnull value=\"n/a\" a, b | fillnull value=0 x",
          "* | convert ctime(_time) AS t, auto(*) none(\"a b\") | convert timeformat=\"%Y-%m-%d\""
              + " mktime(d) as \"as\" dur2sec(*_d) AS *_s memk(m) rmunit(u) rmcomma(c) num(n)"
              + " mstime(s)",
          "* | mvexpand tag | mvexpand field=t limit=3 | makemv delim=\",\" allowempty=t s"
              + " | makemv tokenizer=\"(\\w+),?\" s setsv=true | mvcombine delim=\";\" x",
          "* | regex \"^GET\" | regex ip!=\"^10\\.\" | regex _raw=\"a\\\"b\"",
          "* | spath | spath input=j output=o path=a.b{0}.c | spath \"x{}.y\"",
          "* | xyseries sep=\"-\" day host count n | untable day host count"
              + " | addtotals col=t labelfield=n x* y | addtotals row=false col=true",
          "* | strcat allrequired=t a \"-\" \"b c\" d | strcat x y | rangemap field=v lo=-5--1"
              + " hi=0.5-10 default=\"n a\" | nomv tag | replace a WITH b, \"x *\" WITH \"* y\" IN f, g*"
              + " | replace in WITH with",
          "* | accum v | accum v AS t | delta v p=3 | delta v AS \"d v\" | autoregress v p=2-4"
              + " | autoregress v AS w | trendline sma5(v) ema10(\"w x\") AS e wma2(v)",
          "* | foreach *_ms b [eval <<MATCHSTR>>_s='<<FIELD>>'/1000 | eval t=t+<<FIELD>>]"
              + " | foreach x fieldstr=\"#f#\" [eval #f#=1] | fieldformat x=tostring(x, \"commas\")"
              + " | transpose 3 header_field=h column_name=\"c d\" include_empty=f | transpose",
          "| makeresults format=csv data=\"a,b\\n1,\\\"x y\\\"\"",
          "| gentimes start=-3 increment=6h | where starttime > 0",
          "| gentimes start=1/1/2021 end=1/3/2021:12:00:00",
          "| multisearch [search index=a | eval x=1] [search index=b] | stats count by x",
          "* | timechart span=1h otherstr=rest nullstr=\"no one\" per_second(b) by h",
          "* | chart limit=3 otherstr=rest nullstr=\"no one\" count over a by b",
          "* | chart count over a by b span=10 useother=f | timechart count by b bins=5 where max > 2",
          "* | eval a=sigfig(1.00*1111), b=sigfig(x + 2.50 - -3.0), c=sigfig(y), d=sigfig(2*(3.0+1))",
          "* | transaction a b mvlist=true connected=f unifyends=t keeporphans=t"
              + " | transaction c mvlist=\"x,y\" | transaction mvlist=f",
          "* | chart sep=_ format=\"$VAL$ $AGG$\" cont=f count, max(x) over b span=100 by c"
              + " useother=f where max > 10 | chart count by b bins=5 c where perc95 notin top2"
              + " | chart limit=bottom3 count over a by b | timechart cont=false count by h"
              + " where avg <= 2.5 | timechart span=1h count by h limit=top4 where sum in bottom 2",
          "| union [search index=a | stats count] [search index=b] | union maxout=5 [search c]",
          "* | stats count by h | appendpipe [stats sum(count) AS count | eval h=\"T\"]"
              + " | appendpipe run_in_preview=f [where count > 1 | head 2]",
          "* | stats count by host | map search=\"search host=$host$ \\\"a b\\\" | head 1\" maxsearches=3",
          "* | map [search index=a host=$host$ | stats count] | map maxsearches=1 search=\"x $_serial_id$\"",
          // the fuzz test's saved inputs seed16 and seed17
          "x (IN) ((a b) OR c) w! =5 \"```\" NOT (IN=1 OR y IN (OR, \"a b\", a=b)) | sort a d | dedup 1 5 | rex mode=sed \"s|/|#|g\" | fields + -, x",
          "* | eval 'and'=-(a + 1) . \"s\\\"q\" . 'it\\'s', y=NOT NOT a LIKE \"x%\" XOR b | stats p99.9(x) AS \"p 99\", c by h | top limit=10 7 | bin \"as\" span=0.5");

  @Test
  void writingThenParsingGivesTheSameTree() {
    for (String query : QUERIES) {
      List<Command> parsed = PARSER.parse(query).commands();
      String written = SplText.pipeline(parsed);
      List<Command> again = PARSER.parse(written).commands();
      assertThat(Trees.withoutPositions(again))
          .as("%s%n  written: %s", query, written)
          .isEqualTo(Trees.withoutPositions(parsed));
      assertThat(SplText.pipeline(again)).as(query).isEqualTo(written);
    }
  }

  @Test
  void randomSearchExpressionsSurviveTheRoundTrip() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int i = 0; i < 5_000; i++) {
      SearchExpression expression = randomSearch(random, 4);
      String written = SplText.search(expression);
      SearchExpression parsed;
      try {
        parsed = search("search " + written); // a leading word "search" is not the command
      } catch (QueryParseException e) {
        throw new AssertionError(
            "seed " + seed + ": " + expression + " was written as " + written, e);
      }
      assertThat(Trees.withoutPositions(parsed))
          .as("seed %d: %s was written as %s", seed, expression, written)
          .isEqualTo(Trees.withoutPositions(expression));
    }
  }

  @Test
  void randomEvalExpressionsSurviveTheRoundTrip() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int i = 0; i < 5_000; i++) {
      Expression expression = randomEval(random, 4);
      String written = EvalText.eval(expression);
      Expression parsed;
      try {
        ExpressionParser parser = new ExpressionParser(written, 0, written.length());
        parsed = parser.expression();
        assertThat(parser.atEnd()).as("seed %d: all of %s is read", seed, written).isTrue();
      } catch (QueryParseException e) {
        throw new AssertionError(
            "seed " + seed + ": " + expression + " was written as " + written, e);
      }
      assertThat(Trees.withoutPositions(parsed))
          .as("seed %d: %s was written as %s", seed, expression, written)
          .isEqualTo(Trees.withoutPositions(expression));
    }
  }

  /** Words a bare term can be: what the lexer reads as one word. */
  private static final List<String> WORDS =
      List.of(
          "a",
          "foo",
          "10.1.2.3",
          "*",
          "a*b",
          "IN",
          "in",
          "or",
          "not",
          "and",
          "x!",
          "!x",
          "GET",
          "/cart.do",
          "é",
          "a!b",
          "search",
          "-",
          "x```");

  /** Any text: for phrases and quoted values. */
  private static final List<String> TEXTS =
      List.of(
          "a b",
          "",
          "\"",
          "\\",
          "(",
          ")",
          "|",
          "```",
          "x=y",
          "a\\\"b",
          "AND",
          "OR",
          "NOT",
          "a,b",
          "[x]",
          "\n",
          "tab\there",
          "50%",
          "IN");

  /** Values a comparison or IN list can hold bare: words and what is glued to them. */
  private static final List<String> VALUES =
      List.of(
          "500",
          "a",
          "/a?b=c",
          "a=b",
          "10.0.0.0/8",
          "*",
          "x!",
          "OR",
          "IN",
          "a<b",
          "a!=b",
          "a==",
          "NOT",
          "x>=1");

  private static final List<String> FIELDS = List.of("status", "a", "x!", "_raw", "IN", "é");

  private static SearchExpression randomSearch(Random random, int depth) {
    int kind = random.nextInt(depth <= 0 ? 3 : 6);
    return switch (kind) {
      case 0 -> {
        boolean phrase = random.nextInt(3) == 0;
        yield new SearchExpression.Term(
            phrase ? pick(random, random.nextBoolean() ? TEXTS : WORDS) : pick(random, WORDS),
            phrase,
            NOWHERE);
      }
      case 1 -> {
        boolean quoted = random.nextInt(3) == 0;
        yield new SearchExpression.Comparison(
            pick(random, FIELDS),
            ComparisonOperator.values()[random.nextInt(ComparisonOperator.values().length)],
            quoted ? pick(random, random.nextBoolean() ? TEXTS : VALUES) : pick(random, VALUES),
            quoted,
            NOWHERE);
      }
      case 2 -> {
        List<String> values = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
          values.add(pick(random, random.nextBoolean() ? TEXTS : VALUES));
        }
        yield new SearchExpression.In(pick(random, FIELDS), values, NOWHERE);
      }
      case 3 -> new SearchExpression.And(operands(random, depth));
      case 4 -> new SearchExpression.Or(operands(random, depth));
      default -> new SearchExpression.Not(randomSearch(random, depth - 1));
    };
  }

  private static List<SearchExpression> operands(Random random, int depth) {
    List<SearchExpression> operands = new ArrayList<>();
    for (int i = 0, n = 2 + random.nextInt(3); i < n; i++) {
      operands.add(randomSearch(random, depth - 1));
    }
    return operands;
  }

  private static final List<String> BINARY =
      List.of(
          "OR", "XOR", "AND", "=", "!=", "LIKE", "<", "<=", ">", ">=", "+", "-", ".", "*", "/",
          "%");

  private static final List<String> EVAL_FIELDS =
      List.of(
          "a",
          "status",
          "x_1",
          "_time",
          "é",
          "and",
          "Or",
          "like",
          "a b",
          "1x",
          "it's",
          "back\\slash",
          "order",
          "notes",
          "");

  private static Expression randomEval(Random random, int depth) {
    int kind = random.nextInt(depth <= 0 ? 4 : 7);
    return switch (kind) {
      case 0 ->
          new Expression.Literal(
              switch (random.nextInt(3)) {
                case 0 -> (long) random.nextInt(1000);
                case 1 -> random.nextInt(100_000) / 64.0;
                default -> pick(random, TEXTS);
              });
      case 1 -> new Expression.Field(pick(random, EVAL_FIELDS));
      case 2 -> new Expression.Literal(random.nextBoolean() ? 1e21 : 0.000123);
      case 3 -> new Expression.Call(pick(random, List.of("now", "null", "pi")), List.of(), 0);
      case 4 -> {
        List<Expression> arguments = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
          arguments.add(randomEval(random, depth - 1));
        }
        yield new Expression.Call(
            pick(random, List.of("if", "len", "like", "round")), arguments, 0);
      }
      case 5 ->
          new Expression.Unary(random.nextBoolean() ? "-" : "NOT", randomEval(random, depth - 1));
      default ->
          new Expression.Binary(
              pick(random, BINARY), randomEval(random, depth - 1), randomEval(random, depth - 1));
    };
  }

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }
}
