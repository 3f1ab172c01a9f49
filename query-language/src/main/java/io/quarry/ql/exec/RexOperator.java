package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.RexCommand;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code rex}: extraction sets each named group's field from the first match (with {@code
 * max_match} above 1, from up to that many matches, as multivalues); a row whose field does not
 * match passes unchanged. Sed mode rewrites the field's value ({@code s///} with {@code \1} group
 * references, or {@code y///}).
 */
public final class RexOperator implements RowSink {
  private final RexCommand command;
  private final RowSink downstream;

  /** Extraction mode's matching, else null (sed mode). */
  private final RexExtraction extraction;

  /** Sed mode's rewriting, else null (extraction mode). */
  private final RexSed sed;

  /**
   * @param stopped whether the search must stop now (a running match ends; see {@link
   *     StoppableText})
   */
  public RexOperator(RexCommand command, RowSink downstream, BooleanSupplier stopped) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    requireNonNull(stopped, "stopped is null");
    this.extraction = command.sed() == null ? new RexExtraction(command, stopped) : null;
    this.sed = command.sed() != null ? new RexSed(command, stopped) : null;
  }

  @Override
  public boolean accept(Row row) {
    if (command.sed() == null) {
      CharSequence view = row.text(command.field()); // _raw unread: match the journal's bytes
      if (view != null) {
        return extract(row, view);
      }
    }
    List<Object> input = row.values(command.field());
    if (input.isEmpty()) {
      return downstream.accept(row);
    }
    String text = EvalValues.text(input.get(0));
    if (command.sed() != null) {
      String replaced;
      try {
        replaced = sed.rewrite(text);
      } catch (StoppableText.Stopped stopped) {
        return downstream.accept(row); // the search is ending: it says so itself
      }
      return downstream.accept(new AssignedRow(row, Map.of(command.field(), replaced)));
    }
    return extract(row, text);
  }

  private boolean extract(Row row, CharSequence text) {
    Map<String, Object> assigned = extraction.assignments(text);
    return downstream.accept(assigned.isEmpty() ? row : new AssignedRow(row, assigned));
  }

  @Override
  public void finish() {
    downstream.finish();
  }
}
