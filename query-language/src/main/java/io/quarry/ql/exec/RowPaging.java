package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.WhereCommand;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The last stage of an ordered page chain whose plugin commands' pages are the answer: the rows
 * paged again, whatever pages the plugin commands made — {@code pageSize} rows a page (the last one
 * shorter), each page with the columns its rows hold a value in, in the order the rows first name
 * them (a row's fields in its page's column order), each column typed over its values. A plugin
 * operator's pages may order or type their columns otherwise ({@code addcoltotals}' total row,
 * {@code append}'s subsearch rows); the answer must not depend on that. Also the stream re-paged
 * before a plugin command that reads its input page as a batch of rows ({@link
 * ReduceCoverage#rebatched}, {@value RowPaging#BATCH} rows a page). Only positions are held, in the
 * pages they came in.
 *
 * <p>Where every row lists every column of its page ({@code listed}: after a {@code table} or
 * {@code fields} of literal names, with only commands that keep or drop rows since), a row lists
 * its null cells too: the page keeps its input's columns in their order, one that no position holds
 * a value in included (typed as {@link PageBuilder} types a column without values). A page says
 * which cells hold values, not which fields a row lists; this is where the plan says so.
 */
final class RowPaging extends QueuedPageOperator {
  /**
   * Positions a page when results are re-paged as they come: before a plugin command ({@link
   * #batches}), in a subsearch's commands ({@link SubPipeline}), and where {@code fields} with a
   * wildcard orders columns by row ({@link FieldStages}).
   */
  static final int BATCH = 1024;

  private final int pageSize;
  private final boolean listed;
  private final List<Page> pages = new ArrayList<>(); // the page of each held position
  private final List<Integer> positions = new ArrayList<>();

  RowPaging(int pageSize) {
    this(pageSize, false);
  }

  /** As above; {@code listed}: every row lists every column of its page (the class comment). */
  RowPaging(int pageSize, boolean listed) {
    this.pageSize = pageSize;
    this.listed = listed;
  }

  /**
   * The re-paging before a plugin command's operator: batches of rows ({@value RowPaging#BATCH}
   * rows a page); {@code listed}: every row lists every column of its page.
   */
  static RowPaging batches(boolean listed) {
    return new RowPaging(RowPaging.BATCH, listed);
  }

  /**
   * Per command, whether every row reaching it lists every column of its page (a {@code table}'s or
   * {@code fields}' names, null or not): after a {@code table} or {@code fields} of literal names
   * with only commands since that keep or drop rows ({@code sort}, {@code head}, {@code dedup},
   * {@code reverse}/{@code tail}, {@code where}, {@code search}). A command that sets fields ends
   * it (a row lists a field set to null nowhere), as does one making rows of its own (an
   * aggregation, a plugin command: its rows list the cells it gives values).
   */
  static boolean[] listedColumns(List<Command> commands) {
    boolean[] listed = new boolean[commands.size()];
    boolean listing = false;
    for (int at = 0; at < commands.size(); at++) {
      listed[at] = listing;
      Command command = commands.get(at);
      listing =
          switch (command) {
            case ProjectCommand project ->
                project.kind() != ProjectCommand.Kind.REMOVE
                    && project.patterns().stream().noneMatch(Wildcard::hasWildcard);
            case SortCommand sort -> listing;
            case HeadCommand head -> listing;
            case DedupCommand dedup -> listing;
            case ReorderCommand reorder -> listing;
            case WhereCommand where -> listing;
            case SearchCommand search -> listing;
            default -> false;
          };
    }
    return listed;
  }

  @Override
  protected void process(Page page) {
    for (int p = 0; p < page.positionCount(); p++) {
      pages.add(page);
      positions.add(p);
      if (positions.size() == pageSize) {
        handOn();
      }
    }
  }

  @Override
  protected void onFinish() {
    if (!positions.isEmpty()) {
      handOn();
    }
  }

  @Override
  public void close() {
    pages.clear();
    positions.clear();
  }

  private void handOn() {
    Page page = page(pages, positions, listed);
    pages.clear();
    positions.clear();
    emit(page);
  }

  /**
   * The positions ({@code pages.get(i)}, {@code positions.get(i)}) as one page: a column per field
   * any of them holds a value in, in first-named order, typed as {@link PageBuilder} types it.
   */
  static Page page(List<Page> pages, List<Integer> positions) {
    return page(pages, positions, false);
  }

  /**
   * As above; {@code listed}: every row lists every column of its page, so the page has every
   * column of the positions' pages, in first-named order, held values or not.
   */
  static Page page(List<Page> pages, List<Integer> positions, boolean listed) {
    Set<String> names = new LinkedHashSet<>();
    Page named = null; // the last page whose columns were all named
    for (int i = 0; i < pages.size(); i++) {
      Page page = pages.get(i);
      if (listed) {
        if (page != named) {
          page.schema().columns().forEach(column -> names.add(column.name()));
          named = page;
        }
        continue;
      }
      for (int c = 0; c < page.schema().size(); c++) {
        if (!page.block(c).isNull(positions.get(i))) {
          names.add(page.schema().column(c).name());
        }
      }
    }
    List<List<List<Object>>> columns = new ArrayList<>(names.size());
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(pages.size());
      for (int i = 0; i < pages.size(); i++) {
        int column = pages.get(i).schema().indexOf(name);
        cells.add(
            column < 0 ? List.of() : Values.valuesOf(pages.get(i).block(column), positions.get(i)));
      }
      columns.add(cells);
    }
    return PageBuilder.toPage(List.copyOf(names), columns, pages.size());
  }
}
