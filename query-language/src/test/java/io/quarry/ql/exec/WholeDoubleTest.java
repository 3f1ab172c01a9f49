package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Issue 21 (coltype): a page's numeric column is one block, so a whole number is held as a double
 * where it shares a page with a fraction and as a long alone; whatever shows the number — its text,
 * JSON, {@code isdouble}, {@code tostring(x, "commas")} — answers the same for {@code 4.0} as for
 * {@code 4} ({@link Values#isWhole}). Each expression runs over a row holding the field as a {@code
 * Long} and as a {@code Double}, as the two page cuts hand it over.
 */
class WholeDoubleTest {
  private static Object both(String expression) {
    Object asLong = EvalTest.eval(expression, TestRow.of("raw", "x", 4L));
    Object asDouble = EvalTest.eval(expression, TestRow.of("raw", "x", 4.0));
    assertThat(asDouble).as("%s of 4.0 against 4", expression).isEqualTo(asLong);
    return asLong;
  }

  @Test
  void aWholeDoubleIsTheWholeNumber() {
    assertThat(both("isdouble(x)")).isEqualTo(false);
    assertThat(both("isint(x)")).isEqualTo(true);
    assertThat(both("tostring(x*1000, \"commas\")")).isEqualTo("4,000");
    assertThat(both("json_object(\"x\", x)")).isEqualTo("{\"x\":4}");
    assertThat(both("tostring(x)")).isEqualTo("4");
    assertThat(both("x . \"\"")).isEqualTo("4");
    assertThat(both("typeof(x)")).isEqualTo("Number");
  }

  @Test
  void aFractionKeepsItsDigits() {
    assertThat(EvalTest.eval("isdouble(x)", TestRow.of("raw", "x", 3.5))).isEqualTo(true);
    assertThat(EvalTest.eval("tostring(x*1000.5, \"commas\")", TestRow.of("raw", "x", 3.5)))
        .isEqualTo("3,501.75");
    assertThat(EvalTest.eval("json_object(\"x\", x)", TestRow.of("raw", "x", 3.5)))
        .isEqualTo("{\"x\":3.5}");
  }

  @Test
  void wholeMeansALongHoldsItExactly() {
    assertThat(Values.isWhole(4.0)).isTrue();
    assertThat(Values.isWhole(-0.0)).isTrue();
    assertThat(Values.isWhole(0x1p62)).isTrue();
    assertThat(Values.isWhole(0x1p63)).isFalse(); // past a long
    assertThat(Values.isWhole(3.5)).isFalse();
    assertThat(Values.isWhole(Double.NaN)).isFalse();
    assertThat(Values.isWhole(Double.POSITIVE_INFINITY)).isFalse();
  }
}
