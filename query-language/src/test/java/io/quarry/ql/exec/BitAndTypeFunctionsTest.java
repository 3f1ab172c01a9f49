package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bitwise functions, {@code ipmask}, {@code validate}, eval's {@code sum}/{@code avg} and the
 * type tests {@code isbool isdouble isarray isobject}: the Search Reference's examples and its null
 * rules, over the row walk and the bound form alike.
 */
class BitAndTypeFunctionsTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());
  private static final Row ROW =
      TestRow.of(
          "raw",
          "flags",
          "12",
          "ratio",
          "2.5",
          "ip",
          "10.20.30.120",
          "nums",
          List.of("1", "x", "4"),
          "port",
          "70000",
          "doc",
          "{\"a\": [1, 2]}");

  private static Object eval(String expression) {
    return EvalTest.eval(expression, ROW);
  }

  @Test
  void bitwiseFunctionsFollowTheReference() {
    assertThat(eval("bit_and(12, 9)")).isEqualTo(8L);
    assertThat(eval("bit_or(4, 2)")).isEqualTo(6L);
    assertThat(eval("bit_xor(12, 10)")).isEqualTo(6L);
    assertThat(eval("bit_and(flags, 13, 7)")).as("folded left to right, text read").isEqualTo(4L);
    assertThat(eval("bit_not(9, 15)")).isEqualTo(6L);
    assertThat(eval("bit_not(0)")).as("all 53 bits").isEqualTo((1L << 53) - 1);
    assertThat(eval("bit_shift_left(1, 4)")).isEqualTo(16L);
    assertThat(eval("bit_shift_right(flags, 2)")).isEqualTo(3L);
    assertThat(eval("bit_shift_left(1, 53)")).as("past 53 bits").isNull();
    assertThat(eval("bit_and(-1, 3)")).as("negative").isNull();
    assertThat(eval("bit_or(ratio, 1)")).as("a fraction").isNull();
    assertThat(eval("bit_or(9007199254740992, 1)")).as("2^53").isNull();
    assertThat(eval("bit_xor(missing, 1)")).isNull();
    assertThat(eval("bit_and(nums, 1)")).as("a multivalue").isNull();
  }

  @Test
  void ipmaskAndsTwoAddresses() {
    assertThat(eval("ipmask(\"255.255.255.0\", \"10.20.30.120\")")).isEqualTo("10.20.30.0");
    assertThat(eval("ipmask(\"255.255.0.0\", ip)")).isEqualTo("10.20.0.0");
    assertThat(eval("ipmask(\"0.255.0.255\", ip)")).isEqualTo("0.20.0.120");
    assertThat(eval("ipmask(\"255.255.0\", ip)")).isNull();
    assertThat(eval("ipmask(\"255.0.0.0\", \"fe80::1\")")).isNull();
    assertThat(eval("ipmask(\"255.0.0.0\", missing)")).isNull();
  }

  @Test
  void validateAnswersTheFirstFailingCondition() {
    String check =
        "validate(isint(port + 0), \"not an integer\", port >= 1 AND port <= 65535, \"out of range\")";
    assertThat(eval(check)).isEqualTo("out of range");
    assertThat(eval(check.replace("port", "flags"))).isNull();
    assertThat(eval(check.replace("port", "ratio"))).isEqualTo("not an integer");
    assertThat(eval("validate(missing > 1, \"no value\")"))
        .as("a null condition does not hold")
        .isEqualTo("no value");
  }

  @Test
  void sumAndAvgCountEveryNumberAndSkipTheRest() {
    Row example = TestRow.of("raw", "a", 5.0, "b", "9"); // the reference's: a = 5.0, b = "9"
    assertThat(EvalTest.eval("avg(a, b, c)", example)).isEqualTo(7L);
    assertThat(EvalTest.eval("sum(a, b, c)", example)).isEqualTo(14.0);
    assertThat(eval("sum(nums, flags)")).as("a multivalue's numbers, text left out").isEqualTo(17L);
    assertThat(eval("avg(nums, flags)")).isEqualTo(17.0 / 3);
    assertThat(eval("avg(1, 2)")).isEqualTo(1.5);
    assertThat(eval("sum(ip, missing)")).as("a field's text that is no number").isNull();
    assertThat(eval("sum(9223372036854775807, 1)")).isEqualTo(9.223372036854775808E18);
  }

  @Test
  void typeTests() {
    assertThat(eval("isbool(1 < 2)")).isEqualTo(true);
    assertThat(eval("isbool(\"true\")")).isEqualTo(false);
    assertThat(eval("isdouble(1.5)")).isEqualTo(true);
    assertThat(eval("isdouble(ratio)")).as("a field's numeric text, as isnum").isEqualTo(true);
    assertThat(eval("isdouble(3)")).isEqualTo(false);
    assertThat(eval("isarray(\"[1, 2, 3]\")")).isEqualTo(true);
    assertThat(eval("isarray(1)")).isEqualTo(false);
    assertThat(eval("isarray(nums)")).as("a multivalue is an array").isEqualTo(true);
    assertThat(eval("isarray(doc)")).isEqualTo(false);
    assertThat(eval("isobject(doc)")).isEqualTo(true);
    assertThat(eval("isobject(\"[1]\")")).isEqualTo(false);
    assertThat(eval("isobject(missing)")).isEqualTo(false);
  }

  @Test
  void badCallsFailAtParseTime() {
    assertThatThrownBy(() -> PARSER.parse("* | eval x=bit_and(1)"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("bit_and() takes at least 2 arguments, not 1");
    assertThatThrownBy(() -> PARSER.parse("* | eval x=validate(a > 1, \"m\", b)"))
        .hasMessageContaining("validate() takes condition, message pairs");
    assertThatThrownBy(() -> PARSER.parse("* | eval x=ipmask(ip)"))
        .hasMessageContaining("ipmask() takes 2 arguments, not 1");
    assertThatThrownBy(() -> PARSER.parse("* | eval x=bit_shift_left(1)"))
        .hasMessageContaining("bit_shift_left() takes 2 arguments, not 1");
  }
}
