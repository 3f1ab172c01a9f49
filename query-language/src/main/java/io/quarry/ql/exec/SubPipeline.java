package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline of commands run over results a page operator holds ({@code appendpipe [stats count]}):
 * the pages' positions as rows, through the commands as a search builds them ({@link Pipelines}),
 * the answer back as pages of at most {@value #PAGE} rows whose blocks are reserved on the
 * operator's block factory. The commands run with the search's time, zone and stop signal; they
 * read no index, lookup table or subsearch.
 */
public final class SubPipeline {
  static final int PAGE = 1_024;

  private SubPipeline() {}

  public static List<Page> run(List<Command> commands, List<Page> input, OperatorContext context) {
    Evaluator evaluator = new Evaluator(context.now(), context.zone());
    if (context instanceof SearchResources.Context search) {
      evaluator.withResources(search.resources());
    }
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
    BlockFactory factory = context.blockFactory();
    List<Page> pages = new ArrayList<>();
    for (int from = 0; from < out.size(); from += PAGE) {
      Page page = PageCollector.toPage(out.subList(from, Math.min(out.size(), from + PAGE)));
      page.blocks().forEach(factory::reserve);
      pages.add(page);
    }
    return pages;
  }
}
