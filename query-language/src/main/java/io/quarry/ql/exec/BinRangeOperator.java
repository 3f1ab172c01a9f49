package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.BinCommand;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin} without a span ({@code bins=N}, {@code minspan}, {@code start}/{@code end}) on pages,
 * a blocking stage of {@link PageReduce}: the span depends on the range of the field's values over
 * the whole input, so the pages are kept (counted on the search's memory) while the range is read
 * from their blocks — each position's first value, microseconds for a {@code _time} timestamp, else
 * its number ({@link Bins#position}), no value boxed for a long or double block — and once the
 * input ends the span is chosen ({@link Bins#chooseSpan}) and every kept page is binned in order by
 * {@link PageChain.BinOperator}, the operator of {@code bin} with a given span.
 */
final class BinRangeOperator extends QueuedPageOperator {
  private final BinCommand command;
  private final ZoneId zone;
  private final MemoryTracker memory;
  private final List<Page> pages = new ArrayList<>();
  private PageChain.BinOperator binned; // once the input is over
  private int next; // the next held page to bin
  private double low = Double.POSITIVE_INFINITY;
  private double high = Double.NEGATIVE_INFINITY;

  BinRangeOperator(BinCommand command, ZoneId zone, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.zone = requireNonNull(zone, "zone is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  protected void process(Page page) {
    Block block = page.block(command.field());
    if (block != null) {
      for (int p = 0; p < page.positionCount(); p++) {
        if (block.isNull(p)) {
          continue;
        }
        double value = position(block, p);
        if (Double.isFinite(value)) {
          low = Math.min(low, value);
          high = Math.max(high, value);
        }
      }
    }
    pages.add(page);
    long bytes = 0;
    for (Block held : page.blocks()) {
      bytes += held.ramBytesUsed();
    }
    memory.add(bytes);
  }

  /** The first value at a position on the span's axis (not finite: no part of the range). */
  private double position(Block block, int position) {
    int first = block.getFirstValueIndex(position);
    return switch (block) {
      case LongBlock longs -> longs.getLongValue(first); // a timestamp's microseconds, or a number
      case DoubleBlock doubles -> doubles.getDoubleValue(first);
      default -> Bins.position(command, Values.valueOf(block, position));
    };
  }

  @Override
  protected void onFinish() {
    binned = new PageChain.BinOperator(command, Bins.chooseSpan(command, low, high, zone), zone);
  }

  /** The next held page binned, once the span is chosen. */
  @Override
  protected Page produce() {
    if (next >= pages.size()) {
      close();
      return null;
    }
    Page page = pages.get(next);
    pages.set(next++, null); // handed on: no longer held here
    return binned.process(page);
  }

  @Override
  public void close() {
    pages.clear();
    memory.release();
  }
}
