package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The last stage of an ordered page chain whose plugin commands' pages are the answer: the rows
 * paged as the row engine's collector pages the same rows after the plugin adapter made them rows
 * again — {@code pageSize} rows a page (the last one shorter), each page with the columns its rows
 * hold a value in, in the order the rows first name them (a row's fields in its page's column
 * order), each column typed over its values. A plugin operator's pages may order or type their
 * columns otherwise ({@code addcoltotals}' total row, {@code append}'s subsearch rows); the answer
 * must not depend on that. Also the stream re-paged before a plugin command that reads its input
 * page as the row adapter's batch ({@link ReduceCoverage#rebatched}, {@value PluginOperators#BATCH}
 * rows a page: the adapter's page of the same rows). Only positions are held, in the pages they
 * came in.
 */
final class RowPaging implements PageChain.Stage {
  private final int pageSize;
  private final List<Page> pages = new ArrayList<>(); // the page of each held position
  private final List<Integer> positions = new ArrayList<>();

  RowPaging(int pageSize) {
    this.pageSize = pageSize;
  }

  /**
   * {@code stage} (a plugin command's) over the stream re-paged as the row adapter batches rows for
   * it ({@value PluginOperators#BATCH} rows a page).
   */
  static PageChain.Stage before(PageChain.Stage stage) {
    RowPaging batches = new RowPaging(PluginOperators.BATCH);
    return new PageChain.Stage() {
      @Override
      public void add(Page page, Consumer<Page> out) {
        batches.add(page, p -> stage.add(p, out));
      }

      @Override
      public void finish(Consumer<Page> out) {
        batches.finish(p -> stage.add(p, out));
        stage.finish(out);
      }

      @Override
      public void close() {
        batches.close();
        stage.close();
      }
    };
  }

  @Override
  public void add(Page page, Consumer<Page> out) {
    for (int p = 0; p < page.positionCount(); p++) {
      pages.add(page);
      positions.add(p);
      if (positions.size() == pageSize) {
        handOn(out);
      }
    }
  }

  @Override
  public void finish(Consumer<Page> out) {
    if (!positions.isEmpty()) {
      handOn(out);
    }
  }

  @Override
  public void close() {
    pages.clear();
    positions.clear();
  }

  private void handOn(Consumer<Page> out) {
    Page page = page(pages, positions);
    pages.clear();
    positions.clear();
    out.accept(page);
  }

  /**
   * The positions ({@code pages.get(i)}, {@code positions.get(i)}) as one page: a column per field
   * any of them holds a value in, in first-named order, typed as {@link PageCollector} types it.
   */
  static Page page(List<Page> pages, List<Integer> positions) {
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < pages.size(); i++) {
      Page page = pages.get(i);
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
        cells.add(column < 0 ? List.of() : pages.get(i).block(column).getValues(positions.get(i)));
      }
      columns.add(cells);
    }
    return PageCollector.toPage(List.copyOf(names), columns, pages.size());
  }
}
