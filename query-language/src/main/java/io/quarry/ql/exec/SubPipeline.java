package io.quarry.ql.exec;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline of commands run over results a page operator holds ({@code appendpipe [stats count]}):
 * on the pages through {@link PageReduce}, over rows that are not events (a {@code search} of bare
 * words matches a row's {@code _raw} with the search's tokenizer, which the operator's context
 * carries, a row without one by its field values). Where the held pages do not share one schema, or
 * a command reads every field a row has ({@code format}, {@code fieldsummary}, {@code join} without
 * fields …: a page's column null at a position is no field of that row), the pages are first
 * re-paged position by position ({@link RowPaging}: {@value RowPaging#BATCH} positions a page, the
 * columns they hold values in), which the page stages' answers are exact over. The answer comes
 * back as pages whose blocks are reserved on the operator's block factory. The commands run with
 * the search's time, zone and stop signal; they read no index, lookup table or subsearch.
 */
public final class SubPipeline {
  private SubPipeline() {}

  public static List<Page> run(List<Command> commands, List<Page> input, OperatorContext context) {
    Evaluator evaluator = new Evaluator(context.now(), context.zone());
    if (context instanceof SearchResources.Context search) {
      evaluator.withResources(search.resources()).withSearchInfo(search.searchInfo());
      if (search.rawTermMatcher() != null) {
        evaluator.withRawTermMatcher(search.rawTermMatcher());
      }
    }
    boolean asTheyCame = oneSchema(input) && !ReduceCoverage.readsEveryField(commands);
    return onPages(commands, asTheyCame ? input : asRowBatches(input), context, evaluator);
  }

  /**
   * The pages' positions re-paged {@value RowPaging#BATCH} a page, each with the columns its
   * positions hold values in ({@link RowPaging#page}).
   */
  static List<Page> asRowBatches(List<Page> input) {
    List<Page> batches = new ArrayList<>();
    List<Page> pages = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (Page page : input) {
      for (int p = 0; p < page.positionCount(); p++) {
        pages.add(page);
        positions.add(p);
        if (positions.size() == RowPaging.BATCH) {
          batches.add(RowPaging.page(pages, positions));
          pages.clear();
          positions.clear();
        }
      }
    }
    if (!positions.isEmpty()) {
      batches.add(RowPaging.page(pages, positions));
    }
    return batches;
  }

  /**
   * The commands' page stages over the pages, their answer's pages reserved on the context's block
   * factory.
   */
  static List<Page> onPages(
      List<Command> commands, List<Page> input, OperatorContext context, Evaluator evaluator) {
    BlockFactory factory = context.blockFactory();
    // rows made from pages: a term asks a row's fields (FieldValueTerm), a row holding a _raw that
    // text, with the search's tokenizer (the context's); without one (a tool's, a test's) such a
    // row matches none (searchmatch, transaction's startswith too)
    if (evaluator.rawTermMatcher() == null) {
      evaluator.withRawTermMatcher((raw, term) -> false);
    }
    List<Page> pages = new ArrayList<>();
    PageReduce reduce =
        PageReduce.overResults(
            commands,
            evaluator,
            page -> {
              page.blocks().forEach(factory::reserve);
              pages.add(page);
              return true;
            },
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            RowPaging.BATCH);
    try {
      reduce.pullFrom(
          new PagesSource(
              input.iterator(),
              positions -> {
                context.checkCancelled();
                return false;
              }));
      reduce.run();
    } finally {
      reduce.close();
    }
    return pages;
  }

  /** Whether the pages all have the same columns. */
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
