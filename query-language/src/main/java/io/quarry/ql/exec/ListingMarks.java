package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.Page;
import java.util.List;

/**
 * The hidden columns the stages of an event listing's commands leave for the listing to replay what
 * the row commands lay over each event ({@code server.search.ListedFields}): where a stage set a
 * field ({@link #setColumn}: {@code lookup}, {@code rex}, a literal {@code rename}, {@code bin}
 * with a span) and where a field held a value after a stage ({@link #valueColumn}). Each is a
 * boolean column, true at the positions it marks and null elsewhere; the NUL in its name keeps it
 * apart from any field a search can name.
 */
public final class ListingMarks {
  private ListingMarks() {}

  /** The column in which stage {@code stage} marks the positions where it set {@code field}. */
  public static String setColumn(int stage, String field) {
    return "\u0000set " + stage + " " + field;
  }

  /**
   * What a {@code rename}'s stage marks in {@link #setColumn} for its pair number {@code pair}
   * ({@code … AS to}): one column per pair, so that one new name given twice ({@code a AS c, b AS
   * c}) is marked pair by pair.
   */
  public static String renamedPair(int pair, String to) {
    return pair + " " + to;
  }

  /**
   * The column marking the positions where {@code field} holds a value after stage {@code stage}.
   */
  public static String valueColumn(int stage, String field) {
    return "\u0000value " + stage + " " + field;
  }

  /** True where {@code marked}, else null. */
  static Block trues(boolean[] marked) {
    BooleanBlock.Builder marks = BooleanBlock.builder(marked.length);
    for (boolean here : marked) {
      if (here) {
        marks.append(true);
      } else {
        marks.appendNull();
      }
    }
    return marks.build();
  }

  /** True where {@code column} (null: none) holds a value, else null. */
  static Block valued(Block column, int positions) {
    boolean[] marked = new boolean[positions];
    for (int p = 0; p < positions && column != null; p++) {
      marked[p] = !column.isNull(p);
    }
    return trues(marked);
  }

  /**
   * The operator after stage {@code number} of the search, marking each page the stage gives in
   * {@link #valueColumn} where {@code fields} then hold a value.
   */
  static PageTransformOperator valuesAfter(int number, List<String> fields) {
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        for (String field : fields) {
          page =
              page.withColumn(
                  valueColumn(number, field), valued(page.block(field), page.positionCount()));
        }
        return page;
      }
    };
  }

  /**
   * {@code bin}'s operator (a page out per page in, position for position), its output marked true
   * in column {@code mark} where its input's {@code field} held a value.
   */
  static PageTransformOperator whereInputValued(
      PageChain.BinOperator bin, String field, String mark) {
    return new PageTransformOperator() {
      @Override
      protected Page process(Page page) {
        Block marked = valued(page.block(field), page.positionCount());
        return bin.process(page).withColumn(mark, marked);
      }
    };
  }
}
