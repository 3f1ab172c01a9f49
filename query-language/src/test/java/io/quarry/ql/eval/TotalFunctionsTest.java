package io.quarry.ql.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.Evaluator;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The functions {@link CallEvaluator} counts as total — evaluated at every position, also where an
 * {@code if} did not take them — answer every input without throwing: for each family, every
 * combination of odd values (null, text, numbers held as text, multivalues, huge and non-finite
 * numbers, JSON text nested past the parser's depth limit, malformed addresses) through both ways a
 * compiled call reaches the function ({@link Evaluator#apply} with all its values, {@link
 * Evaluator#bind} with one argument as the subject), and the compiled call over fields says it is
 * total.
 */
class TotalFunctionsTest {
  private static final List<Object> ODD =
      Arrays.asList(
          null,
          "",
          "x",
          "true",
          true,
          false,
          0L,
          -1L,
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          -0.0,
          2.5,
          1e308,
          Double.POSITIVE_INFINITY,
          Double.NaN,
          "9007199254740992",
          "1e400",
          " 7 ",
          "0x1F",
          "[1, 2]",
          "{\"a\": [1]}",
          "[".repeat(100_000),
          "[" + "9".repeat(5_000) + "]",
          "{\"a\":",
          List.of("1", "x", 2L),
          List.of("[1]", "{}"),
          "255.255.255.0",
          "10.1.2.300",
          "1.2.3.4.5",
          "::1",
          "99999999999999999999.0.0.0");

  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-07T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void typeTestsNeverThrow() {
    assertTotal(List.of("isbool", "isdouble", "isarray", "isobject"), 1);
  }

  @Test
  void validateNeverThrows() {
    assertTotal(List.of("validate"), 2);
    assertTotal(List.of("validate"), 4);
  }

  @Test
  void sumAndAvgNeverThrow() {
    assertTotal(List.of("sum", "avg"), 1);
    assertTotal(List.of("sum", "avg"), 3);
  }

  @Test
  void bitwiseFunctionsNeverThrow() {
    assertTotal(List.of("bit_not"), 1);
    assertTotal(
        List.of("bit_and", "bit_or", "bit_xor", "bit_not", "bit_shift_left", "bit_shift_right"), 2);
    assertTotal(List.of("bit_and", "bit_or", "bit_xor"), 3);
  }

  @Test
  void ipmaskNeverThrows() {
    assertTotal(List.of("ipmask"), 2);
  }

  /** Each function of {@code functions} over every {@code arity}-tuple of {@link #ODD} values. */
  private void assertTotal(List<String> functions, int arity) {
    ExpressionCompiler compiler = new ExpressionCompiler(evaluator);
    List<Expression> fields = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      fields.add(new Expression.Field("f" + i));
    }
    for (String function : functions) {
      assertThat(compiler.compile(new Expression.Call(function, fields, 0)).total())
          .as("%s over %d fields", function, arity)
          .isTrue();
      int tuples = (int) Math.pow(ODD.size(), arity);
      for (int t = 0; t < tuples; t++) {
        List<Object> arguments = new ArrayList<>(arity);
        for (int i = 0, rest = t; i < arity; i++, rest /= ODD.size()) {
          arguments.add(ODD.get(rest % ODD.size()));
        }
        assertThatCode(() -> evaluator.apply(function, arguments))
            .as("%s%s", function, arguments)
            .doesNotThrowAnyException();
        for (int subject = 0; subject < arity; subject++) {
          int s = subject;
          assertThatCode(() -> evaluator.bind(function, s, arguments).apply(arguments.get(s)))
              .as("%s%s bound around argument %d", function, arguments, s)
              .doesNotThrowAnyException();
        }
      }
    }
  }
}
