package io.quarry.ql.ast;

/**
 * A bound command (of a {@link PluginCommand}) that formats how a field's values are shown without
 * changing the values the rest of the search computes with ({@code fieldformat}): the planner moves
 * its assignment to the end of the pipeline ({@code plan.FieldFormats}).
 */
public interface FormatsResults {

  /** The field and the expression its shown value is. */
  EvalCommand.Assignment format();
}
