package io.quarry.ql.eval;

import java.util.List;

/**
 * An expression's values at each position of one page, as {@link io.quarry.ql.exec.Evaluator} would
 * give them one row at a time: null, a {@code Long}, a {@code Double}, a {@code Boolean}, a {@code
 * String}, or a multivalue (a {@code List}). Unlike a block, a column may hold a different kind at
 * each position ({@code bytes/1024} is a whole number at one position and a fraction at the next;
 * {@code if(c, 1, "a")} a number or a text), which Splunk's eval keeps until the value is written
 * to a field ({@link ColumnBlocks}).
 *
 * <p>Fast paths read a position's {@link #kind} and its typed accessor ({@link #getLong} for {@link
 * #LONG} …) without boxing; any other code reads {@link #get}, the value as the {@code Evaluator}
 * would hold it.
 */
public sealed interface ValueColumn
    permits ArrayColumn, BlockColumn, ConstantColumn, DictionaryColumn, SelectedColumn {
  /** No value. */
  byte NULL = 0;

  /** A whole number: {@link #getLong}. */
  byte LONG = 1;

  /** A double: {@link #getDouble}. */
  byte DOUBLE = 2;

  /** A boolean (what comparisons and logic answer): {@link #getBoolean}. */
  byte BOOLEAN = 3;

  /** A text (which may read as a number: Splunk's coercion): {@link #getText}. */
  byte TEXT = 4;

  /** Several values, a {@code List} from {@link #get}. */
  byte MULTIVALUE = 5;

  /** Anything else a function may answer: only {@link #get}. */
  byte OTHER = 6;

  /** The number of positions. */
  int size();

  /** What the value at a position is: {@link #NULL}, {@link #LONG}, … */
  byte kind(int position);

  /** The value at a {@link #LONG} position. */
  long getLong(int position);

  /** The value at a {@link #DOUBLE} position. */
  double getDouble(int position);

  /** The value at a {@link #BOOLEAN} position. */
  boolean getBoolean(int position);

  /** The value at a {@link #TEXT} position. */
  String getText(int position);

  /** The value at any position as the {@code Evaluator} holds it (null, Long, …, a List). */
  Object get(int position);

  /** The kind of an {@code Evaluator} value. */
  static byte kindOf(Object value) {
    return switch (value) {
      case null -> NULL;
      case Long l -> LONG;
      case Double d -> DOUBLE;
      case Boolean b -> BOOLEAN;
      case String s -> TEXT;
      case List<?> list -> MULTIVALUE;
      default -> OTHER;
    };
  }
}
