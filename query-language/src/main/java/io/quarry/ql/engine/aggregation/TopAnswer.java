package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.TimeField;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * One page of {@link TopAggregation}'s answer, column by column: the by-fields, the fields, then
 * the count and the percentage when shown. A name given twice ({@code top status by status}, a
 * {@code countfield} named as a field) is one column, in its first place, holding the value set
 * last.
 */
final class TopAnswer {
  private final TopCommand command;
  private final List<String> names = new ArrayList<>();
  private final List<List<List<Object>>> columns = new ArrayList<>();
  private final int[] slots; // per by-field, field, count, percentage: its column
  private int positions;

  TopAnswer(TopCommand command) {
    this.command = command;
    List<String> written = new ArrayList<>(command.by());
    written.addAll(command.fields());
    written.add(command.showCount() ? command.countField() : null);
    written.add(command.showPercent() ? command.percentField() : null);
    slots = new int[written.size()];
    for (int i = 0; i < slots.length; i++) {
      String name = written.get(i);
      if (name == null) {
        slots[i] = -1;
        continue;
      }
      int column = names.indexOf(name);
      if (column < 0) {
        column = names.size();
        names.add(name);
        columns.add(new ArrayList<>());
      }
      slots[i] = column;
    }
  }

  /** One combination of a by-group, with its count and the group's total. */
  void add(List<String> byKey, List<String> valueKey, long count, long total) {
    Object[] cells = new Object[names.size()];
    for (int i = 0; i < byKey.size(); i++) {
      String field = command.by().get(i);
      cells[slots[i]] = TimeField.groupValue(field, byKey.get(i));
    }
    for (int i = 0; i < valueKey.size(); i++) {
      String field = command.fields().get(i);
      cells[slots[command.by().size() + i]] = TimeField.groupValue(field, valueKey.get(i));
    }
    int countSlot = slots[slots.length - 2];
    if (countSlot >= 0) {
      cells[countSlot] = count;
    }
    int percentSlot = slots[slots.length - 1];
    if (percentSlot >= 0) {
      cells[percentSlot] =
          BigDecimal.valueOf(count * 100.0 / total).setScale(6, RoundingMode.HALF_UP).doubleValue();
    }
    for (int c = 0; c < cells.length; c++) {
      columns.get(c).add(cells[c] == null ? List.of() : List.of(cells[c]));
    }
    positions++;
  }

  int positions() {
    return positions;
  }

  Page page() {
    return PageBuilder.toPage(names, columns, positions);
  }
}
