package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline of commands run over results a page operator holds ({@code appendpipe [stats count]}):
 * on the pages themselves through {@link PageReduce} when it has a stage for every command, none
 * reading every field (a page's all-null column is no field of the rows made from it), and the
 * pages share one schema (the page stages' answers are the row commands'); else the pages'
 * positions as rows, through the commands as a search builds them ({@link Pipelines}). The answer
 * comes back as pages whose blocks are reserved on the operator's block factory (rows: pages of at
 * most {@value #PAGE}). The commands run with the search's time, zone and stop signal; they read no
 * index, lookup table or subsearch.
 */
public final class SubPipeline {
  static final int PAGE = 1_024;

  private SubPipeline() {}

  public static List<Page> run(List<Command> commands, List<Page> input, OperatorContext context) {
    Evaluator evaluator = new Evaluator(context.now(), context.zone());
    boolean pages = true;
    if (context instanceof SearchResources.Context search) {
      // the search's row stages: commands run here on rows are entered (refused if strict)
      evaluator.withResources(search.resources()).withRowStages(search.rowStages());
      pages = search.rowStages().pagesAllowed(); // not under quarry.search.engine=rows
    }
    if (pages && ReduceCoverage.supportsOverReadFields(commands) && oneSchema(input)) {
      return onPages(commands, input, context, evaluator);
    }
    return onRows(commands, input, context, evaluator);
  }

  /** The commands as row operators over the pages' rows. */
  static List<Page> onRows(
      List<Command> commands, List<Page> input, OperatorContext context, Evaluator evaluator) {
    BlockFactory factory = context.blockFactory();
    List<Row> out = new ArrayList<>();
    RowSink pipeline =
        Pipelines.build(
            commands,
            new RowSink() {
              @Override
              public boolean accept(Row row) {
                out.add(row);
                return true;
              }

              @Override
              public void finish() {}
            },
            evaluator);
    boolean open = true;
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (open) {
          context.checkCancelled();
          open = pipeline.accept(row);
        }
      }
    }
    pipeline.finish();
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < out.size(); from += PAGE) {
      Page page = PageCollector.toPage(out.subList(from, Math.min(out.size(), from + PAGE)));
      page.blocks().forEach(factory::reserve);
      pages.add(page);
    }
    return pages;
  }

  /**
   * The commands' page stages over the pages, their answer's pages reserved on the context's block
   * factory.
   */
  static List<Page> onPages(
      List<Command> commands, List<Page> input, OperatorContext context, Evaluator evaluator) {
    BlockFactory factory = context.blockFactory();
    // the row path's rows are made from pages: they hold no raw text, a term matches none
    evaluator.withRawTermMatcher((raw, term) -> false);
    List<Page> pages = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            commands,
            evaluator,
            page -> {
              page.blocks().forEach(factory::reserve);
              pages.add(page);
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            PAGE);
    try {
      for (Page page : input) {
        context.checkCancelled();
        if (!reduce.add(page)) {
          break;
        }
      }
      reduce.finish();
    } finally {
      reduce.close();
    }
    return pages;
  }

  /** Whether the pages all have the same columns (as the row adapter's batches of rows would). */
  private static boolean oneSchema(List<Page> pages) {
    for (Page page : pages) {
      if (!page.schema().columns().stream()
          .map(c -> c.name())
          .toList()
          .equals(pages.get(0).schema().columns().stream().map(c -> c.name()).toList())) {
        return false;
      }
    }
    return true;
  }
}
