package io.quarry.plugin.api.command;

import io.quarry.plugin.api.data.Page;

/**
 * The base of an operator that turns each input page into at most one output page right away (most
 * streaming commands): implement {@link #process}. It takes a page only when the previous output
 * was collected, so it holds at most one page.
 */
public abstract class PageTransformOperator implements Operator {
  private Page output;
  private boolean finishing;

  /**
   * The output for one input page, or null for none. The input page is the implementation's to pass
   * on (blocks moved into the output) or release. If it throws (over the search's memory limit),
   * the input page stays the caller's, whole: it must not have released or kept any of it.
   */
  protected abstract Page process(Page input);

  @Override
  public final boolean needsInput() {
    return !finishing && output == null;
  }

  @Override
  public final void addInput(Page page) {
    if (!needsInput()) {
      throw new IllegalStateException("addInput while " + (finishing ? "finishing" : "full"));
    }
    output = process(page);
  }

  @Override
  public final Page getOutput() {
    Page page = output;
    output = null;
    return page;
  }

  @Override
  public void finish() {
    finishing = true;
  }

  @Override
  public final boolean isFinished() {
    return finishing && output == null;
  }
}
