package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One position of a page seen as a row, for the expression engine ({@link Evaluator} reads fields
 * through {@link Row#values} only): a column's values at the position, as a row would hold them (a
 * timestamp block's microseconds as a {@code Long}), with values set since ({@code eval}'s earlier
 * assignments) laid over them — a null set value removes the field. Moved from position to
 * position; nothing is copied. Public for the compiled evaluators' per-position fallback ({@code
 * io.quarry.ql.eval}), which must read a position exactly as {@link Evaluator} does.
 */
public final class PageRow implements Row {
  private final Map<String, Object> assigned;
  private final RawTermMatcher rawTerms;
  private Page page;
  private int position;

  /** A view whose set values are {@code assigned} (read, not copied: the caller fills it). */
  public PageRow(Map<String, Object> assigned) {
    this(assigned, null);
  }

  /**
   * As above, matching search terms in the position's {@code _raw} with {@code rawTerms} (null: a
   * position with raw text cannot be searched).
   */
  public PageRow(Map<String, Object> assigned, RawTermMatcher rawTerms) {
    this.assigned = assigned;
    this.rawTerms = rawTerms;
  }

  /** This view moved to {@code position} of {@code page}. */
  public PageRow at(Page page, int position) {
    this.page = page;
    this.position = position;
    return this;
  }

  @Override
  public List<Object> values(String field) {
    if (assigned.containsKey(field)) {
      Object value = assigned.get(field);
      return value == null
          ? List.of()
          : value instanceof List<?> list ? List.copyOf(list) : List.of(value);
    }
    Block block = page.block(field);
    return block == null ? List.of() : block.getValues(position);
  }

  @Override
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!page.block(c).isNull(position) && !assigned.containsKey(name)) {
        names.add(name);
      }
    }
    assigned.forEach(
        (name, value) -> {
          if (value != null) {
            names.add(name);
          }
        });
    return names;
  }

  /**
   * Whether the position's raw text holds {@code term}, as an event row answers (its own text where
   * the page carries it at the position); a position with no {@code _raw} holds it when one of its
   * fields not named {@code _*} has the term as a whole value, as {@code <field>=<term>} compares
   * ({@link SearchValues}; {@code *} alone matches every row).
   */
  @Override
  public boolean matchesTerm(SearchTerm term) {
    List<Object> raw = values("_raw");
    Block own = page.block(EventText.OWN_RAW);
    if (!raw.isEmpty() && own != null && !own.isNull(position)) {
      raw = own.getValues(position); // an event row asks its event, whatever _raw was set to
    }
    if (raw.isEmpty()) {
      if (term.matchesEveryEvent()) {
        return true;
      }
      SearchValues equal = new SearchValues(io.quarry.ql.ast.ComparisonOperator.EQ, term.text());
      for (String name : fieldNames()) {
        if (!name.startsWith("_") && !name.startsWith("\u0000") && equal.holds(values(name))) {
          return true;
        }
      }
      return false;
    }
    if (rawTerms == null) {
      throw new UnsupportedOperationException("no term matcher to search a page's raw text");
    }
    return rawTerms.matches(Values.toText(raw.get(0)), term);
  }
}
