package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import org.junit.jupiter.api.Test;

/**
 * The Search Reference's rules that session 34 brought in, through the expression compiler: eval's
 * "Numeric calculations" (IEEE infinities and NaN kept, shown as {@code inf}/{@code -inf}/{@code
 * nan}; a zero divisor null), {@code typeof} of a Boolean, {@code tonumber} of a text with
 * surrounding space, literal texts where numbers must be, {@code tostring(x, "binary")}, {@code
 * ismv} and printf's {@code %z}/{@code %p}. The golden cases are in {@code
 * splunk-semantics.spl-spec}.
 */
class ReferenceRulesTest {
  private static final Row ROW =
      TestRow.of("raw", "spaced", " 12 ", "nine", "9", "word", "somedata", "ratio", "2.5");

  private static Object eval(String expression) {
    return EvalTest.eval(expression, ROW);
  }

  @Test
  void arithmeticKeepsInfinitiesAndNanButDivisionByZeroIsNull() {
    assertThat(eval("1e308 * 10")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(eval("-1e308 * 10")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat((Double) eval("1e308 * 10 - 1e308 * 10")).isNaN();
    assertThat(eval("ratio / 0")).isNull();
    assertThat(eval("7 % 0")).isNull();
    assertThat(eval("0 / 0")).isNull();
    assertThat(eval("0.0 / 0.0")).as("a double divisor of zero too").isNull();
    assertThat(
            eval(
                "tostring(1e308 * 10) . \",\" . (-1e308 * 10) . \",\" . (1e308 * 10 - 1e308 * 10)"))
        .isEqualTo("inf,-inf,nan");
    assertThat(eval("typeof(1e308 * 10)")).isEqualTo("Number");
    assertThat(eval("if(1e308 * 10 > 1e308, \"greater\", \"not\")")).isEqualTo("greater");
  }

  @Test
  void wholeFunctionsPastALongStayDoubles() {
    assertThat(eval("floor(1e20)")).isEqualTo(1e20);
    assertThat(eval("ceil(-1e20)")).isEqualTo(-1e20);
    assertThat(eval("round(1e20)")).isEqualTo(1e20);
    assertThat(eval("floor(2.5)")).isEqualTo(2L);
    assertThat(eval("floor(1e308 * 10)"))
        .as("not finite: null, as every function answers")
        .isNull();
  }

  @Test
  void typesAndConversions() {
    assertThat(eval("typeof(1==2)")).isEqualTo("Bool");
    assertThat(eval("tonumber(spaced)")).isNull();
    assertThat(eval("tonumber(trim(spaced))")).isEqualTo(12L);
    assertThat(eval("tonumber(spaced, 16)")).isNull();
    assertThat(eval("tonumber(nine, 2)")).isNull();
    assertThat(eval("tostring(9, \"binary\")")).isEqualTo("1001");
    assertThat(eval("tostring(-1, \"binary\")")).isNull();
    assertThat(eval("tostring(2.5, \"binary\")")).isNull();
    assertThat(eval("if(ismv(split(\"1,2\", \",\")), \"y\", \"n\")")).isEqualTo("y");
    assertThat(eval("if(ismv(nine), \"y\", \"n\")")).isEqualTo("n");
    assertThat(eval("printf(\"%s%z|%x,%X,%p\", \"foo\", \"bar\", 10, 10, 10)"))
        .isEqualTo("foobar|a,A,A");
  }

  @Test
  void todoubleTointTobool() {
    assertThat(eval("todouble(\"16.00\")")).isEqualTo(16.0);
    assertThat(eval("todouble(5)")).isEqualTo(5.0);
    assertThat(eval("todouble(\"number\")")).as("null, not an error, for todouble").isNull();
    assertThat(eval("todouble(spaced)")).isNull();
    assertThat(eval("toint(\"24\")")).isEqualTo(24L);
    assertThat(eval("toint(ratio)")).isEqualTo(2L);
    assertThat(eval("toint(-2.5)")).isEqualTo(-3L);
    assertThat(eval("toint(\"ff\", 16)")).isEqualTo(255L);
    assertThat(eval("toint(1e20)")).isEqualTo(1e20);
    assertThat(eval("toint(1==1)")).isNull();
    assertThat(eval("if(tobool(\"True\"), \"y\", \"n\")")).isEqualTo("y");
    assertThat(eval("if(tobool(\"false\"), \"y\", \"n\")")).isEqualTo("n");
    assertThat(eval("if(tobool(nine), \"y\", \"n\")")).isEqualTo("y");
    assertThat(eval("if(tobool(0), \"y\", \"n\")")).isEqualTo("n");
    assertThat(eval("tobool(word)")).isNull();
    assertThat(eval("tobool(\"TRUE\")")).as("only true and True").isNull();
  }

  @Test
  void literalTextWhereANumberMustBeIsAParseError() {
    assertThatThrownBy(() -> eval("tonumber(\"seven\")"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not a number");
    assertThatThrownBy(() -> eval("tonumber(\"12\", 2)")).isInstanceOf(QueryParseException.class);
    assertThatThrownBy(() -> eval("sum(1, 2, \"3\")"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("sum() takes numbers");
    assertThatThrownBy(() -> eval("avg(\"somedata\", 2)")).isInstanceOf(QueryParseException.class);
    assertThat(eval("tonumber(\"0A4\", 16)")).isEqualTo(164L);
    assertThat(eval("tonumber(word)")).as("a field's text is null, never an error").isNull();
    assertThat(eval("sum(word, nine, 3)")).as("a field's text is left out").isEqualTo(12L);
    assertThat(eval("tonumber(\"1F\", nine)")).as("a base known only per row").isNull();
  }
}
