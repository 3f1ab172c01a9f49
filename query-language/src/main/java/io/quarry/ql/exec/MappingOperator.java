package io.quarry.ql.exec;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;

/**
 * A pull operator that answers each input page with at most one page (ES|QL's {@code
 * AbstractPageMappingOperator}): it holds at most one output page and takes no input while it does;
 * {@code eval}, {@code where}, {@code bin}, {@code rex}, {@code lookup}, {@code fields}, {@code
 * rename}, {@code head}, {@code dedup}, {@code streamstats} …
 */
abstract class MappingOperator implements Operator {
  private Page output;
  private boolean finishing;

  /** The page's answer, or null when it has none (a filter that kept no position). */
  protected abstract Page map(Page page);

  @Override
  public boolean needsInput() {
    return !finishing && output == null;
  }

  @Override
  public void addInput(Page page) {
    if (output != null) {
      throw new IllegalStateException("input while an output page is held");
    }
    output = map(page);
  }

  @Override
  public Page getOutput() {
    Page out = output;
    output = null;
    return out;
  }

  @Override
  public void finish() {
    finishing = true;
  }

  @Override
  public boolean isFinished() {
    return finishing && output == null;
  }
}
