package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.eval.SearchFilter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The {@link PageChain} stages that choose, rename or filter by fields — {@code fields}/{@code
 * table}, {@code rename} and a {@code search} after the first command (its comparisons compiled
 * once into an {@link SearchFilter} over whole pages) — with the row commands' semantics ({@link
 * ProjectOperator}, {@link RenameOperator}, {@link FilterOperator}) where a page can hold them
 * exactly: which forms those are is {@link #supports}; the rest run on rows.
 */
final class FieldStages {
  private static final List<String> INTERNAL_ORDER = List.of("_time", "_raw");
  private static final Set<String> INTERNAL = Set.copyOf(INTERNAL_ORDER);

  private FieldStages() {}

  /**
   * Whether a page stage answers exactly as the row command: every {@code fields}/{@code table}; a
   * {@code rename} of literal names other than {@code _time} (a wildcard renames the fields an
   * event turns out to have, and {@code _time} changes unit when renamed); a {@code search} of
   * field comparisons (a bare term searches the event's text).
   */
  static boolean supports(io.quarry.ql.ast.Command command) {
    return switch (command) {
      case ProjectCommand project -> true;
      case RenameCommand rename ->
          rename.renames().stream()
              .allMatch(
                  r ->
                      !Wildcard.hasWildcard(r.from())
                          && !Wildcard.hasWildcard(r.to())
                          && !TimeField.is(r.from())
                          && !TimeField.is(r.to()));
      case SearchCommand search -> search.expression().map(FieldStages::comparesOnly).orElse(true);
      default -> false;
    };
  }

  private static boolean comparesOnly(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Comparison c -> !Wildcard.hasWildcard(c.field());
      case SearchExpression.In in -> !Wildcard.hasWildcard(in.field());
      case SearchExpression.And and -> and.operands().stream().allMatch(FieldStages::comparesOnly);
      case SearchExpression.Or or -> or.operands().stream().allMatch(FieldStages::comparesOnly);
      case SearchExpression.Not not -> comparesOnly(not.operand());
      case SearchExpression.Term term -> false;
      case SearchExpression.SubsearchTerm sub -> false;
    };
  }

  /** The fields {@code command}'s input must carry for its output to carry {@code needed}. */
  static void inputFields(io.quarry.ql.ast.Command command, Set<String> needed) {
    switch (command) {
      case ProjectCommand project -> {
        List<Pattern> patterns = patterns(project);
        needed.removeIf(name -> !kept(project, patterns, name));
      }
      case RenameCommand rename -> {
        List<RenameCommand.Rename> renames = rename.renames();
        for (int i = renames.size() - 1; i >= 0; i--) {
          RenameCommand.Rename r = renames.get(i);
          if (r.from().equals(r.to())) {
            continue;
          }
          boolean toNeeded = needed.contains(r.to());
          needed.remove(r.from()); // renamed away: no value under the old name after it
          if (toNeeded) {
            needed.add(r.from()); // the new name takes the old one's value where it has one
          }
        }
      }
      case SearchCommand search -> search.expression().ifPresent(e -> fields(e, needed));
      default -> throw new IllegalArgumentException(command.name() + " has no field stage");
    }
  }

  private static void fields(SearchExpression expression, Set<String> into) {
    switch (expression) {
      case SearchExpression.Comparison c -> into.add(c.field());
      case SearchExpression.In in -> into.add(in.field());
      case SearchExpression.And and -> and.operands().forEach(o -> fields(o, into));
      case SearchExpression.Or or -> or.operands().forEach(o -> fields(o, into));
      case SearchExpression.Not not -> fields(not.operand(), into);
      case SearchExpression.Term term -> {}
      case SearchExpression.SubsearchTerm sub -> {}
    }
  }

  /** The stage of a command {@link #supports} answers true for. */
  static PageChain.Stage stage(io.quarry.ql.ast.Command command) {
    return switch (command) {
      case ProjectCommand project -> new ProjectStage(project);
      case RenameCommand rename -> new RenameStage(rename);
      case SearchCommand search -> {
        if (search.expression().isEmpty()) {
          yield (page, out) -> out.accept(page);
        }
        SearchFilter filter = SearchFilter.compile(search.expression().get());
        yield new PageChain.FilterStage(filter::select);
      }
      default -> throw new IllegalArgumentException(command.name() + " has no field stage");
    };
  }

  private static List<Pattern> patterns(ProjectCommand project) {
    return project.patterns().stream().map(ProjectOperator::fieldPattern).toList();
  }

  /** Whether a column survives {@code fields}/{@code table}, as {@link ProjectOperator} decides. */
  private static boolean kept(ProjectCommand project, List<Pattern> patterns, String name) {
    boolean matches = patterns.stream().anyMatch(p -> p.matcher(name).matches());
    return switch (project.kind()) {
      case REMOVE -> !matches;
      case TABLE -> matches;
      case KEEP -> matches || INTERNAL.contains(name);
    };
  }

  /**
   * {@code fields}/{@code table}: the columns that survive, in {@link ProjectOperator}'s order (on
   * the reduce side they are the answer's columns): {@code fields -} keeps the page's order; {@code
   * table} and {@code fields} list the named fields in the given order — a literal name is a column
   * even where the page lacks it (all null), a wildcard the page's matching columns — and {@code
   * fields} then {@code _time} and {@code _raw} where the page has them.
   */
  private static final class ProjectStage implements PageChain.Stage {
    private final ProjectCommand command;
    private final List<Pattern> patterns;

    ProjectStage(ProjectCommand command) {
      this.command = command;
      this.patterns = patterns(command);
    }

    @Override
    public void add(Page page, Consumer<Page> out) {
      Schema schema = page.schema();
      Set<String> names = new LinkedHashSet<>();
      if (command.kind() == ProjectCommand.Kind.REMOVE) {
        for (Schema.Column column : schema.columns()) {
          if (kept(command, patterns, column.name())) {
            names.add(column.name());
          }
        }
      } else {
        for (int i = 0; i < patterns.size(); i++) {
          String pattern = command.patterns().get(i);
          if (!Wildcard.hasWildcard(pattern)) {
            names.add(pattern);
            continue;
          }
          for (Schema.Column column : schema.columns()) {
            if (patterns.get(i).matcher(column.name()).matches()) {
              names.add(column.name());
            }
          }
        }
        if (command.kind() == ProjectCommand.Kind.KEEP) {
          INTERNAL_ORDER.stream().filter(name -> schema.indexOf(name) >= 0).forEach(names::add);
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
          Block nulls = PageCollector.column(name, nullCells(page.positionCount()));
          columns.add(new Schema.Column(name, nulls.dataType()));
          blocks.add(nulls);
        }
      }
      out.accept(new Page(new Schema(columns), blocks, page.positionCount()));
    }

    private static List<List<Object>> nullCells(int positions) {
      List<List<Object>> cells = new ArrayList<>(positions);
      for (int p = 0; p < positions; p++) {
        cells.add(List.of());
      }
      return cells;
    }
  }

  /**
   * {@code rename a AS b}: column {@code a} becomes {@code b}; where the page already has a {@code
   * b}, a position keeps its own {@code b} only when it has no {@code a} (the row command renames a
   * field a row has, replacing the new name's value, and leaves a row without it alone).
   */
  private static final class RenameStage implements PageChain.Stage {
    private final List<RenameCommand.Rename> renames;
    private final PageRow row = new PageRow(Map.of());

    RenameStage(RenameCommand command) {
      this.renames = command.renames();
    }

    @Override
    public void add(Page page, Consumer<Page> out) {
      for (RenameCommand.Rename rename : renames) {
        page = renamed(page, rename.from(), rename.to());
      }
      out.accept(page);
    }

    private Page renamed(Page page, String from, String to) {
      int source = page.schema().indexOf(from);
      if (source < 0 || from.equals(to)) {
        return page;
      }
      Block block = page.block(source);
      int target = page.schema().indexOf(to);
      if (target >= 0) {
        List<List<Object>> cells = new ArrayList<>(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          cells.add(block.isNull(p) ? row.at(page, p).values(to) : row.at(page, p).values(from));
        }
        block = PageCollector.toPage(List.of(to), List.of(cells), page.positionCount()).block(0);
      }
      List<Schema.Column> columns = new ArrayList<>();
      List<Block> blocks = new ArrayList<>();
      for (int c = 0; c < page.schema().size(); c++) {
        if (c == target) {
          continue; // replaced
        }
        if (c == source) {
          columns.add(new Schema.Column(to, block.dataType()));
          blocks.add(block);
        } else {
          columns.add(page.schema().column(c));
          blocks.add(page.block(c));
        }
      }
      return new Page(new Schema(columns), blocks, page.positionCount());
    }
  }
}
