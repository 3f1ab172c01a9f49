package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** An {@code eval}/{@code where} expression. */
public sealed interface Expression {

  /** A constant: a {@code String}, {@code Long}, {@code Double}, {@code Boolean}, or null. */
  record Literal(Object value) implements Expression {}

  /** A field's value ({@code status}, {@code 'field name'}). */
  record Field(String name) implements Expression {
    public Field {
      requireNonNull(name, "name is null");
    }
  }

  /** {@code -x}, {@code NOT x}. */
  record Unary(String operator, Expression operand) implements Expression {
    public Unary {
      requireNonNull(operator, "operator is null");
      requireNonNull(operand, "operand is null");
    }
  }

  /**
   * A binary operator: {@code * / % + - .}, comparisons {@code = == != < <= > >=}, {@code LIKE},
   * {@code AND}, {@code XOR}, {@code OR}.
   */
  record Binary(String operator, Expression left, Expression right) implements Expression {
    public Binary {
      requireNonNull(operator, "operator is null");
      requireNonNull(left, "left is null");
      requireNonNull(right, "right is null");
    }
  }

  /** A function call, name lower-cased; {@code offset} is where its name starts in the query. */
  record Call(String function, List<Expression> arguments, int offset) implements Expression {
    public Call {
      requireNonNull(function, "function is null");
      arguments = List.copyOf(arguments);
    }
  }
}
