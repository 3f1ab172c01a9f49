package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.OutputLookupCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code outputlookup} on pages, a stage of {@link PageReduce}: each page handed on as it came, its
 * cells kept as the table's text — a column's values at a position as {@link OutputLookupOperator}
 * writes a row's field (a multivalue joined with line breaks, {@code _time} in epoch seconds, no
 * value an empty cell) — and the table written through the search's lookup writer once the input
 * ends. The columns are in the order the row operator sees fields first: row by row, a row's fields
 * in its page's column order, so a page's new columns by the first position holding a value, then
 * by column. Exact whatever the pages' layout (a column's null is a row without the field). The
 * kept text is counted on the search's memory. A {@code head} after it does not stop its input:
 * later rows still go into the table, as on rows ({@link PageReduce}).
 */
final class OutputLookupStage implements PageChain.Stage {
  private final OutputLookupCommand command;
  private final LookupTable.Writer writer;
  private final MemoryTracker memory;
  private final List<String> header = new ArrayList<>();
  private final Map<String, Integer> columnOf = new HashMap<>();
  private final List<String[]> lines = new ArrayList<>();

  OutputLookupStage(OutputLookupCommand command, LookupTable.Writer writer, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public void add(Page page, Consumer<Page> out) {
    int columns = page.schema().size();
    int positions = page.positionCount();
    int[] firstHeld = new int[columns]; // each column's first position with a value; -1: none
    List<Integer> fresh = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      Block block = page.block(c);
      firstHeld[c] = -1;
      for (int p = 0; p < positions; p++) {
        if (!block.isNull(p)) {
          firstHeld[c] = p;
          break;
        }
      }
      if (firstHeld[c] >= 0 && !columnOf.containsKey(page.schema().column(c).name())) {
        fresh.add(c);
      }
    }
    fresh.sort((a, b) -> firstHeld[a] != firstHeld[b] ? firstHeld[a] - firstHeld[b] : a - b);
    for (int c : fresh) {
      String name = page.schema().column(c).name();
      columnOf.put(name, header.size());
      header.add(name);
    }
    int[] target = new int[columns];
    for (int c = 0; c < columns; c++) {
      Integer at = columnOf.get(page.schema().column(c).name());
      target[c] = at == null ? -1 : at;
    }
    long bytes = 0;
    for (int p = 0; p < positions; p++) {
      String[] line = new String[header.size()];
      for (int c = 0; c < columns; c++) {
        Block block = page.block(c);
        if (target[c] < 0 || block.isNull(p)) {
          continue;
        }
        String text = text(page.schema().column(c).name(), block.getValues(p));
        line[target[c]] = text;
        bytes += MemoryTracker.valueBytes(text);
      }
      lines.add(line);
      bytes += 16L + 8L * line.length;
    }
    memory.add(bytes);
    out.accept(page);
  }

  /** A field's values as the table's cell: joined with line breaks, {@code _time} in seconds. */
  private static String text(String column, List<Object> values) {
    boolean time = TimeField.is(column); // written as epoch seconds, as Splunk writes it
    List<String> texts = new ArrayList<>(values.size());
    values.forEach(v -> texts.add(time ? TimeField.secondsText(v) : Values.toText(v)));
    return String.join("\n", texts);
  }

  @Override
  public void finish(Consumer<Page> out) {
    List<List<String>> cells = new ArrayList<>(lines.size());
    for (String[] line : lines) {
      String[] full = Arrays.copyOf(line, header.size());
      for (int i = 0; i < full.length; i++) {
        if (full[i] == null) {
          full[i] = "";
        }
      }
      cells.add(Arrays.asList(full));
    }
    writer.write(command.table(), new LookupTable(List.copyOf(header), cells));
    close();
  }

  @Override
  public void close() {
    lines.clear();
    memory.release();
  }
}
