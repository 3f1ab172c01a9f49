package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
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
import java.util.regex.Pattern;

/**
 * The {@link PageChain} stages that choose, rename or filter by fields — {@code fields}/{@code
 * table}, {@code rename} and a {@code search} after the first command (its comparisons compiled
 * once into an {@link SearchFilter} over whole pages) — where a page can hold those commands'
 * semantics exactly: which forms those are is {@link #supports}; the rest have no stage here.
 */
final class FieldStages {
  private static final List<String> INTERNAL_ORDER = List.of("_time", "_raw");
  private static final Set<String> INTERNAL = Set.copyOf(INTERNAL_ORDER);

  private FieldStages() {}

  /**
   * Whether a page stage answers exactly as the command: every {@code fields}/{@code table}; a
   * {@code rename} of literal names, or of one {@code *} in both names (the columns it matches: the
   * source loads what {@link #inputFields} names) — {@code _time} renamed becomes epoch seconds, a
   * field renamed to {@code _time} microseconds (a {@code _time} column of text, a value no number
   * among them, keeps seconds; {@code rename * AS f_*} gives {@code f__time} in seconds and no
   * {@code _time}); a {@code search} of field comparisons (a bare term searches the event's text),
   * a field named with a wildcard among them ({@link #comparesOnly}).
   */
  static boolean supports(io.quarry.ql.ast.Command command) {
    return switch (command) {
      case ProjectCommand project -> true;
      case RenameCommand rename ->
          rename.renames().stream()
              .allMatch(
                  r ->
                      stars(r.from()) == 0 && stars(r.to()) == 0
                          || stars(r.from()) == 1 && stars(r.to()) == 1);
      case SearchCommand search -> search.expression().map(FieldStages::comparesOnly).orElse(true);
      default -> false;
    };
  }

  private static int stars(String name) {
    return (int) name.chars().filter(c -> c == '*').count();
  }

  /** A rename's name with one {@code *} as a regex, the {@code *} part its group 1. */
  static Pattern wildcard(String name) {
    return Pattern.compile(Pattern.quote(name).replace("*", "\\E(.*)\\Q"));
  }

  /**
   * Whether a search expression is field comparisons only (no bare words). A field named with a
   * wildcard ({@code u*=1}) is compared as that name, as {@link SearchValues} compares a field of
   * that name (only a field named so, a JSON key, holds a value), on pages the column of that name.
   */
  static boolean comparesOnly(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Comparison c -> true;
      case SearchExpression.In in -> true;
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
        boolean every = needed.contains("*"); // every field after it: those it keeps
        if (every
            && project.kind() != ProjectCommand.Kind.REMOVE
            && project.patterns().stream().noneMatch(Wildcard::hasWildcard)) {
          needed.remove("*");
          needed.addAll(project.patterns());
          if (project.kind() == ProjectCommand.Kind.KEEP) {
            needed.addAll(INTERNAL_ORDER);
          }
        }
        needed.removeIf(name -> !name.equals("*") && !kept(project, patterns, name));
      }
      case RenameCommand rename -> {
        List<RenameCommand.Rename> renames = rename.renames();
        for (int i = renames.size() - 1; i >= 0; i--) {
          RenameCommand.Rename r = renames.get(i);
          if (r.from().equals(r.to())) {
            continue;
          }
          if (Wildcard.hasWildcard(r.from())) {
            // a needed new name is the value of the old name it came from where that one had one,
            // else its own; names the old pattern matches are renamed away
            Pattern to = wildcard(r.to());
            Pattern from = wildcard(r.from());
            Set<String> sources = new LinkedHashSet<>();
            for (String name : needed) {
              java.util.regex.Matcher matcher = to.matcher(name);
              if (matcher.matches()) {
                sources.add(r.from().replace("*", matcher.group(1)));
              }
            }
            needed.removeIf(name -> from.matcher(name).matches());
            needed.addAll(sources);
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

  static void fields(SearchExpression expression, Set<String> into) {
    switch (expression) {
      case SearchExpression.Comparison c -> into.add(c.field());
      case SearchExpression.In in -> into.add(in.field());
      case SearchExpression.And and -> and.operands().forEach(o -> fields(o, into));
      case SearchExpression.Or or -> or.operands().forEach(o -> fields(o, into));
      case SearchExpression.Not not -> fields(not.operand(), into);
      case SearchExpression.Term term -> into.add("_raw"); // searched in the raw text
      case SearchExpression.SubsearchTerm sub -> {}
    }
  }

  /**
   * The operator of a command {@link #supports} answers true for, or of a {@code search} whose bare
   * words {@code rawTerms} matches in the page's {@code _raw} ({@link EventText}).
   */
  static io.quarry.plugin.api.command.Operator operator(
      io.quarry.ql.ast.Command command, RawTermMatcher rawTerms) {
    return switch (command) {
      case ProjectCommand project -> new ProjectOperator(project);
      case RenameCommand rename -> new RenameOperator(rename);
      case SearchCommand search -> {
        if (search.expression().isEmpty()) {
          yield new PassThrough(); // a search without terms keeps every row
        }
        SearchFilter filter = SearchFilter.compile(search.expression().get(), rawTerms);
        yield new PageChain.FilterOperator(filter::select);
      }
      default -> throw new IllegalArgumentException(command.name() + " has no field stage");
    };
  }

  /**
   * A {@code rename}'s operator that also marks, for each literal {@code a AS b} (its {@code i}-th
   * pair), the positions where {@code a} had a value (and so moved to {@code b}) true in the
   * boolean column {@code marks.apply(ListingMarks.renamedPair(i, b))}.
   */
  static io.quarry.plugin.api.command.Operator renameOperator(
      RenameCommand command, java.util.function.UnaryOperator<String> marks) {
    return new RenameOperator(command, marks);
  }

  /** Every page as it came. */
  private static final class PassThrough extends PageTransformOperator {
    @Override
    protected Page process(Page page) {
      return page;
    }
  }

  private static List<Pattern> patterns(ProjectCommand project) {
    return project.patterns().stream().map(FieldStages::fieldPattern).toList();
  }

  /** A field-name pattern: case-sensitive, as field names are; {@code *} matches any run. */
  static Pattern fieldPattern(String pattern) {
    return Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"));
  }

  /** Whether {@code project} leaves a row no {@code name} field, whatever the row holds. */
  static boolean removes(ProjectCommand project, String name) {
    return !kept(project, patterns(project), name);
  }

  /**
   * Whether a column survives {@code fields}/{@code table}: {@code fields -} removes the matching
   * ones, {@code table} keeps only them, {@code fields} keeps them and the internal fields.
   */
  private static boolean kept(ProjectCommand project, List<Pattern> patterns, String name) {
    boolean matches = patterns.stream().anyMatch(p -> p.matcher(name).matches());
    return switch (project.kind()) {
      case REMOVE -> !matches;
      case TABLE -> matches;
      case KEEP -> matches || INTERNAL.contains(name);
    };
  }

  /**
   * {@code fields}/{@code table}: the columns that survive, in this order (on the reduce side they
   * are the answer's columns): {@code fields -} keeps the page's order; {@code table} and {@code
   * fields} list the named fields in the given order — a literal name is a column even where the
   * page lacks it (all null), a wildcard the page's matching columns — and {@code fields} then
   * {@code _time} and {@code _raw} where the page has them.
   */
  private static final class ProjectOperator extends QueuedPageOperator {
    private final ProjectCommand command;
    private final List<Pattern> patterns;
    private final boolean wildcards;
    private long rows; // rows handed on so far, where a wildcard orders the columns by row
    // the columns the rows of the collector's current page named so far, in that order
    private final Set<String> named = new LinkedHashSet<>();

    ProjectOperator(ProjectCommand command) {
      this.command = command;
      this.patterns = patterns(command);
      this.wildcards =
          command.kind() != ProjectCommand.Kind.REMOVE
              && command.patterns().stream().anyMatch(Wildcard::hasWildcard);
    }

    /**
     * Where a wildcard orders the columns by the rows that first name them, the page is cut where
     * the collector cuts the answer ({@value RowPaging#BATCH} rows a page, counted from this
     * stage's first row), and the pieces of one such page share its order: the row command's rows
     * go to the collector one by one, which names a page's columns by that page's rows alone, in
     * the order they first name them — so a row lists its fields in the order the rows of its
     * collector page before it named them, whatever pages it came in (an input page of more rows,
     * as {@code mvexpand} makes, would otherwise order them by rows of the previous one).
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
          if (kept(command, patterns, column.name())) {
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
          INTERNAL_ORDER.stream().filter(name -> schema.indexOf(name) >= 0).forEach(names::add);
        }
        if (wildcards) {
          named.addAll(names);
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
      emit(new Page(new Schema(columns), blocks, page.positionCount()));
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
   * b}, a position keeps its own {@code b} only when it has no {@code a} ({@code rename} renames a
   * field a row has, replacing the new name's value, and leaves a row without it alone). The pairs
   * apply in order; an old name an earlier pair renamed away ({@code a AS b, a AS c}) is read as
   * the page came: each pair reads the row the rename was given.
   */
  private static final class RenameOperator extends PageTransformOperator {
    private final List<RenameCommand.Rename> renames;
    private final List<Pattern> patterns; // a wildcard rename's old names, else null
    private final java.util.function.UnaryOperator<String> marks; // null: none

    RenameOperator(RenameCommand command) {
      this(command, null);
    }

    RenameOperator(RenameCommand command, java.util.function.UnaryOperator<String> marks) {
      this.marks = marks;
      this.renames = command.renames();
      this.patterns =
          renames.stream()
              .map(r -> Wildcard.hasWildcard(r.from()) ? wildcard(r.from()) : null)
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
      return page;
    }

    /**
     * Each moved column under its new name, in its place; a column that had a new name is replaced,
     * a position keeping its own value only where the moved column has none (and it is not moved
     * away itself): the row command moves the fields a row has.
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
}
