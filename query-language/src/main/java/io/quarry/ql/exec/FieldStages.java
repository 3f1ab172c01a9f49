package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.eval.SearchFilter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@link PageChain} stages that choose, rename or filter by fields — {@code fields}/{@code
 * table}, {@code rename} and a {@code search} after the first command (its comparisons compiled
 * once into an {@link SearchFilter} over whole pages) — where a page can hold those commands'
 * semantics exactly: which forms those are is {@link #supports}, the fields each reads {@link
 * #inputFields}; the rest have no stage here. The operators: {@link ProjectOperator}, {@link
 * RenameOperator}, a {@link PageChain.FilterOperator} over the compiled search.
 */
final class FieldStages {
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
        List<Pattern> patterns = ProjectOperator.patterns(project);
        boolean every = needed.contains("*"); // every field after it: those it keeps
        if (every
            && project.kind() != ProjectCommand.Kind.REMOVE
            && project.patterns().stream().noneMatch(Wildcard::hasWildcard)) {
          needed.remove("*");
          needed.addAll(project.patterns());
          if (project.kind() == ProjectCommand.Kind.KEEP) {
            needed.addAll(ProjectCommand.KEPT_INTERNAL);
          }
        }
        needed.removeIf(
            name -> !name.equals("*") && !ProjectOperator.keeps(project, patterns, name));
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

  /**
   * A {@code fields}/{@code table}'s operator over an event listing's pages: it keeps their hidden
   * columns too (the marks and names the listing replays, {@link ListingMarks}).
   */
  static io.quarry.plugin.api.command.Operator projectKeepingHidden(ProjectCommand command) {
    return new ProjectOperator(command, true);
  }

  /** Every page as it came. */
  private static final class PassThrough extends PageTransformOperator {
    @Override
    protected Page process(Page page) {
      return page;
    }
  }

  /** Whether {@code project} leaves a row no {@code name} field, whatever the row holds. */
  static boolean removes(ProjectCommand project, String name) {
    return !ProjectOperator.keeps(project, ProjectOperator.patterns(project), name);
  }
}
