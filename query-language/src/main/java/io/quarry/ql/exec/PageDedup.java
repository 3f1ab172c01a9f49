package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dedup} on pages: keeps the first {@code count} positions of each combination of the
 * fields' values (a multivalue compares as its whole list of texts); positions missing a field are
 * dropped, or all kept with {@code keepempty=true}; with {@code consecutive=true} only runs of
 * equal adjacent positions (across pages) shrink. Each page leaves as one filtered copy of its kept
 * positions ({@code sortby} is a {@link PageSort} after this stage, see {@link PageReduce}). A
 * single field's single value is keyed by its text alone, no list per position; over a dictionary
 * block, one text per entry and page.
 */
final class PageDedup extends PageTransformOperator {
  private final DedupCommand command;
  private final MemoryTracker memory;
  private final Map<Object, long[]> seen = new HashMap<>();
  private final Block[] blocks;
  private Object previous;
  private long run;
  private int[] kept = new int[0];
  private String[] entryTexts = new String[0]; // a one-field dictionary block's entries, as met

  PageDedup(DedupCommand command, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.blocks = new Block[command.fields().size()];
  }

  @Override
  protected Page process(Page page) {
    int count = page.positionCount();
    for (int f = 0; f < blocks.length; f++) {
      int column = page.schema().indexOf(command.fields().get(f));
      blocks[f] = column < 0 ? null : page.block(column);
    }
    if (blocks.length == 1 && blocks[0] instanceof BytesBlock bytes && bytes.dictionary() != null) {
      int entries = bytes.dictionary().positionCount();
      if (entryTexts.length < entries) {
        entryTexts = new String[entries];
      } else {
        java.util.Arrays.fill(entryTexts, 0, entries, null);
      }
    }
    if (kept.length < count) {
      kept = new int[count];
    }
    int n = 0;
    for (int p = 0; p < count; p++) {
      Object key = key(p);
      if (key == null ? command.keepEmpty() : keeps(key)) {
        kept[n++] = p;
      }
    }
    if (n == count) {
      return page;
    }
    return n > 0 ? BlockCopies.filter(page, kept, n) : null;
  }

  /** Whether the position with {@code key} (all fields present) is kept, counting it. */
  private boolean keeps(Object key) {
    if (command.consecutive()) {
      run = key.equals(previous) ? run + 1 : 1;
      previous = key;
      return run <= command.count();
    }
    long[] times = seen.get(key);
    if (times == null) {
      times = new long[1];
      seen.put(key, times);
      memory.add(keyBytes(key));
    }
    return ++times[0] <= command.count();
  }

  /**
   * The position's key: one field's one value as its text, else per field the list of its values'
   * texts; null when a field has no value.
   */
  private Object key(int position) {
    if (blocks.length == 1) {
      Block block = blocks[0];
      int values = block == null ? 0 : block.getValueCount(position);
      if (values == 0) {
        return null;
      }
      if (values == 1) {
        return block instanceof BytesBlock bytes && bytes.dictionary() != null
            ? entryText(bytes, bytes.getOrdinal(bytes.getFirstValueIndex(position)))
            : Values.toText(block.getObject(position));
      }
      return List.of(texts(block, position));
    }
    List<List<String>> key = new ArrayList<>(blocks.length);
    for (Block block : blocks) {
      if (block == null || block.getValueCount(position) == 0) {
        return null;
      }
      key.add(texts(block, position));
    }
    return key;
  }

  /** A dictionary entry's text, made once per page. */
  private String entryText(BytesBlock block, int entry) {
    String text = entryTexts[entry];
    if (text == null) {
      text = block.dictionary().getStringValue(entry);
      entryTexts[entry] = text;
    }
    return text;
  }

  private static List<String> texts(Block block, int position) {
    List<Object> values = Values.valuesOf(block, position);
    List<String> texts = new ArrayList<>(values.size());
    for (Object value : values) {
      texts.add(Values.toText(value));
    }
    return texts;
  }

  private static long keyBytes(Object key) {
    long bytes = MemoryTracker.ENTRY_BYTES;
    if (key instanceof List<?> fields) {
      for (Object field : fields) {
        for (Object value : (List<?>) field) {
          bytes += MemoryTracker.valueBytes(value);
        }
      }
    } else {
      bytes += MemoryTracker.valueBytes(key);
    }
    return bytes;
  }

  @Override
  public void finish() {
    super.finish();
    seen.clear();
    memory.release();
  }

  @Override
  public void close() {
    seen.clear();
    memory.release();
  }
}
