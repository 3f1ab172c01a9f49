package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.RenameCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code rename a AS b}: column {@code a} becomes {@code b}; where the page already has a {@code
 * b}, a position keeps its own {@code b} only when it has no {@code a} ({@code rename} renames a
 * field a row has, replacing the new name's value, and leaves a row without it alone). The pairs
 * apply in order; an old name an earlier pair renamed away ({@code a AS b, a AS c}) is read as the
 * page came: each pair reads the row the rename was given.
 */
final class RenameOperator extends PageTransformOperator {
  private final RenameCommand command;
  private final List<RenameCommand.Rename> renames;
  private final List<Pattern> patterns; // a wildcard rename's old names, else null
  private final java.util.function.UnaryOperator<String> marks; // null: none

  RenameOperator(RenameCommand command) {
    this(command, null);
  }

  RenameOperator(RenameCommand command, java.util.function.UnaryOperator<String> marks) {
    this.command = command;
    this.marks = marks;
    this.renames = command.renames();
    this.patterns =
        renames.stream()
            .map(r -> Wildcard.hasWildcard(r.from()) ? FieldStages.wildcard(r.from()) : null)
            .toList();
  }

  @Override
  protected Page process(Page page) {
    Page input = page;
    for (int i = 0; i < renames.size(); i++) {
      RenameCommand.Rename rename = renames.get(i);
      Map<String, String> moves = new java.util.LinkedHashMap<>();
      if (patterns.get(i) == null) {
        if (page.schema().indexOf(rename.from()) < 0 && input.block(rename.from()) != null) {
          // renamed away by an earlier pair: the row command reads it as the row came, and the
          // new name goes last
          page = page.withColumn(rename.from(), input.block(rename.from()));
        }
        int from = page.schema().indexOf(rename.from());
        if (from >= 0 && !rename.from().equals(rename.to())) {
          moves.put(rename.from(), rename.to());
        }
        if (marks != null) { // where the old name had a value: those positions moved
          page =
              page.withColumn(
                  marks.apply(ListingMarks.renamedPair(i, rename.to())),
                  ListingMarks.valued(from < 0 ? null : page.block(from), page.positionCount()));
        }
      } else { // every column it matches, at once, the * part carried over
        for (Schema.Column column : page.schema().columns()) {
          if (column.name().startsWith("\u0000")) {
            continue; // a hidden column (its name no search can write) is no field
          }
          java.util.regex.Matcher matcher = patterns.get(i).matcher(column.name());
          String to = matcher.matches() ? rename.to().replace("*", matcher.group(1)) : null;
          if (to != null && !to.equals(column.name())) {
            moves.put(column.name(), to);
          }
        }
      }
      if (!moves.isEmpty()) {
        page = renamed(page, moves);
      }
    }
    return EventText.ownTextAfterRename(input, page, command);
  }

  /**
   * Each moved column under its new name, in its place; a column that had a new name is replaced, a
   * position keeping its own value only where the moved column has none (and it is not moved away
   * itself): the row command moves the fields a row has.
   */
  private Page renamed(Page page, Map<String, String> moves) {
    Set<String> targets = new java.util.HashSet<>(moves.values());
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      String to = moves.get(name);
      if (to == null) {
        if (!targets.contains(name)) {
          columns.add(page.schema().column(c));
          blocks.add(page.block(c));
        }
        continue; // else replaced
      }
      Block block = page.block(c);
      int target = page.schema().indexOf(to);
      boolean keepsOwn = target >= 0 && !moves.containsKey(to);
      boolean retimed = TimeField.is(name) != TimeField.is(to); // seconds <-> microseconds
      if (keepsOwn || retimed) {
        List<List<Object>> cells = new ArrayList<>(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          if (block.isNull(p)) {
            cells.add(keepsOwn ? EvalValues.cell(page, to, p) : List.of());
            continue;
          }
          List<Object> values = EvalValues.cell(page, name, p);
          cells.add(
              !retimed
                  ? values
                  : TimeField.is(name) ? TimeField.seconds(values) : TimeField.micros(values));
        }
        block = PageBuilder.column(to, cells);
        if (TimeField.is(to) && block.dataType() != DataType.TIMESTAMP) {
          // a _time of text (a value that is no number among them) holds what Splunk shows:
          // seconds, not the microseconds of a timestamp column, whatever the page held
          cells.replaceAll(values -> TimeField.seconds(values));
          block = PageBuilder.column(to, cells);
        }
      }
      columns.add(new Schema.Column(to, block.dataType()));
      blocks.add(block);
    }
    return new Page(new Schema(columns), blocks, page.positionCount());
  }
}
