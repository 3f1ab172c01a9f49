package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.ProjectCommand;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code fields}/{@code table}: the columns that survive, in this order (on the reduce side they
 * are the answer's columns): {@code fields -} keeps the page's order; {@code table} and {@code
 * fields} list the named fields in the given order — a literal name is a column even where the page
 * lacks it (all null), a wildcard the page's matching columns — and {@code fields} then {@code
 * _time} and {@code _raw} where the page has them.
 */
final class ProjectOperator extends QueuedPageOperator {
  private static final Set<String> INTERNAL = Set.copyOf(ProjectCommand.KEPT_INTERNAL);

  /** The patterns of {@code project}'s field names. */
  static List<Pattern> patterns(ProjectCommand project) {
    return project.patterns().stream().map(ProjectOperator::fieldPattern).toList();
  }

  /** A field-name pattern: case-sensitive, as field names are; {@code *} matches any run. */
  static Pattern fieldPattern(String pattern) {
    return Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"));
  }

  /**
   * Whether a column survives {@code fields}/{@code table}: {@code fields -} removes the matching
   * ones, {@code table} keeps only them, {@code fields} keeps them and the internal fields.
   */
  static boolean keeps(ProjectCommand project, List<Pattern> patterns, String name) {
    boolean matches = patterns.stream().anyMatch(p -> p.matcher(name).matches());
    return switch (project.kind()) {
      case REMOVE -> !matches;
      case TABLE -> matches;
      case KEEP -> matches || INTERNAL.contains(name);
    };
  }

  private final ProjectCommand command;
  private final List<Pattern> patterns;
  private final boolean keepsRaw; // the command keeps _raw: the events' own text goes with it
  private final boolean wildcards;
  private final boolean keepsHidden;
  private long rows; // rows handed on so far, where a wildcard orders the columns by row
  // the columns the rows of the collector's current page named so far, in that order
  private final Set<String> named = new LinkedHashSet<>();

  ProjectOperator(ProjectCommand command) {
    this(command, false);
  }

  /**
   * @param keepsHidden whether {@code fields}/{@code table} also keep the page's hidden columns
   *     (each named with a NUL, after the others): a stage of an event listing's commands, whose
   *     listing reads the marks and names the stages before it left ({@link ListingMarks})
   */
  ProjectOperator(ProjectCommand command, boolean keepsHidden) {
    this.command = command;
    this.keepsHidden = keepsHidden;
    this.patterns = patterns(command);
    this.keepsRaw = keeps(command, patterns, "_raw");
    this.wildcards =
        command.kind() != ProjectCommand.Kind.REMOVE
            && command.patterns().stream().anyMatch(Wildcard::hasWildcard);
  }

  /**
   * Where a wildcard orders the columns by the rows that first name them, the page is cut where the
   * collector cuts the answer ({@value RowPaging#BATCH} rows a page, counted from this stage's
   * first row), and the pieces of one such page share its order: the row command's rows go to the
   * collector one by one, which names a page's columns by that page's rows alone, in the order they
   * first name them — so a row lists its fields in the order the rows of its collector page before
   * it named them, whatever pages it came in (an input page of more rows, as {@code mvexpand}
   * makes, would otherwise order them by rows of the previous one).
   */
  @Override
  protected void process(Page page) {
    if (!wildcards || page.positionCount() == 0) {
      project(page);
      return;
    }
    int from = 0;
    while (from < page.positionCount()) {
      if (rows % RowPaging.BATCH == 0) {
        named.clear(); // a new page of the collector's
      }
      int room = (int) (RowPaging.BATCH - rows % RowPaging.BATCH);
      int to = Math.min(page.positionCount(), from + room);
      Page part = page;
      if (from > 0 || to < page.positionCount()) {
        int[] positions = new int[to - from];
        for (int p = from; p < to; p++) {
          positions[p - from] = p;
        }
        part = io.quarry.ql.engine.BlockCopies.filter(page, positions, positions.length);
      }
      project(part);
      rows += to - from;
      from = to;
    }
  }

  private void project(Page page) {
    Schema schema = page.schema();
    Set<String> names = new LinkedHashSet<>();
    if (command.kind() == ProjectCommand.Kind.REMOVE) {
      for (Schema.Column column : schema.columns()) {
        if (keeps(command, patterns, column.name())) {
          names.add(column.name());
        }
      }
    } else {
      // each row's own fields, as the row command lists them (a wildcard matches the fields a
      // row holds a value in), in the order the rows first name them: the collector's columns
      boolean[][] matches = new boolean[patterns.size()][]; // null for a literal name
      boolean wildcards = false;
      for (int i = 0; i < patterns.size(); i++) {
        if (Wildcard.hasWildcard(command.patterns().get(i))) {
          wildcards = true;
          matches[i] = new boolean[schema.size()];
          for (int c = 0; c < schema.size(); c++) {
            matches[i][c] = patterns.get(i).matcher(schema.column(c).name()).matches();
          }
        }
      }
      if (wildcards) {
        names.addAll(named); // as the rows of this piece's collector page named them before it
      }
      int positions = wildcards ? page.positionCount() : 0;
      for (int p = 0; p < positions; p++) {
        for (int i = 0; i < patterns.size(); i++) {
          if (matches[i] == null) {
            names.add(command.patterns().get(i));
            continue;
          }
          for (int c = 0; c < schema.size(); c++) {
            if (matches[i][c] && !page.block(c).isNull(p)) {
              names.add(schema.column(c).name());
            }
          }
        }
      }
      for (int i = 0; i < patterns.size(); i++) { // literal names, rows or not
        if (matches[i] == null) {
          names.add(command.patterns().get(i));
        }
      }
      if (command.kind() == ProjectCommand.Kind.KEEP) {
        ProjectCommand.KEPT_INTERNAL.stream()
            .filter(name -> schema.indexOf(name) >= 0)
            .forEach(names::add);
      }
      if (wildcards) {
        named.addAll(names);
      }
      if (keepsHidden) {
        schema.columns().stream()
            .map(Schema.Column::name)
            .filter(name -> name.startsWith("\u0000"))
            .forEach(names::add);
      }
    }
    List<Schema.Column> columns = new ArrayList<>(names.size());
    List<Block> blocks = new ArrayList<>(names.size());
    for (String name : names) {
      int c = schema.indexOf(name);
      if (c >= 0) {
        columns.add(schema.column(c));
        blocks.add(page.block(c));
      } else {
        Block nulls = PageBuilder.column(name, nullCells(page.positionCount()));
        columns.add(new Schema.Column(name, nulls.dataType()));
        blocks.add(nulls);
      }
    }
    emit(
        EventText.ownTextAfterProjection(
            page, new Page(new Schema(columns), blocks, page.positionCount()), keepsRaw));
  }

  private static List<List<Object>> nullCells(int positions) {
    List<List<Object>> cells = new ArrayList<>(positions);
    for (int p = 0; p < positions; p++) {
      cells.add(List.of());
    }
    return cells;
  }
}
