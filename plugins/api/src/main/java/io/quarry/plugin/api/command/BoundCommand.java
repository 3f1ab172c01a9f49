package io.quarry.plugin.api.command;

import java.util.Set;

/**
 * One use of a command in one query, with its arguments: what it reads and writes (for planning)
 * and its operators. A search may create many operators from one bound command, from several
 * threads at once (one per driver); each operator is used by one thread at a time.
 */
public interface BoundCommand {

  /** Everything, for {@link #requiredFields}: the command sees every field of the rows. */
  Set<String> ALL_FIELDS = Set.of("*");

  /**
   * The fields the command reads. Input pages carry at least these columns (when the row has them);
   * {@link #ALL_FIELDS} asks for every field. A field with several values in a row (a multivalue)
   * is a block position with several values, typed by its values (SPI 1.2; before, one text of the
   * values joined by newlines): {@code getLong(position)}, {@code getString(position)} and the
   * other accessors by position read its first value, and {@link
   * io.quarry.plugin.api.data.Block#getValueCount} with {@link
   * io.quarry.plugin.api.data.Block#getFirstValueIndex} reach every value. Output blocks may hold
   * multivalues the same way (the builders' {@code beginPositionEntry}/{@code endPositionEntry}).
   */
  Set<String> requiredFields();

  /** The fields the command writes (new or replaced columns), for planning and {@code help}. */
  Set<String> producedFields();

  /**
   * A new operator: for {@link CommandKind#STREAMING} one per driver, for {@link
   * CommandKind#CENTRALIZED} and {@link CommandKind#GENERATING} one per search, for {@link
   * CommandKind#TRANSFORMING} the map side: one per driver, its output pages are partial state for
   * {@link #createReduceOperator}.
   *
   * <p>Input pages may carry columns the command did not ask for; a streaming or centralized
   * operator passes them through unchanged (it may drop rows, and add or replace columns).
   */
  Operator createOperator(OperatorContext context);

  /**
   * {@link CommandKind#TRANSFORMING} only: the reduce side, one per search. It receives the pages
   * every map operator produced (in no particular order) and produces the command's result.
   */
  default Operator createReduceOperator(OperatorContext context) {
    throw new UnsupportedOperationException("only a transforming command has a reduce side");
  }
}
